// Hummingbird's request side: a RequestDecoder over MagmaDecoder for any Decodable, and the same
// reading for Magma's own models and for records streamed from a request body. The body is read
// in place (ByteBuffer, no Data); a bad one is a JSONBodyError, which Hummingbird answers with its
// status (400 or 413) and a JSON body that names the error and its place.
#if Hummingbird
import Hummingbird
import Magma
import MagmaNIO
import NIOCore
import NIOFoundationCompat

/// A Hummingbird `RequestDecoder` backed by ``MagmaDecoder``: chosen in a request context as
/// `JSONDecoder` is, it decodes any `Decodable` body in place, and its decoder's options also read
/// Magma's models (``Hummingbird/Request/decodeModel(as:context:)``) and record streams.
///
/// ```swift
/// struct AppContext: RequestContext {
///     var coreContext: CoreRequestContextStorage
///     init(source: Source) { coreContext = .init(source: source) }
///     var requestDecoder: MagmaRequestDecoder { MagmaRequestDecoder() }
///     var responseEncoder: MagmaResponseEncoder { MagmaResponseEncoder() }
/// }
/// ```
///
/// A body over the context's `maxUploadSize` is refused with 413: from its `Content-Length`
/// before a byte of it is read, or as soon as a body without one passes the limit. A malformed
/// body, or one its type refuses, is a 400 whose JSON body names the error, its path, line and
/// column (``JSONBodyError``).
public struct MagmaRequestDecoder: RequestDecoder, Sendable {
    /// How bodies are read: strategies for `Decodable` types, and ``MagmaDecoder/options`` (limits,
    /// null and unknown-key policies) for models and records too.
    public let decoder: MagmaDecoder

    /// Creates a request decoder.
    /// - Parameter decoder: How bodies are read; default `MagmaDecoder()`, `JSONDecoder`'s defaults.
    public init(_ decoder: MagmaDecoder = MagmaDecoder()) {
        self.decoder = decoder
    }

    /// Decodes a request's body.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - request: The request whose body is read, up to `context.maxUploadSize` bytes.
    ///   - context: The request context.
    /// - Returns: The value.
    /// - Throws: ``JSONBodyError`` for a body too large or malformed, or one `type` refuses.
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        let body = try await request.jsonBody(context: context)
        do {
            return try decoder.decode(type, from: body)
        } catch {
            throw JSONBodyError(reading: error) ?? error
        }
    }
}

extension Request {
    /// Decodes the body into a Magma model (`@JSONModel` or `Map`-declared), read in place with
    /// the options of the context's ``MagmaRequestDecoder`` (the defaults under any other decoder).
    ///
    /// ```swift
    /// router.post("issues") { request, context in
    ///     let issue = try await request.decodeModel(as: Issue.self, context: context)
    ///     …
    /// }
    /// ```
    /// - Parameters:
    ///   - type: The model.
    ///   - context: The request context, whose `maxUploadSize` bounds the body.
    /// - Returns: The model.
    /// - Throws: ``JSONBodyError`` (400 or 413) for a body too large or malformed, or one the model refuses.
    public func decodeModel<M: JSONObjectModel>(as type: M.Type, context: some RequestContext) async throws -> M {
        let body = try await jsonBody(context: context)
        do {
            return try JSONAdapter.model(type, from: body, options: context.magmaOptions)
        } catch {
            throw JSONBodyError(reading: error) ?? error
        }
    }

    /// The body's records as they arrive, in memory bounded by the largest record, however long
    /// the body: NDJSON lines, a top-level array or concatenated values, each record bounded by
    /// ``DecodingOptions/maxRecordLength``. The context's `maxUploadSize` does not apply: a stream has no
    /// length limit.
    ///
    /// ```swift
    /// var skipped: [JSONError] = []
    /// for try await event in request.records(Event.self, context: context, errorPolicy: .skip, onSkip: { skipped.append($0) }) {
    ///     try await store(event)
    /// }
    /// ```
    /// - Parameters:
    ///   - type: The record model.
    ///   - layout: How the records are laid out; default NDJSON.
    ///   - context: The request context, whose ``MagmaRequestDecoder`` gives the options.
    ///   - errorPolicy: Stop at the first bad record (default) or skip and report it.
    ///   - progress: Where to count bytes, records and skips; nil for none.
    ///   - onSkip: Called with each skipped record's error: its line, offset and reason.
    /// - Returns: The records; iterating throws ``JSONBodyError`` (400 or 413) for a bad record
    ///   (with `.stop`), a syntax error in an array, or a line over the record size limit.
    public func records<M: JSONObjectModel>(
        _ type: M.Type, layout: RecordDecoder<M>.Layout = .ndjson, context: some RequestContext,
        errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop, progress: ProgressHandle? = nil, onSkip: ((JSONError) -> Void)? = nil
    ) -> BodyRecords<AsyncRecords<M, ByteBufferChunks<RequestBody>>> {
        BodyRecords(JSONAdapter.records(type, from: body, layout: layout, options: context.magmaOptions, errorPolicy: errorPolicy,
                                        progress: progress, onSkip: onSkip))
    }

    /// The body's `Decodable` records as they arrive, each read as `decoder` reads a document; as
    /// the model variant.
    /// - Parameters:
    ///   - type: The record type.
    ///   - layout: How the records are laid out; default NDJSON.
    ///   - decoder: How to read each record; its ``MagmaDecoder/options`` give the limits.
    ///   - errorPolicy: Stop at the first bad record (default) or skip and report it.
    ///   - progress: Where to count bytes, records and skips; nil for none.
    ///   - onSkip: Called with each skipped record's error.
    /// - Returns: The records; iterating throws as the model variant's does.
    public func records<T: Decodable>(
        _ type: T.Type, layout: RecordDecoder<T>.Layout = .ndjson, decoder: MagmaDecoder,
        errorPolicy: RecordDecoder<T>.ErrorPolicy = .stop, progress: ProgressHandle? = nil, onSkip: ((JSONError) -> Void)? = nil
    ) -> BodyRecords<AsyncRecords<T, ByteBufferChunks<RequestBody>>> {
        BodyRecords(JSONAdapter.records(type, from: body, layout: layout, decoder: decoder, errorPolicy: errorPolicy,
                                        progress: progress, onSkip: onSkip))
    }

    /// The whole body, up to `context.maxUploadSize` bytes: refused from its `Content-Length`
    /// before a byte is read, or as soon as it passes the limit.
    func jsonBody(context: some RequestContext) async throws -> ByteBuffer {
        let limit = context.maxUploadSize
        if let declared = headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw JSONBodyError.bodyTooLarge(length: declared, limit: limit)
        }
        do {
            return try await body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw JSONBodyError.bodyTooLarge(length: nil, limit: limit)
        }
    }
}

extension RequestContext {
    /// The options models and records are read with: the context's ``MagmaRequestDecoder``'s.
    var magmaOptions: DecodingOptions {
        (requestDecoder as? MagmaRequestDecoder)?.decoder.options ?? DecodingOptions()
    }
}

extension JSONBodyError: HTTPResponseError {
    /// 413 Content Too Large for a size limit, 400 Bad Request otherwise.
    public var status: HTTPResponse.Status { statusCode == 413 ? .contentTooLarge : .badRequest }

    /// The response: ``JSONBodyError/body(allocator:)``, as JSON.
    /// - Parameters:
    ///   - request: The request whose body failed.
    ///   - context: Its context.
    /// - Returns: The response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Response.json(body(allocator: ByteBufferAllocator()), status: status)
    }
}
#endif
