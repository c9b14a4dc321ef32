import MagmaMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@Default`, `@Lossy`, `@Flatten` and `@Key(_:encode:)`: the lines and values they write, and
/// each misuse reported at the attribute, with the fix-it that removes it, the property left out.
extension JSONModelMacroTests {
    @Test func newAttributes_writeTheirLinesAndValues() {
        expand(
            """
            @JSONModel
            struct S {
                @Default(0) let a: Int
                @Default(State.open, onInvalid: true) let b: State
                @Lossy let c: [Tag]
                @Flatten let d: Address
                @Key("e_key", encode: "eKey") let e: String?
                @Default("x") let f: String?
            }
            """,
            """
            struct S {
                let a: Int
                let b: State
                let c: [Tag]
                let d: Address
                let e: String?
                let f: String?

                struct JSONDraft: Magma.JSONModel {
                    var a: Int?
                    var b: State?
                    var c: [Tag]?
                    var d = Magma.FlattenedModel.emptyDraft(of: Address.self)
                    var e: String?
                    var f: String?
                    init() {}
                    static let jsonMapping = Magma.JSONMapping<JSONDraft> {
                        Magma.Map(\\JSONDraft.a).named("a", in: "S")
                        Magma.Map(\\JSONDraft.b).named("b", in: "S").defaultingOnInvalid(\\JSONDraft.b)
                        Magma.Map(nonOptional: \\JSONDraft.c).named("c", in: "S").lossy()
                        Magma.Map.flattening(\\JSONDraft.d, as: "S.d")
                        Magma.Map(\\JSONDraft.e, "e_key").named("e", in: "S").encodingKey("eKey")
                        Magma.Map(\\JSONDraft.f).named("f", in: "S")
                    }
                }
            }

            extension S: Magma.JSONDraftedModel {
                init(jsonDraft draft: consuming JSONDraft) throws {
                    guard let _c = draft.c.take() else { throw Self.missingDraftValue("S.c") }
                    let _d = try Magma.FlattenedModel.model(Address.self, from: draft.d)
                    self.init(
                        a: draft.a.take() ?? 0,
                        b: draft.b.take() ?? State.open,
                        c: _c,
                        d: _d,
                        e: draft.e.take(),
                        f: draft.f.take() ?? "x"
                    )
                }
                static func model(fromDraft draft: consuming JSONDraft) throws -> Self {
                    var model = try Self(jsonDraft: draft)
                    do {
                        try model.didDecode()
                        try model.validate()
                    } catch {
                        throw Self.decodeHookError(error)
                    }
                    return model
                }
                static func moveModel(fromDraft draft: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer, as form: Magma.DraftDestination) throws {
                    let model = try Self.model(fromDraft: draft.assumingMemoryBound(to: JSONDraft.self).move())
                    switch form {
                    case .value: destination.assumingMemoryBound(to: Self.self).pointee = model
                    case .optional: destination.assumingMemoryBound(to: Self?.self).pointee = model
                    case .element: destination.assumingMemoryBound(to: [Self].self).pointee.append(model)
                    }
                }
                var jsonDraft: JSONDraft {
                    var draft = JSONDraft()
                    draft.a = self.a
                    draft.b = self.b
                    draft.c = self.c
                    draft.d = Magma.FlattenedModel.draft(of: self.d)
                    draft.e = self.e
                    draft.f = self.f
                    return draft
                }
                static var jsonTransformer: Magma.Transformer<Magma.JSONValue, S> { .model(S.self) }
            }
            """)
    }

    @Test func default_misusesAreReportedAtTheAttribute() {
        expandProblem("@Default(1) var a = 2", DiagnosticSpec(
            message: "'a' has both an initial value and @Default: keep one (@Default's value also stands for null, and with onInvalid: true for an invalid value)",
            line: 3, column: 5, fixIts: [FixItSpec(message: "remove @Default")]), fixed: "var a = 2")
        expandProblem("@Default(1) @Required let a: Int", DiagnosticSpec(
            message: "'a' has a @Default for a missing key, so it cannot be @Required", line: 3, column: 17,
            fixIts: [FixItSpec(message: "remove @Required")]), fixed: "@Default(1) let a: Int")
        expandProblem("@Ignore @Default(1) let a = 2", DiagnosticSpec(
            message: "'a' is ignored, so it is never decoded: remove @Default", line: 3, column: 13, fixIts: [FixItSpec(message: "remove @Default")]),
            fixed: "@Ignore let a = 2")
        expandProblem(#"@Key("a", "b") @Transform(t) @Default(1) let a: Int"#, DiagnosticSpec(
            message: "'a' reads several key paths, which its @Transform combines; @Default applies to a property read from one key path",
            line: 3, column: 34, fixIts: [FixItSpec(message: "remove @Default")]), fixed: #"@Key("a", "b") @Transform(t) let a: Int"#,
            peer: "private static var _transform_a: Magma.Transformer<[Swift.String: Magma.JSONValue], Int> {\n    t\n}")
    }

    /// An argument of `@Default` at fault is reported there; the property is still expanded (as
    /// with `@Key`'s arguments), so the error stands alone.
    @Test func default_withoutAValue_orAnOnInvalidNotWrittenAsTrueOrFalse() {
        func expanded(_ line: String, _ initializer: String) -> String {
            """
            struct S {
                let a: Int

                struct JSONDraft: Magma.JSONModel {
                    var a: Int?
                    init() {}
                    static let jsonMapping = Magma.JSONMapping<JSONDraft> {
                        \(line)
                    }
                }
            }

            extension S: Magma.JSONDraftedModel {
                init(jsonDraft draft: consuming JSONDraft) throws {
            \(initializer)
                }
                static func model(fromDraft draft: consuming JSONDraft) throws -> Self {
                    var model = try Self(jsonDraft: draft)
                    do {
                        try model.didDecode()
                        try model.validate()
                    } catch {
                        throw Self.decodeHookError(error)
                    }
                    return model
                }
                static func moveModel(fromDraft draft: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer, as form: Magma.DraftDestination) throws {
                    let model = try Self.model(fromDraft: draft.assumingMemoryBound(to: JSONDraft.self).move())
                    switch form {
                    case .value: destination.assumingMemoryBound(to: Self.self).pointee = model
                    case .optional: destination.assumingMemoryBound(to: Self?.self).pointee = model
                    case .element: destination.assumingMemoryBound(to: [Self].self).pointee.append(model)
                    }
                }
                var jsonDraft: JSONDraft {
                    var draft = JSONDraft()
                    draft.a = self.a
                    return draft
                }
                static var jsonTransformer: Magma.Transformer<Magma.JSONValue, S> { .model(S.self) }
            }
            """
        }
        expand("@JSONModel\nstruct S {\n    @Default let a: Int\n}",
               expanded(#"Magma.Map(nonOptional: \JSONDraft.a).named("a", in: "S")"#,
                        "        guard let _a = draft.a.take() else { throw Self.missingDraftValue(\"S.a\") }\n        self.init(\n            a: _a\n        )"),
               diagnostics: [DiagnosticSpec(message: "@Default needs the value, such as @Default(0) or @Default(State.open)", line: 3, column: 5)])
        expand("@JSONModel\nstruct S {\n    @Default(1, onInvalid: flag) let a: Int\n}",
               expanded(#"Magma.Map(\JSONDraft.a).named("a", in: "S")"#, "        self.init(\n            a: draft.a.take() ?? 1\n        )"),
               diagnostics: [DiagnosticSpec(message: "onInvalid: takes true or false, written as such", line: 3, column: 17)])
    }

    @Test func lossy_onAScalar_flatten_withOtherAttributes_orOptional() {
        expandProblem("@Lossy let a: String", DiagnosticSpec(
            message: "@Lossy drops the bad elements of an array or a dictionary, but 'a' is declared 'String'", line: 3, column: 5,
            fixIts: [FixItSpec(message: "remove @Lossy")]), fixed: "let a: String")
        expandProblem(#"@Flatten @Key("x") let a: Address"#, DiagnosticSpec(
            message: "'a' is flattened (its model's own keys are read from this object), so @Key does not apply: remove it", line: 3, column: 14,
            fixIts: [FixItSpec(message: "remove @Key")]), fixed: "@Flatten let a: Address")
        expandProblem("@Flatten let a: Address?", DiagnosticSpec(
            message: "@Flatten needs 'a' to be a non-optional model, its type written and no initial value: it is built from its model's keys in this object",
            line: 3, column: 5))
    }

    @Test func encodeKey_withSeveralKeys_isAnErrorWithARemoval() {
        expandProblem(#"@Key("a", "b", encode: "c") @Transform(t) let x: Int"#, DiagnosticSpec(
            message: "'x' reads several key paths, each written back where it is read: remove encode:", line: 3, column: 20,
            fixIts: [FixItSpec(message: "remove encode:")]), fixed: #"@Key("a", "b") @Transform(t) let x: Int"#,
            peer: "private static var _transform_x: Magma.Transformer<[Swift.String: Magma.JSONValue], Int> {\n    t\n}")
    }

    @Test func tagging_onAStruct_isAnErrorWithARemoval() {
        expandProblem("@Ignore let x = 0", DiagnosticSpec(
            message: "tagging: applies to an enum, whose cases it tells apart; remove it", line: 1, column: 12,
            fixIts: [FixItSpec(message: "remove tagging:")]), attribute: "@JSONModel(tagging: .external)")
    }

    @Test func encodeKey_theKeyRead_warns_aKeyWrittenTwice_isAnError() {
        let properties = [("x", "Int?", #"@Key("a", encode: "a") "#, #""a""#, ""), ("z", "Int?", #"@Key(encode: "y") "#, "", #".encodingKey("y")"#),
                          ("y", "Int?", "", "", "")]
        let source = "@JSONModel\nstruct S {\n" + properties.map { "    \($0.2)let \($0.0): \($0.1)\n" }.joined() + "}"
        let lines = properties.map { p in
            "            Magma.Map(\\JSONDraft.\(p.0)\(p.3.isEmpty ? "" : ", " + p.3)).named(\"\(p.0)\", in: \"S\")\(p.0 == "x" ? #".encodingKey("a")"# : p.4)"
        }
        let expanded = "struct S {\n" + properties.map { "    let \($0.0): \($0.1)\n" }.joined() + """

                struct JSONDraft: Magma.JSONModel {
                    var x: Int?
                    var z: Int?
                    var y: Int?
                    init() {}
                    static let jsonMapping = Magma.JSONMapping<JSONDraft> {
            \(lines.joined(separator: "\n"))
                    }
                }
            }

            extension S: Magma.JSONDraftedModel {
                init(jsonDraft draft: consuming JSONDraft) throws {
                    self.init(
                        x: draft.x.take(),
                        z: draft.z.take(),
                        y: draft.y.take()
                    )
                }
                static func model(fromDraft draft: consuming JSONDraft) throws -> Self {
                    var model = try Self(jsonDraft: draft)
                    do {
                        try model.didDecode()
                        try model.validate()
                    } catch {
                        throw Self.decodeHookError(error)
                    }
                    return model
                }
                static func moveModel(fromDraft draft: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer, as form: Magma.DraftDestination) throws {
                    let model = try Self.model(fromDraft: draft.assumingMemoryBound(to: JSONDraft.self).move())
                    switch form {
                    case .value: destination.assumingMemoryBound(to: Self.self).pointee = model
                    case .optional: destination.assumingMemoryBound(to: Self?.self).pointee = model
                    case .element: destination.assumingMemoryBound(to: [Self].self).pointee.append(model)
                    }
                }
                var jsonDraft: JSONDraft {
                    var draft = JSONDraft()
                    draft.x = self.x
                    draft.z = self.z
                    draft.y = self.y
                    return draft
                }
                static var jsonTransformer: Magma.Transformer<Magma.JSONValue, S> { .model(S.self) }
            }
            """
        expand(source, expanded, diagnostics: [
            DiagnosticSpec(message: "'x' reads \"a\" already, so encode: changes nothing: remove it", line: 3, column: 15, severity: .warning,
                           fixIts: [FixItSpec(message: "remove encode:")]),
            DiagnosticSpec(message: "'z' writes \"y\" back, as 'y' does: give one of them another key", line: 4, column: 10),
        ], applyFixIts: ["remove encode:"],
        fixedSource: "@JSONModel\nstruct S {\n    @Key(\"a\") let x: Int?\n    @Key(encode: \"y\") let z: Int?\n    let y: Int?\n}")
    }
}
