import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One run of `forEachRecordInParallel` or `modelsInParallel`: worker threads read the input in
/// batches of whole lines or records, each batch on the thread that decodes it (in turns, or
/// NDJSON in a file by byte ranges: see ParallelRecordStream+Reads.swift), and the calling
/// thread delivers their records (`run`), or decodes beside them and joins them (`collect`). A
/// batch inside an array is read as an array of its own (`[` + its records + `]`), and its
/// errors placed in the whole input (`Placement`).
///
/// All state below `monitor` is read and written under it; every change is broadcast. The
/// window counts bytes: a worker takes a batch's worth before reading it, and the caller gives
/// a batch's bytes back once its records are delivered, so `inFlight` (bytes read, not yet
/// delivered) never passes `windowBytes`, except for a line or record longer than a batch, read
/// whole, and the rest of the input after an array's last cut (a tail, read a chunk at a time).
final class ParallelRecordStream<M: SendableMetatype>: @unchecked Sendable {
    /// A run of whole lines (or whole records), `start` bytes into the input.
    struct Batch {
        let sequence: Int
        let start: Int
        /// The window bytes it holds (its bytes are in the buffer of the worker that read it).
        var held: Int
        /// A range of a file that could not be read: the batch fails with it.
        var failure: JSONError?
        /// Records cut by their structure: the batch's records end here, before the separator
        /// after them (nil: the decoder reads every byte of the batch).
        var recordsEnd: Int?
        /// A batch of an array's records: its decoder reads `[` before it (but the first, which
        /// holds the array's own), and `]` after it (if it was cut before the array's end).
        var inArray = false
        var opens: Bool { inArray && sequence > 0 }
        var closes: Bool { inArray && recordsEnd != nil }
        /// The input could not be cut after it (the array ends, or something other than a
        /// separator stands between two records): its decoder reads on to the end of the input.
        var tail = false
    }

    /// A decoded batch: its records, its skipped records' errors and its failure (placed in the
    /// batch), and its lines and records, to place the next batches' errors.
    struct Decoded {
        let batch: Batch
        let models: RecordBuffer<M>
        let skipped: SkippedRecords
        /// What its records left out, when the caller asked for a report.
        var report: DecodingReport?
        /// With an `onSkip` handler, every skipped record's error, after how many of `models`.
        var skips: [(models: Int, error: JSONError)] = []
        let failure: (any Error)?
        let counts: Counts
    }

    /// A batch's lines and records, and where in it its last line begins (nil where it holds no
    /// newline; the end of an NDJSON batch, whose lines are whole).
    struct Counts {
        var lines = 0, records = 0
        var lastLineStart: Int?
    }

    /// Places the errors of the batches, taken in input order, in the whole input.
    struct Placement {
        private var lines = 0, records = 0, lineStart = 0

        /// Places the errors of `batch`, the next batch in input order.
        func placer(for batch: Batch) -> (JSONError) -> JSONError {
            { [lines, records, lineStart] in
                $0.placed(inPartAt: batch.start, opens: batch.opens, lines: lines, records: records, lineStart: lineStart)
            }
        }

        /// Adds the batch's skipped records to `skipped` and throws its failure, placed; then
        /// adds what its records left out to `report`, and counts its lines and records for the next.
        mutating func place(_ decoded: Decoded, into skipped: inout SkippedRecords, report: DecodingReport? = nil,
                            progress: ProgressHandle?) throws {
            let batch = decoded.batch, placed = placer(for: batch)
            skipped.append(contentsOf: decoded.skipped.mapErrors(placed))
            progress?.skipped.add(decoded.skipped.total, ordering: .relaxed)
            if let failure = decoded.failure { throw (failure as? JSONError).map(placed) ?? failure }
            if let batchReport = decoded.report {
                report?.append(contentsOf: batchReport, recordsBefore: records, cap: skipped.limit, placed) { [records] in
                    JSONError.placed(path: $0, opens: batch.opens, records: records)
                }
            }
            self.lines += decoded.counts.lines
            self.records += decoded.counts.records
            if let last = decoded.counts.lastLineStart { self.lineStart = batch.start + last }
        }
    }

    let descriptor: Int32
    /// The input when it is bytes in memory (`descriptor` is then -1): read as a regular file is
    /// (NDJSON), or as a pipe is (records cut by their structure).
    let memory: UnsafeRawBufferPointer?
    /// How each record is read (a model's codec, or a `Decodable` type's through a MagmaDecoder).
    let codec: Codec<M>
    let options: DecodingOptions
    /// NDJSON, a top-level array or concatenated values (see `JSONAdapter.cutsInBatches`).
    let layout: RecordDecoder<M>.Layout
    let policy: RecordDecoder<M>.ErrorPolicy
    let progress: ProgressHandle?
    /// Where to note what the records left out (each batch's, placed in the whole input).
    private let report: DecodingReport?
    private let ordered: Bool
    private let windowBytes: Int
    let batchBytes: Int
    /// NDJSON in a regular file is read by the workers themselves, each batch a range of `batchBytes` of it
    /// (see ParallelRecordStream+Reads.swift), with no reader thread: where the input begins in
    /// the file and its size.
    let file: (base: Int, size: Int)?
    let concurrency: Int

    let monitor = NSCondition()
    var inFlight = 0
    /// The most `inFlight` has been (tests check it against the window).
    var peakInFlight = 0
    /// A pipe: a worker is reading (one at a time), and the start of the line the last read
    /// ended in, its bytes (in `inFlight` already) and its offset in the input.
    var reading = false
    var carry: [UInt8] = []
    var carryStart = 0
    /// An array or concatenated values: how the reading worker finds where records end (nil for
    /// NDJSON); and the bytes of an input in memory read so far (these are read in turns too).
    var steps: RecordSteps?
    var memoryRead = 0
    private var decoded: [Int: Decoded] = [:]
    /// Batches claimed by the workers, and whether the input has ended (at the end of the input, a failed
    /// read in `readError`, or a stop).
    var emitted = 0
    var readEnded = false
    var readError: JSONError?
    /// The first batch (in input order) known to have failed: nothing after it is read or decoded.
    var failedAt = Int.max
    /// The caller has stopped (an error is on its way out): every thread ends.
    var stopped = false
    var running = 0

    /// - Parameter batchBytes: The bytes each batch reads; default a quarter of the window per
    ///   thread, so that every thread has a batch and the next ones are read while they decode.
    init(descriptor: Int32, memory: UnsafeRawBufferPointer? = nil, codec: Codec<M>, options: DecodingOptions,
         layout: RecordDecoder<M>.Layout = .ndjson, errorPolicy: RecordDecoder<M>.ErrorPolicy, progress: ProgressHandle?,
         report: DecodingReport? = nil, ordered: Bool, windowBytes: Int, concurrency: Int, batchBytes: Int? = nil) {
        self.descriptor = descriptor
        self.memory = memory
        self.codec = codec
        self.options = options
        self.layout = layout
        policy = errorPolicy
        self.progress = progress
        self.report = report
        self.ordered = ordered
        self.windowBytes = max(windowBytes, 1)
        self.concurrency = max(concurrency, 1)
        self.batchBytes = batchBytes ?? min(max(4096, windowBytes / (4 * max(concurrency, 1))), 4 << 20)
        // Records cut by their structure are read in turns (each cut needs the bytes before it).
        if layout.kind != .ndjson {
            steps = RecordSteps(commas: layout.kind == .array)
            file = nil
        } else {
            file = memory.map { (0, $0.count) } ?? Self.regularFile(descriptor)
        }
        if let file, file.size == 0 { readEnded = true }
    }

    /// Starts `threads` threads running `work` (`concurrency`, or one fewer where the caller's
    /// thread is a worker too: it is counted as running, and ends itself).
    func start(threads: Int? = nil, workers work: @escaping @Sendable () -> Void) {
        if file == nil, memory == nil { JSONInput.enlargePipeBuffer(descriptor) }
        running = concurrency
        for _ in 0..<(threads ?? concurrency) { Thread { [self] in work(); ended() }.start() }
    }

    /// Called on the caller's thread with each skipped record's error, placed, in input order
    /// (ordered, just before the record after it).
    private var onSkip: ((JSONError) -> Void)?

    /// Starts the workers, delivers every record to `body` (and every skipped record's error to
    /// `onSkip`), and returns once every thread has ended.
    func run(onSkip: ((JSONError) -> Void)? = nil, _ body: (M) throws -> Void) throws -> SkippedRecords where M: Sendable {
        self.onSkip = onSkip
        start { [self] in work() }
        defer { stopAndWait() }
        return try deliver(body)
    }

    /// Decodes every batch, this thread one of the workers, and returns every record in input
    /// order. Each batch's records are moved into the result, not copied: no reference a record
    /// holds is retained and released again on this one thread.
    func collect() throws -> (models: [M], skipped: SkippedRecords) where M: Sendable {
        progress?.start()
        start(threads: concurrency - 1) { [self] in work() }
        work()
        ended()
        monitor.lock()
        while running > 0 { monitor.wait() }
        monitor.unlock()
        var skipped = SkippedRecords(limit: options.keptSkippedErrors), placement = Placement()
        var batches: [RecordBuffer<M>] = []
        // Every batch claimed is decoded; none is claimed after the first that failed.
        for sequence in 0..<emitted {
            let batch = decoded[sequence]!
            try placement.place(batch, into: &skipped, report: report, progress: progress)
            progress?.records.add(batch.models.count, ordering: .relaxed)
            batches.append(batch.models)
        }
        if let readError { throw readError }
        return (RecordBuffer.join(batches), skipped)
    }

    /// Stops every thread and waits for each to end.
    func stopAndWait() {
        monitor.lock()
        stopped = true
        monitor.broadcast()
        while running > 0 { monitor.wait() }
        monitor.unlock()
        // A file read by ranges is left at its end, as reading it would leave it.
        if let file, memory == nil { lseek(descriptor, off_t(file.base + file.size), SEEK_SET) }
    }

    func ended() {
        monitor.lock()
        running -= 1
        monitor.broadcast()
        monitor.unlock()
    }

    // MARK: The caller's thread

    private func deliver(_ body: (M) throws -> Void) throws -> SkippedRecords {
        var skipped = SkippedRecords(limit: options.keptSkippedErrors)
        // The batches placed so far (in input order).
        var placedBatches = 0, placement = Placement()
        // Unordered: batches delivered but not yet placed (a batch before them is not decoded yet).
        var unplaced: [Int: Decoded] = [:]
        while true {
            monitor.lock()
            var next: Decoded?
            while true {
                if ordered {
                    next = decoded.removeValue(forKey: placedBatches)
                } else if let key = decoded.keys.min() {
                    next = decoded.removeValue(forKey: key)
                }
                if next != nil || (readEnded && placedBatches >= emitted) { break }
                monitor.wait()
            }
            let readError = readError, failedAt = failedAt
            monitor.unlock()
            guard let next else {
                if let readError { throw readError }
                return skipped
            }
            // Unordered, a batch after the first failure is dropped: the stream stops there.
            if next.batch.sequence <= failedAt {
                // Ordered, each skip is reported where it stood among the records.
                var skips = ordered ? next.skips[...] : []
                let placed = placement.placer(for: next.batch)
                for index in 0..<next.models.count {
                    while let skip = skips.first, skip.models == index {
                        onSkip?(placed(skip.error))
                        skips.removeFirst()
                    }
                    try body(next.models[index])
                    progress?.records.add(1, ordering: .relaxed)
                }
                for skip in skips { onSkip?(placed(skip.error)) }
            }
            release(next.batch.held)
            // Its records are gone; what places the next batches stays until its turn.
            unplaced[next.batch.sequence] = Decoded(batch: next.batch, models: RecordBuffer(), skipped: next.skipped,
                                                    report: next.report, skips: ordered ? [] : next.skips, failure: next.failure,
                                                    counts: next.counts)
            while let batch = unplaced.removeValue(forKey: placedBatches) {
                let placed = placement.placer(for: batch.batch)
                for skip in batch.skips { onSkip?(placed(skip.error)) }
                try placement.place(batch, into: &skipped, report: report, progress: progress)
                placedBatches += 1
            }
        }
    }

    func release(_ bytes: Int) {
        monitor.lock()
        inFlight -= bytes
        monitor.broadcast()
        monitor.unlock()
    }

    // MARK: The workers

    private func work() {
        var models = RecordBuffer<M>()
        var skips: [(models: Int, error: JSONError)] = []
        var decoder = makeDecoder({ models.append($0) }, onSkip: onSkip == nil ? nil : { skips.append((models.count, $0)) })
        let buffer = BatchBuffer()
        while let claimed = nextBatch() {
            let batch = read(claimed, into: buffer)
            let outcome = decode(batch, buffer, with: &decoder)
            let result = Decoded(batch: batch, models: models, skipped: outcome.skipped, report: report == nil ? nil : decoder.report,
                                 skips: skips, failure: outcome.failure, counts: outcome.counts)
            models = RecordBuffer()
            skips = []
            monitor.lock()
            decoded[batch.sequence] = result
            if outcome.failure != nil { failedAt = min(failedAt, batch.sequence) }
            monitor.broadcast()
            monitor.unlock()
        }
    }

    /// A worker's decoder, for all its batches (`decode` restarts it for each): its handler takes
    /// the records.
    func makeDecoder(_ onRecord: @escaping (M) throws -> Void, onSkip: ((JSONError) -> Void)? = nil) -> RecordDecoder<M> {
        RecordDecoder(layout: layout, codec: codec, options: options, errorPolicy: policy, progress: nil,
                      onSkip: onSkip, onRecord: onRecord)
    }

    /// Decodes a batch (its bytes read into its worker's buffer) on this thread with its worker's
    /// decoder, whose handler gets the records: the errors of its skipped records and its
    /// failure, placed in the batch, and its counts, to place the next batches' errors.
    func decode(_ batch: Batch, _ buffer: BatchBuffer, with decoder: inout RecordDecoder<M>)
        -> (skipped: SkippedRecords, failure: (any Error)?, counts: Counts) {
        if let failure = batch.failure { return (SkippedRecords(limit: 0), failure, Counts()) }
        // An NDJSON decoder begins again between lines; one that counts records by the structure
        // (an array's, or the values') is made anew.
        if layout.kind == .ndjson { decoder.restart() } else { decoder = makeDecoder(decoder.receiver.handler, onSkip: decoder.sink.onSkip) }
        var failure: (any Error)?
        do {
            if batch.opens { try decoder.feed(RecordSteps.open) }
            try decoder.feed(buffer[0..<(batch.recordsEnd ?? buffer.count)])
            if try !batch.tail || readTail(into: buffer, feeding: decoder) {
                if batch.closes { try decoder.feed(RecordSteps.close) }
                try decoder.finish()
            }
        } catch {
            failure = error
        }
        let decoded = decoder.lineCounts
        guard layout.kind != .ndjson else {
            return (decoder.skipped, failure, Counts(lines: decoded.lines, records: decoded.records,
                                                     lastLineStart: buffer.count > 0 ? buffer.count : nil))
        }
        // Records cut by their structure: the lines of the batch's bytes, separators included,
        // and its records delivered or skipped (a whole array in the bytes is read where it lies).
        var lines = LineCounter()
        lines.count(buffer.bytes, at: 0)
        return (decoder.skipped, failure, Counts(lines: lines.newlines, records: decoder.receiver.count + decoder.skipped.total,
                                                 lastLineStart: lines.newlines > 0 ? lines.lastLineStart : nil))
    }

    /// The next batch to decode; nil once there is none (the input has ended, or the stream stops).
    private func nextBatch() -> Batch? {
        monitor.lock()
        defer { monitor.unlock() }
        while true {
            if stopped { return nil }
            if let batch = claimLocked() { return batch }
            if readEnded { return nil }
            monitor.wait()
        }
    }

    /// Under the monitor: the next batch to read (without its bytes yet: `read` reads them), its
    /// window bytes taken; nil when there is none now: the window is full, another worker is
    /// reading the pipe, or the input has ended.
    func claimLocked() -> Batch? {
        guard !readEnded, !reading else { return nil }
        if failedAt != .max {
            readEnded = true
            return nil
        }
        // Alone in flight (the bytes of a line begun), a batch may pass the window.
        guard inFlight + batchBytes <= windowBytes || inFlight == carry.count else { return nil }
        let sequence = emitted
        emitted += 1
        inFlight += batchBytes
        peakInFlight = max(peakInFlight, inFlight)
        if let file {
            if emitted * batchBytes >= file.size { readEnded = true }
            return Batch(sequence: sequence, start: sequence * batchBytes, held: batchBytes)
        }
        reading = true
        return Batch(sequence: sequence, start: carryStart, held: batchBytes)
    }
}

extension ParallelRecordStream where M: JSONObjectModel {
    /// A stream of models, their plans (nested models' included) compiled first, on this thread:
    /// no worker waits while another compiles one.
    convenience init(descriptor: Int32, memory: UnsafeRawBufferPointer? = nil, layout: RecordDecoder<M>.Layout = .ndjson,
                     options: DecodingOptions, errorPolicy: RecordDecoder<M>.ErrorPolicy, progress: ProgressHandle?,
                     report: DecodingReport? = nil, ordered: Bool, windowBytes: Int, concurrency: Int, batchBytes: Int? = nil) {
        prepareGraph(of: M.self)
        self.init(descriptor: descriptor, memory: memory, codec: objectModelCodec(M.self), options: options, layout: layout,
                  errorPolicy: errorPolicy, progress: progress, report: report, ordered: ordered, windowBytes: windowBytes,
                  concurrency: concurrency, batchBytes: batchBytes)
    }
}
