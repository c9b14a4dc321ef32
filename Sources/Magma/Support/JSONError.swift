// The support layer (rank 0 in ARCHITECTURE.md): what every layer shares and that names no other
// Magma type: the error, the decoding options, the lock, the per-thread URL cache.

#if canImport(Glibc)
import Glibc
#endif

/// The one error Magma throws: what went wrong, where in the JSON, and which model property it was for.
///
/// Errors are a struct with a ``Code`` rather than an enum, so new codes do not break callers that
/// switch over them. Every error carries as much of its location as is known: the JSON path
/// (`$[12].user.login`), the model property (`GHIssue.reporterLogin`), and the byte offset, line and
/// column in the input.
public struct JSONError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, e.g. `typeMismatch`.
        public let name: String
        init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The input is not valid JSON (yajl's or Magma's own checks).
        public static let syntax = Code("syntax")
        /// The JSON ended before the value was complete.
        public static let unexpectedEnd = Code("unexpectedEnd")
        /// A JSON value has the wrong type for the property (a number for a `String`, say).
        public static let typeMismatch = Code("typeMismatch")
        /// A property marked `required` had no key in the JSON object.
        public static let missingKey = Code("missingKey")
        /// `null` for a property that cannot be nil.
        public static let nullValue = Code("nullValue")
        /// A number does not fit the property's type (overflow, or not an integer for an integer type).
        public static let numberOutOfRange = Code("numberOutOfRange")
        /// A transformer rejected the value (an unknown enum raw value, a malformed date or URL...).
        public static let invalidValue = Code("invalidValue")
        /// A key path runs through a value that is not an object (`"user": "x"` for `user.login`).
        public static let notAnObject = Code("notAnObject")
        /// The JSON nests deeper than ``DecodingOptions/maxDepth``.
        public static let depthLimitExceeded = Code("depthLimitExceeded")
        /// A string or key is not valid Unicode text: invalid UTF-8 (including overlong forms,
        /// encoded surrogates and code points above U+10FFFF) or a `\u` escape of a lone surrogate.
        public static let invalidUnicode = Code("invalidUnicode")
        /// A string, key or number is longer than ``DecodingOptions/maxTokenLength``.
        public static let sizeLimitExceeded = Code("sizeLimitExceeded")
        /// A key appears twice in one object while ``DecodingOptions/duplicateKeys`` is `.reject`.
        public static let duplicateKey = Code("duplicateKey")
        /// A key is not mapped while ``DecodingOptions/unknownKeys`` is `.reject`.
        public static let unknownKey = Code("unknownKey")
        /// The mapping itself is illegal (an empty key path, a property mapped twice...).
        public static let invalidMapping = Code("invalidMapping")
        /// A model's `validate()` or `didDecode()` hook threw.
        public static let validationFailed = Code("validationFailed")
        /// A property's value cannot be turned back into JSON.
        public static let notEncodable = Code("notEncodable")
        /// Reading the input failed (a file that cannot be opened, say).
        public static let io = Code("io")
        /// A class cluster's discriminator names no model of the cluster (or is missing, or not a
        /// string).
        public static let unknownType = Code("unknownType")
        /// A versioned archive was written by a newer model version than this one reads.
        public static let unsupportedVersion = Code("unsupportedVersion")
        /// A relationship helper was given a name no relationship of the model has.
        public static let unknownRelationship = Code("unknownRelationship")
    }

    /// What kind of failure this is.
    public var code: Code
    /// A readable account of the failure.
    public var message: String
    /// The JSON path of the offending value, e.g. `$[12].user.login`; `$` for the top-level value.
    public var path: String
    /// The model property being decoded, e.g. `GHIssue.reporterLogin`, when there was one.
    public var property: String?
    /// The model as a whole, e.g. `GHIssue`, when the error is about it rather than one of its
    /// properties (its `validate()` or `didDecode()` threw).
    public var model: String?
    /// Byte offset into the whole input (across chunks) where the failure was seen.
    public var offset: Int?
    /// 1-based line of ``offset``.
    public var line: Int?
    /// 1-based column (in bytes) of ``offset``.
    public var column: Int?
    /// The error a transformer or hook threw, if this error wraps one.
    public var underlying: (any Error)?
    /// In a stream of records, the index of the record (0-based) the error is about.
    public var recordIndex: Int?

    /// Creates an error; Magma fills in the location as the error travels outwards.
    /// - Parameters:
    ///   - code: What kind of failure this is.
    ///   - message: A readable account of it.
    ///   - underlying: The error that caused it, if any.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.path = "$"
        self.underlying = underlying
    }

    public var description: String {
        var text = "\(code): \(message)"
        var at: [String] = []
        if path != "$" || property != nil || model != nil { at.append("at \(path)") }
        if let model { at.append("model \(model)") }
        if let property { at.append("property \(property)") }
        if let line, let column { at.append("line \(line), column \(column)") }
        if let offset { at.append("byte \(offset)") }
        if let recordIndex { at.append("record \(recordIndex)") }
        if !at.isEmpty { text += " (" + at.joined(separator: ", ") + ")" }
        return text
    }
}

extension JSONError {
    static func typeMismatch(expected: String, found: String, value: String? = nil) -> JSONError {
        var message = "expected \(expected), found \(found)"
        if let value { message += " \(value)" }
        return JSONError(.typeMismatch, message)
    }

    static func invalidMapping(_ message: String) -> JSONError {
        JSONError(.invalidMapping, message)
    }

    /// A string, key or number (`kind`) longer than the size cap, `limit` bytes.
    static func tokenTooLong(_ kind: String, limit: Int) -> JSONError {
        JSONError(.sizeLimitExceeded, "a \(kind) longer than the limit of \(limit) bytes")
    }

    /// "a" or "an" for a JSON type name (`an array`, `an object`, `a string`).
    static func article(_ typeName: String) -> String {
        typeName.first.map { "aeiou".contains($0) } == true ? "an" : "a"
    }

    /// A readable rendering of a token's bytes for messages, cut at 64 bytes.
    static func quote(_ bytes: UnsafeRawBufferPointer, asString: Bool) -> String {
        let cut = bytes.count > 64
        let text = String(decoding: cut ? UnsafeRawBufferPointer(rebasing: bytes[..<64]) : bytes, as: UTF8.self)
        let body = cut ? text + "..." : text
        return asString ? "\"\(body)\"" : body
    }
}

extension JSONError {
    /// A read of the input that failed with `errno` (of the input `name`, where it has one).
    static func readFailed(_ errno: Int32, _ name: String? = nil) -> JSONError {
        JSONError(.io, "cannot read\(name.map { " " + $0 } ?? ""): \(String(cString: strerror(errno)))")
    }
}
