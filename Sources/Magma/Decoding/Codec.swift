// Codec<V>: how one Swift type is read from JSON tokens and written back. Transformers carry a
// codec; the plan wraps it in a Slot per property. Codecs are immutable and shared by every decode.
import Foundation

/// Reads a `V` from one JSON value's tokens, and writes a `V` back as JSON.
/// Subclasses override the token kinds they accept; the rest is a `typeMismatch`.
class Codec<V>: @unchecked Sendable {
    /// Stores this codec's values from their tokens without generic code (see ``TypedWrite``):
    /// the field and element targets of a codec that does not make its own. Read once per plan.
    var typedWrite: TypedWrite? { nil }

    /// The name used in messages: "expected Int, found string".
    var typeName: String { Magma.typeName(V.self) }
    /// Whether `null` decodes to a value (optionals, JSONValue) rather than being an error.
    var acceptsNull: Bool { false }
    /// Fills a frame when the value is an object; nil if objects are a type mismatch.
    var objectOwner: ContainerOwner? { nil }
    /// Fills a frame when the value is an array; nil if arrays are a type mismatch.
    var arrayOwner: ContainerOwner? { nil }

    func string(_ bytes: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> V {
        throw mismatch("string", JSONError.quote(bytes, asString: true))
    }
    func number(_ text: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> V {
        throw mismatch("number", JSONError.quote(text, asString: false))
    }
    func bool(_ value: Bool, _ flags: CodecFlags) throws -> V {
        throw mismatch("bool", "\(value)")
    }
    func null() throws -> V {
        throw JSONError(.nullValue, "null for a non-optional \(typeName)")
    }
    /// Takes the finished container's value out of `storage` (which `owner` filled).
    func take(_ storage: UnsafeMutableRawPointer, from owner: ContainerOwner) throws -> V {
        storage.assumingMemoryBound(to: V.self).move()
    }
    /// The JSON for `value` (the reverse transformation).
    func encode(_ value: V) throws -> JSONValue {
        throw JSONError(.notEncodable, "no reverse transformation for \(typeName)")
    }
    /// Whether `encode` can succeed at all (false for one-way transformers).
    var isReversible: Bool { true }
    /// Writes `value` as JSON: the fast reverse path. The default goes through `encode`.
    func write(_ value: V, into w: inout JSONWriter) throws { try w.value(try encode(value)) }
    /// Whether `value` is nil, for the nil policy of encoding.
    func isNil(_ value: V) -> Bool { false }

    // The fast paths of a type, in one place: its codec. A codec that reads or writes its
    // values without generic code gives a `typedWrite` and overrides the value writers;
    // everything else runs through `Slot<V>` and `CodecValue<V>`. Each fast path behaves exactly
    // as the generic one, which it falls back to for anything unusual (null, lenient coercions,
    // mismatches).

    /// A target that decodes a value straight into a struct's stored property, or appends it to
    /// an array, or nil when the type has no fast path: from the codec's ``TypedWrite`` (models,
    /// arrays and optionals make their own).
    /// - Parameters:
    ///   - offset: The stored property's offset in the struct (0 for an array's elements).
    ///   - form: A `V` property, a `V?` one (this codec's optional form decodes it), or a `[V]`.
    ///   - fallback: The generic slot, for every token the fast path leaves.
    func fastTarget(offset: Int, form: DraftDestination, fallback: ValueTarget) -> ValueTarget? {
        typedWrite.map { TypedField($0, offset: offset, form: form, fallback: fallback) }
    }
    /// A target that appends each element of a JSON array to a `[[V]]` (each element an array of
    /// `V` read by this codec), or nil.
    /// - Parameter fallback: The generic element slot of the outer array.
    func nestedElementTarget(fallback: ValueTarget) -> ValueTarget? { nil }
    /// The writer of a `V` stored at an address, which it writes without copying where it can.
    func makeValueWriter() -> ValueWriter { CodecValue(self) }
    /// The writer of a `V?` stored at an address: a scalar writer's own, else one that copies
    /// the optional once.
    final func makeOptionalValueWriter() -> ValueWriter {
        let writer = makeValueWriter()
        return (writer as? ScalarValue)?.optionalWriter ?? OptionalValue<V?>(writer)
    }

    final func mismatch(_ found: String, _ value: String? = nil) -> JSONError {
        JSONError.typeMismatch(expected: typeName, found: found, value: value)
    }
}

extension Codec {
    /// A JSON string read as a number, for the lenient number codecs (`"42"` read as `42`): the
    /// string's bytes, checked as JSON number syntax with no `String` made, go to `number`.
    /// - Parameters:
    ///   - bytes: The string's UTF-8 bytes.
    ///   - flags: The property's flags; only `lenient` ones accept a string.
    /// - Throws: A type mismatch (a string where `V` needs a number) unless the flags are lenient
    ///   and the bytes are JSON number syntax; else what `number` throws.
    func numberInString(_ bytes: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> V {
        guard flags.lenient, JSONScanner.isNumber(bytes) else {
            throw mismatch("string", JSONError.quote(bytes, asString: true))
        }
        return try number(bytes, flags)
    }

    /// The error for a number too large or too small for `V` (`1e400` for a `Double`).
    func outOfRange(_ text: UnsafeRawBufferPointer) -> JSONError {
        JSONError(.numberOutOfRange, "\(JSONError.quote(text, asString: false)) is out of range for \(V.self)")
    }

    /// Decodes a `V` from an already-built JSONValue, through the same code as parsed JSON.
    func decode(from value: JSONValue, options: DecodingOptions = DecodingOptions()) throws -> V {
        var result: V? = nil
        let slot = Slot(self, ResultReceiver<V>())
        try withUnsafeMutablePointer(to: &result) { resultPointer in
            var b = EventBuilder(root: slot, rootContext: UnsafeMutableRawPointer(resultPointer), options: options)
            defer { b.destroy() }
            try b.replay(value, into: slot, UnsafeMutableRawPointer(resultPointer))
        }
        return try result ?? { throw JSONError(.invalidValue, "no value") }()
    }
}

// MARK: - Wrappers

/// `Optional<Wrapped>`: null is nil, anything else is the wrapped type's.
///
/// With `nullIsError`, the optional is only where the value is kept (a `@JSONModel` draft's slot
/// for a non-optional property): `null` then goes to the wrapped codec too, and is the error a
/// non-optional property gives.
final class OptionalCodec<Wrapped>: Codec<Wrapped?>, @unchecked Sendable {
    let wrapped: Codec<Wrapped>
    private let nullIsError: Bool
    init(_ wrapped: Codec<Wrapped>, nullIsError: Bool = false) {
        self.wrapped = wrapped
        self.nullIsError = nullIsError
    }

    override var typeName: String { nullIsError ? wrapped.typeName : wrapped.typeName + "?" }
    override var acceptsNull: Bool { !nullIsError || wrapped.acceptsNull }
    override var objectOwner: ContainerOwner? { wrapped.objectOwner }
    override var arrayOwner: ContainerOwner? { wrapped.arrayOwner }
    override func string(_ bytes: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> Wrapped? { try wrapped.string(bytes, flags) }
    override func number(_ text: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> Wrapped? { try wrapped.number(text, flags) }
    override func bool(_ value: Bool, _ flags: CodecFlags) throws -> Wrapped? { try wrapped.bool(value, flags) }
    override func null() throws -> Wrapped? { nullIsError ? try wrapped.null() : nil }
    override func take(_ storage: UnsafeMutableRawPointer, from owner: ContainerOwner) throws -> Wrapped? {
        try wrapped.take(storage, from: owner)
    }
    override func encode(_ value: Wrapped?) throws -> JSONValue {
        guard let value else { return .null }
        return try wrapped.encode(value)
    }
    override func write(_ value: Wrapped?, into w: inout JSONWriter) throws {
        guard let value else { return w.null() }
        try wrapped.write(value, into: &w)
    }
    override func isNil(_ value: Wrapped?) -> Bool { value == nil }
    override var isReversible: Bool { wrapped.isReversible }
    /// The wrapped type's fast path for its optional form (none for an optional of an optional,
    /// nor for the elements of a `[Wrapped?]`).
    override func fastTarget(offset: Int, form: DraftDestination, fallback: ValueTarget) -> ValueTarget? {
        form == .value ? wrapped.fastTarget(offset: offset, form: .optional, fallback: fallback) : nil
    }
    override func makeValueWriter() -> ValueWriter { wrapped.makeOptionalValueWriter() }
}

/// A codec followed by a Swift-side transformation (a chained or RawRepresentable transformer).
final class MappedCodec<A, B>: Codec<B>, @unchecked Sendable {
    let base: Codec<A>
    let forward: (A) throws -> B
    let reverse: ((B) throws -> A)?
    let name: String?

    private let typed: TypedWrite?

    init(_ base: Codec<A>, name: String? = nil, forward: @escaping (A) throws -> B, reverse: ((B) throws -> A)?,
         typedWrite: TypedWrite? = nil) {
        self.base = base
        self.name = name
        self.forward = forward
        self.reverse = reverse
        typed = typedWrite
    }

    override var typedWrite: TypedWrite? { typed }

    override var typeName: String { name ?? Magma.typeName(B.self) }
    override var acceptsNull: Bool { base.acceptsNull }
    override var objectOwner: ContainerOwner? { base.objectOwner }
    override var arrayOwner: ContainerOwner? { base.arrayOwner }
    override func string(_ bytes: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> B { try forward(try base.string(bytes, flags)) }
    override func number(_ text: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> B { try forward(try base.number(text, flags)) }
    override func bool(_ value: Bool, _ flags: CodecFlags) throws -> B { try forward(try base.bool(value, flags)) }
    override func null() throws -> B { try forward(try base.null()) }
    override func take(_ storage: UnsafeMutableRawPointer, from owner: ContainerOwner) throws -> B {
        try forward(try base.take(storage, from: owner))
    }
    override func encode(_ value: B) throws -> JSONValue {
        guard let reverse else { throw JSONError(.notEncodable, "the transformer for \(typeName) is not reversible") }
        return try base.encode(try reverse(value))
    }
    override func write(_ value: B, into w: inout JSONWriter) throws {
        guard let reverse else { throw JSONError(.notEncodable, "the transformer for \(typeName) is not reversible") }
        try base.write(try reverse(value), into: &w)
    }
    override var isReversible: Bool { reverse != nil && base.isReversible }
}

/// A transformer given as closures over JSONValue: the value is captured whole, then transformed.
final class ClosureCodec<V>: Codec<V>, @unchecked Sendable {
    let forward: (JSONValue) throws -> V
    let reverse: ((V) throws -> JSONValue)?

    init(forward: @escaping (JSONValue) throws -> V, reverse: ((V) throws -> JSONValue)?) {
        self.forward = forward
        self.reverse = reverse
    }

    private var json: JSONValueCodec { JSONValueCodec.shared }
    override var acceptsNull: Bool { true }
    override var objectOwner: ContainerOwner? { json.objectOwner }
    override var arrayOwner: ContainerOwner? { json.arrayOwner }
    override func string(_ bytes: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> V { try forward(try json.string(bytes, flags)) }
    override func number(_ text: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> V { try forward(try json.number(text, flags)) }
    override func bool(_ value: Bool, _ flags: CodecFlags) throws -> V { try forward(.bool(value)) }
    override func null() throws -> V { try forward(.null) }
    override func take(_ storage: UnsafeMutableRawPointer, from owner: ContainerOwner) throws -> V {
        try forward(try json.take(storage, from: owner))
    }
    override func encode(_ value: V) throws -> JSONValue {
        guard let reverse else { throw JSONError(.notEncodable, "the transformer for \(typeName) is not reversible") }
        return try reverse(value)
    }
    override var isReversible: Bool { reverse != nil }
}

// MARK: - JSONValue

/// Captures any subtree as a JSONValue.
final class JSONValueCodec: Codec<JSONValue>, @unchecked Sendable {
    static let shared = JSONValueCodec()
    private var objects: DictionaryOwner<JSONValue>!
    private var arrays: ArrayOwner<JSONValue>!

    private override init() {
        super.init()
        // The owners' element slots decode with this codec: a cycle, on purpose, in a singleton.
        objects = DictionaryOwner(self)
        arrays = ArrayOwner(self)
    }

    override var typeName: String { "JSONValue" }
    override var acceptsNull: Bool { true }
    override var objectOwner: ContainerOwner? { objects }
    override var arrayOwner: ContainerOwner? { arrays }
    override func string(_ bytes: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> JSONValue {
        .string(String(checkedUTF8: bytes))
    }
    override func number(_ text: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> JSONValue {
        .number(JSONNumber(token: text))
    }
    override func bool(_ value: Bool, _ flags: CodecFlags) throws -> JSONValue { .bool(value) }
    override func null() throws -> JSONValue { .null }
    override func take(_ storage: UnsafeMutableRawPointer, from owner: ContainerOwner) throws -> JSONValue {
        if owner === objects {
            return .object(storage.assumingMemoryBound(to: DictionaryBox<JSONValue>.self).move().members)
        }
        return .array(storage.assumingMemoryBound(to: [JSONValue].self).move())
    }
    override func encode(_ value: JSONValue) throws -> JSONValue { value }
    override func write(_ value: JSONValue, into w: inout JSONWriter) throws { try w.value(value) }
    override func isNil(_ value: JSONValue) -> Bool { value == .null }
}

/// `GHIssue` for `GHIssue.self`: `String(describing:)`'s text, without its look-ups of the
/// metatype's conformances first (a scan of every conformance in the binary per type, which made
/// building a model's mapping slow to start).
func typeName(_ type: Any.Type) -> String { _typeName(type, qualified: false) }
