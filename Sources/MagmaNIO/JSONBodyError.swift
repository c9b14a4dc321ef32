// What a server answers for a request body Magma refused, shared by the Hummingbird and Vapor
// adapters (each conforms it to its framework's error protocol): a status and a JSON body that
// name the error and its place.
#if NIO
import Foundation
import Magma
import NIOCore
import NIOFoundationCompat

/// A request body that could not be read: malformed JSON or a value its type refuses (400 Bad
/// Request), or a body, record or token over a limit (413 Content Too Large).
///
/// The server adapters throw it from their decoders and record streams; MagmaHummingbird makes
/// it an `HTTPResponseError`, MagmaVapor an `AbortError`, so the client receives the error's code,
/// message, JSON path, line and column instead of a 500.
public struct JSONBodyError: Error, CustomStringConvertible, Sendable {
    /// What went wrong and where, as Magma placed it.
    public let error: JSONError

    /// Wraps an error of reading a body.
    /// - Parameter error: The error, with its position.
    public init(_ error: JSONError) {
        self.error = error
    }

    /// The body error that a failed read threw: a ``JSONError`` of the input, or one underlying
    /// the `DecodingError` of a `MagmaDecoder`; nil for anything else (an error of the server's
    /// own: a broken mapping, I/O, a record handler's), which is no fault of the client's.
    /// - Parameter error: What a decode or a record stream threw.
    public init?(reading error: any Error) {
        let json: JSONError?
        switch error {
        case let error as JSONBodyError: json = error.error
        case let error as JSONError: json = error
        case DecodingError.dataCorrupted(let context), DecodingError.keyNotFound(_, let context),
             DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            json = context.underlyingError as? JSONError
        default: json = nil
        }
        guard let json, ![.invalidMapping, .notEncodable, .io].contains(json.code) else { return nil }
        self.error = json
    }

    /// A body longer than a server accepts.
    /// - Parameters:
    ///   - length: Its length, when its `Content-Length` says it; nil when it was found reading it.
    ///   - limit: The most bytes accepted.
    /// - Returns: The error, status 413.
    public static func bodyTooLarge(length: Int?, limit: Int) -> JSONBodyError {
        let size = length.map { "of \($0) bytes" } ?? "longer than that"
        return JSONBodyError(JSONError(.sizeLimitExceeded, "a body \(size); the limit is \(limit) bytes"))
    }

    /// The HTTP status: 413 for a size limit (of a body, a record or a token), 400 otherwise.
    public var statusCode: Int { error.code == .sizeLimitExceeded ? 413 : 400 }

    /// The error's text, place included (`typeMismatch: expected Int, found string (at $.number, line 1, column 12, byte 11)`).
    public var description: String { error.description }

    /// The response body: `{"error":{"code":…,"message":…,"path":…,"line":…,"column":…,"offset":…}}`
    /// (a member the error does not know is left out), `error.message` holding the whole
    /// description as Hummingbird's own errors do.
    /// - Parameter allocator: Where the buffer comes from.
    /// - Returns: UTF-8 JSON.
    public func body(allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: 256)
        // The report's members are strings and integers: nothing in it can fail to encode.
        try! MagmaEncoder().encode(Report(error: Report.Detail(error)), into: &buffer)
        return buffer
    }

    struct Report: Encodable {
        struct Detail: Encodable {
            let code: String
            let message: String
            let path: String
            let property: String?
            let line: Int?
            let column: Int?
            let offset: Int?
            let record: Int?

            init(_ error: JSONError) {
                code = error.code.name
                message = error.description
                path = error.path
                property = error.property
                line = error.line
                column = error.column
                offset = error.offset
                record = error.recordIndex
            }
        }
        let error: Detail
    }
}
#endif
