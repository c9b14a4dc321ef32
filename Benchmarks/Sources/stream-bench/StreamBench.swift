import ArgumentParser
import Corpus
import Foundation
import Magma
#if canImport(Glibc)
import Glibc
#endif

/// `stream-bench`: the 1 GiB streaming measurements of issue #5, repeatable.
///
/// `run` (the default) drives child processes of this same executable: a generator writes the
/// GitHub-issues corpus to a pipe on the fly, a decoder reads it from standard input through
/// `JSONAdapter.forEachRecord(from:)`; the same bytes are also read whole into memory and
/// decoded from there (the baseline of the throughput ratio), and NDJSON is decoded in parallel
/// against sequentially. Every child reports one `STREAM-RESULT` line.
@main
struct StreamBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream-bench",
        abstract: "Streaming ingestion: 1 GiB through a pipe (peak RSS, MB/s against in-memory), parallel NDJSON.",
        subcommands: [Run.self, Generate.self, Decode.self, InMemory.self, Parallel.self, ParallelStream.self, Drain.self],
        defaultSubcommand: Run.self
    )
}

enum StreamLayout: String, ExpressibleByArgument, CaseIterable {
    case array, ndjson

    var format: GitHubIssueCorpus.Format { self == .array ? .array : .ndjson }
    var recordLayout: RecordDecoder<GHIssue>.Layout { self == .array ? .array : .ndjson }
}

/// How much the generator writes and how: the options `generate` and `run` share.
struct Source: ParsableArguments {
    @Option(help: "Megabytes (2^20 bytes) to generate (run: per layout).")
    var mib: Int = 1024

    @Option(help: "Distinct records generated once and written cyclically (0: generate every record as it is written).")
    var pool: Int = 4096
}

/// What every child prints: `STREAM-RESULT {json}`.
struct ChildResult: Codable {
    var bytes = 0
    var records = 0
    var seconds = 0.0
    var peakRSS = 0
    /// CPU time (user + system) of the measured part, which the machine's load disturbs less than wall time.
    var cpuSeconds: Double?
    /// Parallel: the sequential and parallel times (best of the runs) and the concurrency.
    var sequentialSeconds: Double?
    var parallelSeconds: Double?
    var concurrency: Int?
    /// Parallel: CPU time (all threads) of the sequential and parallel decodes (best of the runs).
    var sequentialCPU: Double?
    var parallelCPU: Double?
    /// Parallel: sequential over parallel time of each run's adjacent pair, in run order.
    var pairSpeedups: [Double]?

    static let resultLine = ResultLine(prefix: "STREAM-RESULT ")

    /// Prints the result line to standard output.
    func print() throws { try Self.resultLine.print(self) }
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// CPU time (user + system) of this process so far.
func cpuTime() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Counts the records delivered (the decoder has built each one by then).
final class Tally {
    var records = 0
    @inline(never) func add(_ issue: GHIssue) { records += 1 }
}

/// Counts a record on a worker thread (the decoder has built it by then), as `Tally.add` does.
@inline(never) func consume(_ issue: GHIssue) -> Int { 1 }

struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write the corpus to standard output, generated on the fly.")
    @Option(help: "array or ndjson.") var layout: StreamLayout = .ndjson
    @OptionGroup var source: Source

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        // Timed from the first write, as `decode` and `drain` are from the first byte: the record
        // pool is built before it.
        var start: Double?
        let (bytes, records) = try GitHubIssueCorpus().stream(
            targetBytes: source.mib << 20, format: layout.format, distinctRecords: source.pool > 0 ? source.pool : nil,
            to: STDOUT_FILENO, onFirstWrite: { start = now() })
        let result = ChildResult(bytes: bytes, records: records, seconds: start.map { now() - $0 } ?? 0,
                                 peakRSS: ProcessMemory.peakResident ?? 0)
        // Standard output carries the corpus: the result line goes to standard error.
        log(try ChildResult.resultLine.line(result))
    }
}

struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Decode records from standard input as they arrive.")
    @Option var layout: StreamLayout = .ndjson

    func run() throws {
        let tally = Tally()
        let cpu = cpuTime()
        // The mappings are compiled before the first byte, as the parallel form compiles them.
        JSONAdapter.prepare(GHIssue.self)
        let decoder = RecordDecoder(GHIssue.self, layout: layout.recordLayout) { tally.add($0) }
        try decoder.read(from: FileHandle.standardInput)
        // Timed from the first byte (`progress.seconds` counts from the first `feed`), not from this
        // process's start: the generator's start-up and record pool would otherwise be charged to
        // the pipe, while `in-memory` times only its decode. CPU time needs no such care: waiting
        // for the first byte costs none.
        let seconds = decoder.progress.seconds
        try ChildResult(bytes: decoder.progress.bytes, records: tally.records, seconds: seconds, peakRSS: ProcessMemory.peakResident ?? 0,
                    cpuSeconds: cpuTime() - cpu).print()
    }
}

/// Reads standard input to its end into one buffer.
func readAll() throws -> Data {
    var data = Data()
    let chunk = 1 << 22
    var buffer = [UInt8](repeating: 0, count: chunk)
    while true {
        let n = buffer.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, chunk) }
        if n == 0 { break }
        if n < 0 { if errno == EINTR { continue }; throw POSIXError(.EIO) }
        data.append(contentsOf: buffer[..<n])
    }
    return data
}

struct InMemory: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "in-memory", abstract: "Read standard input whole, then decode its records from the one buffer (timed).")
    @Option var layout: StreamLayout = .ndjson
    @Option(help: "Feed the buffer in chunks of this many bytes (0: in one call, as forEachRecord(in:) does).")
    var chunk = 0

    func run() throws {
        let data = try readAll()
        let tally = Tally()
        let start = now(), cpu = cpuTime()
        if chunk > 0 {
            let decoder = RecordDecoder(GHIssue.self, layout: layout.recordLayout) { tally.add($0) }
            try data.withUnsafeBytes { bytes in
                for offset in stride(from: 0, to: bytes.count, by: chunk) {
                    try decoder.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<min(offset + chunk, bytes.count)]))
                }
            }
            try decoder.finish()
        } else {
            try JSONAdapter.forEachRecord(GHIssue.self, from: data, layout: layout.recordLayout) { tally.add($0) }
        }
        try ChildResult(bytes: data.count, records: tally.records, seconds: now() - start, peakRSS: ProcessMemory.peakResident ?? 0,
                    cpuSeconds: cpuTime() - cpu).print()
    }
}

struct Parallel: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read NDJSON or an array whole, then decode it into an array sequentially and with modelsInParallel (alternating runs).")
    @Option(help: "Timed runs of each, alternating (best of each is reported, and each adjacent pair's speedup: on a 2-vCPU VM a vCPU's speed swings by 25 % from one second to the next).") var runs = 9
    @Option(help: "modelsInParallel's concurrency: the threads it cuts batches for, 16 per thread (default: active cores).")
    var concurrency = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "array or ndjson.") var layout: StreamLayout = .ndjson

    func run() throws {
        let data = try readAll()
        var sequential: [Double] = [], parallel: [Double] = [], sequentialCPU: [Double] = [], parallelCPU: [Double] = []
        var records = 0
        var pairs: [Double] = []
        for _ in 0..<runs {
            // Not quite the same work: the sequential baseline appends each model to one Array as
            // a user would, while modelsInParallel appends to a buffer per batch and joins them.
            var start = now(), cpu = cpuTime()
            var models: [GHIssue] = []
            try JSONAdapter.forEachRecord(GHIssue.self, from: data, layout: layout.recordLayout) { models.append($0) }
            sequential.append(now() - start)
            sequentialCPU.append(cpuTime() - cpu)
            records = models.count
            models = []
            start = now()
            cpu = cpuTime()
            let (parallelModels, _) = try JSONAdapter.modelsInParallel(GHIssue.self, from: data, layout: layout.recordLayout,
                                                                       concurrency: concurrency)
            parallel.append(now() - start)
            parallelCPU.append(cpuTime() - cpu)
            pairs.append(sequential.last! / parallel.last!)
            precondition(parallelModels.count == records, "parallel decoded \(parallelModels.count) of \(records)")
        }
        var result = ChildResult(bytes: data.count, records: records, seconds: 0, peakRSS: ProcessMemory.peakResident ?? 0)
        result.sequentialSeconds = sequential.min()
        result.parallelSeconds = parallel.min()
        result.concurrency = concurrency
        result.sequentialCPU = sequentialCPU.min()
        result.parallelCPU = parallelCPU.min()
        result.pairSpeedups = pairs
        try result.print()
    }
}

struct ParallelStream: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parallel-stream",
        abstract: "Decode NDJSON or an array from standard input (or --path) on every core with forEachRecordInParallel, each record counted on its worker.")
    @Option(help: "array or ndjson.") var layout: StreamLayout = .ndjson
    @Option(help: "Threads decoding (default: active cores).") var concurrency = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "The window, in MiB.") var windowMib = 8
    @Option(help: "Read this file by its path instead of standard input.") var path: String?
    @Flag(help: "The form that hands each record to the calling thread in input order, not the workers' form.") var onCaller = false

    func run() throws {
        let tally = Tally()
        let cpu = cpuTime()
        let progress = ProgressHandle()
        if onCaller {
            if let path {
                try JSONAdapter.forEachRecordInParallel(GHIssue.self, from: .file(path), layout: layout.recordLayout, progress: progress, windowBytes: windowMib << 20,
                                                        concurrency: concurrency) { tally.add($0) }
            } else {
                try JSONAdapter.forEachRecordInParallel(GHIssue.self, from: .standardInput, layout: layout.recordLayout, progress: progress, windowBytes: windowMib << 20,
                                                        concurrency: concurrency) { tally.add($0) }
            }
        } else {
            let count: @Sendable (inout Int, GHIssue) -> Void = { count, issue in count += consume(issue) }
            let states = if let path {
                try JSONAdapter.forEachRecordInParallel(GHIssue.self, from: .file(path), layout: layout.recordLayout, progress: progress, windowBytes: windowMib << 20,
                                                        concurrency: concurrency, makeState: { 0 }, count).states
            } else {
                try JSONAdapter.forEachRecordInParallel(GHIssue.self, from: .standardInput, layout: layout.recordLayout, progress: progress,
                                                        windowBytes: windowMib << 20, concurrency: concurrency, makeState: { 0 }, count).states
            }
            tally.records = states.reduce(0, +)
        }
        // Timed from the first byte, as `decode` is.
        let done = progress.current
        var result = ChildResult(bytes: done.bytes, records: tally.records, seconds: done.seconds,
                                 peakRSS: ProcessMemory.peakResident ?? 0, cpuSeconds: cpuTime() - cpu)
        result.concurrency = concurrency
        try result.print()
    }
}

struct Drain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read standard input to its end and discard it, as the decoder reads it: the pipe's own rate.")

    func run() throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer { buffer.deallocate() }
        // RecordDecoder.read(from:) enlarges a pipe to 1 MiB: so does this reader. (The decoder
        // first checks that its input is a FIFO and smaller, with F_GETPIPE_SZ; here it is the
        // pipe `run` made, at the default 64 KiB.) Glibc's module omits the Linux-only constant.
        let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ, <fcntl.h> with _GNU_SOURCE
        _ = fcntl(STDIN_FILENO, setPipeSize, Int32(1 << 20))
        let cpu = cpuTime()
        var start: Double?  // the first byte's arrival, as `decode` is timed
        var bytes = 0
        while true {
            let n = Glibc.read(STDIN_FILENO, buffer.baseAddress, buffer.count)
            if n == 0 { break }
            if n < 0 { if errno == EINTR { continue }; throw POSIXError(.EIO) }
            if start == nil { start = now() }
            bytes += n
        }
        try ChildResult(bytes: bytes, records: 0, seconds: start.map { now() - $0 } ?? 0, peakRSS: ProcessMemory.peakResident ?? 0,
                    cpuSeconds: cpuTime() - cpu).print()
    }
}
