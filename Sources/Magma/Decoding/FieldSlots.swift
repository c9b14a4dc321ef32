// Non-generic slots for the commonest property types of struct models: the token is decoded and
// written straight to the stored property's offset. A generic Slot<V> runs unspecialised code
// (value witnesses, metadata lookups) through two or three virtual calls per value; these run
// none. Anything but the expected token (null, lenient coercions, type mismatches) goes to the
// generic slot, so behaviour is identical.
import Foundation

/// Forwards every token to a fallback target; subclasses take over the token kinds they make fast.
class ForwardingTarget: ValueTarget {
    let fallback: ValueTarget

    init(fallback: ValueTarget) {
        self.fallback = fallback
        super.init(property: fallback.property)
    }

    override var expected: String { fallback.expected }
    override func string(_ bytes: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try fallback.string(bytes, context, &b)
    }
    override func number(_ text: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try fallback.number(text, context, &b)
    }
    override func bool(_ value: Bool, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try fallback.bool(value, context, &b)
    }
    override func null(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try fallback.null(context, &b)
    }
    override func startObject(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try fallback.startObject(context, &b)
    }
    override func startArray(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try fallback.startArray(context, &b)
    }
    override func deliver(_ storage: UnsafeMutableRawPointer, from owner: ContainerOwner, _ context: UnsafeMutableRawPointer,
                          _ b: inout EventBuilder) throws {
        try fallback.deliver(storage, from: owner, context, &b)
    }
}

class FieldSlot: ForwardingTarget {
    let offset: Int
    let optional: Bool

    init(offset: Int, optional: Bool, fallback: ValueTarget) {
        self.offset = offset
        self.optional = optional
        super.init(fallback: fallback)
    }
}

final class StringField: FieldSlot {
    override func string(_ bytes: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        let value = String(checkedUTF8: bytes)
        if optional {
            (context + offset).assumingMemoryBound(to: String?.self).pointee = value
        } else {
            (context + offset).assumingMemoryBound(to: String.self).pointee = value
        }
    }
}

final class BoolField: FieldSlot {
    override func bool(_ value: Bool, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        if optional {
            (context + offset).assumingMemoryBound(to: Bool?.self).pointee = value
        } else {
            (context + offset).assumingMemoryBound(to: Bool.self).pointee = value
        }
    }
}

final class DoubleField: FieldSlot {
    override func number(_ text: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        guard let value = NumberParsing.doubleInRange(text) else { return try fallback.number(text, context, &b) }
        if optional {
            (context + offset).assumingMemoryBound(to: Double?.self).pointee = value
        } else {
            (context + offset).assumingMemoryBound(to: Double.self).pointee = value
        }
    }
}

/// `Int` and `Int64` (the same layout on 64-bit Linux).
final class Int64Field: FieldSlot {
    override func number(_ text: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        guard case .value(let value) = NumberParsing.integer(text, as: Int64.self) else {
            return try fallback.number(text, context, &b)
        }
        if optional {
            (context + offset).assumingMemoryBound(to: Int64?.self).pointee = value
        } else {
            (context + offset).assumingMemoryBound(to: Int64.self).pointee = value
        }
    }
}

final class URLField: FieldSlot {
    override func string(_ bytes: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        guard let value = URLCache.url(for: bytes) else {
            return try fallback.string(bytes, context, &b)
        }
        if optional {
            (context + offset).assumingMemoryBound(to: URL?.self).pointee = value
        } else {
            (context + offset).assumingMemoryBound(to: URL.self).pointee = value
        }
    }
}
