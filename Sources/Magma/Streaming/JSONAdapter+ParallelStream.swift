import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension JSONAdapter {
    // MARK: Parallel record streams

    /// Calls `body` with each record of an NDJSON input, a top-level array or concatenated values
    /// (a file, a pipe, standard input, bytes in memory), decoding on every core in memory bounded
    /// by a window.
    ///
    /// Worker threads read the input in batches of whole lines (NDJSON in a regular file or bytes
    /// in memory by byte ranges, a pipe or chunks in turns) or of whole records (an array or
    /// concatenated values, in turns: each worker reading finds where the records of its batch end,
    /// by their structure), each batch on the thread that decodes it; `body` runs on
    /// the calling thread, in input order (or, with `ordered: false`, in the order the batches
    /// finish). A batch is read only while the bytes read and not yet delivered (with the records
    /// decoded from them) stay within `windowBytes`: memory is bounded by the window, not by the
    /// input. A line or record longer than a batch is read whole. Where an array cannot be cut
    /// further (at its end, or where something other than a comma stands between two records),
    /// the last batch's decoder reads on to the end of the input, and reports what is wrong as
    /// the sequential decoder does. With comments allowed (a block comment may run past a line's
    /// end or hide a bracket), or an array at a key path, one decoder reads the input on the
    /// calling thread.
    ///
    /// ```swift
    /// let progress = ProgressHandle()
    /// let skipped = try JSONAdapter.forEachRecordInParallel(GHIssue.self, from: .standardInput, errorPolicy: .skip,
    ///                                                       progress: progress) { issue in
    ///     counts[issue.state, default: 0] += 1
    /// }
    /// ```
    ///
    /// Errors are placed in the whole input as the sequential decoder places them: line, column,
    /// byte offset, record index, and an element's index in its path. With `.stop`, the records
    /// before the first bad record (in input order) are delivered, then its error is thrown, as
    /// ``forEachRecord(_:from:layout:options:errorPolicy:progress:_:)`` does; unordered, records
    /// of later lines that were decoded before the error was found may have been delivered too.
    /// With `.skip`, `onSkip` gets every skipped record's error, placed, as it comes (the returned
    /// ``SkippedRecords`` keeps only the first ones). The function returns once its threads have
    /// ended (a read under way is waited for).
    /// - Parameters:
    ///   - type: The record model.
    ///   - input: The records (see ``JSONInput``), read to its end (a handle stays open).
    ///   - layout: How the records are laid out: `.ndjson` (default), `.array` or `.concatenated`
    ///     (see ``RecordDecoder/Layout``).
    ///   - options: How to read each record.
    ///   - errorPolicy: Stop at the first bad record (default) or skip it.
    ///   - progress: Where to count bytes read, records delivered and records skipped, readable
    ///     from another thread while the stream runs (see ``ProgressHandle``); nil for none.
    ///   - ordered: Deliver the records in input order (default); `false` delivers each batch as
    ///     soon as it is decoded (the records of one batch stay in order).
    ///   - windowBytes: The most input bytes read and not yet delivered. Default 8 MiB.
    ///   - concurrency: Threads decoding at once; default the number of active cores.
    ///   - onSkip: Called on the calling thread with each skipped record's error, in input order:
    ///     ordered, between the records before it and after it; unordered, once the batches
    ///     before its own are decoded.
    ///   - body: Called on the calling thread with each record.
    /// - Returns: The records skipped (``SkippedRecords``), in input order.
    /// - Throws: The first bad record's error (with `.stop`), ``JSONError/Code/io`` when a read
    ///   fails (after every record before it), or what `body` threw.
    @discardableResult
    public static func forEachRecordInParallel<M: JSONObjectModel & Sendable>(
        _ type: M.Type, from input: some JSONInputConvertible, layout: RecordDecoder<M>.Layout = .ndjson,
        options: DecodingOptions = .init(), errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop, progress: ProgressHandle? = nil,
        ordered: Bool = true, windowBytes: Int = 8 << 20, concurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
        onSkip: ((JSONError) -> Void)? = nil, _ body: (M) throws -> Void
    ) throws -> SkippedRecords {
        // Its plans (nested models' included) compiled first, on this thread: no worker waits
        // while another compiles one.
        prepareGraph(of: M.self)
        return try recordsInParallelInOrder(from: input, layout: layout, codec: objectModelCodec(M.self), options: options,
                                            errorPolicy: errorPolicy, progress: progress, ordered: ordered, windowBytes: windowBytes,
                                            concurrency: concurrency, onSkip: onSkip, body)
    }

    /// The ordered forms' work, for a model's codec or a `Decodable` type's: the records of a
    /// stream that may be cut in batches from the parallel stream, the others (and
    /// `modelsInParallel`'s) from one decoder on this thread. What the records left out goes to
    /// `report`, placed in the whole input.
    static func recordsInParallelInOrder<T: Sendable>(
        from input: some JSONInputConvertible, layout: RecordDecoder<T>.Layout, codec: Codec<T>, options: DecodingOptions,
        errorPolicy: RecordDecoder<T>.ErrorPolicy, progress: ProgressHandle?, ordered: Bool, windowBytes: Int, concurrency: Int,
        report: DecodingReport? = nil, onSkip: ((JSONError) -> Void)?, _ body: (T) throws -> Void
    ) throws -> SkippedRecords {
        guard cutsInBatches(layout, options) else {
            return try withoutActuallyEscaping(body) {
                let decoder = RecordDecoder(layout: layout, codec: codec, options: options, errorPolicy: errorPolicy, progress: progress,
                                            onSkip: onSkip, onRecord: $0)
                try decoder.read(from: input)
                report?.append(contentsOf: decoder.report, recordsBefore: 0, cap: options.keptSkippedErrors, { $0 }) { $0 }
                return decoder.skipped
            }
        }
        return try input.jsonInput.withBytesOrDescriptor { descriptor, memory in
            try ParallelRecordStream<T>(descriptor: descriptor, memory: memory, codec: codec, options: options, layout: layout,
                                      errorPolicy: errorPolicy, progress: progress, report: report, ordered: ordered,
                                      windowBytes: windowBytes, concurrency: concurrency).run(onSkip: onSkip, body)
        }
    }
}

extension JSONAdapter {
    // MARK: Parallel record streams, records handled on the workers

    /// Calls `body` on every core with each record of an NDJSON input, a top-level array or
    /// concatenated values (a file, a pipe, standard input, bytes in memory), each thread with a
    /// state of its own, in memory bounded by a window; returns the states.
    ///
    /// The fastest form for a job that folds its records into a result (counts, sums, a batch
    /// insert per thread): a record is decoded, given to `body` and freed on one thread, and no
    /// record crosses threads. Each worker thread makes its state with `makeState`, reads a batch
    /// of whole lines or records (as the form above reads them) and decodes
    /// it, calling `body` with each record as soon as it is decoded (see `.stop` below), the
    /// batch's records in input order. Batches run concurrently: records of different batches
    /// come in no set order, and `body` must be safe to call from several threads at once (it is
    /// `@Sendable`; the state it updates is its thread's own). Merge the states when the function
    /// returns:
    ///
    /// ```swift
    /// let (counts, skipped) = try JSONAdapter.forEachRecordInParallel(
    ///     GHIssue.self, from: .standardInput, errorPolicy: .skip, makeState: { [GHIssue.State: Int]() }
    /// ) { count, issue in
    ///     count[issue.state, default: 0] += 1
    /// }
    /// let total = counts.reduce(into: [:]) { $0.merge($1, uniquingKeysWith: +) }
    /// ```
    ///
    /// Errors are placed in the whole input as the sequential decoder places them: line, column,
    /// byte offset and record index. With `.stop`, a batch's records go to `body` only once every
    /// batch before it has been decoded without an error: every record before the first bad line
    /// (in input order) is given to `body`, none after it, then its error is thrown, as
    /// ``forEachRecord(_:from:layout:options:errorPolicy:progress:_:)`` does. When `body` throws,
    /// no batch is begun after it, the other threads end the batch they are giving to `body`, and
    /// its error is thrown as it was thrown. A batch is read only while the bytes read and not
    /// yet given to `body` (with their records) stay within `windowBytes`. The function returns
    /// once its threads have ended (a read under way is waited for). With comments allowed, or an
    /// array at a key path, one decoder reads the input on the calling thread, with one state.
    /// - Parameters:
    ///   - type: The record model.
    ///   - input: The records (see ``JSONInput``), read to its end (a handle stays open).
    ///   - layout: How the records are laid out: `.ndjson` (default), `.array` or `.concatenated`
    ///     (see ``RecordDecoder/Layout``).
    ///   - options: How to read each record.
    ///   - errorPolicy: Stop at the first bad record (default) or skip it.
    ///   - progress: Where to count bytes read, records given to `body` and records skipped,
    ///     readable from another thread while the stream runs (see ``ProgressHandle``); nil for none.
    ///   - windowBytes: The most input bytes read and not yet given to `body`. Default 8 MiB.
    ///   - concurrency: Threads decoding at once; default the number of active cores.
    ///   - makeState: Makes a thread's state, on that thread, before its first record.
    ///   - body: Called on a worker thread with that thread's state and each record.
    /// - Returns: One state per worker thread (`concurrency` of them, in no set order), and the
    ///   records skipped (``SkippedRecords``), in input order.
    /// - Throws: The first bad record's error (with `.stop`), ``JSONError/Code/io`` when a read
    ///   fails (after every record before it), or what `body` threw.
    public static func forEachRecordInParallel<M: JSONObjectModel & SendableMetatype, State>(
        _ type: M.Type, from input: some JSONInputConvertible, layout: RecordDecoder<M>.Layout = .ndjson,
        options: DecodingOptions = .init(), errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop, progress: ProgressHandle? = nil,
        windowBytes: Int = 8 << 20, concurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
        makeState: @escaping @Sendable () -> State, _ body: @escaping @Sendable (inout State, M) throws -> Void
    ) throws -> (states: [State], skipped: SkippedRecords) {
        guard cutsInBatches(layout, options) else {
            var state = makeState()
            let skipped = try forEachRecord(type, from: input, layout: layout, options: options, errorPolicy: errorPolicy,
                                            progress: progress) { try body(&state, $0) }
            return ([state], skipped)
        }
        return try input.jsonInput.withBytesOrDescriptor { descriptor, memory in
            let stream = ParallelRecordStream<M>(descriptor: descriptor, memory: memory, layout: layout, options: options, errorPolicy: errorPolicy,
                                               progress: progress, ordered: false, windowBytes: windowBytes, concurrency: concurrency)
            return try ParallelWorkerRun(stream: stream, makeState: makeState, body: body).run()
        }
    }
}

extension JSONAdapter {
    /// Whether a parallel stream may cut the input into batches: not with comments (a block
    /// comment may run past a line's end, or hide a bracket), nor for an array at a key path.
    static func cutsInBatches<M>(_ layout: RecordDecoder<M>.Layout, _ options: DecodingOptions) -> Bool {
        if case .nested = layout.kind { return false }
        return !options.allowComments
    }
}
