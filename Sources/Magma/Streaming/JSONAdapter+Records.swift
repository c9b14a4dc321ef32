import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension JSONAdapter {
    // MARK: Data, files and handles

    /// Calls `body` with each record of a document laid out as `layout` says, one at a time,
    /// keeping none.
    /// - Parameters:
    ///   - type: The record model.
    ///   - data: The input.
    ///   - layout: How the records are laid out: a top-level array, an array at a key path, NDJSON,
    ///     or concatenated values.
    ///   - options: How to read each record.
    ///   - errorPolicy: Stop at the first bad record (default) or skip it.
    ///   - progress: Where to count bytes, records and skips, readable from another thread while
    ///     the stream runs (see ``ProgressHandle``); nil for none.
    ///   - body: Called with each record, in order.
    /// - Returns: The records skipped (none with `.stop`): the first errors and the counts (see ``SkippedRecords``).
    /// - Throws: As ``RecordDecoder/feed(_:)``.
    @discardableResult
    public static func forEachRecord<M: JSONObjectModel>(_ type: M.Type, in data: Data, layout: RecordDecoder<M>.Layout,
                                                   options: DecodingOptions = .init(),
                                                   errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop,
                                                   progress: ProgressHandle? = nil,
                                                   _ body: @escaping (M) throws -> Void) throws -> SkippedRecords {
        let decoder = RecordDecoder(type, layout: layout, options: options, errorPolicy: errorPolicy, progress: progress, onRecord: body)
        try decoder.feed(data)
        try decoder.finish()
        return decoder.skipped
    }

    /// Calls `body` with each record read from a file handle (a file, a pipe, standard input),
    /// in 256 KiB reads into one reused buffer: memory stays bounded by the largest record.
    /// - Parameters:
    ///   - type: The record model.
    ///   - handle: Where the bytes come from, read to its end.
    ///   - layout: How the records are laid out: a top-level array, an array at a key path, NDJSON,
    ///     or concatenated values.
    ///   - options: How to read each record.
    ///   - errorPolicy: Stop at the first bad record (default) or skip it.
    ///   - progress: Where to count bytes, records and skips, readable from another thread while
    ///     the stream runs (see ``ProgressHandle``); nil for none.
    ///   - body: Called with each record, in order.
    /// - Returns: The records skipped: the first errors and the counts (see ``SkippedRecords``).
    @discardableResult
    public static func forEachRecord<M: JSONObjectModel>(_ type: M.Type, from handle: FileHandle, layout: RecordDecoder<M>.Layout,
                                                   options: DecodingOptions = .init(),
                                                   errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop,
                                                   progress: ProgressHandle? = nil,
                                                   _ body: @escaping (M) throws -> Void) throws -> SkippedRecords {
        let decoder = RecordDecoder(type, layout: layout, options: options, errorPolicy: errorPolicy, progress: progress, onRecord: body)
        try decoder.read(from: handle)
        return decoder.skipped
    }

    /// Calls `body` with each record of the file at a path, one at a time, in bounded memory; as
    /// the `FileHandle` variant.
    /// - Parameters:
    ///   - type: The record model.
    ///   - path: The file's path.
    ///   - layout: How the records are laid out.
    ///   - options: How to read each record.
    ///   - errorPolicy: Stop at the first bad record (default) or skip it.
    ///   - progress: Where to count bytes, records and skips; nil for none.
    ///   - body: Called with each record, in order.
    /// - Returns: The records skipped: the first errors and the counts (see ``SkippedRecords``).
    /// - Throws: ``JSONError/Code/io`` when the file cannot be opened or read; otherwise as the
    ///   `FileHandle` variant.
    @discardableResult
    public static func forEachRecord<M: JSONObjectModel>(_ type: M.Type, atPath path: String, layout: RecordDecoder<M>.Layout,
                                                   options: DecodingOptions = .init(),
                                                   errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop,
                                                   progress: ProgressHandle? = nil,
                                                   _ body: @escaping (M) throws -> Void) throws -> SkippedRecords {
        let handle = FileHandle(fileDescriptor: try openForReading(path), closeOnDealloc: true)
        return try forEachRecord(type, from: handle, layout: layout, options: options, errorPolicy: errorPolicy,
                                 progress: progress, body)
    }

    // MARK: Envelopes

    /// Calls `body` with each record of the array at `keyPath` in an envelope object, one at a
    /// time, and returns the envelope's other fields decoded into `envelope`.
    ///
    /// ```swift
    /// struct Page: JSONModel {
    ///     var total = 0
    ///     static let jsonMapping = JSONMapping<Page> { Map(\.total, "total") }
    /// }
    /// let (page, _) = try JSONAdapter.forEachRecord(GHIssue.self, in: data, at: "data.items", envelope: Page.self) {
    ///     try store.insert($0)
    /// }
    /// ```
    /// - Parameters:
    ///   - type: The record model.
    ///   - data: The input: one JSON object.
    ///   - keyPath: Where the records' array is: `"items"`, or dotted, `"data.items"`.
    ///   - envelope: The model of the envelope's other fields (a mapping naming none is fine).
    ///   - options: How to read each record.
    ///   - errorPolicy: Stop at the first bad record (default) or skip it.
    ///   - progress: Where to count bytes, records and skips, readable from another thread while
    ///     the stream runs (see ``ProgressHandle``); nil for none.
    ///   - body: Called with each record, in order.
    /// - Returns: The envelope, and the records skipped (``SkippedRecords``).
    /// - Throws: As ``RecordDecoder/feed(_:)``; ``JSONError/Code/missingKey`` when the input has no
    ///   array at `keyPath`.
    @discardableResult
    public static func forEachRecord<M: JSONObjectModel, E: JSONObjectModel>(
        _ type: M.Type, in data: Data, at keyPath: String, envelope: E.Type, options: DecodingOptions = .init(),
        errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop, progress: ProgressHandle? = nil,
        _ body: @escaping (M) throws -> Void
    ) throws -> (envelope: E, skipped: SkippedRecords) {
        let decoder = RecordDecoder(type, at: keyPath, envelope: envelope, options: options, errorPolicy: errorPolicy, progress: progress, onRecord: body)
        try decoder.feed(data)
        try decoder.finish()
        // A stream that finished has its envelope: the envelope's object ended without an error.
        return (decoder.envelope(E.self)!, decoder.skipped)
    }

    /// The records of the array at `keyPath` in an envelope object read from a file handle (a
    /// file, a pipe, standard input) to its end, and the envelope; as the `Data` variant.
    /// - Parameters:
    ///   - type: The record model.
    ///   - handle: Where the bytes come from.
    ///   - keyPath: Where the records' array is.
    ///   - envelope: The model of the envelope's other fields.
    ///   - options: How to read each record.
    ///   - errorPolicy: Stop at the first bad record (default) or skip it.
    ///   - progress: Where to count bytes, records and skips, readable from another thread while
    ///     the stream runs (see ``ProgressHandle``); nil for none.
    ///   - body: Called with each record, in order.
    /// - Returns: The envelope, and the records skipped (``SkippedRecords``).
    /// - Throws: As the `Data` variant, and ``JSONError/Code/io`` when a read fails.
    @discardableResult
    public static func forEachRecord<M: JSONObjectModel, E: JSONObjectModel>(
        _ type: M.Type, from handle: FileHandle, at keyPath: String, envelope: E.Type, options: DecodingOptions = .init(),
        errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop, progress: ProgressHandle? = nil,
        _ body: @escaping (M) throws -> Void
    ) throws -> (envelope: E, skipped: SkippedRecords) {
        let decoder = RecordDecoder(type, at: keyPath, envelope: envelope, options: options, errorPolicy: errorPolicy, progress: progress, onRecord: body)
        try decoder.read(from: handle)
        return (decoder.envelope(E.self)!, decoder.skipped)
    }

    /// The records of a sequence of byte chunks that arrive asynchronously (an HTTP body, a
    /// socket), decoded as they come. Pulling a record pulls only as many chunks as it needs:
    /// a slow consumer slows the reads (back-pressure); nothing piles up.
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

    /// The records read from a file handle (a file, a pipe, `FileHandle.standardInput`) to its
    /// end, as an async sequence: each chunk is a blocking read on a Dispatch queue (see
    /// ``FileChunks``), pulled only when no decoded record is waiting, so memory stays bounded by
    /// the largest record.
    /// - Parameters:
    ///   - type: The record model.
    ///   - handle: Where the bytes come from.
    ///   - layout: How the records are laid out.
    ///   - options: How to read each record.
    ///   - errorPolicy: Stop at the first bad record (default) or skip it.
    ///   - progress: Where to count bytes, records and skips; nil for none.
    ///   - onSkip: Called with each skipped record's error (with `.skip`).
    /// - Returns: An async sequence of the records; iterating it throws as ``RecordDecoder/feed(_:)``,
    ///   and ``JSONError/Code/io`` when a read fails.
    public static func records<M: JSONObjectModel>(
        _ type: M.Type, from handle: FileHandle, layout: RecordDecoder<M>.Layout, options: DecodingOptions = .init(),
        errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop, progress: ProgressHandle? = nil,
        onSkip: ((JSONError) -> Void)? = nil
    ) -> AsyncRecords<M, FileChunks> {
        records(type, from: FileChunks(handle), layout: layout, options: options, errorPolicy: errorPolicy, progress: progress,
                onSkip: onSkip)
    }

    /// The records of the file at a path, as an async sequence; as the `FileHandle` variant. The
    /// file is opened when the iteration begins and closed when its iterator goes.
    /// - Parameters:
    ///   - type: The record model.
    ///   - path: The file's path.
    ///   - layout: How the records are laid out.
    ///   - options: How to read each record.
    ///   - errorPolicy: Stop at the first bad record (default) or skip it.
    ///   - progress: Where to count bytes, records and skips; nil for none.
    ///   - onSkip: Called with each skipped record's error (with `.skip`).
    /// - Returns: An async sequence of the records; iterating it throws ``JSONError/Code/io`` when
    ///   the file cannot be opened or read, and as ``RecordDecoder/feed(_:)``.
    public static func records<M: JSONObjectModel>(
        _ type: M.Type, atPath path: String, layout: RecordDecoder<M>.Layout, options: DecodingOptions = .init(),
        errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop, progress: ProgressHandle? = nil,
        onSkip: ((JSONError) -> Void)? = nil
    ) -> AsyncRecords<M, FileChunks> {
        records(type, from: FileChunks(path: path), layout: layout, options: options, errorPolicy: errorPolicy, progress: progress,
                onSkip: onSkip)
    }

    /// The records of the array at `keyPath` in an envelope object that arrives asynchronously;
    /// the envelope's other fields are decoded into `envelope`, readable from
    /// ``AsyncRecords/envelope(_:)`` once the sequence has ended.
    /// - Parameters:
    ///   - type: The record model.
    ///   - chunks: The bytes, in order.
    ///   - keyPath: Where the records' array is: `"items"`, or dotted, `"data.items"`.
    ///   - envelope: The model of the envelope's other fields.
    ///   - options: How to read each record.
    ///   - errorPolicy: Stop at the first bad record (default) or skip it.
    ///   - progress: Where to count bytes, records and skips, readable from another thread while
    ///     the stream runs (see ``ProgressHandle``); nil for none.
    /// - Returns: An async sequence of the records.
    public static func records<M: JSONObjectModel, E: JSONObjectModel, Chunks: AsyncSequence>(
        _ type: M.Type, from chunks: Chunks, at keyPath: String, envelope: E.Type, options: DecodingOptions = .init(),
        errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop, progress: ProgressHandle? = nil
    ) -> AsyncRecords<M, Chunks> where Chunks.Element: ContiguousBytes {
        AsyncRecords(chunks: chunks) {
            RecordDecoder(type, at: keyPath, envelope: envelope, options: options, errorPolicy: errorPolicy, progress: progress, onRecord: $0)
        }
    }
}

extension RecordDecoder {
    /// Feeds everything a file handle (a file, a pipe, standard input) holds, then finishes: 256
    /// KiB reads into one reused buffer, so memory stays bounded by the largest record.
    /// - Parameter handle: Where the bytes come from, read to its end.
    /// - Throws: As ``feed(_:)`` and ``finish()``; ``JSONError/Code/io`` when a read fails.
    public func read(from handle: FileHandle) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer { buffer.deallocate() }
        let descriptor = handle.fileDescriptor
        RecordDecoder.enlargePipeBuffer(descriptor)
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw JSONError(.io, "cannot read: \(String(cString: strerror(errno)))")
            }
            try feed(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
        try finish()
    }

    /// A pipe's kernel buffer is 64 KiB by default: the writer and this reader then take turns every
    /// 64 KiB, and on a busy machine each turn may wait for a core. Asks for 1 MiB (the unprivileged
    /// limit, /proc/sys/fs/pipe-max-size); best effort, nothing changes if refused.
    static func enlargePipeBuffer(_ descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else { return }
        // F_SETPIPE_SZ / F_GETPIPE_SZ (Linux, <fcntl.h> with _GNU_SOURCE, which Glibc's module omits).
        let setPipeSize: Int32 = 1031, getPipeSize: Int32 = 1032
        if fcntl(descriptor, getPipeSize) < 1 << 20 { _ = fcntl(descriptor, setPipeSize, Int32(1 << 20)) }
    }
}
