// Vapor's response side: a ContentEncoder over MagmaEncoder for any Encodable, and Magma's models
// as a response through their mappings (a wrapper rather than a default conformance: a model that
// is also Content would have two).
#if Vapor
import Magma
import MagmaNIO
import NIOCore
import Vapor

/// A Vapor `ContentEncoder` backed by ``MagmaEncoder``, registered for JSON or passed per call:
///
/// ```swift
/// ContentConfiguration.global.use(encoder: MagmaContentEncoder(), for: .json)
/// try res.content.encode(reply, using: MagmaContentEncoder())                // per call
/// ```
///
/// The registered encoder's ``options`` also write Magma's models (``ModelResponse``).
public struct MagmaContentEncoder: ContentEncoder {
    /// How `Encodable` values are written (`JSONEncoder`'s strategies and output formatting).
    public let encoder: MagmaEncoder
    /// How models are written through their mappings.
    public var options: EncodingOptions

    /// Creates a content encoder.
    /// - Parameters:
    ///   - encoder: How `Encodable` values are written; default `MagmaEncoder()`, `JSONEncoder`'s defaults.
    ///   - options: How models are written; default compact, nil properties left out.
    public init(_ encoder: MagmaEncoder = MagmaEncoder(), options: EncodingOptions = .init()) {
        self.encoder = encoder
        self.options = options
    }

    /// Writes a value as JSON at the end of a body, and sets `Content-Type` to JSON.
    /// - Parameters:
    ///   - encodable: The value.
    ///   - body: Where the JSON is written.
    ///   - headers: The message's headers.
    /// - Throws: `EncodingError`, as ``MagmaEncoder/encode(_:)`` throws it.
    public func encode<E: Encodable>(_ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders) throws {
        try encoder.encode(encodable, into: &body)
        headers.contentType = .json
    }

    /// The options models are written with: the registered JSON encoder's, if it is one.
    static var registeredOptions: EncodingOptions {
        ((try? ContentConfiguration.global.requireEncoder(for: .json)) as? MagmaContentEncoder)?.options ?? EncodingOptions()
    }
}

/// Magma models as a JSON response, written through their mappings with the options of the
/// registered ``MagmaContentEncoder`` (the defaults otherwise):
///
/// ```swift
/// app.get("issues", ":number") { req async throws in
///     ModelResponse(try await store.issue(req.parameters.require("number", as: Int.self)))
/// }
/// ```
public struct ModelResponse: AsyncResponseEncodable {
    /// The response's status.
    public var status: HTTPResponseStatus
    private let write: (inout ByteBuffer, EncodingOptions) throws -> Void

    /// A model as the response.
    /// - Parameters:
    ///   - model: The model (`@JSONModel` or `Map`-declared).
    ///   - status: The status; default 200.
    public init<M: JSONObjectModel>(_ model: M, status: HTTPResponseStatus = .ok) {
        self.status = status
        write = { try JSONAdapter.json(from: model, into: &$0, options: $1) }
    }

    /// Models as the response: a JSON array.
    /// - Parameters:
    ///   - models: The models, in order.
    ///   - status: The status; default 200.
    public init<M: JSONObjectModel>(_ models: [M], status: HTTPResponseStatus = .ok) {
        self.status = status
        write = { try JSONAdapter.json(from: models, into: &$0, options: $1) }
    }

    /// Writes the response.
    /// - Parameter request: The request it answers.
    /// - Returns: The response, its body JSON.
    /// - Throws: ``JSONError`` naming the property and value that could not be encoded.
    public func encodeResponse(for request: Request) async throws -> Response {
        var body = request.byteBufferAllocator.buffer(capacity: 0)
        try write(&body, MagmaContentEncoder.registeredOptions)
        var headers = HTTPHeaders()
        headers.contentType = .json
        return Response(status: status, headers: headers, body: .init(buffer: body))
    }
}
#endif
