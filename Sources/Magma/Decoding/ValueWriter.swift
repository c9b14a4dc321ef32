// ValueWriter: writes the value stored at an address (a struct model's field, an array element)
// without copying it first. Scalars with a fast path and their optionals have writers compiled for
// their type (`ScalarValue`); models and arrays are walked in place; optionals of anything else
// are copied once; every other codec is called with a copy of the value (`CodecValue`). A codec
// makes its writer (`Codec.makeValueWriter`). Each writer writes exactly what its codec's `write` would, and treats
// as nil exactly what its codec's `isNil` does.
import Foundation

class ValueWriter {
    /// Writes the value.
    func write(_ value: UnsafeRawPointer, into w: inout JSONWriter) throws {}

    /// Writes `count` values stored `stride` bytes apart from `base` as array elements (the
    /// brackets are the caller's). A model's writer overrides it to look its plan up once.
    func writeElements(_ base: UnsafeRawPointer, count: Int, stride: Int, into w: inout JSONWriter) throws {
        var address = base
        for _ in 0..<count {
            w.element()
            try write(address, into: &w)
            address += stride
        }
    }

    /// Writes `key` and the value, or nothing when the value is nil and the options omit nil.
    func writeMember(_ value: UnsafeRawPointer, _ key: MemberKey, into w: inout JSONWriter) throws {
        w.key(key)
        try write(value, into: &w)
    }
}

// MARK: - Scalars

/// A scalar `V` read straight from memory; its `optionalWriter` reads a `V?`. Built in its codec,
/// where `V` is concrete, so the closures are compiled for `V` (as `TypedWrite` is for decoding):
/// a generic writer would look up `V`'s metadata and call its value witnesses per value.
final class ScalarValue: ValueWriter {
    private let writeAt: (UnsafeRawPointer, inout JSONWriter) throws -> Void
    private let optional: Bool
    /// Whether the `V?` at an address is nil (called only when `optional`). Not an optional
    /// closure: one loaded from an `Optional` is retained and released around each call.
    private let isNilAt: (UnsafeRawPointer) -> Bool
    /// The writer of a `V?`, made here because only this init knows `V`; nil on that writer.
    let optionalWriter: ScalarValue?

    /// - Parameter write: Writes one value, as the codec's `write(_:into:)` does.
    @inline(__always)
    init<V>(_ write: @escaping (V, inout JSONWriter) throws -> Void) {
        writeAt = { value, w in try write(value.assumingMemoryBound(to: V.self).pointee, &w) }
        optional = false
        isNilAt = { _ in false }
        optionalWriter = ScalarValue(optional: { value, w in
            guard let v = value.assumingMemoryBound(to: V?.self).pointee else { return w.null() }
            try write(v, &w)
        }, isNil: { $0.assumingMemoryBound(to: V?.self).pointee == nil })
    }

    private init(optional writeAt: @escaping (UnsafeRawPointer, inout JSONWriter) throws -> Void,
                 isNil: @escaping (UnsafeRawPointer) -> Bool) {
        self.writeAt = writeAt
        optional = true
        isNilAt = isNil
        optionalWriter = nil
    }

    override func write(_ value: UnsafeRawPointer, into w: inout JSONWriter) throws {
        try writeAt(value, &w)
    }
    override func writeMember(_ value: UnsafeRawPointer, _ key: MemberKey, into w: inout JSONWriter) throws {
        if optional, isNilAt(value) { return w.nilMember(key) }
        w.key(key)
        try writeAt(value, &w)
    }
}

// MARK: - Shapes

/// Lets a writer generic over `Optional<W>` itself (not over `W`, which would make it look up
/// `Optional<W>`'s metadata on every call) reach the payload.
protocol OptionalPayload {
    /// Calls `body` with the address of a copy of the payload; false (and no call) for nil.
    func withPayload(_ body: (UnsafeRawPointer) throws -> Void) rethrows -> Bool
}

extension Optional: OptionalPayload {
    func withPayload(_ body: (UnsafeRawPointer) throws -> Void) rethrows -> Bool {
        guard let payload = self else { return false }
        try withUnsafePointer(to: payload) { try body(UnsafeRawPointer($0)) }
        return true
    }
}

/// An optional of any other type (`Optional` = `Wrapped?`): copied once to test for nil (Swift
/// has no way to test an enum's case in place in unspecialised code), its payload written from
/// the copy.
final class OptionalValue<Optional: OptionalPayload>: ValueWriter {
    let wrapped: ValueWriter
    init(_ wrapped: ValueWriter) { self.wrapped = wrapped }

    override func write(_ value: UnsafeRawPointer, into w: inout JSONWriter) throws {
        let wrapped = self.wrapped
        let found = try value.assumingMemoryBound(to: Optional.self).pointee.withPayload { payload in
            try wrapped.write(payload, into: &w)
        }
        if !found { w.null() }
    }
    override func writeMember(_ value: UnsafeRawPointer, _ key: MemberKey, into w: inout JSONWriter) throws {
        let wrapped = self.wrapped
        let found = try value.assumingMemoryBound(to: Optional.self).pointee.withPayload { payload in
            w.key(key)
            try wrapped.write(payload, into: &w)
        }
        if !found { w.nilMember(key) }
    }
}

/// `[Element]`: the elements are written where the array stores them, by the element's writer.
final class ArrayValue<Element>: ValueWriter {
    let element: ValueWriter
    init(_ element: ValueWriter) { self.element = element }

    override func write(_ value: UnsafeRawPointer, into w: inout JSONWriter) throws {
        try value.assumingMemoryBound(to: [Element].self).pointee.withUnsafeBufferPointer { elements in
            w.beginArray()
            if let base = elements.baseAddress {
                try element.writeElements(base, count: elements.count, stride: MemoryLayout<Element>.stride, into: &w)
            }
            w.endArray()
        }
    }
}

/// Any other codec, called with a copy of the value.
final class CodecValue<V>: ValueWriter {
    let codec: Codec<V>
    init(_ codec: Codec<V>) { self.codec = codec }

    override func write(_ value: UnsafeRawPointer, into w: inout JSONWriter) throws {
        try codec.write(value.assumingMemoryBound(to: V.self).pointee, into: &w)
    }
    override func writeMember(_ value: UnsafeRawPointer, _ key: MemberKey, into w: inout JSONWriter) throws {
        let value = value.assumingMemoryBound(to: V.self).pointee
        if w.omitsNil, codec.isNil(value) { return }
        w.key(key)
        try codec.write(value, into: &w)
    }
}
