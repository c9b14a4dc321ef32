import Corpus
import Foundation
@_spi(Benchmarks) import Magma

/// How long and how often each system runs.
struct TimingPolicy: Codable {
    /// Timed runs at least this many times...
    var minRuns = 3
    /// ...and for at least this long (seconds), unless `maxRuns` is reached first.
    var minSeconds = 1.5
    var maxRuns = 500
    /// Warm-up: at least one untimed run, more until this many seconds have passed.
    var warmupSeconds = 0.2
    /// Child processes each for Magma and for the yajl ceiling, run in alternation, best kept.
    var alternatingRounds = 3
}

/// Keeps results observable so the optimizer cannot drop a run.
nonisolated(unsafe) var resultSink = 0

/// Measures `body` in this process: warm-up, timed runs (best and median), one run with
/// allocations counted, and the process's peak memory. `body` returns a count (records or bytes)
/// that is kept observable.
///
/// Run it in a process of its own for a peak-memory figure that belongs to one system alone:
/// the orchestrator runs `compare --child` once per system and corpus.
///
/// `prepare` runs before every run, untimed (Magma's: empty the URL cache, so that no run finds
/// the URLs an earlier run of the same bytes parsed).
func measureRuns(system: String, policy: TimingPolicy, baselineResident: Int?, prepare: () -> Void = {},
                 _ body: () throws -> Int) -> SystemResult {
    var result = SystemResult(system: system)
    result.baselineResidentBytes = baselineResident
    do {
        let warmupStart = ContinuousClock.now
        prepare()
        resultSink &+= try body()
        while (ContinuousClock.now - warmupStart).seconds < policy.warmupSeconds {
            prepare()
            resultSink &+= try body()
        }
        var samples: [Double] = []
        let start = ContinuousClock.now
        while samples.count < policy.maxRuns {
            prepare()
            let t0 = ContinuousClock.now
            resultSink &+= try body()
            samples.append((ContinuousClock.now - t0).seconds)
            if samples.count >= policy.minRuns && (ContinuousClock.now - start).seconds >= policy.minSeconds { break }
        }
        samples.sort()
        result.runs = samples.count
        result.bestSeconds = samples[0]
        result.medianSeconds = samples[samples.count / 2]
        if AllocationCounting.isWorking {
            var counted = 0
            prepare()
            let count = try AllocationCounting.measure { counted = try body() }
            resultSink &+= counted
            result.allocations = count.allocations
            result.allocatedBytes = count.bytes
        }
    } catch {
        result.error = String(describing: error)
    }
    result.peakResidentBytes = ProcessMemory.peakResident
    return result
}

/// Decoding `input` with `system`.
func measureDecode(_ system: DecodeSystem, kind: CorpusKind, input: CorpusInput, policy: TimingPolicy) -> SystemResult {
    var records: Int?
    let magma = [.magma, .magmaMap, .magmaText, .magmaYajl, .magmaDecoder].contains(system)
    var result = measureRuns(system: system.rawValue, policy: policy, baselineResident: ProcessMemory.resident,
                             prepare: magma ? { URLCacheControl.clearThisThread() } : {}) {
        let count = try kind.decodeCount(system, input)
        records = count
        return count
    }
    result.records = system == .yajl ? nil : records
    return result
}

/// Encoding the models of `input` (decoded once by JSONDecoder, before anything is measured).
func measureEncode(_ system: EncodeSystem, kind: CorpusKind, input: CorpusInput, policy: TimingPolicy) -> SystemResult {
    let workload: EncodeWorkload
    do {
        workload = try kind.prepareEncoding(input)
    } catch {
        var failed = SystemResult(system: system.rawValue)
        failed.error = String(describing: error)
        return failed
    }
    var outputBytes = 0
    var result = measureRuns(system: system.rawValue, policy: policy, baselineResident: ProcessMemory.resident) {
        outputBytes = try workload.encode(system)
        return outputBytes
    }
    result.records = workload.records
    result.outputBytes = outputBytes
    return result
}

extension Duration {
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) * 1e-18
    }
}
