// The unkeyed container of TapeDecoder: an array's elements in order, each decoded from its tape
// entry, with JSONDecoder's errors and coding paths.

import Foundation

struct UnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    let node: CodingPathNode
    let array: Int
    /// The entry of the next element.
    var position: Int
    let count: Int?
    private(set) var currentIndex = 0

    init(decoder: TapeDecoder, path: CodingPathNode, array: Int) {
        self.decoder = decoder
        node = path
        self.array = array
        position = array + 1
        count = decoder.tape[array].count
    }

    var codingPath: [any CodingKey] { node.path }
    var isAtEnd: Bool { currentIndex >= count! }
    private var indexKey: PathKey { PathKey(index: currentIndex) }

    private mutating func advance() {
        position = decoder.tape.next(after: position)
        currentIndex += 1
    }

    private func next<T>(_ type: T.Type, _ message: String = "Unkeyed container is at end.") throws -> Int {
        guard !isAtEnd else {
            throw decoder.located(.valueNotFound(type, DecodingError.Context(
                codingPath: node.path(byAppending: indexKey), debugDescription: message)), array)
        }
        return position
    }

    mutating func decodeNil() throws -> Bool {
        let i = try next(Never.self)
        if decoder.kind(i) == .null { advance(); return true }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let v = try decoder.unwrapBool(try next(type), node.path(byAppending: indexKey))
        advance()
        return v
    }
    mutating func decode(_ type: String.Type) throws -> String {
        let v = try decoder.unwrapString(try next(type), node, indexKey)
        advance()
        return v
    }
    mutating func decode(_ type: Double.Type) throws -> Double { try float(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try float(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try integer(type) }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let v = try decoder.unwrap(try next(type), as: type, for: node, indexKey)
        advance()
        return v
    }

    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let v = try decoder.unwrapInteger(try next(type), as: type, node, indexKey)
        advance()
        return v
    }

    private mutating func float<T: BinaryFloatingPoint>(_ type: T.Type) throws -> T {
        let v = try decoder.unwrapFloat(try next(type), as: type, node, indexKey)
        advance()
        return v
    }

    /// JSONDecoder's decodeIfPresent here: nil at the end or for null, and the index moves on
    /// in every case that does not throw.
    private mutating func ifPresent<T>(_ body: (Int) throws -> T) throws -> T? {
        let result: T?
        if isAtEnd || decoder.kind(position) == .null { result = nil } else { result = try body(position) }
        if !isAtEnd { advance() } else { currentIndex += 1 }
        return result
    }

    mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
        let path = node.path(byAppending: indexKey), d = decoder
        return try ifPresent { try d.unwrapBool($0, path) }
    }
    mutating func decodeIfPresent(_ type: String.Type) throws -> String? {
        let key = indexKey, d = decoder, node = node
        return try ifPresent { try d.unwrapString($0, node, key) }
    }
    mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? { try floatIfPresent(type) }
    mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? { try floatIfPresent(type) }
    mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: Int128.Type) throws -> Int128? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: UInt128.Type) throws -> UInt128? { try integerIfPresent(type) }
    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        let key = indexKey, d = decoder, node = node
        return try ifPresent { try d.unwrap($0, as: type, for: node, key) }
    }

    private mutating func integerIfPresent<T: FixedWidthInteger>(_ type: T.Type) throws -> T? {
        let key = indexKey, d = decoder, node = node
        return try ifPresent { try d.unwrapInteger($0, as: type, node, key) }
    }

    private mutating func floatIfPresent<T: BinaryFloatingPoint>(_ type: T.Type) throws -> T? {
        let key = indexKey, d = decoder, node = node
        return try ifPresent { try d.unwrapFloat($0, as: type, node, key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let i = try next(KeyedDecodingContainer<NestedKey>.self)
        let container = try decoder.with(value: i, path: .index(currentIndex, node)) { try decoder.container(keyedBy: type) }
        advance()
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let i = try next(UnkeyedDecodingContainer.self, "Cannot get nested unkeyed container -- unkeyed container is at end.")
        let container = try decoder.with(value: i, path: .index(currentIndex, node)) { try decoder.unkeyedContainer() }
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let i = try next((any Decoder).self, "Cannot get superDecoder() -- unkeyed container is at end.")
        let d = TapeDecoder(tape: decoder.tape, settings: decoder.settings, path: .index(currentIndex, node), value: i)
        advance()
        return d
    }
}
