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
        let built = MagmaTool.executable.deletingLastPathComponent()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("magma-diagnostics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Holder.swift")
        try Data(Self.snippet.utf8).write(to: file)
        let pkgConfig = try GeneratedModelBuildTests.shell(["pkg-config", "--cflags-only-I", "yajl"])
        let yajl = pkgConfig.output.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        let check = try GeneratedModelBuildTests.shell(["swiftc", "-typecheck", "-swift-version", "6", "-no-color-diagnostics",
            "-I", built.appendingPathComponent("Modules").path, "-I", GeneratedModelBuildTests.root.appendingPathComponent("CYajl").path,
            "-load-plugin-executable", built.appendingPathComponent("MagmaMacros-tool").path + "#MagmaMacros", file.path]
            + yajl.flatMap { ["-Xcc", $0] })
        #expect(check.status != 0)
        // One `error:` line per diagnostic (swiftc repeats each inside its source excerpt, after a `- `).
        let errors = check.output.split(separator: "\n").filter { $0.contains("error: ") && !$0.contains("- error: ") }
        #expect(errors.count == 4, "\(check.output)")
        for error in errors {
            #expect(error.contains("is unavailable: the property's type is not a JSON model: mark it @JSONModel"), "\(error)")
        }
        #expect(!check.output.contains("requires that"), "\(check.output)")
        #expect(!check.output.contains("missing argument"), "\(check.output)")
    }
}
