// Hummingbird's response side: a ResponseEncoder over MagmaEncoder for any Encodable, and Magma's
// models as a response generator through their mappings, with the context's encoder's options (a
// wrapper rather than a default conformance: a model that is also Encodable would have two).
#if Hummingbird
import Hummingbird
import Magma
import MagmaNIO
import NIOCore

/// A Hummingbird `ResponseEncoder` backed by ``MagmaEncoder``: chosen in a request context as
/// `JSONEncoder` is (see ``MagmaRequestDecoder``), it writes any `Encodable` a route returns; its
/// ``options`` write Magma's models (``ModelResponse``).
public struct MagmaResponseEncoder: ResponseEncoder, Sendable {
    /// How `Encodable` values are written (`JSONEncoder`'s strategies and output formatting).
    public let encoder: MagmaEncoder
    /// How models are written through their mappings.
    public var options: EncodingOptions

    /// Creates a response encoder.
    /// - Parameters:
    ///   - encoder: How `Encodable` values are written; default `MagmaEncoder()`, `JSONEncoder`'s defaults.
    ///   - options: How models are written; default compact, nil properties left out.
    public init(_ encoder: MagmaEncoder = MagmaEncoder(), options: EncodingOptions = .init()) {
        self.encoder = encoder
        self.options = options
    }

    /// Encodes a value a route returned as a JSON response.
    /// - Parameters:
    ///   - value: The value.
    ///   - request: The request it answers.
    ///   - context: The request context.
    /// - Returns: A 200 response with the JSON body.
    /// - Throws: `EncodingError`, as ``MagmaEncoder/encode(_:)`` throws it.
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        var buffer = ByteBufferAllocator().buffer(capacity: 0)
        try encoder.encode(value, into: &buffer)
        return Response.json(buffer)
    }
}

/// Magma models as a JSON response, written through their mappings with the options of the
/// context's ``MagmaResponseEncoder`` (the defaults under any other encoder):
///
/// ```swift
/// router.get("issues/:number") { request, context in
///     ModelResponse(try await store.issue(context.parameters.require("number", as: Int.self)))
/// }
/// ```
public struct ModelResponse: ResponseGenerator {
    /// The response's status.
    public var status: HTTPResponse.Status
    private let write: (inout ByteBuffer, EncodingOptions) throws -> Void

    /// A model as the response.
    /// - Parameters:
    ///   - model: The model (`@JSONModel` or `Map`-declared).
    ///   - status: The status; default 200.
    public init<M: JSONObjectModel>(_ model: M, status: HTTPResponse.Status = .ok) {
        self.status = status
        write = { try JSONAdapter.json(from: model, into: &$0, options: $1) }
    }

    /// Models as the response: a JSON array.
    /// - Parameters:
    ///   - models: The models, in order.
    ///   - status: The status; default 200.
    public init<M: JSONObjectModel>(_ models: [M], status: HTTPResponse.Status = .ok) {
        self.status = status
        write = { try JSONAdapter.json(from: models, into: &$0, options: $1) }
    }

    /// Writes the response.
    /// - Parameters:
    ///   - request: The request it answers.
    ///   - context: The request context, whose ``MagmaResponseEncoder`` gives the options.
    /// - Returns: The response, its body JSON.
    /// - Throws: ``JSONError`` naming the property and value that could not be encoded.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var buffer = ByteBufferAllocator().buffer(capacity: 0)
        try write(&buffer, (context.responseEncoder as? MagmaResponseEncoder)?.options ?? EncodingOptions())
        return Response.json(buffer, status: status)
    }
}

extension Response {
    /// A response whose body is `buffer`, JSON.
    static func json(_ buffer: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status,
                 headers: [.contentType: "application/json; charset=utf-8", .contentLength: String(buffer.readableBytes)],
                 body: ResponseBody(byteBuffer: buffer))
    }
}
#endif
