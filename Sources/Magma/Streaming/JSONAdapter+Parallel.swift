import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension JSONAdapter {
    // MARK: Byte-range splits

    /// The records of one byte range of an NDJSON document, as a Hadoop-style line split: the
    /// range starts at the first line that begins at or after `range.lowerBound`, and ends with
    /// the line that begins before `range.upperBound` (finishing it even past the range). Ranges
    /// that tile the input visit every record exactly once.
    ///
    /// An error (skipped or thrown) carries its byte ``JSONError/offset`` in the whole document
    /// and its ``JSONError/column`` in its line. Its ``JSONError/line`` and
    /// ``JSONError/recordIndex`` are nil: a split does not read the lines before it, so only the
    /// offset places the error exactly (`modelsInParallel(_:ndjson:)`
    /// and ``forEachRecordInParallel(_:from:layout:options:errorPolicy:progress:ordered:windowBytes:concurrency:onSkip:_:)``
    /// add up the lines of the splits before and give every position).
    /// - Parameters:
    ///   - type: The record model.
    ///   - input: The whole NDJSON document (see ``JSONInput``); a file is mapped, and only the
    ///     split's pages are read.
    ///   - range: The byte range assigned to this worker.
    ///   - options: How to read each record.
    ///   - errorPolicy: Stop at the first bad record (default) or skip it.
    ///   - progress: Where to count the split's bytes (from its first line to the end of its
    ///     last), its records delivered and skipped, readable from another thread while it runs
    ///     (see ``ProgressHandle``); nil for none. Give each split its own handle.
    ///   - body: Called with each record of the split, in order.
    /// - Returns: The records skipped (``SkippedRecords``), placed as above.
    /// - Throws: The first bad record's error (with `.stop`), placed as above, or what `body` threw.
    ///
    /// ```swift
    /// try JSONAdapter.forEachRecord(GHIssue.self, from: .file(path), byteRange: split.start..<split.end) { try out.write($0) }
    /// ```
    @discardableResult
    public static func forEachRecord<M: JSONObjectModel>(_ type: M.Type, from input: some JSONInputConvertible, byteRange range: Range<Int>,
                                                   options: DecodingOptions = .init(),
                                                   errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop,
                                                   progress: ProgressHandle? = nil,
                                                   _ body: @escaping (M) throws -> Void) throws -> SkippedRecords {
        try forEachRecordOfSplit(input, range, body) { split, each in
            try forEachRecord(type, from: split, layout: .ndjson, options: options, errorPolicy: errorPolicy, progress: progress, each)
        }
    }

    /// Runs `decode` (a sequential decode calling its closure with each record) on the lines of a
    /// split, with `body` as its closure, and places its errors in the whole document (only the
    /// offset: the split's line and record counts start at its first line); an error `body`
    /// throws comes out as it was thrown.
    static func forEachRecordOfSplit<T>(_ input: some JSONInputConvertible, _ range: Range<Int>, _ body: @escaping (T) throws -> Void,
                                        decode: (UnsafeRawBufferPointer, @escaping (T) throws -> Void) throws -> SkippedRecords) throws -> SkippedRecords {
        try input.jsonInput.withWholeText { data in
            let lines = NDJSONSplit.lines(of: data, in: range)
            func placed(_ error: JSONError) -> JSONError { error.placed(after: lines.lowerBound, lines: nil, records: nil) }
            do {
                return try decode(UnsafeRawBufferPointer(rebasing: data[lines])) {
                    do { try body($0) } catch { throw CallerError(error: error) }
                }.mapErrors(placed)
            } catch let error as CallerError {
                throw error.error
            } catch let error as JSONError {
                throw placed(error)
            }
        }
    }

    // MARK: Parallel records

    /// Decodes the records of an NDJSON document, a top-level array or concatenated values on
    /// every core, and returns them in input order.
    ///
    /// The input is cut into batches at record boundaries as
    /// ``forEachRecordInParallel(_:from:layout:options:errorPolicy:progress:ordered:windowBytes:concurrency:onSkip:_:)``
    /// cuts it (an NDJSON line start; for an array or concatenated values, where a record's
    /// structure ends, found as the batches are taken, beside the decoding of those before);
    /// batches decode concurrently and their records are joined in order. With `.skip`, bad
    /// records are left out and reported. An array at a key path, or any input with comments
    /// allowed, is read by one decoder on the calling thread.
    ///
    /// ```swift
    /// let (issues, skipped) = try JSONAdapter.modelsInParallel(GHIssue.self, from: .file("issues.json"), layout: .array, errorPolicy: .skip)
    /// ```
    /// - Parameters:
    ///   - type: The record model.
    ///   - input: The records (see ``JSONInput``; a file is mapped, a handle read to its end).
    ///   - layout: How the records are laid out: `.ndjson`, `.array` or `.concatenated` (see
    ///     ``RecordDecoder/Layout``).
    ///   - options: How to read each record.
    ///   - errorPolicy: Stop at the first bad record (default; the first in input order is
    ///     thrown) or skip bad records.
    ///   - progress: Where to count bytes, records and skips, readable from another thread while
    ///     the decode runs (see ``ProgressHandle``): bytes as they are read, records as each
    ///     batch's are joined; nil for none.
    ///   - concurrency: Threads decoding at once; default the number of active cores.
    ///   - report: Where to note what the records left out on purpose (``DecodingReport``); nil for
    ///     nowhere. Each entry has its record's index in the document and its error placed there,
    ///     as a sequential ``RecordDecoder/report`` gives them; a skipped record leaves none. The
    ///     first entries of each list are kept, no more than the report's ``DecodingReport/limit``
    ///     and `options`' ``DecodingOptions/keptSkippedErrors``; every one is counted.
    /// - Returns: The records in order, and the records skipped (``SkippedRecords``), placed in the
    ///   whole document as the sequential decoder places them (line, column, byte offset, path
    ///   and record index).
    /// - Throws: The first bad record's error in input order (with `.stop`), placed the same way.
    public static func modelsInParallel<M: JSONObjectModel & Sendable>(
        _ type: M.Type, from input: some JSONInputConvertible, layout: RecordDecoder<M>.Layout, options: DecodingOptions = .init(),
        errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop, progress: ProgressHandle? = nil,
        concurrency: Int = ProcessInfo.processInfo.activeProcessorCount, report: DecodingReport? = nil
    ) throws -> (models: [M], skipped: SkippedRecords) {
        try modelsInParallel(type, from: input, layout: layout, options: options, errorPolicy: errorPolicy, progress: progress,
                             concurrency: concurrency, minimumBatchBytes: 256 * 1024, report: report)
    }

    static func modelsInParallel<M: JSONObjectModel & Sendable>(
        _ type: M.Type, from input: some JSONInputConvertible, layout: RecordDecoder<M>.Layout, options: DecodingOptions,
        errorPolicy: RecordDecoder<M>.ErrorPolicy, progress: ProgressHandle? = nil, concurrency: Int, minimumBatchBytes: Int,
        report: DecodingReport? = nil
    ) throws -> (models: [M], skipped: SkippedRecords) {
        prepareGraph(of: M.self)
        return try recordsInParallel(from: input, layout: layout, codec: objectModelCodec(M.self), options: options,
                                     errorPolicy: errorPolicy, progress: progress, concurrency: concurrency,
                                     minimumBatchBytes: minimumBatchBytes, report: report)
    }

    /// The parallel decode of records read by `codec` (a model's, or a `Decodable` type's): a
    /// parallel record stream over the bytes, its window unbounded (the input and every record are
    /// held anyway), in batches of at least `minimumBatchBytes`, many more than the workers, so
    /// that a worker that finishes early takes the next one and the workers end together.
    static func recordsInParallel<M: Sendable>(
        from input: some JSONInputConvertible, layout: RecordDecoder<M>.Layout, codec: Codec<M>, options: DecodingOptions,
        errorPolicy: RecordDecoder<M>.ErrorPolicy, progress: ProgressHandle? = nil, concurrency: Int, minimumBatchBytes: Int,
        report: DecodingReport? = nil
    ) throws -> (models: [M], skipped: SkippedRecords) {
        guard cutsInBatches(layout, options) else {
            var models: [M] = []
            let skipped = try recordsInParallelInOrder(from: input, layout: layout, codec: codec, options: options, errorPolicy: errorPolicy,
                                                       progress: progress, ordered: true, windowBytes: 0, concurrency: 1, report: report,
                                                       onSkip: nil) { models.append($0) }
            return (models, skipped)
        }
        return try input.jsonInput.withWholeText { data in
            let batchBytes = max(minimumBatchBytes, data.count / (max(concurrency, 1) * 16) + 1)
            // No more threads than batches: a small input is read on this thread alone.
            let workers = min(max(concurrency, 1), data.count / batchBytes + 1)
            return try ParallelRecordStream(descriptor: -1, memory: data, codec: codec, options: options, layout: layout,
                                            errorPolicy: errorPolicy, progress: progress, report: report, ordered: true,
                                            windowBytes: .max / 2, concurrency: workers, batchBytes: batchBytes).collect()
        }
    }
}

extension JSONError {
    /// The error of a part of a records input (a split, a batch) placed in the whole:
    /// the part begins at byte `offset`, after `lines` lines holding `records` records (nil when
    /// they are not known: the line and record index are then nil, not part-relative). Columns
    /// are within a line already.
    func placed(after offset: Int, lines: Int?, records: Int?) -> JSONError {
        var error = self
        error.offset = error.offset.map { $0 + offset }
        error.line = lines.flatMap { lines in error.line.map { $0 + lines } }
        error.recordIndex = records.flatMap { records in error.recordIndex.map { $0 + records } }
        return error
    }
}

extension JSONError {
    /// The error of a part of a records input read on its own (a batch) placed in the
    /// whole: the part's bytes begin at `start`, after `lines` newlines and `records` records, on
    /// a line that begins at `lineStart` (a part may begin mid-line). A part inside an array
    /// (`opens`) was read after a `[` of its own: its elements' indexes in paths start at 0.
    func placed(inPartAt start: Int, opens: Bool, lines: Int, records: Int, lineStart: Int) -> JSONError {
        let shift = start - (opens ? 1 : 0)
        var placed = placed(after: shift, lines: lines, records: records)
        if line == 1, let column { placed.column = column + shift - lineStart }
        placed.path = Self.placed(path: path, opens: opens, records: records)
        return placed
    }

    /// A path in a part (`$[3].id`) as a path in the whole: inside an array, an element's begins
    /// with its index in the part's array.
    static func placed(path: String, opens: Bool, records: Int) -> String {
        guard opens, path.hasPrefix("$["), let close = path.firstIndex(of: "]"),
              let index = Int(path[path.index(path.startIndex, offsetBy: 2)..<close]) else { return path }
        return "$[\(index + records)" + path[close...]
    }
}

/// Wraps an error the caller's body threw, so that it is not taken for (and placed as) a bad
/// record's error on its way out of a split or a parallel stream.
struct CallerError: Error {
    let error: any Error
}

/// Line splits of NDJSON byte ranges.
enum NDJSONSplit {
    /// The bytes of the lines a range owns: from the first line starting at or after its lower
    /// bound to the end of the last line starting before its upper bound.
    static func lines(of bytes: UnsafeRawBufferPointer, in range: Range<Int>) -> Range<Int> {
        let n = bytes.count
        let lower = min(max(range.lowerBound, 0), n), upper = min(max(range.upperBound, lower), n)
        let start = lineStart(atOrAfter: lower, in: bytes)
        guard start < upper else { return start..<start }
        return start..<lineStart(atOrAfter: upper, in: bytes)
    }

    /// The first offset at or after `offset` (within the bytes) where a line starts: a line
    /// starts there only if the byte before it ends a line. The count of the bytes if none does.
    static func lineStart(atOrAfter offset: Int, in bytes: UnsafeRawBufferPointer) -> Int {
        guard offset > 0 else { return 0 }
        guard offset < bytes.count, let base = bytes.baseAddress else { return bytes.count }
        guard let newline = memchr(base + offset - 1, 0x0A, bytes.count - offset + 1) else { return bytes.count }
        return UnsafeRawPointer(newline) - base + 1
    }
}
