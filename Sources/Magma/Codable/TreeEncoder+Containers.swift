// TreeEncoder's containers (keyed, unkeyed, the encoder a superEncoder refers through) and the
// fast paths for arrays and String-keyed dictionaries that skip a generic `encode(to:)` per element.

import Foundation

protocol TreeArrayEncodable {
    func encodeElements(into encoder: TreeEncoder) throws
}

extension Array: TreeArrayEncodable where Element: Encodable {
    func encodeElements(into encoder: TreeEncoder) throws {
        let array = EncodedArray()
        array.values.reserveCapacity(count)
        // Indices, not `enumerated()`: unspecialized, that looks up EnumeratedSequence's metadata per call.
        for index in 0..<count {
            array.values.append(try encoder.wrapGeneric(self[index], PathKey(index: index)) ?? .object(EncodedObject()))
        }
        encoder.array = array
    }
}

/// Which types are arrays whose elements StreamEncoder writes, remembered per type (see `TypeMemo`).
typealias ArrayTypes = TypeMemo<(any StreamArrayEncodable.Type)?>

private let streamArrayTypes = TypeAnswers<(any StreamArrayEncodable.Type)?> { $0 as? any StreamArrayEncodable.Type }

extension TypeMemo where Answer == (any StreamArrayEncodable.Type)? {
    convenience init() { self.init(streamArrayTypes) }

    @inline(__always)
    func isArray(_ type: Any.Type) -> Bool { answer(for: type) != nil }
}

/// Dictionaries whose keys become JSON keys as they are, whatever the key strategy.
protocol StringKeyedDictionaryEncodable {
    var stringKeyed: [String: any Encodable] { get }
}

extension Dictionary: StringKeyedDictionaryEncodable where Key: CodingKeyRepresentable, Value: Encodable {
    var stringKeyed: [String: any Encodable] {
        if Key.self == String.self { return self as! [String: any Encodable] }
        var result: [String: any Encodable] = [:]
        for (k, v) in self { result[k.codingKey.stringValue] = v }
        return result
    }
}

/// Writes into the referenced container when it goes away (`superEncoder`).
final class ReferencingEncoder: TreeEncoder {
    private enum Reference {
        case array(EncodedArray, Int)
        case object(EncodedObject, String)
    }

    private let reference: Reference

    init(_ encoder: TreeEncoder, array: EncodedArray, index: Int) {
        reference = .array(array, index)
        super.init(settings: encoder.settings, owner: encoder, key: PathKey(index: index))
    }

    init(_ encoder: TreeEncoder, object: EncodedObject, key: any CodingKey, converted: String) {
        reference = .object(object, converted)
        super.init(settings: encoder.settings, owner: encoder, key: key)
    }

    deinit {
        let value = takeValue() ?? .object(EncodedObject())
        switch reference {
        case .array(let a, let i): a.values.insert(value, at: min(i, a.values.count))
        case .object(let o, let k): o.set(value, for: k)
        }
    }
}

struct TreeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: TreeEncoder
    let object: EncodedObject
    /// Keys of nested containers below the encoder's own path. As in JSONEncoder, they are in
    /// this container's `codingPath` but not in the paths of the values encoded into it.
    let path: [any CodingKey]

    init(encoder: TreeEncoder, object: EncodedObject, path: [any CodingKey]) {
        self.encoder = encoder
        self.object = object
        self.path = path
    }

    var codingPath: [any CodingKey] { encoder.codingPath + path }

    @inline(__always) private func name(_ key: Key) -> String { encoder.converted(key, path: path) }

    mutating func encodeNil(forKey key: Key) throws { object.set(.null, for: name(key)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(.bool(value), for: name(key)) }
    mutating func encode(_ value: String, forKey key: Key) throws { object.set(.string(value), for: name(key)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { object.set(try encoder.wrap(value, key), for: name(key)) }
    mutating func encode(_ value: Float, forKey key: Key) throws { object.set(try encoder.wrap(value, key), for: name(key)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { object.set(.int(Int64(value)), for: name(key)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { object.set(.int(Int64(value)), for: name(key)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { object.set(.int(Int64(value)), for: name(key)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { object.set(.int(Int64(value)), for: name(key)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { object.set(.int(value), for: name(key)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { object.set(.uint(UInt64(value)), for: name(key)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { object.set(.uint(UInt64(value)), for: name(key)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { object.set(.uint(UInt64(value)), for: name(key)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { object.set(.uint(UInt64(value)), for: name(key)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { object.set(.uint(value), for: name(key)) }
    mutating func encode(_ value: Int128, forKey key: Key) throws { object.set(.text(String(value)), for: name(key)) }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { object.set(.text(String(value)), for: name(key)) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let wrapped = try encoder.wrapGeneric(value, key)
        object.set(wrapped ?? .object(EncodedObject()), for: name(key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(TreeKeyedContainer<NestedKey>(encoder: encoder, object: object.nestedObject(for: name(key)), path: path + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        TreeUnkeyedContainer(encoder: encoder, array: object.nestedArray(for: name(key)), path: path + [key])
    }

    mutating func superEncoder() -> any Encoder {
        ReferencingEncoder(encoder, object: object, key: PathKey.super, converted: encoder.converted(PathKey.super, path: path))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        ReferencingEncoder(encoder, object: object, key: key, converted: name(key))
    }
}

struct TreeUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: TreeEncoder
    let array: EncodedArray
    let path: [any CodingKey]

    var codingPath: [any CodingKey] { encoder.codingPath + path }
    var count: Int { array.values.count }

    private var indexKey: any CodingKey { PathKey(index: count) }

    mutating func encodeNil() throws { array.values.append(.null) }
    mutating func encode(_ value: Bool) throws { array.values.append(.bool(value)) }
    mutating func encode(_ value: String) throws { array.values.append(.string(value)) }
    mutating func encode(_ value: Double) throws { array.values.append(try encoder.wrap(value, PathKey(index: count))) }
    mutating func encode(_ value: Float) throws { array.values.append(try encoder.wrap(value, PathKey(index: count))) }
    mutating func encode(_ value: Int) throws { array.values.append(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { array.values.append(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { array.values.append(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { array.values.append(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { array.values.append(.int(value)) }
    mutating func encode(_ value: UInt) throws { array.values.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { array.values.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { array.values.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { array.values.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { array.values.append(.uint(value)) }
    mutating func encode(_ value: Int128) throws { array.values.append(.text(String(value))) }
    mutating func encode(_ value: UInt128) throws { array.values.append(.text(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let wrapped = try encoder.wrapGeneric(value, indexKey)
        array.values.append(wrapped ?? .object(EncodedObject()))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let index = PathKey(index: count)
        let o = EncodedObject()
        array.values.append(.object(o))
        return KeyedEncodingContainer(TreeKeyedContainer<NestedKey>(encoder: encoder, object: o, path: path + [index]))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let index = PathKey(index: count)
        let a = EncodedArray()
        array.values.append(.array(a))
        return TreeUnkeyedContainer(encoder: encoder, array: a, path: path + [index])
    }

    mutating func superEncoder() -> any Encoder {
        ReferencingEncoder(encoder, array: array, index: count)
    }
}
