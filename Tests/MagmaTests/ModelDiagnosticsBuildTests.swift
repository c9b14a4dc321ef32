import Foundation
import Testing

/// What the compiler says about a model whose property has a type with no JSON form the macro
/// can see (a struct not marked `@JSONModel`, an enum without a raw value, declared elsewhere):
/// one error per such property, saying what to do, and nothing after it. The snippet is
/// type-checked with `swiftc` against the Magma module and macro plugin `swift test` built.
@Suite struct ModelDiagnosticsBuildTests {
    static let snippet = """
        import Foundation
        import Magma

        struct PlainDep { let a: Int }
        enum Plain { case x, y }

        @JSONModel
        struct Holder {
            let name: String
            let dep: PlainDep
            var kind: Plain?
            var kinds: [Plain] = []
        }

        struct Mapped: JSONModel {
            var dep = PlainDep(a: 0)
            static let jsonMapping = JSONMapping<Mapped> { Map(\\.dep, "dep") }
        }
        """

    @Test func propertyOfATypeWithNoJSONForm_isOneClearErrorEach() throws {
        let (check, errors) = try Self.typecheck(Self.snippet)
        #expect(errors.count == 4, "\(check.output)")
        for error in errors {
            #expect(error.contains("is unavailable: the property's type is not a JSON model: mark it @JSONModel"), "\(error)")
        }
        #expect(!check.output.contains("requires that"), "\(check.output)")
        #expect(!check.output.contains("missing argument"), "\(check.output)")
    }
}

/// The new attributes' misuses, type-checked with `swiftc` as above: one error each, at the
/// attribute (or the declaration) at fault, and nothing after it.
/// A transformer whose values are not its property's type, built in or the user's: one error
/// each, the compiler's, in `@Transform`'s expansion on that property and naming both types; the
/// properties whose transformers fit compile, and nothing follows (the draft reads the peer).
extension ModelDiagnosticsBuildTests {
    static let transformSnippet = """
        import Foundation
        import Magma

        @JSONModel
        struct Holder {
            @Transform(.url) let n: Int
            @Transform(.iso8601) var d: String? = nil
            @Transform(Transformer.array(.url)) let u: [String]
            @Transform(Holder.toURL) let w: Int
            @Transform(Holder.toURL) var w2: String?
            @Key("a", "b") @Transform(Holder.both) let pair: String
            @Transform(.date(format: "yyyy")) let fits: Date
            @Transform(.array(.url)) let fits2: [URL]
            @Transform(.url) var fits3: URL?
            @Transform(.optional(.url)) var fits4: URL?
            @Transform(Holder.toURL) var fits5: URL!
            @Key("c", "d") @Transform(Holder.both) var `default`: Int?
            static let toURL = Transformer<JSONValue, URL>(forward: { _ in URL(string: "x")! })
            static let both = Transformer<[String: JSONValue], Int?>(forward: { _ in 0 })
        }
        """

    @Test func transformerOfAnotherType_isOneErrorAtItsAttribute_namingBothTypes() throws {
        let (check, errors) = try Self.typecheck(Self.transformSnippet)
        let neither = "is unavailable: the transformer's values are neither the property's type nor its wrapped type"
        let expected = [
            ("n", "static property 'url' requires the types 'Int' and 'URL' be equivalent"),
            ("d", "'optionalProperty' \(neither)"),
            ("u", "static property 'url' requires the types 'String' and 'URL' be equivalent"),
            ("w", "cannot convert return expression of type 'Transformer<JSONValue, URL>' to return type 'Transformer<JSONValue, Int>'"),
            ("w2", "'optionalProperty' \(neither)"),
            ("pair", "cannot convert return expression of type 'Transformer<[String : JSONValue], Int?>' to return type 'Transformer<[String : JSONValue], String>'"),
        ]
        #expect(errors.count == expected.count, "\(check.output)")
        // One diagnostic a block: the error, then the notes that place it.
        let blocks = check.output.components(separatedBy: "\n\n")
        for (property, message) in expected {
            let block = blocks.first { $0.contains("in expansion of macro 'Transform' on property '\(property)' here") }
            #expect(block?.contains("error: \(message)") == true, "\(property): \(block ?? check.output)")
        }
    }
}

extension ModelDiagnosticsBuildTests {
    static let attributeSnippet = """
        import Foundation
        import Magma

        @JSONModel struct Part { let a: Int }

        @JSONModel
        struct Holder {
            @Default(1) var a = 2
            @Lossy let b: String
            @Flatten let c: Int
            @Flatten @Key("d") let d: Part
            @Key("e", "f", encode: "g") @Transform(Holder.both) let e: Int
            @Default(1) @Required let h: Int
            static let both = Transformer<[String: JSONValue], Int>(forward: { _ in 0 })
        }

        @JSONModel(tagging: .internal(key: "type"))
        enum Shape {
            case count(Int)
            case pair(Int, Int)
            case typed(type: String)
            @Fallback case a
            @Fallback case b
        }

        @JSONModel
        enum Untagged { case x }
        """

    @Test func attributeMisuses_areOneErrorEach_andNothingFollows() throws {
        let (check, errors) = try Self.typecheck(Self.attributeSnippet)
        let expected = [
            "Holder.swift:8:5: error: 'a' has both an initial value and @Default",
            "Holder.swift:9:5: error: @Lossy drops the bad elements of an array or a dictionary, but 'b' is declared 'String'",
            "'emptyDraft(of:)' is unavailable: a flattened value (@Flatten, or an enum case's one unlabelled value) is a JSON model",
            "Holder.swift:11:14: error: 'd' is flattened",
            "Holder.swift:12:20: error: 'e' reads several key paths, each written back where it is read",
            "Holder.swift:13:17: error: 'h' has a @Default for a missing key, so it cannot be @Required",
            "Holder.swift:20:15: error: label the associated values of 'pair'",
            "Holder.swift:21:16: error: 'type' would be read from \"type\"",
            "Holder.swift:23:5: error: 'a' is the fallback already",
            "Holder.swift:26:1: error: @JSONModel on an enum reads its cases as tagged objects",
        ]
        for piece in expected {
            #expect(errors.contains { $0.contains(piece) }, "no error \(piece): \(check.output)")
        }
        // The two values that are not models (`c`, `count(Int)`) are the compiler's, in the expansion.
        #expect(errors.filter { $0.contains("'emptyDraft(of:)' is unavailable") }.count == 2, "\(check.output)")
        #expect(errors.count == 11, "\(check.output)")
    }

    /// `source`, as `Holder.swift`, type-checked with `swiftc` against the Magma module and macro
    /// plugin `swift test` built (it must fail); swiftc's output and its `error:` lines, one per
    /// diagnostic (swiftc repeats each inside its source excerpt, after a `- `).
    static func typecheck(_ source: String) throws -> (check: (status: Int32, output: String), errors: [Substring]) {
        let built = MagmaTool.executable.deletingLastPathComponent()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("magma-diagnostics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Holder.swift")
        try Data(source.utf8).write(to: file)
        let pkgConfig = try GeneratedModelBuildTests.shell(["pkg-config", "--cflags-only-I", "yajl"])
        let yajl = pkgConfig.output.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        let check = try GeneratedModelBuildTests.shell(["swiftc", "-typecheck", "-swift-version", "6", "-no-color-diagnostics",
            "-I", built.appendingPathComponent("Modules").path, "-I", GeneratedModelBuildTests.root.appendingPathComponent("CYajl").path,
            "-load-plugin-executable", built.appendingPathComponent("MagmaMacros-tool").path + "#MagmaMacros", file.path]
            + yajl.flatMap { ["-Xcc", $0] })
        #expect(check.status != 0)
        return (check, check.output.split(separator: "\n").filter { $0.contains("error: ") && !$0.contains("- error: ") })
    }
}
