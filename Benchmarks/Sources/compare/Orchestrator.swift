import Corpus
import Foundation

/// A corpus file and how to read it.
struct CorpusFile {
    var path: String
    var kind: CorpusKind
    var layout: Layout

    var name: String { (path as NSString).lastPathComponent }

    init(path: String, kind: CorpusKind, layout: Layout) {
        self.path = path
        self.kind = kind
        self.layout = layout
    }

    /// Guesses kind and layout from the file's name and first byte.
    init(inferring path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        let (kind, layout) = CorpusKind.infer(path: path, data: data.prefix(4096))
        self.init(path: path, kind: kind, layout: layout)
    }

    /// Reads the whole file into memory, before anything is measured.
    func load() throws -> CorpusInput {
        CorpusInput(data: try Data(contentsOf: URL(fileURLWithPath: path)), layout: layout)
    }
}

/// Runs every system on every corpus, each system in a child process of its own, checks in this
/// process that the systems agree, and writes the reports.
struct Orchestrator {
    static let childResult = ResultLine(prefix: "MAGMA-RESULT ")

    var systems: [DecodeSystem]
    var encodeSystems: [EncodeSystem]
    var policy: TimingPolicy
    var validate: Bool
    var outputDirectory: URL
    /// The Python that runs msgspec and orjson (nil: their rows are skipped, with a note).
    var python: String?
    var notes: [String] = []
    /// Magma rows that threw or built models other than JSONDecoder's: the run fails.
    private(set) var failures: [String] = []

    init(systems: [DecodeSystem], encodeSystems: [EncodeSystem], policy: TimingPolicy, validate: Bool, outputDirectory: URL) {
        self.systems = systems
        self.encodeSystems = encodeSystems
        self.policy = policy
        self.validate = validate
        self.outputDirectory = outputDirectory
    }

    mutating func run(_ corpora: [CorpusFile], options: [String: String]) throws {
        if !AllocationCounting.isWorking {
            notes.append("allocation counting unavailable: the allocator shims are not in effect in this process")
        }
        if !MagmaSystem.isAvailable {
            notes.append("Magma rows are placeholders: the library is not built into this package yet")
        }
        emit(TableReport.legend.joined(separator: "\n"))
        var reports: [CorpusReport] = []
        for file in corpora {
            let report = try measure(file)
            emit(TableReport.render(report))
            reports.append(report)
            failures += TableReport.magmaFailures(report)
        }
        let report = CompareReport(
            generatedAt: ISO8601DateFormatter().string(from: Date()),
            host: .current,
            options: options,
            notes: notes + TableReport.methodNotes(policy: policy),
            corpora: reports
        )
        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        let jsonURL = outputDirectory.appendingPathComponent("compare.json")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(report).write(to: jsonURL)
        let svgURL = outputDirectory.appendingPathComponent("compare.svg")
        try Data(ChartReport.svg(report).utf8).write(to: svgURL)
        emit("")
        for note in notes { emit("note: \(note)") }
        for line in TableReport.peerRatios(reports) { emit(line) }
        emit("load average at the end: \(report.host.loadAverage) (on \(report.host.cores) cores; other work skews timings)")
        emit("wrote \(jsonURL.path)\nwrote \(svgURL.path)")
    }

    private func measure(_ file: CorpusFile) throws -> CorpusReport {
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        let bytes = (attributes[.size] as? NSNumber)?.intValue ?? 0
        log("\(file.name): \(String(format: "%.1f", Double(bytes) / 1e6)) MB, \(file.kind.id), \(file.layout.rawValue)")

        var decode: [SystemResult] = []
        let systems = self.systems.filter { file.kind.runs($0) && (python != nil || !$0.runsInPython) }
        // Magma's share of the yajl ceiling is a ratio of two runs: on a machine whose per-core
        // speed drifts between seconds, one child each can catch them at different speeds. The two
        // run in alternation, a child per round, and each keeps its best round. The rounds share
        // one system's timed seconds; each child still loads the corpus and warms up, so the two
        // cost that much more per round.
        // msgspec and orjson, Magma's like-for-like row and Magma on yajl alternate with them too.
        let paired = systems.filter { [.magma, .magmaMap, .magmaText, .magmaYajl, .yajl, .msgspec, .orjson].contains($0) }
        let best = try alternating(paired) { system, minSeconds in
            try runChild(["--only", system.rawValue], file, system: system.rawValue, minSeconds: minSeconds)
        }
        for system in systems {
            let result = try best[system] ?? runChild(["--only", system.rawValue], file, system: system.rawValue)
            logResult(system.title, result, bytes: bytes)
            decode.append(result)
        }
        var encode: [SystemResult]?
        if file.kind.hasModel && !encodeSystems.isEmpty {
            // The encoders' ratio is a ratio of runs too: they alternate as the decoders above do.
            let best = try alternating(encodeSystems) { system, minSeconds in
                try runChild(["--encode-system", system.rawValue], file, system: system.rawValue, minSeconds: minSeconds)
            }
            encode = encodeSystems.compactMap { system in
                guard let result = best[system] else { return nil }
                logResult("encode: \(system.title)", result, bytes: result.outputBytes ?? 0)
                return result
            }
        }

        // In this process, after the children: the models of every system at once.
        var decodeValidation: [String: String] = [:]
        var encodeValidation: [String: String] = [:]
        var records: Int?
        if validate {
            let input = try file.load()
            let start = ContinuousClock.now
            let validation = file.kind.validate(input, systems: systems)
            records = validation.records
            for (system, outcome) in validation.outcomes { decodeValidation[system.rawValue] = Self.describe(outcome) }
            // The Python peers build Python objects: their record count is what can be compared.
            for result in decode where DecodeSystem(rawValue: result.system)?.runsInPython == true && result.error == nil {
                guard let expected = records, let found = result.records else { continue }
                decodeValidation[result.system] = found == expected
                    ? "– \(TableReport.grouped(found)) records, as JSONDecoder: Python objects, not compared further"
                    : "✗ differs: \(found) records vs expected \(expected)"
            }
            if encode != nil, let workload = try? file.kind.prepareEncoding(input) {
                for system in encodeSystems { encodeValidation[system.rawValue] = Self.describe(workload.roundTrip(system)) }
            }
            log("  validated in \(String(format: "%.1f", (ContinuousClock.now - start).seconds)) s")
        }

        var report = CorpusReport(
            name: file.name,
            path: file.path,
            kind: file.kind.id,
            model: file.kind.modelDescription,
            layout: file.layout,
            bytes: bytes,
            records: records ?? decode.compactMap(\.records).first,
            recordUnit: file.kind.recordUnit,
            recordUnitPlural: file.kind.recordUnitPlural,
            decode: decode,
            encode: encode
        )
        report.decodeSummary = TableReport.summarizeDecode(report, validation: decodeValidation)
        report.encodeSummary = encode.map { _ in TableReport.summarizeEncode(report, validation: encodeValidation) }
        return report
    }

    /// Runs each of `systems` in `policy.alternatingRounds` child processes in turn (one round when
    /// there is only one), the rounds sharing one system's timed seconds; the best round of each.
    private func alternating<System: Hashable>(_ systems: [System],
                                               _ run: (System, _ minSeconds: Double) throws -> SystemResult) throws -> [System: SystemResult] {
        var best: [System: SystemResult] = [:]
        let rounds = systems.count >= 2 ? policy.alternatingRounds : 1
        for _ in 0..<rounds {
            for system in systems {
                let result = try run(system, policy.minSeconds / Double(rounds))
                best[system] = best[system].map { $0.keepingBest(result) } ?? result
            }
        }
        return best
    }

    private static func describe(_ outcome: Validation.Outcome) -> String {
        outcome == .same ? "same" : "\(outcome.symbol): \(outcome.detail ?? "")"
    }

    private func logResult(_ title: String, _ result: SystemResult, bytes: Int) {
        if let error = result.error {
            log("  \(title): \(error)")
        } else {
            log("  \(title): \(String(format: "%.1f", result.megabytesPerSecond(bytes: bytes) ?? 0)) MB/s, \(result.runs) runs")
        }
    }

    /// Runs `compare --child <arguments> --corpus FILE` (msgspec and orjson: `peers.py`) and reads
    /// its result line.
    private func runChild(_ arguments: [String], _ file: CorpusFile, system: String, minSeconds: Double? = nil) throws -> SystemResult {
        var executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var leading = ["--child"] + arguments
        if let python, DecodeSystem(rawValue: system)?.runsInPython == true {
            executable = python
            leading = [Paths.peersScript.path, "--system", system]
        }
        let child = try Self.childResult.run(SystemResult.self, executable, leading + [
            "--corpus", file.path, "--model", file.kind.id, "--layout", file.layout.rawValue,
            "--min-runs", String(policy.minRuns), "--min-seconds", String(minSeconds ?? policy.minSeconds),
        ] + (policy.warmupSeconds < 0.2 ? ["--quick"] : []))
        if let result = child.result { return result }
        var failed = SystemResult(system: system)
        failed.error = "child process exited with status \(child.status) and no result"
        return failed
    }
}

extension CompareReport.Host {
    static var current: Self {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown"
        return .init(
            cpu: model,
            loadAverage: LoadAverage.current ?? "unknown",
            cores: ProcessInfo.processInfo.activeProcessorCount,
            memoryBytes: ProcessInfo.processInfo.physicalMemory,
            os: ProcessInfo.processInfo.operatingSystemVersionString
        )
    }
}
