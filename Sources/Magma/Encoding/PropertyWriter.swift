/// Writes one mapped property of a model: at plan time it makes the ``EncodeMember`` that writes
/// the property under its key; the member does the work at encoding time.
class PropertyWriter {
    let property: String
    init(property: String) { self.property = property }

    /// The member that writes this property under `key` (`part`: which key path of a multi-key
    /// property).
    func member(_ key: MemberKey, part: String?) -> EncodeMember { fatalError("PropertyWriter is abstract") }

    /// Wraps a failure with the property's name and, where known, the value.
    func failure(_ error: any Error, value: Any) -> JSONError {
        var e = error as? JSONError ?? JSONError(.notEncodable, "\(error)", underlying: error)
        e.message = "cannot encode \(property) = \(PropertyWriter.describe(value).prefix(80)): \(e.message)"
        if e.code != .notEncodable { e.underlying = e.underlying ?? error }
        e.code = .notEncodable
        e.property = property
        return e
    }

    /// A value as a message shows it: an optional's wrapped value (or `nil`), not `Optional(...)`.
    static func describe(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return String(reflecting: value) }
        guard let wrapped = mirror.children.first?.value else { return "nil" }
        return describe(wrapped)
    }

    /// `failure(error, value:)` with the property's value read from the model (the slow path).
    func failure(_ error: any Error, model: UnsafeRawPointer) -> JSONError { failure(error, value: "?") }

    /// The property's value stored at `stored` as JSON (its codec's `encode`), or nil when it is
    /// nil and `omitsNil`: what its member writes, as a value.
    func value(at stored: UnsafeRawPointer, omitsNil: Bool) throws -> JSONValue? { fatalError("PropertyWriter is abstract") }
}

final class TypedPropertyWriter<Model, V>: PropertyWriter {
    let keyPath: KeyPath<Model, V>
    let codec: Codec<V>

    init(_ keyPath: KeyPath<Model, V>, codec: Codec<V>, property: String) {
        self.keyPath = keyPath
        self.codec = codec
        super.init(property: property)
    }

    /// A stored property of a struct is read in place at its offset, through a value writer that
    /// runs no generic code for the common types; anything else (class models, computed
    /// properties) through the key path.
    override func member(_ key: MemberKey, part: String?) -> EncodeMember {
        let value = codec.makeValueWriter()
        if let offset = MemoryLayout<Model>.offset(of: keyPath) {
            return FieldMember(key, offset: offset, value: value, property: self)
        }
        return KeyPathMember(key, property: self, value: value)
    }

    override func failure(_ error: any Error, model: UnsafeRawPointer) -> JSONError {
        failure(error, value: self.value(model))
    }

    func value(_ model: UnsafeRawPointer) -> V { model.assumingMemoryBound(to: Model.self).pointee[keyPath: keyPath] }

    override func value(at stored: UnsafeRawPointer, omitsNil: Bool) throws -> JSONValue? {
        let current = stored.assumingMemoryBound(to: V.self).pointee
        if omitsNil, codec.isNil(current) { return nil }
        do { return try codec.encode(current) } catch { throw failure(error, value: current) }
    }
}

/// A property fed by several key paths: the reverse transformer gives one value per key path.
final class MultiKeyPropertyWriter<Model, V>: PropertyWriter {
    let keyPath: KeyPath<Model, V>
    /// The property's transformer run backwards (`Transformer.reverseTransform`).
    let reverse: (V) throws -> [String: JSONValue]

    init(_ keyPath: KeyPath<Model, V>, reverse: @escaping (V) throws -> [String: JSONValue], property: String) {
        self.keyPath = keyPath
        self.reverse = reverse
        super.init(property: property)
    }

    func parts(_ model: UnsafeRawPointer) throws -> [String: JSONValue] {
        let value = model.assumingMemoryBound(to: Model.self).pointee[keyPath: keyPath]
        do { return try reverse(value) } catch { throw failure(error, value: value) }
    }

    override func member(_ key: MemberKey, part: String?) -> EncodeMember {
        MultiKeyMember(key, property: self, part: part!)
    }
}
