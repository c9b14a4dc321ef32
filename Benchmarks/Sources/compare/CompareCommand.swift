import ArgumentParser
import Corpus
import Foundation

extension DecodeSystem: ExpressibleByArgument {}
extension EncodeSystem: ExpressibleByArgument {}
extension Layout: ExpressibleByArgument {}

/// `compare`: Magma side by side with Foundation's JSON on the same bytes, in the same run.
@main
struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Decode the same JSON with Magma, JSONDecoder, JSONSerialization + mapping and yajl; compare.",
        discussion: """
            Default corpora: a generated GitHub-issues corpus (--size-mb, as an array and as NDJSON) \
            and the files of the shared corpus directory when present.

            Each system runs in a child process of its own (peak memory is that system's alone): \
            warm-up, timed runs (best and median), one run with allocations counted. Then the models \
            are encoded back to JSON by Magma and by JSONEncoder, measured the same way, and every \
            result is checked against JSONDecoder's models.

            Results: a table per corpus on stdout, results/compare.json and results/compare.svg.
            """
    )

    @Option(name: .customLong("size-mb"), help: "Size of the generated GitHub-issues corpus in MB (default 64; 4 with --quick).")
    var sizeMB: Int?

    @Flag(help: "Small inputs and short timings (< 1 minute), for CI.")
    var quick = false

    @Option(name: .customLong("corpus"), parsing: .upToNextOption, help: "JSON or NDJSON files to compare (replaces the default corpora).")
    var corpusPaths: [String] = []

    @Option(help: "Directory of shared corpus files (default: ../shared/corpus beside the repository, if present).")
    var shared: String?

    @Flag(help: "Skip the shared corpus directory.")
    var noShared = false

    @Option(name: .customLong("only"), parsing: .upToNextOption, help: "Systems to run: \(DecodeSystem.allCases.map(\.rawValue).joined(separator: ", ")) (default: all).")
    var systems: [DecodeSystem] = []

    @Option(help: "Model for --corpus files when the name does not tell: github-issues, github-events, github-webhooks, twitter, canada, citm, generic.")
    var model: String?

    @Option(help: "Layout for --corpus files: array, document, ndjson (default: from the name and first byte).")
    var layout: Layout?

    @Option(help: "Directory for compare.json, compare.svg and the generated corpus (default: Benchmarks/results; results/quick with --quick).")
    var output: String?

    @Option(help: "A python3 with msgspec and orjson, for their rows (default: $MAGMA_BENCH_PYTHON, else .build/bench-venv/bin/python3 of the repository, which scripts/bench-peers.sh makes).")
    var python: String?

    @Option(help: "Timed runs per system, at least (default 3).")
    var minRuns: Int?

    @Option(help: "Seconds of timed runs per system, at least (default 1.5; 0.2 with --quick).")
    var minSeconds: Double?

    @Flag(help: "Skip the check that every system builds the same models as JSONDecoder (and that encoded JSON decodes back to them).")
    var noValidate = false

    @Flag(help: "Skip the encoding comparison (Magma vs JSONEncoder).")
    var noEncode = false

    @Flag(help: "Only write the generated corpus files (results/corpus/github-issues-<N>MB.json and .ndjson), then exit.")
    var generateOnly = false

    /// Measure in this process and print `MAGMA-RESULT {json}` lines: what the orchestrator runs
    /// once per system (`compare --child --only magma --corpus FILE`).
    @Flag(help: .hidden)
    var child = false

    /// Child mode: measure encoding with these systems instead of decoding.
    @Option(name: .customLong("encode-system"), parsing: .upToNextOption, help: .hidden)
    var encodeSystems: [EncodeSystem] = []

    mutating func run() throws {
        var policy = TimingPolicy()
        if quick {
            policy.minSeconds = 0.2
            policy.warmupSeconds = 0.05
            policy.alternatingRounds = 1
        }
        if let minRuns { policy.minRuns = max(1, minRuns) }
        if let minSeconds { policy.minSeconds = max(0, minSeconds) }
        let systems = self.systems.isEmpty ? DecodeSystem.allCases : self.systems

        if child {
            try runChild(systems: systems, policy: policy)
            return
        }
        let results = Paths.packageRoot.appendingPathComponent("results")
        var orchestrator = Orchestrator(
            systems: systems,
            encodeSystems: noEncode ? [] : EncodeSystem.allCases,
            policy: policy,
            validate: !noValidate,
            // A quick run never overwrites the full run's results (the generated corpus is shared).
            outputDirectory: URL(fileURLWithPath: output ?? (quick ? results.appendingPathComponent("quick") : results).path)
        )
        let corpora = try planCorpora(outputDirectory: output.map { URL(fileURLWithPath: $0) } ?? results, notes: &orchestrator.notes)
        if generateOnly {
            for file in corpora where file.kind.id == CorpusKind.gitHubIssues.id { print(file.path) }
            return
        }
        if systems.contains(where: \.runsInPython) {
            orchestrator.python = Self.findPython(python)
            if let python = orchestrator.python, let versions = Self.peerVersions(python) {
                orchestrator.notes.append("Python peers: \(versions) (\(python))")
            } else {
                orchestrator.python = nil
                orchestrator.notes.append("msgspec and orjson rows skipped: no python3 with them (scripts/bench-peers.sh installs them; make bench runs it)")
            }
        }
        try orchestrator.run(corpora, options: describedOptions(policy: policy))
        if !orchestrator.failures.isEmpty {
            for failure in orchestrator.failures { log("FAILED: \(failure)") }
            throw ExitCode(1)
        }
    }

    /// The Python for msgspec and orjson: `--python`, `$MAGMA_BENCH_PYTHON`, or the repository's bench venv.
    private static func findPython(_ option: String?) -> String? {
        if let option { return option }
        if let environment = ProcessInfo.processInfo.environment["MAGMA_BENCH_PYTHON"], !environment.isEmpty { return environment }
        let venv = Paths.packageRoot.deletingLastPathComponent().appendingPathComponent(".build/bench-venv/bin/python3").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : nil
    }

    /// "msgspec X, orjson Y, Python Z", or nil when `python` cannot import them.
    private static func peerVersions(_ python: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [Paths.peersScript.path, "--versions"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        guard (try? process.run()) != nil else { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The corpora of this run, generating the GitHub-issues corpus when it is part of it.
    private func planCorpora(outputDirectory: URL, notes: inout [String]) throws -> [CorpusFile] {
        var corpora: [CorpusFile] = []
        let explicitFiles = !corpusPaths.isEmpty
        if !explicitFiles || sizeMB != nil {
            let megabytes = sizeMB ?? (quick ? 4 : 64)
            let directory = outputDirectory.appendingPathComponent("corpus")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let generator = GitHubIssueCorpus()
            for format in GitHubIssueCorpus.Format.allCases {
                let url = directory.appendingPathComponent("github-issues-\(megabytes)MB.\(format.fileExtension)")
                let start = ContinuousClock.now
                let (bytes, records) = try generator.write(targetBytes: megabytes * 1_000_000, format: format, to: url)
                let seconds = (ContinuousClock.now - start).seconds
                let note = String(
                    format: "generated %@: %.1f MB, %d issues, in %.2f s (%.0f MB/s, seed 0x%llX)",
                    url.lastPathComponent, Double(bytes) / 1e6, records, seconds, Double(bytes) / 1e6 / seconds, generator.seed)
                log(note)
                notes.append(note)
                corpora.append(CorpusFile(path: url.path, kind: .gitHubIssues, layout: format == .array ? .array : .ndjson))
                if format == .array {
                    corpora.append(CorpusFile(path: url.path, kind: .gitHubSeedIssues, layout: .array))
                }
            }
        }
        let sharedDirectory = shared ?? (explicitFiles ? nil : Paths.defaultSharedCorpus.path)
        if !noShared, let sharedDirectory {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: sharedDirectory, isDirectory: &isDirectory), isDirectory.boolValue {
                let names = try FileManager.default.contentsOfDirectory(atPath: sharedDirectory).sorted()
                for name in names where name.hasSuffix(".json") || name.hasSuffix(".ndjson") {
                    corpora.append(try CorpusFile(inferring: (sharedDirectory as NSString).appendingPathComponent(name)))
                }
            } else if shared != nil {
                throw ValidationError("--shared \(sharedDirectory): no such directory")
            }
        }
        for path in corpusPaths {
            var file = try CorpusFile(inferring: path)
            if let model {
                guard let kind = CorpusKind.named(model) else { throw ValidationError("unknown --model \(model)") }
                file.kind = kind
            }
            if let layout { file.layout = layout }
            corpora.append(file)
        }
        return corpora
    }

    /// Child mode: measure the given systems on the given files in this process and print one
    /// `MAGMA-RESULT {json}` line per file and system.
    private func runChild(systems: [DecodeSystem], policy: TimingPolicy) throws {
        for path in corpusPaths {
            var file = try CorpusFile(inferring: path)
            if let model, let kind = CorpusKind.named(model) { file.kind = kind }
            if let layout { file.layout = layout }
            let input = try file.load()
            let results = encodeSystems.isEmpty
                ? systems.map { measureDecode($0, kind: file.kind, input: input, policy: policy) }
                : encodeSystems.map { measureEncode($0, kind: file.kind, input: input, policy: policy) }
            for result in results { try Orchestrator.childResult.print(result) }
        }
    }

    private func describedOptions(policy: TimingPolicy) -> [String: String] {
        [
            "quick": String(quick),
            "sizeMB": sizeMB.map(String.init) ?? (quick ? "4" : "64"),
            "systems": (systems.isEmpty ? DecodeSystem.allCases : systems).map(\.rawValue).joined(separator: ","),
            "encode": String(!noEncode),
            "minRuns": String(policy.minRuns),
            "minSeconds": String(policy.minSeconds),
            "alternatingRounds": String(policy.alternatingRounds),
            "allocationCounting": AllocationCounting.isWorking ? "in-process allocator shims (CAllocationCounter)" : "unavailable",
        ]
    }
}

/// Where the package and its neighbours are, from this source file's location at build time.
enum Paths {
    /// The Benchmarks package directory.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // compare
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()  // Benchmarks

    /// The Python peers' script (msgspec, orjson).
    static let peersScript = packageRoot.appendingPathComponent("scripts/peers.py")

    /// ../shared/corpus relative to the repository root.
    static let defaultSharedCorpus = packageRoot
        .deletingLastPathComponent()  // repository root
        .deletingLastPathComponent()
        .appendingPathComponent("shared/corpus")
}
