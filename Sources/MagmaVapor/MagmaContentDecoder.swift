// Vapor's request side: a ContentDecoder over MagmaDecoder for any Decodable, and the same reading
// for Magma's own models and for records streamed from a request body. The body is read in place
// (ByteBuffer, no Data); a bad one is a JSONBodyError, an AbortError that Vapor's ErrorMiddleware
// answers with its status (400 or 413) and its description: the error, path, line and column.
#if Vapor
import Magma
import MagmaNIO
import NIOCore
import NIOFoundationCompat
import Vapor

/// A Vapor `ContentDecoder` backed by ``MagmaDecoder``, registered for JSON or passed per call:
///
/// ```swift
/// ContentConfiguration.global.use(decoder: MagmaContentDecoder(), for: .json)
/// let issue = try req.content.decode(Issue.self)                              // or, per call:
/// let issue = try req.content.decode(Issue.self, using: MagmaContentDecoder())
/// ```
///
/// The registered decoder's options also read Magma's models
/// (``Vapor/Request/decodeModel(as:)``) and record streams. Vapor collects a body up to the
/// route's limit (`app.routes.defaultMaxBodySize`) and refuses a longer one with 413 as soon as
/// it passes it.
public struct MagmaContentDecoder: ContentDecoder {
    /// How bodies are read: strategies for `Decodable` types, and ``MagmaDecoder/options`` for
    /// models and records too.
    public let decoder: MagmaDecoder

    /// Creates a content decoder.
    /// - Parameter decoder: How bodies are read; default `MagmaDecoder()`, `JSONDecoder`'s defaults.
    public init(_ decoder: MagmaDecoder = MagmaDecoder()) {
        self.decoder = decoder
    }

    /// Decodes a body, read in place.
    /// - Parameters:
    ///   - decodable: The type to decode.
    ///   - body: The body.
    ///   - headers: The request's headers.
    /// - Returns: The value.
    /// - Throws: ``JSONBodyError`` (400 or 413) for a malformed body, or one `decodable` refuses.
    public func decode<D: Decodable>(_ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders) throws -> D {
        try decode(decodable, from: body, with: decoder)
    }

    /// Decodes a body with `userInfo` added to the decoder's own, read in place.
    /// - Parameters:
    ///   - decodable: The type to decode.
    ///   - body: The body.
    ///   - headers: The request's headers.
    ///   - userInfo: Context for `init(from:)`, over the decoder's `userInfo`.
    /// - Returns: The value.
    /// - Throws: ``JSONBodyError`` (400 or 413) for a malformed body, or one `decodable` refuses.
    public func decode<D: Decodable>(_ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders,
                                     userInfo: [CodingUserInfoKey: any Sendable]) throws -> D {
        guard !userInfo.isEmpty else { return try decode(decodable, from: body, with: decoder) }
        // A shared decoder is not changed while in use: a copy takes the user info.
        let copy = MagmaDecoder()
        copy.dateDecodingStrategy = decoder.dateDecodingStrategy
        copy.dataDecodingStrategy = decoder.dataDecodingStrategy
        copy.nonConformingFloatDecodingStrategy = decoder.nonConformingFloatDecodingStrategy
        copy.keyDecodingStrategy = decoder.keyDecodingStrategy
        copy.options = decoder.options
        copy.userInfo = decoder.userInfo.merging(userInfo) { $1 }
        return try decode(decodable, from: body, with: copy)
    }

    private func decode<D: Decodable>(_ decodable: D.Type, from body: ByteBuffer, with decoder: MagmaDecoder) throws -> D {
        do {
            return try decoder.decode(decodable, from: body)
        } catch {
            throw JSONBodyError(reading: error) ?? error
        }
    }

    /// The options models and records are read with: the registered JSON decoder's, if it is one.
    static var registeredOptions: DecodingOptions {
        ((try? ContentConfiguration.global.requireDecoder(for: .json)) as? MagmaContentDecoder)?.decoder.options ?? DecodingOptions()
    }
}

extension Request {
    /// Decodes the collected body into a Magma model (`@JSONModel` or `Map`-declared), read in
    /// place with the options of the registered ``MagmaContentDecoder`` (the defaults otherwise).
    ///
    /// ```swift
    /// app.post("issues") { req async throws -> Issue in
    ///     let issue = try req.decodeModel(as: Issue.self)
    ///     …
    /// }
    /// ```
    /// - Parameter type: The model.
    /// - Returns: The model.
    /// - Throws: ``JSONBodyError`` (400) for a malformed body (an empty one included), or one the model refuses.
    public func decodeModel<M: JSONObjectModel>(as type: M.Type) throws -> M {
        do {
            return try JSONAdapter.model(type, from: body.data ?? ByteBuffer(), options: MagmaContentDecoder.registeredOptions)
        } catch {
            throw JSONBodyError(reading: error) ?? error
        }
    }

    /// The body's records as they arrive, on a route that streams its body
    /// (`app.on(.POST, "events", body: .stream) { … }`), in memory bounded by the largest record
    /// however long the body: NDJSON lines, a top-level array or concatenated values, each record
    /// bounded by ``DecodingOptions/maxRecordLength``.
    ///
    /// ```swift
    /// for try await event in req.records(Event.self, errorPolicy: .skip, onSkip: { skipped.append($0) }) { … }
    /// ```
    /// - Parameters:
    ///   - type: The record model.
    ///   - layout: How the records are laid out; default NDJSON.
    ///   - errorPolicy: Stop at the first bad record (default) or skip and report it.
    ///   - progress: Where to count bytes, records and skips; nil for none.
    ///   - onSkip: Called with each skipped record's error: its line, offset and reason.
    /// - Returns: The records; iterating throws ``JSONBodyError`` (400 or 413) for a bad record
    ///   (with `.stop`), a syntax error in an array, or a line over the record size limit.
    public func records<M: JSONObjectModel>(
        _ type: M.Type, layout: RecordDecoder<M>.Layout = .ndjson, errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop,
        progress: ProgressHandle? = nil, onSkip: ((JSONError) -> Void)? = nil
    ) -> BodyRecords<AsyncRecords<M, ByteBufferChunks<Request.Body>>> {
        BodyRecords(JSONAdapter.records(type, from: body, layout: layout, options: MagmaContentDecoder.registeredOptions,
                                        errorPolicy: errorPolicy, progress: progress, onSkip: onSkip))
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
    ) -> BodyRecords<AsyncRecords<T, ByteBufferChunks<Request.Body>>> {
        BodyRecords(JSONAdapter.records(type, from: body, layout: layout, decoder: decoder, errorPolicy: errorPolicy,
                                        progress: progress, onSkip: onSkip))
    }
}

extension JSONBodyError: AbortError {
    /// 413 Payload Too Large for a size limit, 400 Bad Request otherwise.
    public var status: HTTPResponseStatus { HTTPResponseStatus(statusCode: statusCode) }

    /// The error's description: its code, message, JSON path, line, column and byte offset.
    public var reason: String { description }
}
#endif
