// Magma's entry points for SwiftNIO's ByteBuffer: each reads the buffer's readable bytes in place
// (through the library's UnsafeRawBufferPointer and ContiguousBytes entry points), never through
// a copy into Data. Built only with the NIO trait (or Hummingbird, Vapor, which enable it).
#if NIO
import Magma
import NIOCore
import NIOFoundationCompat

extension MagmaDecoder {
    /// Decodes a value of `type` from the readable bytes of a buffer, read in place.
    ///
    /// ```swift
    /// let issue = try MagmaDecoder().decode(Issue.self, from: buffer)
    /// ```
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - buffer: The JSON text, UTF-8; its reader index does not move.
    /// - Returns: The value.
    /// - Throws: `DecodingError`, as `MagmaDecoder.decode(_:from:)` throws it from `Data`.
    public func decode<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
        try buffer.withUnsafeReadableBytes { try decode(type, from: $0) }
    }
}

extension MagmaEncoder {
    /// Encodes `value` as JSON at the end of a buffer.
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - buffer: Where the JSON is written, after its readable bytes.
    /// - Throws: `EncodingError`, as ``MagmaEncoder/encode(_:)`` throws it; the buffer is then unchanged.
    public func encode<T: Encodable>(_ value: T, into buffer: inout ByteBuffer) throws {
        buffer.writeData(try encode(value))
    }
}

extension JSONAdapter {
    /// Decodes a model from the readable bytes of a buffer, read in place.
    /// - Parameters:
    ///   - type: The model (`@JSONModel` or `Map`-declared).
    ///   - buffer: The JSON text, UTF-8; its reader index does not move.
    ///   - options: How to read it.
    /// - Returns: The model.
    /// - Throws: ``JSONError`` with the path, line and column of what failed.
    public static func model<M: JSONObjectModel>(_ type: M.Type, from buffer: ByteBuffer,
                                                 options: DecodingOptions = .init()) throws -> M {
        try buffer.withUnsafeReadableBytes { try model(type, from: $0, options: options) }
    }

    /// Decodes the models of a top-level array from the readable bytes of a buffer, read in place.
    /// - Parameters:
    ///   - type: The model of each element.
    ///   - buffer: The JSON text, UTF-8; its reader index does not move.
    ///   - options: How to read it.
    /// - Returns: The models, in order.
    /// - Throws: ``JSONError`` with the path (`$[3].user`), line and column of what failed.
    public static func models<M: JSONObjectModel>(_ type: M.Type, from buffer: ByteBuffer,
                                                  options: DecodingOptions = .init()) throws -> [M] {
        try buffer.withUnsafeReadableBytes { try models(type, from: $0, options: options) }
    }

    /// Encodes a model at the end of a buffer, through its mapping.
    /// - Parameters:
    ///   - model: The model.
    ///   - buffer: Where the JSON is written, after its readable bytes.
    ///   - options: How to write it.
    /// - Throws: ``JSONError`` naming the property and value that could not be encoded; the
    ///   buffer is then unchanged.
    public static func json<M: JSONObjectModel>(from model: M, into buffer: inout ByteBuffer,
                                                options: EncodingOptions = .init()) throws {
        buffer.writeData(try json(from: model, options: options))
    }

    /// Encodes models as a JSON array at the end of a buffer.
    /// - Parameters:
    ///   - models: The models, in order.
    ///   - buffer: Where the JSON is written, after its readable bytes.
    ///   - options: How to write them.
    /// - Throws: ``JSONError`` naming the property and value that could not be encoded; the
    ///   buffer is then unchanged.
    public static func json<M: JSONObjectModel>(from models: [M], into buffer: inout ByteBuffer,
                                                options: EncodingOptions = .init()) throws {
        buffer.writeData(try json(from: models, options: options))
    }
}

extension RecordDecoder {
    /// Decodes the records a buffer's readable bytes complete, read in place; as ``RecordDecoder/feed(_:)``.
    /// - Parameter buffer: The next bytes of the input; its reader index does not move.
    /// - Throws: As ``RecordDecoder/feed(_:)``.
    public func feed(_ buffer: ByteBuffer) throws {
        try feed(buffer.readableBytesView)
    }
}
#endif
