// StreamEncoder's keyed and unkeyed containers: each names its frame, reaches it before a write
// (closing the frames above it, or giving up on streaming when it is closed), and writes the
// member or element where the output stands.

import Foundation

struct StreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: StreamEncoder
    let frame: Int
    /// Keys of nested containers below the encoder's own path (see TreeKeyedContainer).
    let path: [any CodingKey]

    var codingPath: [any CodingKey] { encoder.codingPath + path }

    @inline(__always) private func name(_ key: Key) -> String { encoder.converted(key, path: path) }

    /// Reaches this container and writes the separator and key of a member.
    @inline(__always)
    private func member(_ key: Key) throws -> UnsafeMutablePointer<StreamState> {
        let s = encoder.output.state
        if s.pointee.current != frame { try encoder.reach(frame) }
        s.pointee.key(name(key))
        return s
    }

    mutating func encodeNil(forKey key: Key) throws { try member(key).pointee.writer.null() }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try member(key).pointee.writer.bool(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { try member(key).pointee.writer.string(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try encoder.check(value, .key(key))
        encoder.float(value, into: try member(key))
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try encoder.check(value, .key(key))
        encoder.float(value, into: try member(key))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { try member(key).pointee.writer.int64(Int64(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try member(key).pointee.writer.int64(Int64(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try member(key).pointee.writer.int64(Int64(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try member(key).pointee.writer.int64(Int64(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try member(key).pointee.writer.int64(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try member(key).pointee.writer.uint64(UInt64(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try member(key).pointee.writer.uint64(UInt64(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try member(key).pointee.writer.uint64(UInt64(value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try member(key).pointee.writer.uint64(UInt64(value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try member(key).pointee.writer.uint64(value) }
    mutating func encode(_ value: Int128, forKey key: Key) throws { try member(key).pointee.writer.integer(value) }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { try member(key).pointee.writer.integer(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let s = encoder.output.state
        if s.pointee.current != frame { try encoder.reach(frame) }
        let mark = s.pointee.mark()
        do {
            s.pointee.key(name(key))
            if try !encoder.value(value, .key(key)) { s.pointee.emptyObject() }
        } catch {
            s.pointee.rollback(mark)
            throw error
        }
    }

    // The standard library's `encodeIfPresent` looks up `Optional<T>`'s metadata per call: these
    // test for nil where T is known. A generic one here looks it up as well, so other types keep
    // the standard one.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(StreamKeyedContainer<NestedKey>(encoder: encoder, frame: nested(key, object: true), path: path + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        StreamUnkeyedContainer(encoder: encoder, frame: nested(key, object: false), path: path + [key])
    }

    /// Opens a nested container at `key`; -1 when the stream cannot (a key written before: its
    /// container would be reopened and merged, as JSONEncoder does).
    private func nested(_ key: Key, object: Bool) -> Int {
        let s = encoder.output.state
        guard s.pointee.current == frame || s.pointee.reach(frame) else { return -1 }
        if s.pointee.key(name(key)) {
            _ = s.pointee.abandon()
            return -1
        }
        return s.pointee.open(object: object)
    }

    // superEncoder's value lands when the encoder goes away, in a container that may have moved
    // on: TreeEncoder's ReferencingEncoder does that.
    mutating func superEncoder() -> any Encoder {
        _ = encoder.output.state.pointee.abandon()
        return encoder
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        _ = encoder.output.state.pointee.abandon()
        return encoder
    }
}

struct StreamUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: StreamEncoder
    let frame: Int
    let path: [any CodingKey]

    var codingPath: [any CodingKey] { encoder.codingPath + path }

    var count: Int {
        let s = encoder.output.state
        if let count = s.pointee.count(of: frame) { return count }
        _ = s.pointee.abandon()
        return 0
    }

    /// Reaches this container and writes the separator of an element; the element's index.
    @inline(__always)
    private func element() throws -> UnsafeMutablePointer<StreamState> {
        let s = encoder.output.state
        if s.pointee.current != frame { try encoder.reach(frame) }
        s.pointee.separate()
        return s
    }

    /// The index the next element gets.
    private var next: Int { encoder.output.state.pointee.count(of: frame) ?? 0 }

    mutating func encodeNil() throws { try element().pointee.writer.null() }
    mutating func encode(_ value: Bool) throws { try element().pointee.writer.bool(value) }
    mutating func encode(_ value: String) throws { try element().pointee.writer.string(value) }
    mutating func encode(_ value: Double) throws {
        try encoder.check(value, .index(next))
        encoder.float(value, into: try element())
    }
    mutating func encode(_ value: Float) throws {
        try encoder.check(value, .index(next))
        encoder.float(value, into: try element())
    }
    mutating func encode(_ value: Int) throws { try element().pointee.writer.int64(Int64(value)) }
    mutating func encode(_ value: Int8) throws { try element().pointee.writer.int64(Int64(value)) }
    mutating func encode(_ value: Int16) throws { try element().pointee.writer.int64(Int64(value)) }
    mutating func encode(_ value: Int32) throws { try element().pointee.writer.int64(Int64(value)) }
    mutating func encode(_ value: Int64) throws { try element().pointee.writer.int64(value) }
    mutating func encode(_ value: UInt) throws { try element().pointee.writer.uint64(UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { try element().pointee.writer.uint64(UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { try element().pointee.writer.uint64(UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { try element().pointee.writer.uint64(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { try element().pointee.writer.uint64(value) }
    mutating func encode(_ value: Int128) throws { try element().pointee.writer.integer(value) }
    mutating func encode(_ value: UInt128) throws { try element().pointee.writer.integer(value) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let s = encoder.output.state
        if s.pointee.current != frame { try encoder.reach(frame) }
        let mark = s.pointee.mark()
        let index = next
        do {
            s.pointee.separate()
            if try !encoder.value(value, .index(index)) { s.pointee.emptyObject() }
        } catch {
            s.pointee.rollback(mark)
            throw error
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let index = next
        return KeyedEncodingContainer(StreamKeyedContainer<NestedKey>(encoder: encoder, frame: nested(object: true), path: path + [PathKey(index: index)]))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let index = next
        return StreamUnkeyedContainer(encoder: encoder, frame: nested(object: false), path: path + [PathKey(index: index)])
    }

    private func nested(object: Bool) -> Int {
        let s = encoder.output.state
        guard s.pointee.current == frame || s.pointee.reach(frame) else { return -1 }
        s.pointee.separate()
        return s.pointee.open(object: object)
    }

    mutating func superEncoder() -> any Encoder {
        _ = encoder.output.state.pointee.abandon()
        return encoder
    }
}
