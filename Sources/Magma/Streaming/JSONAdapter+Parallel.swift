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
    /// The input is cut into shards at record boundaries (an NDJSON line start; for an array or
    /// concatenated values, where a record's structure ends, found as the shards are taken, beside
    /// the decoding of those before); shards decode concurrently and are joined in order. With
    /// `.skip`, bad records are left out and reported. An array at a key path is read in one shard.
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
    ///     the decode runs (see ``ProgressHandle``): each shard's are added when it ends; nil for none.
    ///   - concurrency: Shards decoding at once; default the number of active cores.
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
                             concurrency: concurrency, minimumShardBytes: 256 * 1024, report: report)
    }

    static func modelsInParallel<M: JSONObjectModel & Sendable>(
        _ type: M.Type, from input: some JSONInputConvertible, layout: RecordDecoder<M>.Layout, options: DecodingOptions,
        errorPolicy: RecordDecoder<M>.ErrorPolicy, progress: ProgressHandle? = nil, concurrency: Int, minimumShardBytes: Int,
        report: DecodingReport? = nil
    ) throws -> (models: [M], skipped: SkippedRecords) {
        prepareGraph(of: M.self)
        return try recordsInParallel(from: input, layout: layout, codec: objectModelCodec(M.self), options: options,
                                     errorPolicy: errorPolicy, progress: progress, concurrency: concurrency,
                                     minimumShardBytes: minimumShardBytes, report: report)
    }

    /// The parallel decode of records read by `codec` (a model's, or a `Decodable` type's).
    static func recordsInParallel<M: Sendable>(
        from input: some JSONInputConvertible, layout: RecordDecoder<M>.Layout, codec: Codec<M>, options: DecodingOptions,
        errorPolicy: RecordDecoder<M>.ErrorPolicy, progress: ProgressHandle? = nil, concurrency: Int, minimumShardBytes: Int,
        report: DecodingReport? = nil
    ) throws -> (models: [M], skipped: SkippedRecords) {
        try input.jsonInput.withWholeText { data in
            try decodeShards(of: data, layout: layout, codec: codec, options: options, errorPolicy: errorPolicy, progress: progress,
                             concurrency: concurrency, minimumShardBytes: minimumShardBytes, report: report)
        }
    }

    private static func decodeShards<M: Sendable>(
        of data: UnsafeRawBufferPointer, layout: RecordDecoder<M>.Layout, codec: Codec<M>, options: DecodingOptions,
        errorPolicy: RecordDecoder<M>.ErrorPolicy, progress: ProgressHandle?, concurrency: Int, minimumShardBytes: Int,
        report: DecodingReport?
    ) throws -> (models: [M], skipped: SkippedRecords) {
        progress?.start()
        // Many more shards than cores: a core that finishes early takes the next one, so the
        // cores end together (with 4 per core, the last shard left one core idle for up to 1/8
        // of the run).
        let shardCount = max(1, min(concurrency * 16, data.count / minimumShardBytes + 1))
        let cuts = ShardCuts(data, layout: layout, options: options, count: shardCount)
        let results = ShardResults<M>(count: shardCount)
        // Read only, and by every shard until concurrentPerform returns.
        nonisolated(unsafe) let data = data
        let reports = report != nil
        @Sendable func decode(_ shard: ShardCuts.Shard) {
            let models = ShardBuffer<M>()
            let decoder = RecordDecoder(layout: layout, codec: codec, options: options,
                                        errorPolicy: errorPolicy, progress: nil, onSkip: nil) { models.append($0) }
            do {
                // A shard inside an array is read as an array of its own records.
                if shard.opens { try decoder.feed(ShardCuts.open) }
                if !shard.bytes.isEmpty { try decoder.feed(UnsafeRawBufferPointer(rebasing: data[shard.bytes])) }
                if shard.closes { try decoder.feed(ShardCuts.close) }
                try decoder.finish()
                if let progress {
                    progress.bytes.add(shard.extent.count, ordering: .relaxed)
                    progress.records.add(decoder.progressHandle.records.load(ordering: .relaxed), ordering: .relaxed)
                    progress.skipped.add(decoder.skipped.total, ordering: .relaxed)
                }
                var lines = LineCounter()
                lines.count(UnsafeRawBufferPointer(rebasing: data[shard.extent]), at: shard.extent.lowerBound)
                results.set(shard.index, .success(ShardResult(models: models, skipped: decoder.skipped,
                                                              report: reports ? decoder.report : nil, lines: lines,
                                                              records: models.count + decoder.skipped.total)))
            } catch {
                results.set(shard.index, .failure(error))
            }
        }
        // `concurrency` workers, each taking the next shard until none is left: concurrentPerform
        // over the shards themselves would run as many at once as the machine has cores, whatever
        // the caller asked for.
        DispatchQueue.concurrentPerform(iterations: min(max(concurrency, 1), shardCount)) { _ in
            while let shard = cuts.claim() { decode(shard) }
        }
        var shards: [ShardBuffer<M>] = []
        var skipped = SkippedRecords(limit: options.keptSkippedErrors)
        // The lines and records of the shards before this one (every shard before the first that
        // failed has its counts), and where the line the shard begins on starts.
        var linesBefore = 0, recordsBefore = 0, lineStart = 0
        for index in 0..<cuts.claimed {
            let shard = cuts.shard(index)
            func rebased(_ error: JSONError) -> JSONError {
                error.placed(inPartAt: shard.bytes.lowerBound, opens: shard.opens, lines: linesBefore, records: recordsBefore,
                             lineStart: lineStart)
            }
            let result: ShardResult<M>
            do {
                result = try results.get(index).get()
            } catch let error as JSONError {
                throw rebased(error)
            }
            shards.append(result.models)
            skipped.append(contentsOf: result.skipped.mapErrors(rebased))
            if let shardReport = result.report {
                report?.append(contentsOf: shardReport, recordsBefore: recordsBefore, cap: options.keptSkippedErrors, rebased) {
                    JSONError.placed(path: $0, opens: shard.opens, records: recordsBefore)
                }
            }
            linesBefore += result.lines.newlines
            recordsBefore += result.records
            if result.lines.newlines > 0 { lineStart = result.lines.lastLineStart }
        }
        return (ShardBuffer.join(shards), skipped)
    }
}

extension JSONError {
    /// The error of a part of a records input (a split, a shard, a batch) placed in the whole:
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
    /// The error of a part of a records input read on its own (a shard, a batch) placed in the
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

/// What one shard of a parallel decode gave: its records, its skipped records' errors (placed in
/// the shard), and what places the next shards' errors: the lines of its extent (its start to
/// the next shard's) and its records (delivered or skipped).
private struct ShardResult<M> {
    let models: ShardBuffer<M>
    let skipped: SkippedRecords
    /// What its records left out, when the caller asked for a report.
    let report: DecodingReport?
    let lines: LineCounter
    let records: Int
}

/// Per-shard results of a parallel decode, written from the shards' threads.
private final class ShardResults<M: Sendable>: @unchecked Sendable {
    private var results: [Result<ShardResult<M>, any Error>?]
    private let lock = Lock()
    init(count: Int) { results = Array(repeating: nil, count: count) }
    func set(_ shard: Int, _ result: Result<ShardResult<M>, any Error>) { lock.withLock { results[shard] = result } }
    func get(_ shard: Int) -> Result<ShardResult<M>, any Error> { lock.withLock { results[shard]! } }
}

/// One shard's records in a buffer grown here rather than an Array, so that joining the shards
/// moves the records into the result (a memcpy) instead of copying them (a retain of every
/// reference a record holds) and then destroying the shard arrays (a release of each): work done
/// on one core after the parallel part.
private final class ShardBuffer<M>: @unchecked Sendable {
    private var base: UnsafeMutablePointer<M>?
    private(set) var count = 0
    private var capacity = 0

    func append(_ value: M) {
        if count == capacity {
            capacity = max(64, capacity * 2)
            base = base?.moved(count: count, toCapacity: capacity) ?? .allocate(capacity: capacity)
        }
        (base! + count).initialize(to: value)
        count += 1
    }

    /// The records of `shards` in order, moved out (the shards are left empty).
    static func join(_ shards: [ShardBuffer<M>]) -> [M] {
        let total = shards.reduce(0) { $0 + $1.count }
        return [M](unsafeUninitializedCapacity: total) { buffer, initialized in
            for shard in shards where shard.count > 0 {
                (buffer.baseAddress! + initialized).moveInitialize(from: shard.base!, count: shard.count)
                initialized += shard.count
                shard.count = 0
            }
        }
    }

    deinit {
        base?.deinitialize(count: count)
        base?.deallocate()
    }
}
