// The fuzz harness of the streaming record API (RecordDecoder and the NDJSON entry points): the
// corner FuzzHarness.swift (model decoding) does not reach, where the error policy, the layout,
// the limits and the chunking meet. Public API only (but for the parallel decode's shard size and
// the parallel stream's batch size, so that a small input is cut into many), compiled as FuzzHarness.swift is (into the Magma
// module by scripts/fuzz.sh with -D MAGMA_FUZZ, or through the symlink
// Tests/MagmaTests/RecordFuzzHarness.swift to replay Fuzz/regressions/records/).
//
// Input layout: byte 0 and byte 1 are a header, the rest is the stream.
//   byte 0  bits 0-2  chunk size: whole buffer, 1, 2, 3, 7, 64, 4096, 65536
//           bits 3-4  layout: array, NDJSON, concatenated, array at "items" in an envelope
//           bit  5    errorPolicy = .skip
//           bit  6    maxTokenLength = 16
//   byte 1  bits 0-2  maxDepth: 512, 1, 2, 3, 4, 8, 32, 4096
//           bit  3    allowComments
//           bit  4    duplicateKeys = .reject
// Invariants (a violation is a finding), each with a class name:
//   foreign-error   every error is a JSONError, the handler's own errors aside (none here);
//   offset          every error (skipped or thrown) has an offset within the input;
//   chunk-outcome   the chunked stream gives the same records, skipped errors and error (code,
//                   message, path, offset, line, column, record index) as the whole buffer;
//   progress        progress counts the records delivered and skipped, and every byte fed;
//   ndjson-line     an NDJSON line gives one record or one error, never both: records and
//                   errors together are at most the non-blank lines (exactly, with .skip and no
//                   error thrown); not checked with comments allowed, where a line of a comment
//                   alone gives nothing and a block comment may run on past its line's end;
//   parallel        the parallel decoder, cut into shards of a few bytes, gives the sequential
//                   decoder's records and errors, in every layout;
//   stream          so does the parallel stream (`forEachRecordInParallel`), read in batches of
//                   a few bytes, where it cuts the input (not an envelope, nor with comments);
//                   its records and `onSkip` calls come interleaved as the sequential decoder's.
// MAGMA_FUZZ_IGNORE (comma-separated class names) stops checking known classes.
#if !MAGMA_FUZZ
@testable import Magma
#endif

import Foundation
#if !MAGMA_FUZZ
import Magma
#endif

@JSONModel
struct FuzzStreamRecord: Equatable, Sendable {
    let id: Int
    var name: String?
    var tags: [String] = []
    var score: Double?
    @Key("meta.any") var any: JSONValue = .null
}

@JSONModel
struct FuzzStreamEnvelope: Equatable {
    var total = 0
}

struct RecordFuzzCase {
    static let chunkSizes = [0, 1, 2, 3, 7, 64, 4096, 65536]
    static let depths = [512, 1, 2, 3, 4, 8, 32, 4096]
    static let layouts: [RecordDecoder<FuzzStreamRecord>.Layout] = [.array, .ndjson, .concatenated, .array(at: "items")]

    let input: [UInt8]
    let chunkSize: Int
    let layoutIndex: Int
    let policy: RecordDecoder<FuzzStreamRecord>.ErrorPolicy
    let options: DecodingOptions

    init(_ bytes: [UInt8]) {
        let h0 = bytes.count > 0 ? bytes[0] : 0
        let h1 = bytes.count > 1 ? bytes[1] : 0
        input = Array(bytes.dropFirst(2))
        chunkSize = Self.chunkSizes[Int(h0 & 7)]
        layoutIndex = Int(h0 >> 3) & 3
        policy = h0 & 0x20 != 0 ? .skip : .stop
        var options = DecodingOptions()
        if h0 & 0x40 != 0 { options.maxTokenLength = 16 }
        options.maxDepth = Self.depths[Int(h1 & 7)]
        options.allowComments = h1 & 8 != 0
        if h1 & 0x10 != 0 { options.duplicateKeys = .reject }
        if h1 & 0x20 != 0 { options.maxRecordLength = 64 }
        self.options = options
    }

    struct Outcome {
        var records: [FuzzStreamRecord] = []
        var skipped = SkippedRecords()
        var error: (any Error)?
        var progress: (records: Int, skipped: Int, bytes: Int) = (0, 0, 0)
        /// The records' ids and the skipped records' errors, interleaved as they came.
        var log: [String] = []
    }

    static func summary(_ error: JSONError) -> String {
        "\(error.code) \(error.message) path=\(error.path) offset=\(error.offset ?? -1) line=\(error.line ?? -1) "
            + "column=\(error.column ?? -1) record=\(error.recordIndex ?? -1)"
    }

    func stream(chunkSize: Int) -> Outcome {
        var outcome = Outcome()
        var records: [FuzzStreamRecord] = []
        var log: [String] = []
        let layout = Self.layouts[layoutIndex]
        let decoder: RecordDecoder<FuzzStreamRecord>
        let onSkip = { (error: JSONError) in log.append(Self.summary(error)) }
        let onRecord = { (record: FuzzStreamRecord) in
            records.append(record)
            log.append("record \(record.id)")
        }
        if layoutIndex == 3 {
            decoder = RecordDecoder(FuzzStreamRecord.self, layout: .array(at: "items", envelope: Envelope(FuzzStreamEnvelope.self)),
                                    options: options, errorPolicy: policy, onSkip: onSkip, onRecord: onRecord)
        } else {
            decoder = RecordDecoder(FuzzStreamRecord.self, layout: layout, options: options, errorPolicy: policy, onSkip: onSkip,
                                    onRecord: onRecord)
        }
        do {
            if chunkSize == 0 {
                try decoder.feed(input)
            } else {
                var start = 0
                while start < input.count {
                    try decoder.feed(Array(input[start..<min(start + chunkSize, input.count)]))
                    start += chunkSize
                }
            }
            try decoder.finish()
        } catch {
            outcome.error = error
        }
        outcome.records = records
        outcome.log = log
        outcome.skipped = decoder.skipped
        let progress = decoder.progress
        outcome.progress = (progress.records, progress.skipped, progress.bytes)
        return outcome
    }

    /// The broken invariants, as `[class] detail` lines (empty: none).
    func check() -> [String] {
        let ignored = Set((ProcessInfo.processInfo.environment["MAGMA_FUZZ_IGNORE"] ?? "").split(separator: ",").map(String.init))
        var violations: [String] = []
        func violate(_ kind: String, _ detail: @autoclosure () -> String) {
            if !ignored.contains(kind) { violations.append("[\(kind)] \(detail())") }
        }
        let whole = stream(chunkSize: 0)
        let outcomes = chunkSize == 0 ? [whole] : [whole, stream(chunkSize: chunkSize)]
        var errors: [JSONError] = []
        for outcome in outcomes {
            errors += outcome.skipped
            if let error = outcome.error {
                if let error = error as? JSONError { errors.append(error) } else { violate("foreign-error", "\(error)") }
            }
            if outcome.progress.records != outcome.records.count || outcome.progress.skipped != outcome.skipped.total {
                violate("progress", "progress \(outcome.progress) for \(outcome.records.count) records, \(outcome.skipped.total) skipped")
            }
            if outcome.error == nil, outcome.progress.bytes != input.count {
                violate("progress", "progress.bytes \(outcome.progress.bytes) of \(input.count)")
            }
        }
        for error in errors where !(error.offset.map { $0 >= 0 && $0 <= input.count } ?? false) {
            violate("offset", "offset \(error.offset.map(String.init) ?? "nil") of \(input.count): \(error)")
        }
        if outcomes.count == 2 {
            let (a, b) = (outcomes[0], outcomes[1])
            let same = a.records == b.records && a.skipped.map(Self.summary) == b.skipped.map(Self.summary)
                && (a.error as? JSONError).map(Self.summary) == (b.error as? JSONError).map(Self.summary)
            if !same {
                violate("chunk-outcome", "chunked \(chunkSize): records \(b.records.map(\.id)) skipped \(b.skipped.map(Self.summary)) "
                        + "error \(b.error.map { "\($0)" } ?? "none") / whole: records \(a.records.map(\.id)) "
                        + "skipped \(a.skipped.map(Self.summary)) error \(a.error.map { "\($0)" } ?? "none")")
            }
        }
        if layoutIndex == 1, !options.allowComments {
            let lines = input.split(separator: 0x0A, omittingEmptySubsequences: false)
                .filter { $0.contains { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D } }.count
            // `total`: the skipped list keeps only the first `keptSkippedErrors`.
            let given = whole.records.count + whole.skipped.total + (whole.error == nil ? 0 : 1)
            if given > lines || (policy == .skip && whole.error == nil && given != lines) {
                violate("ndjson-line", "\(lines) non-blank lines gave \(whole.records.count) records, \(whole.skipped.total) skipped, "
                        + "error \(whole.error.map { "\($0)" } ?? "none")")
            }
        }
        // In parallel, cut into shards of a few bytes: the same records and errors as one decoder.
        do {
            let layout = layoutIndex == 3 ? .array(at: "items", envelope: Envelope(FuzzStreamEnvelope.self)) : Self.layouts[layoutIndex]
            let parallel = try JSONAdapter.modelsInParallel(FuzzStreamRecord.self, from: Data(input), layout: layout, options: options,
                                                            errorPolicy: policy, concurrency: 2, minimumBatchBytes: 8)
            if parallel.models != whole.records || parallel.skipped.map(Self.summary) != whole.skipped.map(Self.summary)
                || whole.error != nil {
                violate("parallel", "parallel \(parallel.models.map(\.id)) \(parallel.skipped.map(Self.summary)) / sequential "
                        + "\(whole.records.map(\.id)) \(whole.skipped.map(Self.summary)) \(whole.error.map { "\($0)" } ?? "")")
            }
        } catch let error as JSONError {
            if (whole.error as? JSONError).map(Self.summary) != Self.summary(error) {
                violate("parallel", "parallel threw \(Self.summary(error)) / sequential \(whole.error.map { "\($0)" } ?? "none")")
            }
        } catch {
            violate("foreign-error", "parallel: \(error)")
        }
        if layoutIndex != 3, !options.allowComments {
            let layout = Self.layouts[layoutIndex]
            var records: [FuzzStreamRecord] = []
            var log: [String] = []
            do {
                let skipped = try input.withUnsafeBytes { memory in
                    try ParallelRecordStream<FuzzStreamRecord>(descriptor: -1, memory: memory, layout: layout, options: options,
                                                             errorPolicy: policy, progress: nil, ordered: true, windowBytes: 64,
                                                             concurrency: 2, batchBytes: 8).run(onSkip: { log.append(Self.summary($0)) }) {
                        records.append($0)
                        log.append("record \($0.id)")
                    }
                }
                if records != whole.records || skipped.map(Self.summary) != whole.skipped.map(Self.summary) || whole.error != nil {
                    violate("stream", "stream \(records.map(\.id)) \(skipped.map(Self.summary)) / sequential "
                            + "\(whole.records.map(\.id)) \(whole.skipped.map(Self.summary)) \(whole.error.map { "\($0)" } ?? "")")
                }
            } catch let error as JSONError {
                if (whole.error as? JSONError).map(Self.summary) != Self.summary(error) || records != whole.records {
                    violate("stream", "stream threw \(Self.summary(error)) after \(records.map(\.id)) / sequential "
                            + "\(whole.error.map { "\($0)" } ?? "none") after \(whole.records.map(\.id))")
                }
            } catch {
                violate("foreign-error", "stream: \(error)")
            }
            if log != whole.log {
                violate("stream", "stream's records and onSkip \(log) / sequential \(whole.log)")
            }
        }
        return violations
    }
}
