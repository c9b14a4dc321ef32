// The record streams' entry points for `Decodable` records: those of JSONAdapter+Records.swift,
// JSONAdapter+Parallel.swift and JSONAdapter+ParallelStream.swift, with a `MagmaDecoder` in place
// of `DecodingOptions`.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension JSONAdapter {
    /// Calls `body` with each `Decodable` record of the input, one at a time, keeping none; as
    /// ``forEachRecord(_:from:layout:options:errorPolicy:progress:_:)`` does for models.
    ///
    /// ```swift
    /// try JSONAdapter.forEachRecord(Event.self, from: .standardInput, layout: .ndjson, decoder: MagmaDecoder()) { try sink.write($0) }
    /// ```
    /// - Parameters:
    ///   - type: The record type.
    ///   - input: The JSON (see ``JSONInput``).
    ///   - layout: How the records are laid out.
    ///   - decoder: How to read each record (strategies, user info, limits).
    ///   - errorPolicy: Stop at the first bad record (default) or skip it.
    ///   - progress: Where to count bytes, records and skips; nil for none.
    ///   - body: Called with each record, in order.
    /// - Returns: The records skipped (none with `.stop`): the first errors and the counts (see ``SkippedRecords``).
    /// - Throws: As ``RecordDecoder/feed(_:)``; ``JSONError/Code/io`` when a file cannot be opened or read.
    @discardableResult
    public static func forEachRecord<T: Decodable>(_ type: T.Type, from input: some JSONInputConvertible,
                                                   layout: RecordDecoder<T>.Layout, decoder: MagmaDecoder,
                                                   errorPolicy: RecordDecoder<T>.ErrorPolicy = .stop, progress: ProgressHandle? = nil,
                                                   _ body: @escaping (T) throws -> Void) throws -> SkippedRecords {
        let records = RecordDecoder(type, layout: layout, decoder: decoder, errorPolicy: errorPolicy, progress: progress, onRecord: body)
        try records.read(from: input)
        return records.skipped
    }

    /// The `Decodable` records of one byte range of an NDJSON document, as a line split; as
    /// ``forEachRecord(_:from:byteRange:options:errorPolicy:progress:_:)`` does for models.
    ///
    /// ```swift
    /// try JSONAdapter.forEachRecord(Event.self, from: .file(path), byteRange: split, decoder: MagmaDecoder()) { emit($0) }
    /// ```
    /// - Parameters:
    ///   - type: The record type.
    ///   - input: The whole NDJSON document (see ``JSONInput``; a file is mapped).
    ///   - range: The byte range assigned to this worker.
    ///   - decoder: How to read each record.
    ///   - errorPolicy: Stop at the first bad record (default) or skip it.
    ///   - progress: Where to count the split's bytes, records and skips; nil for none.
    ///   - body: Called with each record of the split, in order.
    /// - Returns: The records skipped (``SkippedRecords``), placed as the model variant places them (the
    ///   byte offset in the whole document, no line).
    /// - Throws: The first bad record's error (with `.stop`), placed the same way, or what `body` threw.
    @discardableResult
    public static func forEachRecord<T: Decodable>(_ type: T.Type, from input: some JSONInputConvertible, byteRange range: Range<Int>,
                                                   decoder: MagmaDecoder, errorPolicy: RecordDecoder<T>.ErrorPolicy = .stop,
                                                   progress: ProgressHandle? = nil,
                                                   _ body: @escaping (T) throws -> Void) throws -> SkippedRecords {
        try forEachRecordOfSplit(input, range, body) { split, each in
            try forEachRecord(type, from: split, layout: .ndjson, decoder: decoder, errorPolicy: errorPolicy, progress: progress, each)
        }
    }

    /// The `Decodable` records of a sequence of byte chunks, decoded as they come, with
    /// back-pressure; as the model variant.
    ///
    /// ```swift
    /// for try await event in JSONAdapter.records(Event.self, from: FileChunks(.standardInput), layout: .ndjson,
    ///                                            decoder: MagmaDecoder()) {
    ///     await store.insert(event)
    /// }
    /// ```
    /// - Parameters:
    ///   - type: The record type.
    ///   - chunks: The bytes, in order.
    ///   - layout: How the records are laid out.
    ///   - decoder: How to read each record.
    ///   - errorPolicy: Stop at the first bad record (default) or skip it.
    ///   - progress: Where to count bytes, records and skips; nil for none.
    ///   - onSkip: Called with each skipped record's error (with `.skip`).
    /// - Returns: An async sequence of the records.
    public static func records<T: Decodable, Chunks: AsyncSequence>(
        _ type: T.Type, from chunks: Chunks, layout: RecordDecoder<T>.Layout, decoder: MagmaDecoder,
        errorPolicy: RecordDecoder<T>.ErrorPolicy = .stop, progress: ProgressHandle? = nil, onSkip: ((JSONError) -> Void)? = nil
    ) -> AsyncRecords<T, Chunks> where Chunks.Element: ContiguousBytes {
        AsyncRecords(chunks: chunks) {
            RecordDecoder(type, layout: layout, decoder: decoder, errorPolicy: errorPolicy, progress: progress, onSkip: onSkip,
                          onRecord: $0)
        }
    }

    /// Decodes the `Decodable` records of an NDJSON document, a top-level array or concatenated
    /// values on every core and returns them in input order; as
    /// ``modelsInParallel(_:from:layout:options:errorPolicy:progress:concurrency:report:)`` does for models.
    ///
    /// ```swift
    /// let (events, _) = try JSONAdapter.modelsInParallel(Event.self, from: data, layout: .ndjson, decoder: MagmaDecoder())
    /// ```
    /// - Parameters:
    ///   - type: The record type.
    ///   - input: The records (see ``JSONInput``; a file is mapped, a handle read to its end).
    ///   - layout: `.ndjson`, `.array` or `.concatenated` (see ``RecordDecoder/Layout``).
    ///   - decoder: How to read each record.
    ///   - errorPolicy: Stop at the first bad record (default; the first in input order is
    ///     thrown) or skip bad records.
    ///   - progress: Where to count bytes, records and skips (bytes as they are read, records as each batch's are joined); nil for none.
    ///   - concurrency: Threads decoding at once; default the number of active cores.
    /// - Returns: The records in order, and the records skipped (``SkippedRecords``), placed in the whole document.
    /// - Throws: The first bad record's error in input order (with `.stop`).
    public static func modelsInParallel<T: Decodable & Sendable>(
        _ type: T.Type, from input: some JSONInputConvertible, layout: RecordDecoder<T>.Layout, decoder: MagmaDecoder,
        errorPolicy: RecordDecoder<T>.ErrorPolicy = .stop, progress: ProgressHandle? = nil,
        concurrency: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws -> (models: [T], skipped: SkippedRecords) {
        try recordsInParallel(from: input, layout: layout, codec: DecodableRecordCodec<T>(decoder), options: decoder.options,
                              errorPolicy: errorPolicy, progress: progress, concurrency: concurrency, minimumBatchBytes: 256 * 1024)
    }

    /// Calls `body` with each `Decodable` record of an NDJSON input, a top-level array or
    /// concatenated values (a file, a pipe, standard input, bytes in memory), decoding on every
    /// core in memory bounded by a window; as
    /// ``forEachRecordInParallel(_:from:layout:options:errorPolicy:progress:ordered:windowBytes:concurrency:onSkip:_:)``
    /// does for models (the same threads, batches, window and error placing).
    ///
    /// ```swift
    /// try JSONAdapter.forEachRecordInParallel(Event.self, from: .file("events.ndjson"), decoder: MagmaDecoder()) { try sink.write($0) }
    /// ```
    /// - Parameters:
    ///   - type: The record type.
    ///   - input: The records (see ``JSONInput``), read to its end (a handle stays open).
    ///   - layout: `.ndjson` (default), `.array` or `.concatenated` (see ``RecordDecoder/Layout``).
    ///   - decoder: How to read each record (strategies, user info, limits).
    ///   - errorPolicy: Stop at the first bad record (default) or skip it.
    ///   - progress: Where to count bytes read, records delivered and records skipped; nil for none.
    ///   - ordered: Deliver the records in input order (default), or as their batches finish.
    ///   - windowBytes: The most input bytes read and not yet delivered. Default 8 MiB.
    ///   - concurrency: Threads decoding at once; default the number of active cores.
    ///   - onSkip: Called on the calling thread with each skipped record's error, in input order
    ///     (ordered, between the records before and after it).
    ///   - body: Called on the calling thread with each record.
    /// - Returns: The records skipped (``SkippedRecords``), in input order.
    /// - Throws: The first bad record's error (with `.stop`), ``JSONError/Code/io`` when a file
    ///   cannot be opened or a read fails (after every record before it), or what `body` threw.
    @discardableResult
    public static func forEachRecordInParallel<T: Decodable & Sendable>(
        _ type: T.Type, from input: some JSONInputConvertible, layout: RecordDecoder<T>.Layout = .ndjson, decoder: MagmaDecoder,
        errorPolicy: RecordDecoder<T>.ErrorPolicy = .stop, progress: ProgressHandle? = nil, ordered: Bool = true,
        windowBytes: Int = 8 << 20, concurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
        onSkip: ((JSONError) -> Void)? = nil, _ body: (T) throws -> Void
    ) throws -> SkippedRecords {
        try recordsInParallelInOrder(from: input, layout: layout, codec: DecodableRecordCodec<T>(decoder), options: decoder.options,
                                     errorPolicy: errorPolicy, progress: progress, ordered: ordered, windowBytes: windowBytes,
                                     concurrency: concurrency, onSkip: onSkip, body)
    }
}
