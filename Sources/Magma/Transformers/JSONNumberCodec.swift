// JSONNumber as a property type: the exact path for numbers no Swift number type holds, such as
// a 100-digit integer (Decimal holds about 38 significant digits, and Magma's Decimal codec
// reports a wider number as `numberOutOfRange` rather than rounding it).

/// Reads a JSON number as its exact text and writes that text back unchanged.
final class JSONNumberCodec: Codec<JSONNumber>, @unchecked Sendable {
    static let shared = JSONNumberCodec()
    override var typeName: String { "JSONNumber" }
    override func number(_ text: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> JSONNumber {
        JSONNumber(token: text)
    }
    /// Lenient: a string holding JSON number text.
    override func string(_ bytes: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> JSONNumber { try numberInString(bytes, flags) }
    override func encode(_ value: JSONNumber) throws -> JSONValue { .number(value) }
    override func write(_ value: JSONNumber, into w: inout JSONWriter) throws { w.numberText(value.text) }
}

extension Transformer where Input == JSONValue, Output == JSONNumber {
    /// A JSON number kept exactly as written, whatever its size or precision; encoded back
    /// byte for byte.
    public static var jsonNumber: Self { Transformer(codec: JSONNumberCodec.shared) }
}

extension JSONNumber: JSONRepresentable {
    public static var jsonTransformer: Transformer<JSONValue, JSONNumber> { .jsonNumber }
}
