// Records from an AsyncSequence of ByteBuffer (Hummingbird's and Vapor's request bodies,
// AsyncHTTPClient's response body): each buffer is fed to the library's async record stream as a
// view of its readable bytes, in place.
#if NIO
import Magma
import NIOCore
import NIOFoundationCompat

/// The readable bytes of each buffer of a sequence, as the library's record streams take them.
public typealias ByteBufferChunks<Buffers: AsyncSequence> = AsyncMapSequence<Buffers, ByteBufferView>
    where Buffers.Element == ByteBuffer

extension JSONAdapter {
    /// The models of a stream of buffers, as an async sequence: records in bounded memory across
    /// buffer boundaries, with the layout, error policy and progress of
    /// `JSONAdapter.records(_:from:layout:…)` over any chunks of bytes.
    ///
    /// ```swift
    /// let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    /// for try await issue in JSONAdapter.records(Issue.self, from: response.body, layout: .ndjson) { … }
    /// ```
    /// - Parameters:
    ///   - type: The record model.
    ///   - buffers: The bytes, in order (each buffer's readable bytes).
    ///   - layout: How the records are laid out: NDJSON, a top-level array, an array at a key
    ///     path, or concatenated values.
    ///   - options: How to read each record; ``DecodingOptions/maxRecordLength`` bounds each record.
    ///   - errorPolicy: Stop at the first bad record (default) or skip it.
    ///   - progress: Where to count bytes, records and skips; nil for none.
    ///   - onSkip: Called with each skipped record's error (with `.skip`).
    /// - Returns: An async sequence of the records; iterating it throws ``JSONError`` for a bad
    ///   record (with `.stop`) or a syntax error in an array, and whatever the buffers throw.
    public static func records<M: JSONObjectModel, Buffers: AsyncSequence>(
        _ type: M.Type, from buffers: Buffers, layout: RecordDecoder<M>.Layout, options: DecodingOptions = .init(),
        errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop, progress: ProgressHandle? = nil,
        onSkip: ((JSONError) -> Void)? = nil
    ) -> AsyncRecords<M, ByteBufferChunks<Buffers>> where Buffers.Element == ByteBuffer {
        records(type, from: buffers.map(\.readableBytesView), layout: layout, options: options, errorPolicy: errorPolicy,
                progress: progress, onSkip: onSkip)
    }

    /// The `Decodable` records of a stream of buffers, each read as `decoder` reads a document;
    /// as the model variant.
    /// - Parameters:
    ///   - type: The record type.
    ///   - buffers: The bytes, in order (each buffer's readable bytes).
    ///   - layout: How the records are laid out.
    ///   - decoder: How to read each record; its ``MagmaDecoder/options`` give the limits.
    ///   - errorPolicy: Stop at the first bad record (default) or skip it.
    ///   - progress: Where to count bytes, records and skips; nil for none.
    ///   - onSkip: Called with each skipped record's error (with `.skip`).
    /// - Returns: An async sequence of the records; iterating it throws as the model variant's does.
    public static func records<T: Decodable, Buffers: AsyncSequence>(
        _ type: T.Type, from buffers: Buffers, layout: RecordDecoder<T>.Layout, decoder: MagmaDecoder,
        errorPolicy: RecordDecoder<T>.ErrorPolicy = .stop, progress: ProgressHandle? = nil,
        onSkip: ((JSONError) -> Void)? = nil
    ) -> AsyncRecords<T, ByteBufferChunks<Buffers>> where Buffers.Element == ByteBuffer {
        records(type, from: buffers.map(\.readableBytesView), layout: layout, decoder: decoder, errorPolicy: errorPolicy,
                progress: progress, onSkip: onSkip)
    }
}
#endif
