// The keyed container of TapeDecoder (the unkeyed one is in TapeDecoder+UnkeyedContainer.swift).
//
// A keyed container looks keys up in the tape, as bytes. Synthesized `init(from:)` asks for keys
// in declaration order, and JSON usually lists them in the same order, so the search starts where
// the last one was found: most lookups compare one key. JSONDecoder keeps the first of duplicate
// keys; an object that has duplicates (checked once, when its container is made) is searched
// from its start instead. With a key strategy other than the default, the container converts
// every key once, as JSONDecoder does, into a dictionary.

import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where a keyed container's next search starts: shared by the copies of the container.
final class KeyCursor {
    var position: Int
    init(_ position: Int) { self.position = position }
}

struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TapeDecoder
    let node: CodingPathNode
    let object: Int
    /// The first key's entry, and one past the object's last entry.
    let first: Int
    let end: Int
    let cursor: KeyCursor
    let hasDuplicates: Bool
    /// Converted keys (a key strategy other than the default): first value entry per key.
    let converted: [String: Int]?

    init(decoder: TapeDecoder, path: CodingPathNode, object: Int) throws {
        self.decoder = decoder
        node = path
        self.object = object
        first = object + 1
        let tape = decoder.tape
        end = tape[object].end
        cursor = KeyCursor(first)
        switch decoder.settings.keys {
        case .useDefaultKeys:
            converted = nil
            hasDuplicates = KeyedContainer.hasDuplicateKeys(tape, first: first, end: end, count: tape[object].count)
        case .convertFromSnakeCase:
            converted = KeyedContainer.keyIndex(tape, first: first, end: end) { JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase($0) }
            hasDuplicates = false
        case .custom(let convert):
            let base = path.path
            converted = KeyedContainer.keyIndex(tape, first: first, end: end) { convert(base + [PathKey(stringValue: $0)]).stringValue }
            hasDuplicates = false
        @unknown default:
            converted = KeyedContainer.keyIndex(tape, first: first, end: end) { $0 }
            hasDuplicates = false
        }
    }

    var codingPath: [any CodingKey] { node.path }

    var allKeys: [Key] {
        if let converted { return converted.keys.compactMap { Key(stringValue: $0) } }
        var keys: [Key] = []
        var seen = Set<String>()
        var k = first
        let tape = decoder.tape
        while k < end {
            let name = String(checkedUTF8: tape.text(tape[k]))
            if !hasDuplicates || seen.insert(name).inserted, let key = Key(stringValue: name) { keys.append(key) }
            k = tape.next(after: k + 1)
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    /// The value entry of `key`, or nil.
    @inline(__always)
    func find(_ key: some CodingKey) -> Int? {
        if let converted { return converted[key.stringValue] }
        var name = key.stringValue
        return name.withUTF8 { find(UnsafeRawBufferPointer($0)) }
    }

    private func find(_ name: UnsafeRawBufferPointer) -> Int? {
        let tape = decoder.tape
        let start = hasDuplicates ? first : cursor.position
        var k = start
        // From the cursor to the end, then from the first key to the cursor.
        for pass in 0..<2 {
            let stop = pass == 0 ? end : start
            if pass == 1 { k = first }
            while k < stop {
                let e = tape[k]
                let next = tape.next(after: k + 1)
                if e.textCount == name.count, Self.equal(tape.text(e), name) {
                    cursor.position = next < end ? next : first
                    return k + 1
                }
                k = next
            }
            if start == first { break }
        }
        return nil
    }

    @inline(__always)
    private static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
    }

    /// Whether two keys of the object are equal as bytes: pairwise for a few keys, through a
    /// small open-addressing table of hashes for more.
    static func hasDuplicateKeys(_ tape: Tape, first: Int, end: Int, count: Int) -> Bool {
        if count < 2 { return false }
        if count <= 8 {
            var keys: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
            return withUnsafeMutableBytes(of: &keys) { raw in
                let seen = raw.bindMemory(to: Int.self)
                var n = 0
                var k = first
                while k < end {
                    let e = tape[k]
                    let text = tape.text(e)
                    for j in 0..<n {
                        let other = tape[seen[j]]
                        if other.textCount == e.textCount, equal(tape.text(other), text) { return true }
                    }
                    seen[n] = k
                    n += 1
                    k = tape.next(after: k + 1)
                }
                return false
            }
        }
        var size = 16
        while size < count * 2 { size <<= 1 }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: size) { table in
            table.initialize(repeating: -1)
            var k = first
            while k < end {
                let e = tape[k]
                let text = tape.text(e)
                let h = keyHash(text)
                var slot = Int(truncatingIfNeeded: h ^ (h >> 29)) & (size - 1)
                while table[slot] >= 0 {
                    let other = tape[table[slot]]
                    if other.textCount == e.textCount, equal(tape.text(other), text) { return true }
                    slot = (slot + 1) & (size - 1)
                }
                table[slot] = k
                k = tape.next(after: k + 1)
            }
            return false
        }
    }

    /// A hash of a key from its length and its first and last eight bytes (a word each): keys
    /// that differ elsewhere collide, and are then compared in full.
    @inline(__always)
    private static func keyHash(_ text: UnsafeRawBufferPointer) -> UInt64 {
        let n = text.count
        var h = UInt64(n) &* 0x9E37_79B9_7F4A_7C15
        if n >= 8 {
            h ^= text.loadUnaligned(as: UInt64.self)
            h = (h ^ (h >> 31)) &* 0xBF58_476D_1CE4_E5B9
            h ^= text.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
        } else {
            var w: UInt64 = 0
            for k in 0..<n { w |= UInt64(text[k]) << (8 * UInt64(k)) }
            h ^= w
        }
        h = (h ^ (h >> 29)) &* 0x94D0_49BB_1331_11EB
        return h ^ (h >> 32)
    }

    static func keyIndex(_ tape: Tape, first: Int, end: Int, _ convert: (String) -> String) -> [String: Int] {
        var index: [String: Int] = [:]
        var k = first
        while k < end {
            let name = convert(String(checkedUTF8: tape.text(tape[k])))
            if index[name] == nil { index[name] = k + 1 }
            k = tape.next(after: k + 1)
        }
        return index
    }

    // MARK: Values

    @inline(__always)
    private func value(_ key: Key) throws -> Int {
        guard let i = find(key) else {
            throw decoder.located(.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\").")), object)
        }
        return i
    }

    func decodeNil(forKey key: Key) throws -> Bool { decoder.kind(try value(key)) == .null }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try decoder.unwrapBool(try value(key), node.path(byAppending: key))
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.unwrapString(try value(key), node, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.unwrapFloat(try value(key), as: type, node, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.unwrapFloat(try value(key), as: type, node, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.unwrapInteger(try value(key), as: type, node, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.unwrapInteger(try value(key), as: type, node, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.unwrapInteger(try value(key), as: type, node, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.unwrapInteger(try value(key), as: type, node, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.unwrapInteger(try value(key), as: type, node, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.unwrapInteger(try value(key), as: type, node, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.unwrapInteger(try value(key), as: type, node, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.unwrapInteger(try value(key), as: type, node, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.unwrapInteger(try value(key), as: type, node, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.unwrapInteger(try value(key), as: type, node, key) }
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try decoder.unwrapInteger(try value(key), as: type, node, key) }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try decoder.unwrapInteger(try value(key), as: type, node, key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unwrap(try value(key), as: type, for: node, key)
    }

    /// The value of `key` unless it is absent or null.
    @inline(__always)
    private func present(_ key: Key) -> Int? {
        guard let i = find(key), decoder.kind(i) != .null else { return nil }
        return i
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let i = present(key) else { return nil }
        return try decoder.unwrapBool(i, node.path(byAppending: key))
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let i = present(key) else { return nil }
        return try decoder.unwrapString(i, node, key)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try floatIfPresent(key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try floatIfPresent(key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? { try integerIfPresent(key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let i = present(key) else { return nil }
        return try decoder.unwrap(i, as: type, for: node, key)
    }

    @inline(__always)
    private func integerIfPresent<T: FixedWidthInteger>(_ key: Key) throws -> T? {
        guard let i = present(key) else { return nil }
        return try decoder.unwrapInteger(i, as: T.self, node, key)
    }

    private func floatIfPresent<T: BinaryFloatingPoint>(_ key: Key) throws -> T? {
        guard let i = present(key) else { return nil }
        return try decoder.unwrapFloat(i, as: T.self, node, key)
    }

    // MARK: Nesting

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let i = try value(key)
        return try decoder.with(value: i, path: node.appending(key)) { try decoder.container(keyedBy: type) }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let i = try value(key)
        return try decoder.with(value: i, path: node.appending(key)) { try decoder.unkeyedContainer() }
    }

    func superDecoder() throws -> any Decoder { decoder(for: PathKey.super) }
    func superDecoder(forKey key: Key) throws -> any Decoder { decoder(for: key) }

    private func decoder(for key: some CodingKey) -> TapeDecoder {
        TapeDecoder(tape: decoder.tape, settings: decoder.settings, path: node.appending(key), value: find(key) ?? -1)
    }
}
