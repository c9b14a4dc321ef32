import MagmaMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@JSONModel(tagging:)` on an enum: a draft per case with values, the cases as a cluster; and
/// each misuse reported where it is written, the case left out.
extension JSONModelMacroTests {
    @Test func taggedEnum_writesADraftPerCase_andItsCases() {
        expand(
            """
            @JSONModel(keyNaming: .snakeCase, tagging: .internal(key: "type"))
            public enum Shape {
                case circle(radius: Double)
                @Key("rect") case rectangle(width: Double, height: Double = 1, note: String?)
                case place(Place)
                @Fallback case unknown
            }
            """,
            """
            public enum Shape {
                case circle(radius: Double)
                case rectangle(width: Double, height: Double = 1, note: String?)
                case place(Place)
                case unknown

                public enum JSONDraft {
                    public struct circle: Magma.JSONModel {
                        var radius: Double?
                        public init() {}
                        public static let jsonMapping = Magma.JSONMapping<circle>(keyNaming: .snakeCase) {
                            Magma.Map(nonOptional: \\circle.radius).named("radius", in: "Shape.circle")
                        }
                    }
                    public struct rectangle: Magma.JSONModel {
                        var width: Double?
                        var height: Double?
                        var note: String?
                        public init() {}
                        public static let jsonMapping = Magma.JSONMapping<rectangle>(keyNaming: .snakeCase) {
                            Magma.Map(nonOptional: \\rectangle.width).named("width", in: "Shape.rectangle")
                            Magma.Map(\\rectangle.height).named("height", in: "Shape.rectangle")
                            Magma.Map(\\rectangle.note).named("note", in: "Shape.rectangle")
                        }
                    }
                    public struct place: Magma.JSONModel {
                        var _0 = Magma.FlattenedModel.emptyDraft(of: Place.self)
                        public init() {}
                        public static let jsonMapping = Magma.JSONMapping<place>(keyNaming: .snakeCase) {
                            Magma.Map.flattening(\\place._0, as: "Shape.place._0")
                        }
                    }
                }
            }

            extension Shape: Magma.JSONTaggedEnum {
                public static let jsonCases = Magma.JSONCluster<Shape>(tagging: .internal(key: "type"), keyNaming: .snakeCase) {
                    Magma.ClusterCase("circle", JSONDraft.circle.self, make: { draft in
                        guard let _0 = draft.radius else { throw Self.missingDraftValue("Shape.circle.radius") }
                        return .circle(radius: _0)
                    }, unmake: { value in
                        guard case .circle(let _0) = value else { return nil }
                        var draft = JSONDraft.circle()
                        draft.radius = _0
                        return draft
                    })
                    Magma.ClusterCase("rectangle", key: "rect", JSONDraft.rectangle.self, make: { draft in
                        guard let _0 = draft.width else { throw Self.missingDraftValue("Shape.rectangle.width") }
                        let _1 = draft.height ?? 1
                        let _2 = draft.note
                        return .rectangle(width: _0, height: _1, note: _2)
                    }, unmake: { value in
                        guard case .rectangle(let _0, let _1, let _2) = value else { return nil }
                        var draft = JSONDraft.rectangle()
                        draft.width = _0
                        draft.height = _1
                        draft.note = _2
                        return draft
                    })
                    Magma.ClusterCase("place", JSONDraft.place.self, make: { draft in
                        let _0 = try Magma.FlattenedModel.model(Place.self, from: draft._0)
                        return .place(_0)
                    }, unmake: { value in
                        guard case .place(let _0) = value else { return nil }
                        var draft = JSONDraft.place()
                        draft._0 = Magma.FlattenedModel.draft(of: _0)
                        return draft
                    })
                    Magma.ClusterCase("unknown", Magma.CaseWithoutValues.self, fallback: true, make: { _ in
                        return .unknown
                    }, unmake: { value in
                        guard case .unknown = value else { return nil }
                        return Magma.CaseWithoutValues()
                    })
                }
            }
            """)
    }

    /// An enum's problems: nothing is written for the cases at fault.
    func expandEnumProblem(_ cases: String, _ diagnostics: [DiagnosticSpec], tagging: String = "tagging: .external",
                           applyFixIts: [String]? = nil, fixedSource: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let written = tagging.isEmpty ? "" : "(\(tagging))"
        expand("@JSONModel\(written)\nenum E {\n    \(cases)\n}",
               "enum E {\n    \(Self.stripped(cases))\n\n    enum JSONDraft {\n    }\n}\n\nextension E: Magma.JSONTaggedEnum {\n    static let jsonCases = Magma.JSONCluster<E>(tagging: \(tagging.dropFirst(9))) {\n    }\n}",
               diagnostics: diagnostics, applyFixIts: applyFixIts, fixedSource: fixedSource, sourceLocation: sourceLocation)
    }

    @Test func taggedEnum_caseProblems_areReportedWhereWritten() {
        expandEnumProblem("case a(Int, String)", [DiagnosticSpec(
            message: "label the associated values of 'a': a case's values are read from the keys their labels give (one unlabelled value is a model whose keys are the case's)",
            line: 3, column: 12)])
        expandEnumProblem("case a(Place?)", [DiagnosticSpec(
            message: "the value of 'a' is a model flattened into the case's object, which cannot be optional: label it to read it from a key",
            line: 3, column: 12)])
        expandEnumProblem("case a(f: () -> Int)", [DiagnosticSpec(
            message: "'f' has no JSON form ('() -> Int' is a function type): give it a @Transform that converts it, or mark it @Ignore",
            line: 3, column: 15)])
        expandEnumProblem(#"@Key("x") case a, b"#, [DiagnosticSpec(message: "@Key applies to one case: declare the case on its own line", line: 3, column: 5)])
        expandEnumProblem(#"@Key("x", "y") case a"#, [DiagnosticSpec(message: #"@Key on a case names its one tag, such as @Key("rect")"#, line: 3, column: 5)])
        expandEnumProblem("case a(type: String)", [DiagnosticSpec(
            message: #"'type' would be read from "type", the key that holds the case's tag: rename it"#, line: 3, column: 12)],
                          tagging: #"tagging: .internal(key: "type")"#)
    }

    /// The second case is left out; the first is expanded as usual.
    @Test func taggedEnum_twoCasesWithOneTag_orOneName_areErrorsAtTheSecond() {
        func expanded(_ cases: String, _ first: String) -> String {
            """
            enum E {
            \(cases)

                enum JSONDraft {
                }
            }

            extension E: Magma.JSONTaggedEnum {
                static let jsonCases = Magma.JSONCluster<E>(tagging: .external) {
                    Magma.ClusterCase("\(first)", Magma.CaseWithoutValues.self, make: { _ in
                        return .\(first)
                    }, unmake: { value in
                        guard case .\(first) = value else { return nil }
                        return Magma.CaseWithoutValues()
                    })
                }
            }
            """
        }
        expand("@JSONModel(tagging: .external)\nenum E {\n    case circle\n    @Key(\"circle\") case round\n}",
               expanded("    case circle\n    case round", "circle"), diagnostics: [
            DiagnosticSpec(message: #"'round' is tagged "circle", as 'circle' is: give one of them another @Key"#, line: 4, column: 25),
        ])
        expand("@JSONModel(tagging: .external)\nenum E {\n    case a\n    case a\n}", expanded("    case a\n    case a", "a"), diagnostics: [
            DiagnosticSpec(message: "two cases are named 'a'; a tag picks one case: rename one of them", line: 4, column: 10),
        ])
    }

    @Test func taggedEnum_aSecondFallback_orATransform_isRemovable() {
        expand("@JSONModel(tagging: .external)\nenum E {\n    @Fallback case a\n    @Fallback case b\n}", """
            enum E {
                case a
                case b

                enum JSONDraft {
                }
            }

            extension E: Magma.JSONTaggedEnum {
                static let jsonCases = Magma.JSONCluster<E>(tagging: .external) {
                    Magma.ClusterCase("a", Magma.CaseWithoutValues.self, fallback: true, make: { _ in
                        return .a
                    }, unmake: { value in
                        guard case .a = value else { return nil }
                        return Magma.CaseWithoutValues()
                    })
                }
            }
            """, diagnostics: [
            DiagnosticSpec(message: "'a' is the fallback already: an enum has one fallback, remove @Fallback", line: 4, column: 5,
                           fixIts: [FixItSpec(message: "remove @Fallback")]),
        ], applyFixIts: ["remove @Fallback"], fixedSource: "@JSONModel(tagging: .external)\nenum E {\n    @Fallback case a\n    case b\n}")
    }

    @Test func taggedEnum_withoutTagging_offersOne_generic_isRefused() {
        expand("@JSONModel\nenum E {\n    case a\n}", "enum E {\n    case a\n}", diagnostics: [
            DiagnosticSpec(message: "@JSONModel on an enum reads its cases as tagged objects: say how 'E' is tagged, with tagging: .internal(key:), .external or .adjacent(tag:content:)",
                           line: 1, column: 1, fixIts: [FixItSpec(message: #"tag cases with a "type" key"#)]),
        ], applyFixIts: [#"tag cases with a "type" key"#], fixedSource: "@JSONModel(tagging: .internal(key: \"type\"))\nenum E {\n    case a\n}")
        expand("@JSONModel(tagging: .external)\nenum E<T> {\n    case a\n}", "enum E<T> {\n    case a\n}", diagnostics: [
            DiagnosticSpec(message: "@JSONModel does not apply to a generic enum (its cases are a static of the type, which a generic type cannot have)",
                           line: 1, column: 1),
        ])
    }

    @Test func fallbackOnAProperty_andOtherAttributesOnACase_areErrors() {
        expand("struct S {\n    @Fallback var x = 0\n}", "struct S {\n    var x = 0\n}", diagnostics: [
            DiagnosticSpec(message: "@Fallback applies to an enum case: the one read for an unknown or missing tag", line: 2, column: 5),
        ])
        expandEnumProblem("@Default(1) case a", [DiagnosticSpec(
            message: "@Default applies to a stored property, not to an enum case (a case takes @Key and @Fallback)", line: 3, column: 5,
            fixIts: [FixItSpec(message: "remove @Default")])],
            applyFixIts: ["remove @Default"], fixedSource: "@JSONModel(tagging: .external)\nenum E {\n    case a\n}")
    }
}
