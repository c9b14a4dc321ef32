import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension JSONAdapter {
    // MARK: Bytes, files, handles and chunks

    /// Calls `body` with each record of the input, laid out as `layout` says, one at a time,
    /// keeping none. A file or a handle (a pipe, standard input) is read in 256 KiB pieces into
    /// one reused buffer: memory stays bounded by the largest record.
    ///
    /// ```swift
    /// try JSONAdapter.forEachRecord(GHIssue.self, from: .file("issues.ndjson"), layout: .ndjson) { try store.insert($0) }
    /// ```
    /// - Parameters:
    ///   - type: The record model.
    ///   - input: The JSON (see ``JSONInput``).
    ///   - layout: How the records are laid out: a top-level array, an array at a key path, NDJSON,
    ///     or concatenated values.
    ///   - options: How to read each record.
    ///   - errorPolicy: Stop at the first bad record (default) or skip it.
    ///   - progress: Where to count bytes, records and skips, readable from another thread while
    ///     the stream runs (see ``ProgressHandle``); nil for none.
    ///   - body: Called with each record, in order.
    /// - Returns: The records skipped (none with `.stop`): the first errors and the counts (see ``SkippedRecords``).
    /// - Throws: As ``RecordDecoder/feed(_:)``; ``JSONError/Code/io`` when a file cannot be opened or read.
    @discardableResult
    public static func forEachRecord<M: JSONObjectModel>(_ type: M.Type, from input: some JSONInputConvertible,
                                                         layout: RecordDecoder<M>.Layout, options: DecodingOptions = .init(),
                                                         errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop,
                                                         progress: ProgressHandle? = nil,
                                                         _ body: @escaping (M) throws -> Void) throws -> SkippedRecords {
        let decoder = RecordDecoder(type, layout: layout, options: options, errorPolicy: errorPolicy, progress: progress, onRecord: body)
        try decoder.read(from: input)
        return decoder.skipped
    }

    /// The records of a sequence of byte chunks that arrive asynchronously (an HTTP body, a
    /// socket, a file or a pipe through ``FileChunks``), decoded as they come. Pulling a record
    /// pulls only as many chunks as it needs: a slow consumer slows the reads (back-pressure);
    /// nothing piles up.
    ///
    /// ```swift
    /// for try await issue in JSONAdapter.records(GHIssue.self, from: FileChunks(.standardInput), layout: .ndjson) {
    ///     await store.insert(issue)
    /// }
    /// ```
    /// - Parameters:
    ///   - type: The record model.
    ///   - chunks: The bytes, in order.
    ///   - layout: How the records are laid out: a top-level array, an array at a key path, NDJSON,
    ///     or concatenated values.
    ///   - options: How to read each record.
    ///   - errorPolicy: Stop at the first bad record (default) or skip it.
    ///   - progress: Where to count bytes, records and skips, readable from another thread while
    ///     the stream runs (see ``ProgressHandle``); nil for none.
    ///   - onSkip: Called with each skipped record's error (with `.skip`).
    /// - Returns: An async sequence of the records.
    public static func records<M: JSONObjectModel, Chunks: AsyncSequence>(
        _ type: M.Type, from chunks: Chunks, layout: RecordDecoder<M>.Layout, options: DecodingOptions = .init(),
        errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop, progress: ProgressHandle? = nil,
        onSkip: ((JSONError) -> Void)? = nil
    ) -> AsyncRecords<M, Chunks> where Chunks.Element: ContiguousBytes {
        AsyncRecords(chunks: chunks) {
            RecordDecoder(type, layout: layout, options: options, errorPolicy: errorPolicy, progress: progress, onSkip: onSkip,
                          onRecord: $0)
        }
    }
}

extension RecordDecoder {
    /// Feeds everything an input holds, then finishes: a file or a handle (a pipe, standard
    /// input) in 256 KiB reads into one reused buffer, so memory stays bounded by the largest
    /// record.
    ///
    /// ```swift
    /// try decoder.read(from: .standardInput)
    /// ```
    /// - Parameter input: The JSON (see ``JSONInput``), read to its end.
    /// - Throws: As ``feed(_:)`` and ``finish()``; ``JSONError/Code/io`` when a read fails.
    public func read(from input: some JSONInputConvertible) throws {
        try input.jsonInput.forEachPiece { try feed($0) }
        try finish()
    }
}
