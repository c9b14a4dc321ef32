import ArgumentParser
import Corpus
import Foundation

/// The whole measurement: for each layout, the source through a pipe, the pipe, the in-memory
/// baseline; then parallel NDJSON and arrays, from memory and streamed from a pipe. Prints the figures, then any target missed; exits non-zero
/// for a miss only with `--check` (a busy machine misses them without a regression).
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run every streaming measurement and print the figures (default).")

    @OptionGroup var source: Source
    @Option(help: "Megabytes of each layout for the parallel measurement.") var parallelMib = 256
    @Option(help: "Repetitions of each pipe and in-memory measurement (best is reported, all are listed).") var repeats = 3
    @Option(help: "Layouts to stream.") var layouts: [StreamLayout] = StreamLayout.allCases
    @Option(help: "Megabytes of each layout for the parallel streaming measurement (a pipe, one core against every core).")
    var parallelStreamMib = 64
    @Flag(help: "Skip the parallel measurements.") var noParallel = false
    @Flag(help: "Exit non-zero when a target (RSS < 32 MB, pipe >= 75 % of in-memory, parallel >= 1.8x, parallel stream >= 1.8x in < 64 MB) is missed (default: print the miss, exit 0).")
    var check = false

    func run() throws {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        log("load before: \(LoadAverage.current ?? "?")")
        var missed: [String] = []
        for layout in layouts {
            let generatorArguments = ["--layout", layout.rawValue, "--mib", String(source.mib), "--pool", String(source.pool)]
            let drained = try pipeline(exe, generatorArguments, ["drain"])
            emit(String(format: "%-7@ source: generator → pipe → reader that discards %.0f MB/s (the pipe's ceiling)",
                         layout.rawValue, rate(drained)))
            var piped: [ChildResult] = [], memory: [ChildResult] = []
            for _ in 0..<repeats {
                piped.append(try pipeline(exe, generatorArguments, ["decode", "--layout", layout.rawValue]))
                memory.append(try pipeline(exe, generatorArguments, ["in-memory", "--layout", layout.rawValue]))
            }
            let bestPipe = piped.max { rate($0) < rate($1) }!, bestMemory = memory.max { rate($0) < rate($1) }!
            let ratio = rate(bestPipe) / rate(bestMemory)
            let rss = piped.map(\.peakRSS).max()!
            let cpuRatio = cpuRate(piped) / cpuRate(memory)
            emit(String(format: "%-7@ %6.0f MB %9d records | pipe %4.0f MB/s (runs %@) | in-memory %4.0f MB/s (runs %@) | "
                         + "pipe/in-memory %.0f %% (CPU-time rates %.0f %%) | peak RSS %.1f MB",
                         layout.rawValue, Double(bestPipe.bytes) / 1e6, bestPipe.records, rate(bestPipe), list(piped),
                         rate(bestMemory), list(memory), ratio * 100, cpuRatio * 100, Double(rss) / 1e6))
            if rss >= 32_000_000 { missed.append(String(format: "%@ peak RSS %.1f MB (target < 32 MB)", layout.rawValue, Double(rss) / 1e6)) }
            if ratio < 0.75 { missed.append(String(format: "%@ pipe/in-memory %.0f %% (target >= 75 %%)", layout.rawValue, ratio * 100)) }
        }
        if !noParallel {
            let generatorArguments = ["--layout", "ndjson", "--mib", String(parallelMib), "--pool", String(source.pool)]
            // The best of each side pairs runs minutes apart, when the VM's speed may differ; the
            // median of adjacent pairs compares runs made under the same conditions.
            for layout in StreamLayout.allCases {
                let arguments = ["--layout", layout.rawValue] + generatorArguments.dropFirst(2)
                let speedup = emitParallel(try pipeline(exe, arguments, ["parallel", "--layout", layout.rawValue]), layout: layout,
                                           allocator: "glibc malloc")
                if speedup < 1.8 { missed.append(String(format: "parallel %@ %.2fx (target >= 1.8x)", layout.rawValue, speedup)) }
            }
            // The same decode with another allocator: glibc's grows a worker thread's arena a page
            // at a time, which the speedup above pays and the design does not.
            if let jemalloc = Self.jemalloc {
                _ = emitParallel(try pipeline(exe, generatorArguments, ["parallel"], preload: jemalloc), layout: .ndjson,
                                 allocator: "jemalloc (LD_PRELOAD)")
            } else {
                emit("parallel NDJSON under jemalloc: skipped, libjemalloc.so.2 not found (make bench-stream installs libjemalloc2)")
            }

            // The ingestion job's form: from a pipe, one core (forEachRecord) against every core
            // (forEachRecordInParallel, each record counted on its worker, 8 MiB window), alternating runs.
            for layout in StreamLayout.allCases {
                let streamArguments = ["--layout", layout.rawValue, "--mib", String(parallelStreamMib), "--pool", String(source.pool)]
                var one: [ChildResult] = [], all: [ChildResult] = []
                for _ in 0..<repeats {
                    one.append(try pipeline(exe, streamArguments, ["decode", "--layout", layout.rawValue]))
                    all.append(try pipeline(exe, streamArguments, ["parallel-stream", "--layout", layout.rawValue]))
                }
                let bestOne = one.max { rate($0) < rate($1) }!, bestAll = all.max { rate($0) < rate($1) }!
                let streamSpeedup = rate(bestAll) / rate(bestOne)
                let streamRSS = all.map(\.peakRSS).max()!
                print(String(format: "parallel stream %@ %.0f MB from a pipe, concurrency %d: one core %.0f MB/s (runs %@, CPU %.2f s), "
                             + "all cores, records handled on the workers %.0f MB/s (runs %@, CPU %.2f s), %.2fx | peak RSS %.1f MB",
                             layout.rawValue, Double(bestAll.bytes) / 1e6, bestAll.concurrency ?? 0, rate(bestOne), list(one),
                             bestOne.cpuSeconds ?? 0, rate(bestAll), list(all), bestAll.cpuSeconds ?? 0, streamSpeedup, Double(streamRSS) / 1e6))
                if streamSpeedup < 1.8 {
                    missed.append(String(format: "parallel stream %@ %.2fx (target >= 1.8x)", layout.rawValue, streamSpeedup))
                }
                if streamRSS >= 64_000_000 {
                    missed.append(String(format: "parallel stream %@ peak RSS %.1f MB (target < 64 MB)", layout.rawValue, Double(streamRSS) / 1e6))
                }
            }
        }
        log("load after: \(LoadAverage.current ?? "?")")
        if !missed.isEmpty {
            emit("targets missed" + (check ? "" : " (on a busy machine this is expected; --check fails on it)") + ": "
                  + missed.joined(separator: "; "))
            if check { throw ExitCode(1) }
        }
    }

    /// Prints a `parallel` child's row; returns its speedup, the median of its adjacent pairs (the
    /// best of each side pairs runs far apart, when the VM's speed may differ).
    private func emitParallel(_ result: ChildResult, layout: StreamLayout, allocator: String) -> Double {
        let pairs = result.pairSpeedups!.sorted()
        let speedup = pairs[pairs.count / 2]
        emit(String(format: "parallel %@ %.0f MB, %d records, concurrency %d (cores; 16 batches each), %@: sequential %.2f s, "
                     + "parallel %.2f s (best of each: %.2fx), median of %d adjacent pairs %.2fx (in run order %@) "
                     + "(CPU time: sequential %.2f s, parallel %.2f s on all threads)",
                     layout == .array ? "array" : "NDJSON", Double(result.bytes) / 1e6, result.records, result.concurrency!, allocator,
                     result.sequentialSeconds!,
                     result.parallelSeconds!, result.sequentialSeconds! / result.parallelSeconds!, pairs.count, speedup,
                     result.pairSpeedups!.map { String(format: "%.2f", $0) }.joined(separator: "/"), result.sequentialCPU!, result.parallelCPU!))
        return speedup
    }

    private static var jemalloc: String? {
        ["/usr/lib/x86_64-linux-gnu/libjemalloc.so.2", "/usr/lib/aarch64-linux-gnu/libjemalloc.so.2", "/usr/lib/libjemalloc.so.2"]
            .first { FileManager.default.fileExists(atPath: $0) }
    }

    private func rate(_ r: ChildResult) -> Double { Double(r.bytes) / 1e6 / r.seconds }
    /// MB per CPU-second, best of the runs: the decoder's own cost, whatever else the machine runs.
    private func cpuRate(_ rs: [ChildResult]) -> Double { rs.map { Double($0.bytes) / 1e6 / ($0.cpuSeconds ?? .infinity) }.max()! }
    private func list(_ rs: [ChildResult]) -> String { rs.map { String(format: "%.0f", rate($0)) }.joined(separator: "/") }

    /// `generate | consumer`, returning the consumer's result.
    private func pipeline(_ exe: String, _ source: [String], _ consumer: [String], preload: String? = nil) throws -> ChildResult {
        let pipe = Pipe()
        let generator = Process()
        generator.executableURL = URL(fileURLWithPath: exe)
        generator.arguments = ["generate"] + source
        generator.standardOutput = pipe
        generator.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try generator.run()
        let reader = try ChildResult.resultLine.run(ChildResult.self, exe, consumer, setUp: { child in
            child.standardInput = pipe
            if let preload { child.environment = ProcessInfo.processInfo.environment.merging(["LD_PRELOAD": preload]) { $1 } }
        }) {
            // The reader sees the end of its input only once this process holds no end of the pipe.
            try pipe.fileHandleForReading.close()
            try pipe.fileHandleForWriting.close()
        }
        generator.waitUntilExit()
        guard reader.status == 0 else { throw ValidationError("\(consumer[0]) failed (\(reader.status))") }
        return try required(reader.result, in: reader.output)
    }

    private func required(_ result: ChildResult?, in output: Data) throws -> ChildResult {
        guard let result else {
            throw ValidationError("no result in: \(String(decoding: output, as: UTF8.self))")
        }
        return result
    }
}
