/// Writes one mapped property of a model (given as a raw pointer to it) through its codec.
class PropertyWriter {
    let property: String
    init(property: String) { self.property = property }

    /// Whether the property's key is left out: a nil optional under `.omit`, or a part that a
    /// multi-key transformer did not produce.
    func isOmitted(_ model: UnsafeRawPointer, part: String?, _ options: EncodingOptions) throws -> Bool { false }
    func write(_ model: UnsafeRawPointer, part: String?, into w: inout JSONWriter) throws {}

    /// Wraps a failure with the property's name and, where known, the value.
    func failure(_ error: any Error, value: Any) -> JSONError {
        var e = error as? JSONError ?? JSONError(.notEncodable, "\(error)", underlying: error)
        e.message = "cannot encode \(property) = \(String(reflecting: value).prefix(80)): \(e.message)"
        if e.code != .notEncodable { e.underlying = e.underlying ?? error }
        e.code = .notEncodable
        e.property = property
        return e
    }
}

final class TypedPropertyWriter<Model, V>: PropertyWriter {
    let keyPath: KeyPath<Model, V>
    let codec: Codec<V>

    init(_ keyPath: KeyPath<Model, V>, codec: Codec<V>, property: String) {
        self.keyPath = keyPath
        self.codec = codec
        super.init(property: property)
    }

    override func isOmitted(_ model: UnsafeRawPointer, part: String?, _ options: EncodingOptions) throws -> Bool {
        options.nilProperties == .omit && codec.isNil(model.assumingMemoryBound(to: Model.self).pointee[keyPath: keyPath])
    }

    override func write(_ model: UnsafeRawPointer, part: String?, into w: inout JSONWriter) throws {
        let value = model.assumingMemoryBound(to: Model.self).pointee[keyPath: keyPath]
        do {
            try codec.write(value, into: &w)
        } catch {
            throw failure(error, value: value)
        }
    }
}

/// A property fed by several key paths: the reverse transformer gives one value per key path.
final class MultiKeyPropertyWriter<Model, V>: PropertyWriter {
    let keyPath: KeyPath<Model, V>
    let transformer: Transformer<[String: JSONValue], V>

    init(_ keyPath: KeyPath<Model, V>, transformer: Transformer<[String: JSONValue], V>, property: String) {
        self.keyPath = keyPath
        self.transformer = transformer
        super.init(property: property)
    }

    private func parts(_ model: UnsafeRawPointer) throws -> [String: JSONValue] {
        let value = model.assumingMemoryBound(to: Model.self).pointee[keyPath: keyPath]
        do { return try transformer.reverseTransform(value) } catch { throw failure(error, value: value) }
    }

    override func isOmitted(_ model: UnsafeRawPointer, part: String?, _ options: EncodingOptions) throws -> Bool {
        try parts(model)[part!] == nil
    }

    override func write(_ model: UnsafeRawPointer, part: String?, into w: inout JSONWriter) throws {
        try w.value(try parts(model)[part!] ?? .null)
    }
}

/// One object of a model's JSON: its members in mapping order, each a property or a nested
/// object rebuilt from dotted key paths.
final class EncodeNode {
    enum Member {
        case property(PropertyWriter, part: String?)
        case object(EncodeNode)
    }

    private(set) var members: [(key: String, member: Member)] = []
    private var sorted: [(key: String, member: Member)] = []

    func add(_ path: ArraySlice<String>, _ writer: PropertyWriter, part: String?) {
        let key = path.first!
        if path.count == 1 {
            members.append((key, .property(writer, part: part)))
        } else if let existing = members.first(where: { $0.key == key }), case .object(let node) = existing.member {
            node.add(path.dropFirst(), writer, part: part)
        } else {
            let node = EncodeNode()
            node.add(path.dropFirst(), writer, part: part)
            members.append((key, .object(node)))
        }
    }

    /// Call once the tree is complete.
    func seal() {
        sorted = members.sorted { JSONWriter.byteOrder($0.key, $1.key) }
        for case (_, .object(let node)) in members { node.seal() }
    }

    func write(_ model: UnsafeRawPointer, into w: inout JSONWriter) throws {
        w.beginObject()
        for (key, member) in w.options.sortedKeys ? sorted : members {
            switch member {
            case .property(let writer, let part):
                if try writer.isOmitted(model, part: part, w.options) { continue }
                w.key(key)
                try writer.write(model, part: part, into: &w)
            case .object(let node):
                // An object made only of omitted properties is omitted too.
                if try node.isOmitted(model, w.options) { continue }
                w.key(key)
                try node.write(model, into: &w)
            }
        }
        w.endObject()
    }

    private func isOmitted(_ model: UnsafeRawPointer, _ options: EncodingOptions) throws -> Bool {
        for (_, member) in members {
            switch member {
            case .property(let writer, let part): if try !writer.isOmitted(model, part: part, options) { return false }
            case .object(let node): if try !node.isOmitted(model, options) { return false }
            }
        }
        return true
    }
}
