import Corpus
import Foundation

/// One system's measurements on one corpus (what a child process reports).
struct SystemResult: Codable {
    /// `DecodeSystem` or `EncodeSystem` raw value.
    var system: String
    /// Timed runs (after warm-up).
    var runs: Int = 0
    var bestSeconds: Double = 0
    var medianSeconds: Double = 0
    /// Allocations during one run (malloc, calloc, realloc, aligned allocators).
    var allocations: UInt64?
    var allocatedBytes: UInt64?
    /// Records the system reported (nil for yajl, which builds nothing).
    var records: Int?
    /// Encoding: bytes of JSON written by one run.
    var outputBytes: Int?
    /// Peak resident memory of the process that ran only this system (VmHWM).
    var peakResidentBytes: Int?
    /// Resident memory before the first run: the input loaded (and, to encode, the models built).
    var baselineResidentBytes: Int?
    /// Set when the system could not run on this corpus.
    var error: String?

    /// The round with the faster best run, with the runs of both counted and the higher peak.
    func keepingBest(_ other: SystemResult) -> SystemResult {
        guard error == nil else { return other }
        guard other.error == nil else { return self }
        var kept = other.bestSeconds < bestSeconds ? other : self
        kept.runs = runs + other.runs
        kept.peakResidentBytes = [peakResidentBytes, other.peakResidentBytes].compactMap { $0 }.max()
        return kept
    }

    /// Megabytes (10^6 bytes) per second for the best run.
    func megabytesPerSecond(bytes: Int) -> Double? {
        error == nil && bestSeconds > 0 ? Double(bytes) / 1e6 / bestSeconds : nil
    }
}

/// The derived numbers of one row, as shown in the table and chart.
struct RowSummary: Codable {
    var system: String
    var title: String
    var megabytesPerSecond: Double?
    var medianMegabytesPerSecond: Double?
    /// Decoding: to JSONDecoder; encoding: to JSONEncoder (by time, as outputs differ in size).
    var ratioToFoundation: Double?
    /// Decoding only: share of the yajl no-op ceiling.
    var percentOfYajl: Double?
    var allocationsPerRecord: Double?
    var peakResidentBytes: Int?
    /// Peak minus the resident size before the first run.
    var peakOverBaselineBytes: Int?
    /// "same" or what went wrong.
    var validation: String
    var error: String?
}

/// Everything measured on one corpus.
struct CorpusReport: Codable {
    var name: String
    var path: String
    var kind: String
    var model: String
    var layout: Layout
    var bytes: Int
    var records: Int?
    var recordUnit: String
    var recordUnitPlural: String
    var decode: [SystemResult]
    var decodeSummary: [RowSummary] = []
    /// Encoding the models JSONDecoder built back to JSON (nil: skipped, or no model).
    var encode: [SystemResult]?
    var encodeSummary: [RowSummary]?
}

/// The whole run, as written to results/compare.json.
struct CompareReport: Codable {
    var generatedAt: String
    var host: Host
    var options: [String: String]
    var notes: [String]
    var corpora: [CorpusReport]

    struct Host: Codable {
        var cpu: String
        /// /proc/loadavg when the run ended: other work on the machine skews the timings.
        var loadAverage: String
        var cores: Int
        var memoryBytes: UInt64
        var os: String
    }
}
