import Foundation
import Testing
import Magma

/// Generates models for the benchmark corpora with `magma generate`, builds them against this
/// package's Magma, and decodes every corpus with them into models that encode back to equivalent
/// JSON (null members and number spellings aside).
///
/// Both styles are built: the `@JSONModel` form `magma generate` writes by default, and the `Map`
/// form of `--style map`.
/// Each check is one `swiftc` call against what `swift test` has just built beside this test
/// bundle: Magma's module and objects, and the macro plugin (`MagmaMacros-tool`), as
/// `scripts/fuzz.sh` builds. A scratch package would compile swift-syntax and Magma again, which
/// took four of the five minutes of `make test`. The checks live in `.build-generate-check/`
/// (ignored by git). Set `MAGMA_SKIP_GENERATE_BUILD=1` to leave them out of a quick local run.
@Suite(.serialized) struct GeneratedModelBuildTests {
    static let styles = ["macro", "map"]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The corpora: the GitHub issue fixture, and the shared corpus beside the repository when it is there.
    static var corpora: [(name: String, model: String, url: URL)] {
        var list = [(name: "github_issue", model: "GitHubIssue", url: root.appendingPathComponent("Tests/MagmaTests/Fixtures/github_issue.json"))]
        let shared = root.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        let names = ["twitter.json": "TwitterSearch", "citm_catalog.json": "CitmCatalog", "canada.json": "Canada",
                     "github_events.json": "GitHubEvent", "github_webhooks.ndjson": "GitHubWebhook"]  // amazon_cellphones.ndjson: arrays, no records to model
        for (file, model) in names.sorted(by: { $0.key < $1.key }) {
            let url = shared.appendingPathComponent(file)
            if FileManager.default.fileExists(atPath: url.path) {
                list.append((name: file.split(separator: ".")[0].replacingOccurrences(of: "-", with: "_"), model: model, url: url))
            }
        }
        return list
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["MAGMA_SKIP_GENERATE_BUILD"] == nil))
    func generatedModels_buildAndRoundTripTheCorpora() throws {
        let scratch = Self.root.appendingPathComponent(".build-generate-check")
        let fm = FileManager.default
        try? fm.removeItem(at: scratch.appendingPathComponent("Sources"))
        var checks: [(target: String, corpus: URL)] = []
        for corpus in Self.corpora {
            for style in Self.styles {
                let target = "Check_\(corpus.name)_\(style)"
                let folder = scratch.appendingPathComponent("Sources/\(target)")
                try fm.createDirectory(at: folder, withIntermediateDirectories: true)
                let run = try MagmaTool.run(["generate", "--style", style, "--name", corpus.model, corpus.url.path,
                                             "--output", folder.appendingPathComponent("Models.swift").path])
                try #require(run.status == 0, "\(corpus.name), \(style): \(run.stderr)")
                try Data(Self.main(model: corpus.model).utf8).write(to: folder.appendingPathComponent("main.swift"))
                checks.append((target, corpus.url))
            }
        }
        let built = MagmaTool.executable.deletingLastPathComponent()
        // The objects of the sources there are now (a build folder keeps those of deleted ones).
        let sources = Set((fm.enumerator(atPath: Self.root.appendingPathComponent("Sources/Magma").path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".swift") }.map { ($0 as NSString).lastPathComponent + ".o" })
        let objects = try fm.contentsOfDirectory(atPath: built.appendingPathComponent("Magma.build").path)
            .filter { sources.contains($0) }.sorted().map { built.appendingPathComponent("Magma.build/\($0)").path }
        try #require(objects.count > 10, "Magma's objects are not in \(built.path)/Magma.build")
        let pkgConfig = try Self.shell(["pkg-config", "--cflags-only-I", "--libs-only-L", "yajl"])
        try #require(pkgConfig.status == 0, "pkg-config yajl: \(pkgConfig.output)")
        let yajl = pkgConfig.output.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        // No -g (debug info was a third of the time); two compilers at a time, the largest models first.
        func size(_ target: String) -> Int {
            (try? fm.attributesOfItem(atPath: scratch.appendingPathComponent("Sources/\(target)/Models.swift").path)[.size] as? Int) ?? 0
        }
        let order = checks.map(\.target).sorted { size($0) > size($1) }
        let builds = try Self.shell(order.map { target in
            let folder = scratch.appendingPathComponent("Sources/\(target)")
            return ["swiftc", "-swift-version", "6", "-module-name", target] + Sanitizer.swiftcFlags + [
                    "-I", built.appendingPathComponent("Modules").path, "-I", Self.root.appendingPathComponent("CYajl").path,
                    "-load-plugin-executable", built.appendingPathComponent("MagmaMacros-tool").path + "#MagmaMacros",
                    folder.appendingPathComponent("Models.swift").path, folder.appendingPathComponent("main.swift").path]
                + yajl.flatMap { $0.hasPrefix("-L") ? [$0] : ["-Xcc", $0] } + objects
                + ["-lyajl", "-o", scratch.appendingPathComponent(target).path]
        }, width: 2)
        for (target, build) in zip(order, builds) {
            try #require(build.status == 0, "\(target): the generated models do not build:\n\(build.output.suffix(6000))")
        }
        for (target, corpus) in checks {
            let check = try Self.shell([scratch.appendingPathComponent(target).path, corpus.path])
            #expect(check.status == 0, "\(target): \(check.output.suffix(3000))")
            #expect(check.output.hasPrefix("ok "), "\(target): \(check.output.suffix(3000))")
        }
    }

    /// The check program of one corpus: decode every record with the generated model, encode it,
    /// compare with the record as read.
    static func main(model: String) -> String {
        """
        import Foundation
        import Magma

        /// Null members dropped, numbers by value, ISO 8601 date-times by instant: what a model
        /// that omits nil and writes numbers and dates its own way keeps of a record.
        func normal(_ value: JSONValue) -> JSONValue {
            switch value {
            case .object(let members): return .object(members.filter { $0.value != .null }.mapValues(normal))
            case .array(let items): return .array(items.map(normal))
            case .number(let n): return .number(JSONNumber(n.doubleValue ?? .nan))
            case .string(let s) where s.utf8.count >= 20 && Array(s.utf8)[10] == UInt8(ascii: "T"):
                guard let date = try? Transformer<JSONValue, Date>.iso8601.transform(value) else { return value }
                return .number(JSONNumber(date.timeIntervalSince1970))
            default: return value
            }
        }

        func roundTrip(_ record: Data) throws -> (JSONValue, JSONValue) {
            let model = try JSONAdapter.model(\(model).self, from: record)
            return (try JSONAdapter.value(from: record, .json), try JSONAdapter.value(from: JSONAdapter.json(from: model), .json))
        }

        func pairs(_ data: Data) throws -> [(JSONValue, JSONValue)] {
            guard let top = try? JSONAdapter.value(from: data, .json) else {
                return try data.split(separator: 0x0A).filter { !$0.isEmpty }.map { try roundTrip(Data($0)) }
            }
            guard case .array(let items) = top else { return [try roundTrip(data)] }
            let models = try JSONAdapter.models(\(model).self, from: data)
            guard models.count == items.count else { print("decoded \\(models.count) of \\(items.count)"); exit(1) }
            return try zip(items, models).map { ($0, try JSONAdapter.value(from: JSONAdapter.json(from: $1), .json)) }
        }

        let all = try pairs(try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1])))
        for (i, (original, encoded)) in all.enumerated() where normal(original) != normal(encoded) {
            print("record \\(i) differs:\\n\\(String(decoding: try JSONAdapter.json(from: original, .json), as: UTF8.self).prefix(2000))\\n\\(String(decoding: try JSONAdapter.json(from: encoded, .json), as: UTF8.self).prefix(2000))")
            exit(1)
        }
        print("ok \\(all.count) records")
        """
    }

    static func shell(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try shell([arguments], width: 1)[0]
    }

    /// Runs each command, at most `width` at a time, and returns each one's status and output
    /// (standard output and error, through a file: no pipe to fill).
    static func shell(_ commands: [[String]], width: Int) throws -> [(status: Int32, output: String)] {
        let slots = DispatchSemaphore(value: width)
        var runs: [(process: Process, log: URL)] = []
        defer { for run in runs { try? FileManager.default.removeItem(at: run.log) } }
        for arguments in commands {
            slots.wait()
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("magma-shell-\(UUID().uuidString)")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
            let handle = try FileHandle(forWritingTo: log)
            process.standardOutput = handle
            process.standardError = handle
            process.terminationHandler = { _ in slots.signal() }
            runs.append((process, log))
            try process.run()
        }
        return try runs.map { run in
            run.process.waitUntilExit()
            return (run.process.terminationStatus, try String(contentsOf: run.log, encoding: .utf8))
        }
    }
}
