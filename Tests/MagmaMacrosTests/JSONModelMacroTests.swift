import MagmaMacros
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Foundation
import Testing

/// The expansion @JSONModel writes, and each diagnostic it and its attributes give.
@Suite struct JSONModelMacroTests {
    let macros: [String: MacroSpec] = [
        "JSONModel": MacroSpec(type: JSONModelMacro.self, conformances: ["JSONDraftedModel", "JSONTaggedEnum"]),
        "Key": MacroSpec(type: PropertyAttributeMacro.self),
        "Transform": MacroSpec(type: PropertyAttributeMacro.self),
        "Merge": MacroSpec(type: PropertyAttributeMacro.self),
        "Ignore": MacroSpec(type: PropertyAttributeMacro.self),
        "Required": MacroSpec(type: PropertyAttributeMacro.self),
        "Default": MacroSpec(type: PropertyAttributeMacro.self),
        "Lossy": MacroSpec(type: PropertyAttributeMacro.self),
        "Flatten": MacroSpec(type: PropertyAttributeMacro.self),
        "Fallback": MacroSpec(type: PropertyAttributeMacro.self),
    ]

    func expand(_ source: String, _ expanded: String, diagnostics: [DiagnosticSpec] = [], applyFixIts: [String]? = nil,
                fixedSource: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        assertMacroExpansion(source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: macros,
                             applyFixIts: applyFixIts, fixedSource: fixedSource,
                             failureHandler: { Issue.record(Comment(rawValue: $0.message), sourceLocation: sourceLocation) })
    }

    @Test func struct_everyKindOfProperty() {
        expand(
            """
            @JSONModel(keyNaming: .snakeCase)
            struct Issue {
                let url: URL
                var state: State = .open
                @Key("user.login") let login: String?
                @Transform(.date(format: "yyyy")) let updatedAt: Date
                @Ignore var seen = 0
                var count: Int { 1 }
            }
            """,
            """
            struct Issue {
                let url: URL
                var state: State = .open
                let login: String?
                let updatedAt: Date

                private static var _transform_updatedAt: Magma.Transformer<Magma.JSONValue, Date> {
                    .date(format: "yyyy")
                }
                var seen = 0
                var count: Int { 1 }

                struct JSONDraft: Magma.JSONModel {
                    var url: URL?
                    var state: State?
                    var login: String?
                    var updatedAt: Date?
                    init() {}
                    static let jsonMapping = Magma.JSONMapping<JSONDraft>(keyNaming: .snakeCase) {
                        Magma.Map(nonOptional: \\JSONDraft.url).named("url", in: "Issue")
                        Magma.Map(nonOptional: \\JSONDraft.state, required: false).named("state", in: "Issue")
                        Magma.Map(\\JSONDraft.login, "user.login").named("login", in: "Issue")
                        Magma.Map(nonOptional: \\JSONDraft.updatedAt, nil, Issue._transform_updatedAt).named("updatedAt", in: "Issue")
                    }
                }
            }

            extension Issue: Magma.JSONDraftedModel {
                init(jsonDraft draft: consuming JSONDraft) throws {
                    guard let _url = draft.url.take() else { throw Self.missingDraftValue("Issue.url") }
                    guard let _updatedAt = draft.updatedAt.take() else { throw Self.missingDraftValue("Issue.updatedAt") }
                    self.init(
                        url: _url,
                        state: draft.state.take() ?? .open,
                        login: draft.login.take(),
                        updatedAt: _updatedAt
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
                static func model(fromDraft draft: consuming JSONDraft, updating old: Self) throws -> Self {
                    var model = try Self(jsonDraft: draft)
                    model.seen = old.seen
                    do {
                        try model.didDecode()
                        try model.validate()
                    } catch {
                        throw Self.decodeHookError(error)
                    }
                    return model
                }
                var jsonDraft: JSONDraft {
                    var draft = JSONDraft()
                    draft.url = self.url
                    draft.state = self.state
                    draft.login = self.login
                    draft.updatedAt = self.updatedAt
                    return draft
                }
                static var jsonTransformer: Magma.Transformer<Magma.JSONValue, Issue> { .model(Issue.self) }
            }
            """)
    }

    @Test func structWithItsOwnInit_assignsEachProperty() {
        expand(
            """
            @JSONModel
            struct S {
                let x: Int
                init(x: Int) { self.x = x }
            }
            """,
            """
            struct S {
                let x: Int
                init(x: Int) { self.x = x }

                struct JSONDraft: Magma.JSONModel {
                    var x: Int?
                    init() {}
                    static let jsonMapping = Magma.JSONMapping<JSONDraft> {
                        Magma.Map(nonOptional: \\JSONDraft.x).named("x", in: "S")
                    }
                }
            }

            extension S: Magma.JSONDraftedModel {
                init(jsonDraft draft: consuming JSONDraft) throws {
                    guard let _x = draft.x.take() else { throw Self.missingDraftValue("S.x") }
                    self.x = _x
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
                    return draft
                }
                static var jsonTransformer: Magma.Transformer<Magma.JSONValue, S> { .model(S.self) }
            }
            """)
    }

    @Test func structWithAnIfConfigBlock_assignsEachProperty() {
        expand(
            """
            @JSONModel
            struct S {
                let x: Int
                #if DEBUG
                init(x: Int) { self.x = x }
                #endif
            }
            """,
            """
            struct S {
                let x: Int
                #if DEBUG
                init(x: Int) { self.x = x }
                #endif

                struct JSONDraft: Magma.JSONModel {
                    var x: Int?
                    init() {}
                    static let jsonMapping = Magma.JSONMapping<JSONDraft> {
                        Magma.Map(nonOptional: \\JSONDraft.x).named("x", in: "S")
                    }
                }
            }

            extension S: Magma.JSONDraftedModel {
                init(jsonDraft draft: consuming JSONDraft) throws {
                    guard let _x = draft.x.take() else { throw Self.missingDraftValue("S.x") }
                    self.x = _x
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
                    return draft
                }
                static var jsonTransformer: Magma.Transformer<Magma.JSONValue, S> { .model(S.self) }
            }
            """)
    }

    @Test func structWithAPrivateProperty_assignsEachProperty() {
        expand(
            """
            @JSONModel
            struct S {
                var tags: [String] = []
                @Ignore private var seen = 0
            }
            """,
            """
            struct S {
                var tags: [String] = []
                private var seen = 0

                struct JSONDraft: Magma.JSONModel {
                    var tags: [String]?
                    init() {}
                    static let jsonMapping = Magma.JSONMapping<JSONDraft> {
                        Magma.Map(nonOptional: \\JSONDraft.tags, required: false).named("tags", in: "S")
                    }
                }
            }

            extension S: Magma.JSONDraftedModel {
                init(jsonDraft draft: consuming JSONDraft) throws {
                    self.tags = draft.tags.take() ?? []
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
                static func model(fromDraft draft: consuming JSONDraft, updating old: Self) throws -> Self {
                    var model = try Self(jsonDraft: draft)
                    model.seen = old.seen
                    do {
                        try model.didDecode()
                        try model.validate()
                    } catch {
                        throw Self.decodeHookError(error)
                    }
                    return model
                }
                var jsonDraft: JSONDraft {
                    var draft = JSONDraft()
                    draft.tags = self.tags
                    return draft
                }
                static var jsonTransformer: Magma.Transformer<Magma.JSONValue, S> { .model(S.self) }
            }
            """)
    }

    @Test func publicFinalClass_initInItsBody_severalKeysAndRequired() {
        expand(
            """
            @JSONModel
            public final class Person {
                @Key("first", "last") @Transform(Person.name) let name: String
                @Required var nickname: String?
                let tags: [Tag]
            }
            """,
            """
            public final class Person {
                let name: String

                private static var _transform_name: Magma.Transformer<[Swift.String: Magma.JSONValue], String> {
                    Person.name
                }
                var nickname: String?
                let tags: [Tag]

                public struct JSONDraft: Magma.JSONModel {
                    var name: String?
                    var nickname: String?
                    var tags: [Tag]?
                    public init() {}
                    public static let jsonMapping = Magma.JSONMapping<JSONDraft> {
                        Magma.Map(nonOptional: \\JSONDraft.name, ["first", "last"], Person._transform_name).named("name", in: "Person")
                        Magma.Map(\\JSONDraft.nickname, required: true).named("nickname", in: "Person")
                        Magma.Map(nonOptional: \\JSONDraft.tags).named("tags", in: "Person")
                    }
                }

                public init(jsonDraft draft: consuming JSONDraft) throws {
                    guard let _name = draft.name.take() else { throw Self.missingDraftValue("Person.name") }
                    guard let _tags = draft.tags.take() else { throw Self.missingDraftValue("Person.tags") }
                    self.name = _name
                    self.nickname = draft.nickname.take()
                    self.tags = _tags
                }
            }

            extension Person: Magma.JSONDraftedModel {
                public static func model(fromDraft draft: consuming JSONDraft) throws -> Self {
                    let model = try Self(jsonDraft: draft)
                    try Self.runDecodeHooks(of: model)
                    return model
                }
                public static func moveModel(fromDraft draft: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer, as form: Magma.DraftDestination) throws {
                    let model = try Self.model(fromDraft: draft.assumingMemoryBound(to: JSONDraft.self).move())
                    switch form {
                    case .value: destination.assumingMemoryBound(to: Self.self).pointee = model
                    case .optional: destination.assumingMemoryBound(to: Self?.self).pointee = model
                    case .element: destination.assumingMemoryBound(to: [Self].self).pointee.append(model)
                    }
                }
                public var jsonDraft: JSONDraft {
                    var draft = JSONDraft()
                    draft.name = self.name
                    draft.nickname = self.nickname
                    draft.tags = self.tags
                    return draft
                }
                public static var jsonTransformer: Magma.Transformer<Magma.JSONValue, Person> { .model(Person.self) }
            }
            """)
    }

    /// Keywords as property names: the memberwise call labels them bare (backquotes there make
    /// the compiler warn), except `inout`, `var` and `let`, which a label must still quote.
    @Test func keywordProperties_labelledBareInTheMemberwiseCall() {
        expand("@JSONModel\nstruct K {\n    let `default`: Bool\n    let `inout`: Int\n}",
               "struct K {\n    let `default`: Bool\n    let `inout`: Int\n\n    struct JSONDraft: Magma.JSONModel {\n        var `default`: Bool?\n        var `inout`: Int?\n        init() {}\n        static let jsonMapping = Magma.JSONMapping<JSONDraft> {\n            Magma.Map(nonOptional: \\JSONDraft.`default`).named(\"default\", in: \"K\")\n            Magma.Map(nonOptional: \\JSONDraft.`inout`).named(\"inout\", in: \"K\")\n        }\n    }\n}\n\nextension K: Magma.JSONDraftedModel {\n    init(jsonDraft draft: consuming JSONDraft) throws {\n        guard let _default = draft.`default`.take() else { throw Self.missingDraftValue(\"K.default\") }\n        guard let _inout = draft.`inout`.take() else { throw Self.missingDraftValue(\"K.inout\") }\n        self.init(\n            default: _default,\n            `inout`: _inout\n        )\n    }\n    static func model(fromDraft draft: consuming JSONDraft) throws -> Self {\n        var model = try Self(jsonDraft: draft)\n        do {\n            try model.didDecode()\n            try model.validate()\n        } catch {\n            throw Self.decodeHookError(error)\n        }\n        return model\n    }\n    static func moveModel(fromDraft draft: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer, as form: Magma.DraftDestination) throws {\n        let model = try Self.model(fromDraft: draft.assumingMemoryBound(to: JSONDraft.self).move())\n        switch form {\n        case .value: destination.assumingMemoryBound(to: Self.self).pointee = model\n        case .optional: destination.assumingMemoryBound(to: Self?.self).pointee = model\n        case .element: destination.assumingMemoryBound(to: [Self].self).pointee.append(model)\n        }\n    }\n    var jsonDraft: JSONDraft {\n        var draft = JSONDraft()\n        draft.`default` = self.`default`\n        draft.`inout` = self.`inout`\n        return draft\n    }\n    static var jsonTransformer: Magma.Transformer<Magma.JSONValue, K> { .model(K.self) }\n}")
    }

    @Test func selectiveModel_mapsItsDraftsKeyPathsToItsOwn() {
        expand("@JSONModel\nstruct P: SelectiveEncoding {\n    let a: Int?\n}",
               "struct P: SelectiveEncoding {\n    let a: Int?\n\n    struct JSONDraft: Magma.JSONModel {\n        var a: Int?\n        init() {}\n        static let jsonMapping = Magma.JSONMapping<JSONDraft> {\n            Magma.Map(\\JSONDraft.a).named(\"a\", in: \"P\")\n        }\n    }\n}\n\nextension P: Magma.JSONDraftedModel {\n    init(jsonDraft draft: consuming JSONDraft) throws {\n        self.init(\n            a: draft.a.take()\n        )\n    }\n    static func model(fromDraft draft: consuming JSONDraft) throws -> Self {\n        var model = try Self(jsonDraft: draft)\n        do {\n            try model.didDecode()\n            try model.validate()\n        } catch {\n            throw Self.decodeHookError(error)\n        }\n        return model\n    }\n    static func moveModel(fromDraft draft: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer, as form: Magma.DraftDestination) throws {\n        let model = try Self.model(fromDraft: draft.assumingMemoryBound(to: JSONDraft.self).move())\n        switch form {\n        case .value: destination.assumingMemoryBound(to: Self.self).pointee = model\n        case .optional: destination.assumingMemoryBound(to: Self?.self).pointee = model\n        case .element: destination.assumingMemoryBound(to: [Self].self).pointee.append(model)\n        }\n    }\n    static var jsonDraftKeyPaths: [AnyKeyPath: AnyKeyPath] {\n        [\n            \\JSONDraft.a: \\P.a,\n        ]\n    }\n    var jsonDraft: JSONDraft {\n        var draft = JSONDraft()\n        draft.a = self.a\n        return draft\n    }\n    static var jsonTransformer: Magma.Transformer<Magma.JSONValue, P> { .model(P.self) }\n}")
    }

    @Test func mergeHooks_typedByTheDraftsKeyPath() {
        expand("@JSONModel\nstruct P {\n    @Merge(sum) let a: Int\n    @Merge(max) var b: Int? = nil\n    @Merge({ (x: [Int], y: [Int]) in x + y }) var c = [Int]()\n}",
               "struct P {\n    let a: Int\n    var b: Int? = nil\n    var c = [Int]()\n\n    struct JSONDraft: Magma.JSONModel {\n        var a: Int?\n        var b: Int? = nil\n        var c = [Int]()\n        init() {}\n        static let jsonMapping = Magma.JSONMapping<JSONDraft> {\n            Magma.Map(nonOptional: \\JSONDraft.a).named(\"a\", in: \"P\").merging(nonOptional: \\JSONDraft.a, sum)\n            Magma.Map(\\JSONDraft.b).named(\"b\", in: \"P\").merging(\\JSONDraft.b, max)\n            Magma.Map(\\JSONDraft.c).named(\"c\", in: \"P\").merging(\\JSONDraft.c, { (x: [Int], y: [Int]) in x + y })\n        }\n    }\n}\n\nextension P: Magma.JSONDraftedModel {\n    init(jsonDraft draft: consuming JSONDraft) throws {\n        guard let _a = draft.a.take() else { throw Self.missingDraftValue(\"P.a\") }\n        self.init(\n            a: _a,\n            b: draft.b.take(),\n            c: draft.c\n        )\n    }\n    static func model(fromDraft draft: consuming JSONDraft) throws -> Self {\n        var model = try Self(jsonDraft: draft)\n        do {\n            try model.didDecode()\n            try model.validate()\n        } catch {\n            throw Self.decodeHookError(error)\n        }\n        return model\n    }\n    static func moveModel(fromDraft draft: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer, as form: Magma.DraftDestination) throws {\n        let model = try Self.model(fromDraft: draft.assumingMemoryBound(to: JSONDraft.self).move())\n        switch form {\n        case .value: destination.assumingMemoryBound(to: Self.self).pointee = model\n        case .optional: destination.assumingMemoryBound(to: Self?.self).pointee = model\n        case .element: destination.assumingMemoryBound(to: [Self].self).pointee.append(model)\n        }\n    }\n    var jsonDraft: JSONDraft {\n        var draft = JSONDraft()\n        draft.a = self.a\n        draft.b = self.b\n        draft.c = self.c\n        return draft\n    }\n    static var jsonTransformer: Magma.Transformer<Magma.JSONValue, P> { .model(P.self) }\n}")
    }

    @Test func mergeWithoutHook_orOnAnIgnoredProperty_isAnError() {
        expand("@JSONModel\nstruct S {\n    @Merge var x: Int?\n}",
               "struct S {\n    var x: Int?\n\n    struct JSONDraft: Magma.JSONModel {\n        var x: Int?\n        init() {}\n        static let jsonMapping = Magma.JSONMapping<JSONDraft> {\n            Magma.Map(\\JSONDraft.x).named(\"x\", in: \"S\")\n        }\n    }\n}\n\nextension S: Magma.JSONDraftedModel {\n    init(jsonDraft draft: consuming JSONDraft) throws {\n        self.init(\n            x: draft.x.take()\n        )\n    }\n    static func model(fromDraft draft: consuming JSONDraft) throws -> Self {\n        var model = try Self(jsonDraft: draft)\n        do {\n            try model.didDecode()\n            try model.validate()\n        } catch {\n            throw Self.decodeHookError(error)\n        }\n        return model\n    }\n    static func moveModel(fromDraft draft: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer, as form: Magma.DraftDestination) throws {\n        let model = try Self.model(fromDraft: draft.assumingMemoryBound(to: JSONDraft.self).move())\n        switch form {\n        case .value: destination.assumingMemoryBound(to: Self.self).pointee = model\n        case .optional: destination.assumingMemoryBound(to: Self?.self).pointee = model\n        case .element: destination.assumingMemoryBound(to: [Self].self).pointee.append(model)\n        }\n    }\n    var jsonDraft: JSONDraft {\n        var draft = JSONDraft()\n        draft.x = self.x\n        return draft\n    }\n    static var jsonTransformer: Magma.Transformer<Magma.JSONValue, S> { .model(S.self) }\n}",
               diagnostics: [DiagnosticSpec(message: "@Merge needs the hook that merges two values, such as @Merge({ (mine: Int, theirs: Int) in mine + theirs })", line: 3, column: 5)])
        expandProblem("@Ignore @Merge(f) let x = 0", DiagnosticSpec(message: "'x' is ignored, so merging keeps its value: remove @Merge", line: 3, column: 13))
        expand("struct S {\n    @Merge(f) var x: Int { 1 }\n}", "struct S {\n    var x: Int { 1 }\n}", diagnostics: [
            DiagnosticSpec(message: "@Merge applies to a stored property; a computed property is neither decoded nor encoded", line: 2, column: 5,
                           fixIts: [FixItSpec(message: "remove @Merge")]),
        ])
    }

    @Test func actor_isNotAModel() {
        expand("@JSONModel\nactor A {\n    let a = 0\n}", "actor A {\n    let a = 0\n}", diagnostics: [
            DiagnosticSpec(message: "@JSONModel applies to a struct, a final class or an enum, not an actor; declare its mapping with the Map DSL (a JSONModel with a JSONMapping)", line: 1, column: 1),
        ])
    }

    @Test func nonFinalClass_offersFinal() {
        expand("@JSONModel\nclass C {\n    let a: Int\n}", "class C {\n    let a: Int\n}", diagnostics: [
            DiagnosticSpec(message: "@JSONModel needs a final class; a class with subclasses declares its mapping with the Map DSL (JSONMapping(_:inheriting:))",
                           line: 2, column: 1, fixIts: [FixItSpec(message: "make the class final")]),
        ], applyFixIts: ["make the class final"], fixedSource: "@JSONModel\nfinal class C {\n    let a: Int\n}")
    }

    @Test func genericClass_pointsToTheMapDSL() {
        expand("@JSONModel\nfinal class Page<T> {\n    let items: [T]\n}", "final class Page<T> {\n    let items: [T]\n}", diagnostics: [
            DiagnosticSpec(message: "@JSONModel does not apply to a generic class yet (a generic struct is fine); declare its mapping with the Map DSL", line: 1, column: 1),
        ])
    }

    @Test func genericStruct_computesItsMapping_namesItselfSelf() {
        expand("@JSONModel\nstruct Page<T> {\n    let items: [T]\n}",
               "struct Page<T> {\n    let items: [T]\n\n    struct JSONDraft: Magma.JSONModel {\n        var items: [T]?\n        init() {}\n        static var jsonMapping: Magma.JSONMapping<JSONDraft> { Magma.JSONMapping<JSONDraft> {\n            Magma.Map(nonOptional: \\JSONDraft.items).named(\"items\", in: \"Page\")\n        } }\n    }\n}\n\nextension Page: Magma.JSONDraftedModel {\n    init(jsonDraft draft: consuming JSONDraft) throws {\n        guard let _items = draft.items.take() else { throw Self.missingDraftValue(\"Page.items\") }\n        self.init(\n            items: _items\n        )\n    }\n    static func model(fromDraft draft: consuming JSONDraft) throws -> Self {\n        var model = try Self(jsonDraft: draft)\n        do {\n            try model.didDecode()\n            try model.validate()\n        } catch {\n            throw Self.decodeHookError(error)\n        }\n        return model\n    }\n    static func moveModel(fromDraft draft: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer, as form: Magma.DraftDestination) throws {\n        let model = try Self.model(fromDraft: draft.assumingMemoryBound(to: JSONDraft.self).move())\n        switch form {\n        case .value: destination.assumingMemoryBound(to: Self.self).pointee = model\n        case .optional: destination.assumingMemoryBound(to: Self?.self).pointee = model\n        case .element: destination.assumingMemoryBound(to: [Self].self).pointee.append(model)\n        }\n    }\n    var jsonDraft: JSONDraft {\n        var draft = JSONDraft()\n        draft.items = self.items\n        return draft\n    }\n    static var jsonTransformer: Magma.Transformer<Magma.JSONValue, Self> { .model(Self.self) }\n}")
    }

    @Test func keyOnComputedProperty_isAnErrorWithARemoval() {
        expand("struct S {\n    @Key(\"a\") var x: Int { 1 }\n}", "struct S {\n    var x: Int { 1 }\n}", diagnostics: [
            DiagnosticSpec(message: "@Key applies to a stored property; a computed property is neither decoded nor encoded", line: 2, column: 5,
                           fixIts: [FixItSpec(message: "remove @Key")]),
        ])
        expand("struct S {\n    @Transform(.url) var x: URL { u }\n}", "struct S {\n    var x: URL { u }\n}", diagnostics: [
            DiagnosticSpec(message: "@Transform applies to a stored property; a computed property is neither decoded nor encoded", line: 2, column: 5,
                           fixIts: [FixItSpec(message: "remove @Transform")]),
        ])
    }

    @Test func attributeOnAFunction_isAnError() {
        expand("struct S {\n    @Required func f() {}\n}", "struct S {\n    func f() {}\n}", diagnostics: [
            DiagnosticSpec(message: "@Required applies to a stored property of a @JSONModel type", line: 2, column: 5),
        ])
    }

    /// A model whose problems are all in its properties: nothing is written for them.
    /// - Parameter fixed: The property once the diagnostic's first fix-it is applied, to check it.
    func expandProblem(_ property: String, _ diagnostic: DiagnosticSpec, fixed: String? = nil, attribute: String = "@JSONModel",
                       peer: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        // A property left out after an error, with no initial value, is still initialised: with a
        // placeholder that never runs, so that the memberwise call compiles and nothing follows.
        // `@Transform`'s peer (its transformer typed as the property) follows the property.
        let declared = Self.stripped(property) + (peer.map { "\n\n    " + $0.replacingOccurrences(of: "\n", with: "\n    ") } ?? "")
        var initializer = "    init(jsonDraft draft: consuming JSONDraft) throws {\n    }"
        if !Self.stripped(property).contains(" = "), let name = Self.stripped(property).split(separator: " ").dropFirst().first?.split(separator: ":").first {
            initializer = "    init(jsonDraft draft: consuming JSONDraft) throws {\n        self.init(\n            \(name): { Swift.fatalError(\"S.\(name) has an error\") }()\n        )\n    }"
        }
        expand("\(attribute)\nstruct S {\n    \(property)\n}", "struct S {\n    \(declared)\n\n    struct JSONDraft: Magma.JSONModel {\n        init() {}\n        static let jsonMapping = Magma.JSONMapping<JSONDraft> {\n        }\n    }\n}\n\nextension S: Magma.JSONDraftedModel {\n\(initializer)\n    static func model(fromDraft draft: consuming JSONDraft) throws -> Self {\n        var model = try Self(jsonDraft: draft)\n        do {\n            try model.didDecode()\n            try model.validate()\n        } catch {\n            throw Self.decodeHookError(error)\n        }\n        return model\n    }\n    static func moveModel(fromDraft draft: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer, as form: Magma.DraftDestination) throws {\n        let model = try Self.model(fromDraft: draft.assumingMemoryBound(to: JSONDraft.self).move())\n        switch form {\n        case .value: destination.assumingMemoryBound(to: Self.self).pointee = model\n        case .optional: destination.assumingMemoryBound(to: Self?.self).pointee = model\n        case .element: destination.assumingMemoryBound(to: [Self].self).pointee.append(model)\n        }\n    }\n    var jsonDraft: JSONDraft {\n        var draft = JSONDraft()\n        return draft\n    }\n    static var jsonTransformer: Magma.Transformer<Magma.JSONValue, S> { .model(S.self) }\n}",
               diagnostics: [diagnostic], applyFixIts: fixed.map { _ in [diagnostic.fixIts[0].message] },
               fixedSource: fixed.map { "\(attribute)\nstruct S {\n    \($0)\n}" }, sourceLocation: sourceLocation)
    }

    static func stripped(_ property: String) -> String {
        property.replacingOccurrences(of: #"@\w+(\((?:[^()]|\([^()]*\))*\))? "#, with: "", options: .regularExpression)
    }

    @Test func ignoredWithoutDefault_isAnError() {
        expandProblem("@Ignore let x: Int", DiagnosticSpec(message: "'x' is ignored, so it is never decoded: give it a default value", line: 3, column: 17))
    }

    @Test func letWithValue_warnsAndOffersVar() {
        expandProblem("let kind = 1", DiagnosticSpec(message: "'kind' is a let with an initial value, so it is never decoded; make it a var to decode it, or mark it @Ignore",
                                                       line: 3, column: 9, severity: .warning, fixIts: [FixItSpec(message: "make it a var")]))
    }

    @Test func severalKeysWithoutTransform_isAnError() {
        expandProblem(#"@Key("a", "b") let x: Int"#, DiagnosticSpec(message: "'x' reads several key paths: add a @Transform that combines them (a Transformer<[String: JSONValue], Value>)", line: 3, column: 5))
    }

    @Test func keyArguments_areCheckedAtTheAttribute() {
        expand("@JSONModel\nstruct S {\n    @Key(name) var x: Int?\n    @Key(\"\") var y: Int?\n    @Key var z: Int?\n}",
               "struct S {\n    var x: Int?\n    var y: Int?\n    var z: Int?\n\n    struct JSONDraft: Magma.JSONModel {\n        var x: Int?\n        var y: Int?\n        var z: Int?\n        init() {}\n        static let jsonMapping = Magma.JSONMapping<JSONDraft> {\n            Magma.Map(\\JSONDraft.x).named(\"x\", in: \"S\")\n            Magma.Map(\\JSONDraft.y, \"\").named(\"y\", in: \"S\")\n            Magma.Map(\\JSONDraft.z).named(\"z\", in: \"S\")\n        }\n    }\n}\n\nextension S: Magma.JSONDraftedModel {\n    init(jsonDraft draft: consuming JSONDraft) throws {\n        self.init(\n            x: draft.x.take(),\n            y: draft.y.take(),\n            z: draft.z.take()\n        )\n    }\n    static func model(fromDraft draft: consuming JSONDraft) throws -> Self {\n        var model = try Self(jsonDraft: draft)\n        do {\n            try model.didDecode()\n            try model.validate()\n        } catch {\n            throw Self.decodeHookError(error)\n        }\n        return model\n    }\n    static func moveModel(fromDraft draft: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer, as form: Magma.DraftDestination) throws {\n        let model = try Self.model(fromDraft: draft.assumingMemoryBound(to: JSONDraft.self).move())\n        switch form {\n        case .value: destination.assumingMemoryBound(to: Self.self).pointee = model\n        case .optional: destination.assumingMemoryBound(to: Self?.self).pointee = model\n        case .element: destination.assumingMemoryBound(to: [Self].self).pointee.append(model)\n        }\n    }\n    var jsonDraft: JSONDraft {\n        var draft = JSONDraft()\n        draft.x = self.x\n        draft.y = self.y\n        draft.z = self.z\n        return draft\n    }\n    static var jsonTransformer: Magma.Transformer<Magma.JSONValue, S> { .model(S.self) }\n}",
               diagnostics: [
                   DiagnosticSpec(message: "@Key takes string literals", line: 3, column: 10),
                   DiagnosticSpec(message: "a key path cannot be empty", line: 4, column: 10),
                   DiagnosticSpec(message: "@Key needs a key path, such as @Key(\"user.login\")", line: 5, column: 5),
               ])
    }

    @Test func duplicateKeys_inOneKeyIsAnError_acrossPropertiesAWarning() {
        expand("@JSONModel\nstruct S {\n    @Key(\"a\", \"a\") @Transform(t) let x: Int?\n}",
               "struct S {\n    let x: Int?\n\n    private static var _transform_x: Magma.Transformer<[Swift.String: Magma.JSONValue], Int?> {\n        t\n    }\n\n    struct JSONDraft: Magma.JSONModel {\n        var x: Int?\n        init() {}\n        static let jsonMapping = Magma.JSONMapping<JSONDraft> {\n            Magma.Map(\\JSONDraft.x, [\"a\", \"a\"], S._transform_x).named(\"x\", in: \"S\")\n        }\n    }\n}\n\nextension S: Magma.JSONDraftedModel {\n    init(jsonDraft draft: consuming JSONDraft) throws {\n        self.init(\n            x: draft.x.take()\n        )\n    }\n    static func model(fromDraft draft: consuming JSONDraft) throws -> Self {\n        var model = try Self(jsonDraft: draft)\n        do {\n            try model.didDecode()\n            try model.validate()\n        } catch {\n            throw Self.decodeHookError(error)\n        }\n        return model\n    }\n    static func moveModel(fromDraft draft: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer, as form: Magma.DraftDestination) throws {\n        let model = try Self.model(fromDraft: draft.assumingMemoryBound(to: JSONDraft.self).move())\n        switch form {\n        case .value: destination.assumingMemoryBound(to: Self.self).pointee = model\n        case .optional: destination.assumingMemoryBound(to: Self?.self).pointee = model\n        case .element: destination.assumingMemoryBound(to: [Self].self).pointee.append(model)\n        }\n    }\n    var jsonDraft: JSONDraft {\n        var draft = JSONDraft()\n        draft.x = self.x\n        return draft\n    }\n    static var jsonTransformer: Magma.Transformer<Magma.JSONValue, S> { .model(S.self) }\n}",
               diagnostics: [DiagnosticSpec(message: "'x' names the key \"a\" twice", line: 3, column: 38)])
        expand("@JSONModel(keyNaming: .snakeCase)\nstruct S {\n    let userID: Int\n    @Key(\"user_id\") let other: Int\n}",
               "struct S {\n    let userID: Int\n    let other: Int\n\n    struct JSONDraft: Magma.JSONModel {\n        var userID: Int?\n        var other: Int?\n        init() {}\n        static let jsonMapping = Magma.JSONMapping<JSONDraft>(keyNaming: .snakeCase) {\n            Magma.Map(nonOptional: \\JSONDraft.userID).named(\"userID\", in: \"S\")\n            Magma.Map(nonOptional: \\JSONDraft.other, \"user_id\").named(\"other\", in: \"S\")\n        }\n    }\n}\n\nextension S: Magma.JSONDraftedModel {\n    init(jsonDraft draft: consuming JSONDraft) throws {\n        guard let _userID = draft.userID.take() else { throw Self.missingDraftValue(\"S.userID\") }\n        guard let _other = draft.other.take() else { throw Self.missingDraftValue(\"S.other\") }\n        self.init(\n            userID: _userID,\n            other: _other\n        )\n    }\n    static func model(fromDraft draft: consuming JSONDraft) throws -> Self {\n        var model = try Self(jsonDraft: draft)\n        do {\n            try model.didDecode()\n            try model.validate()\n        } catch {\n            throw Self.decodeHookError(error)\n        }\n        return model\n    }\n    static func moveModel(fromDraft draft: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer, as form: Magma.DraftDestination) throws {\n        let model = try Self.model(fromDraft: draft.assumingMemoryBound(to: JSONDraft.self).move())\n        switch form {\n        case .value: destination.assumingMemoryBound(to: Self.self).pointee = model\n        case .optional: destination.assumingMemoryBound(to: Self?.self).pointee = model\n        case .element: destination.assumingMemoryBound(to: [Self].self).pointee.append(model)\n        }\n    }\n    var jsonDraft: JSONDraft {\n        var draft = JSONDraft()\n        draft.userID = self.userID\n        draft.other = self.other\n        return draft\n    }\n    static var jsonTransformer: Magma.Transformer<Magma.JSONValue, S> { .model(S.self) }\n}",
               diagnostics: [DiagnosticSpec(message: "'other' reads \"user_id\", as 'userID' does; both get its value (give one of them another @Key if that is a slip)",
                                            line: 4, column: 25, severity: .warning)])
    }
}
