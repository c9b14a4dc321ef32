// TreeEncoder: Swift's `Encoder`, building a small tree that StreamEncoder then writes. It follows
// JSONEncoder's implementation where users can see it (which values a strategy turns into what,
// the coding paths of errors, containers asked for twice, superEncoder), with members kept in
// the order they were encoded. Containers are classes: a nested container a caller fills after
// asking for it writes into the tree in place.

import Foundation

enum EncodedValue {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    /// Number text already formatted (Float, Decimal).
    case text(String)
    case string(String)
    case array(EncodedArray)
    case object(EncodedObject)
}

extension EncodedValue: Encodable {
    /// The tree handed to StreamEncoder (``MagmaEncoder/treeEncode``), which alone writes it.
    func encode(to encoder: any Encoder) throws {
        switch self {
        case .null: var c = encoder.singleValueContainer(); try c.encodeNil()
        case .bool(let b): var c = encoder.singleValueContainer(); try c.encode(b)
        case .int(let i): var c = encoder.singleValueContainer(); try c.encode(i)
        case .uint(let u): var c = encoder.singleValueContainer(); try c.encode(u)
        case .double(let d): var c = encoder.singleValueContainer(); try c.encode(d)
        case .text(let t): try (encoder as! StreamEncoder).encodeNumberText(t)
        case .string(let s): var c = encoder.singleValueContainer(); try c.encode(s)
        case .array(let a):
            var c = encoder.unkeyedContainer()
            for v in a.values { try c.encode(v) }
        case .object(let o):
            var c = encoder.container(keyedBy: PathKey.self)
            for (k, v) in zip(o.keys, o.values) { try c.encode(v, forKey: PathKey(stringValue: k)) }
        }
    }
}

/// Exclusivity checks on class properties were a large share of an encode:
/// the mutable state of the tree's classes lives behind a pointer, which the checks do not cover.
/// Each class is used by one encode, on one thread.
final class EncodedArray {
    private let storage = UnsafeMutablePointer<[EncodedValue]>.allocate(capacity: 1)
    init() { storage.initialize(to: []) }
    deinit { storage.deinitialize(count: 1); storage.deallocate() }

    var values: [EncodedValue] {
        _read { yield storage.pointee }
        _modify { yield &storage.pointee }
    }
}

final class EncodedObject {
    private struct Members {
        var keys: [String] = []
        var values: [EncodedValue] = []
        /// Built once an object grows past a few members, for replacing a key encoded again.
        var index: [String: Int]?
    }

    private let storage = UnsafeMutablePointer<Members>.allocate(capacity: 1)
    init() { storage.initialize(to: Members()) }
    deinit { storage.deinitialize(count: 1); storage.deallocate() }

    var keys: [String] {
        _read { yield storage.pointee.keys }
        _modify { yield &storage.pointee.keys }
    }
    var values: [EncodedValue] {
        _read { yield storage.pointee.values }
        _modify { yield &storage.pointee.values }
    }
    private var index: [String: Int]? {
        _read { yield storage.pointee.index }
        _modify { yield &storage.pointee.index }
    }

    func set(_ value: EncodedValue, for key: String) {
        if let i = position(of: key) { values[i] = value; return }
        index?[key] = keys.count
        keys.append(key)
        values.append(value)
    }

    func position(of key: String) -> Int? {
        if let index { return index[key] }
        if keys.count > 16 {
            var built: [String: Int] = [:]
            for (i, k) in keys.enumerated() where built[k] == nil { built[k] = i }
            index = built
            return built[key]
        }
        return keys.firstIndex(of: key)
    }

    func nestedObject(for key: String) -> EncodedObject {
        if let i = position(of: key), case .object(let o) = values[i] { return o }
        let o = EncodedObject()
        set(.object(o), for: key)
        return o
    }

    func nestedArray(for key: String) -> EncodedArray {
        if let i = position(of: key), case .array(let a) = values[i] { return a }
        let a = EncodedArray()
        set(.array(a), for: key)
        return a
    }
}

class TreeEncoder: Encoder, SingleValueEncodingContainer {
    let settings: EncoderSettings
    /// Which types are arrays, remembered per type (see `ArrayTypes`).
    let routes: ArrayTypes

    /// The mutable state, behind a pointer (see `EncodedArray`).
    private struct State {
        var owner: TreeEncoder?
        var key: (any CodingKey)?
        /// A child encoder kept for reuse (JSONEncoder's trick: one fewer allocation per value).
        var spare: TreeEncoder?
        var single: EncodedValue?
        var array: EncodedArray?
        var object: EncodedObject?
    }

    private let state = UnsafeMutablePointer<State>.allocate(capacity: 1)

    var owner: TreeEncoder? {
        _read { yield state.pointee.owner }
        _modify { yield &state.pointee.owner }
    }
    var key: (any CodingKey)? {
        _read { yield state.pointee.key }
        _modify { yield &state.pointee.key }
    }
    private var spare: TreeEncoder? {
        _read { yield state.pointee.spare }
        _modify { yield &state.pointee.spare }
    }
    var single: EncodedValue? {
        _read { yield state.pointee.single }
        _modify { yield &state.pointee.single }
    }
    var array: EncodedArray? {
        _read { yield state.pointee.array }
        _modify { yield &state.pointee.array }
    }
    var object: EncodedObject? {
        _read { yield state.pointee.object }
        _modify { yield &state.pointee.object }
    }

    init(settings: EncoderSettings, owner: TreeEncoder?, key: (any CodingKey)?) {
        self.settings = settings
        state.initialize(to: State(owner: owner, key: key))
        routes = owner?.routes ?? ArrayTypes()
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    var userInfo: [CodingUserInfoKey: Any] { settings.userInfo }

    var codingPath: [any CodingKey] {
        var keys: [any CodingKey] = []
        if let key { keys.append(key) }
        var e = self
        while let o = e.owner, let k = o.key { keys.append(k); e = o }
        return keys.reversed()
    }

    func takeValue() -> EncodedValue? {
        if let object { self.object = nil; return .object(object) }
        if let array { self.array = nil; return .array(array) }
        defer { single = nil }
        return single
    }

    // MARK: Encoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if let object { return KeyedEncodingContainer(TreeKeyedContainer<Key>(encoder: self, object: object, path: [])) }
        if case .object(let o)? = single {
            single = nil
            object = o
            return KeyedEncodingContainer(TreeKeyedContainer<Key>(encoder: self, object: o, path: []))
        }
        precondition(single == nil && array == nil, "Attempt to push new keyed encoding container when already previously encoded at this path.")
        let o = EncodedObject()
        object = o
        return KeyedEncodingContainer(TreeKeyedContainer<Key>(encoder: self, object: o, path: []))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if let array { return TreeUnkeyedContainer(encoder: self, array: array, path: []) }
        if case .array(let a)? = single {
            single = nil
            array = a
            return TreeUnkeyedContainer(encoder: self, array: a, path: [])
        }
        precondition(single == nil && object == nil, "Attempt to push new unkeyed encoding container when already previously encoded at this path.")
        let a = EncodedArray()
        array = a
        return TreeUnkeyedContainer(encoder: self, array: a, path: [])
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    // MARK: SingleValueEncodingContainer

    private func assertCanEncode() {
        precondition(single == nil && array == nil && object == nil,
                     "Attempt to encode value through single value container when previously value already encoded.")
    }

    func encodeNil() throws { assertCanEncode(); single = .null }
    func encode(_ value: Bool) throws { assertCanEncode(); single = .bool(value) }
    func encode(_ value: String) throws { assertCanEncode(); single = .string(value) }
    func encode(_ value: Double) throws { assertCanEncode(); single = try wrap(value, nil) }
    func encode(_ value: Float) throws { assertCanEncode(); single = try wrap(value, nil) }
    func encode(_ value: Int) throws { assertCanEncode(); single = .int(Int64(value)) }
    func encode(_ value: Int8) throws { assertCanEncode(); single = .int(Int64(value)) }
    func encode(_ value: Int16) throws { assertCanEncode(); single = .int(Int64(value)) }
    func encode(_ value: Int32) throws { assertCanEncode(); single = .int(Int64(value)) }
    func encode(_ value: Int64) throws { assertCanEncode(); single = .int(value) }
    func encode(_ value: UInt) throws { assertCanEncode(); single = .uint(UInt64(value)) }
    func encode(_ value: UInt8) throws { assertCanEncode(); single = .uint(UInt64(value)) }
    func encode(_ value: UInt16) throws { assertCanEncode(); single = .uint(UInt64(value)) }
    func encode(_ value: UInt32) throws { assertCanEncode(); single = .uint(UInt64(value)) }
    func encode(_ value: UInt64) throws { assertCanEncode(); single = .uint(value) }
    func encode(_ value: Int128) throws { assertCanEncode(); single = .text(String(value)) }
    func encode(_ value: UInt128) throws { assertCanEncode(); single = .text(String(value)) }
    func encode<T: Encodable>(_ value: T) throws {
        assertCanEncode()
        single = try wrapGeneric(value, nil) ?? .object(EncodedObject())
    }

    // MARK: Wrapping values

    func wrap<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F, _ key: (any CodingKey)?,
                                                               strategy: JSONEncoder.NonConformingFloatEncodingStrategy? = nil) throws -> EncodedValue {
        guard value.isFinite else {
            if case let .convertToString(positiveInfinity: inf, negativeInfinity: negInf, nan: nan) = strategy ?? settings.floats {
                return .string(value == F.infinity ? inf : value == -F.infinity ? negInf : nan)
            }
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: codingPath + (key.map { [$0] } ?? []), debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
        }
        if F.self == Double.self { return .double(Double(value)) }
        return .text(JSONNumber.shortest(value))
    }

    func wrapGeneric<T: Encodable>(_ value: T, _ key: (any CodingKey)?) throws -> EncodedValue? {
        if T.self == Date.self { return try wrap(date: value as! Date, key) }
        if T.self == Data.self { return try wrap(data: value as! Data, key) }
        if T.self == URL.self { return .string((value as! URL).absoluteString) }
        if T.self == Decimal.self { return .text((value as! Decimal).description) }
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return .int(Int64(unsafeBitCast(value, to: Int.self))) }
        if T.self == Double.self { return try wrap(unsafeBitCast(value, to: Double.self), key) }
        if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
        if !settings.defaultKeys, let dictionary = value as? any StringKeyedDictionaryEncodable {
            return try wrap(dictionary: dictionary.stringKeyed, key)
        }
        if routes.isArray(T.self), let array = value as? any TreeArrayEncodable {
            return try withEncoder(for: key) { try array.encodeElements(into: $0) }
        }
        return try withEncoder(for: key) { try value.encode(to: $0) }
    }

    private func wrap(date: Date, _ key: (any CodingKey)?) throws -> EncodedValue? {
        switch settings.dates {
        case .deferredToDate: return try withEncoder(for: key) { try date.encode(to: $0) }
        case .secondsSince1970: return try wrap(date.timeIntervalSince1970, key, strategy: .throw)
        case .millisecondsSince1970: return try wrap(1000.0 * date.timeIntervalSince1970, key, strategy: .throw)
        case .iso8601: return .string(MagmaEncoder.DateEncodingStrategy.iso8601String(date))
        case .formatted: return .string(settings.formattedDates.unsafelyUnwrapped.string(date))
        case .custom(let closure): return try withEncoder(for: key) { try closure(date, $0) } ?? .object(EncodedObject())
        }
    }

    private func wrap(data: Data, _ key: (any CodingKey)?) throws -> EncodedValue? {
        switch settings.data {
        case .deferredToData: return try withEncoder(for: key) { try data.encode(to: $0) }
        case .base64: return .string(data.base64EncodedString())
        case .custom(let closure): return try withEncoder(for: key) { try closure(data, $0) } ?? .object(EncodedObject())
        @unknown default: return try withEncoder(for: key) { try data.encode(to: $0) }
        }
    }

    private func wrap(dictionary: [String: any Encodable], _ key: (any CodingKey)?) throws -> EncodedValue {
        let object = EncodedObject()
        let child = TreeEncoder(settings: settings, owner: self, key: key)
        for (k, v) in dictionary {
            let inner = TreeEncoder(settings: settings, owner: child, key: PathKey(stringValue: k))
            func open<V: Encodable>(_ v: V) throws -> EncodedValue? { try inner.wrapGeneric(v, nil) }
            object.set(try open(v) ?? .object(EncodedObject()), for: k)
        }
        return .object(object)
    }

    /// Runs `body` with an encoder for the value at `key` (this one when `key` is nil) and takes its value.
    @inline(__always)
    func withEncoder(for key: (any CodingKey)?, _ body: (TreeEncoder) throws -> Void) rethrows -> EncodedValue? {
        guard let key else {
            try body(self)
            return takeValue()
        }
        var child: TreeEncoder
        if let spare {
            self.spare = nil
            child = spare
            child.key = key
            child.owner = self
        } else {
            child = TreeEncoder(settings: settings, owner: self, key: key)
        }
        try body(child)
        let value = child.takeValue()
        if spare == nil, isKnownUniquelyReferenced(&child) {
            child.key = nil
            child.owner = nil
            child.single = nil
            child.array = nil
            child.object = nil
            spare = child
        }
        return value
    }

    /// The JSON key for `key`, through the key strategy.
    func converted(_ key: some CodingKey, path: [any CodingKey]) -> String {
        settings.jsonKey(for: key, at: codingPath + path)
    }
}

/// Arrays, encoded element by element without `Array.encode(to:)` (the standard library's generic
/// version looks up Array's metadata per call), to the same values and coding paths.
