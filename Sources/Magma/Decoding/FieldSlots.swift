// Non-generic slots for struct models: a token of a type with a fast path (its codec's
// `TypedWrite`) is decoded and written straight to the stored property's offset, or appended to
// the array. A generic Slot<V> runs unspecialised code (value witnesses, metadata lookups) through
// two or three virtual calls per value; these run none. Anything but the expected token (null,
// lenient coercions, type mismatches) goes to the generic slot, so behaviour is identical.
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

/// Writes a value where a property (at `offset` in the struct) or an array (the context itself,
/// `offset` 0) holds it: one target per type serves both (`Codec.fastTarget`).
class FieldSlot: ForwardingTarget {
    let offset: Int
    let form: DraftDestination

    init(offset: Int, form: DraftDestination, fallback: ValueTarget) {
        self.offset = offset
        self.form = form
        super.init(fallback: fallback)
    }
}

/// Reads one token kind and stores the value where a property or an array holds it, in code
/// compiled where the value's type is concrete: a built-in codec of a concrete type (strings,
/// booleans, doubles, floats, URLs, dates, integers of every width), or an `@inlinable` factory
/// that the model's own module specialises (`Transformer.rawValue`, which `@JSONModel`'s enum
/// lines reach through `@inlinable` `Map` overloads). A generic `Slot<V>` would look up `V`'s
/// metadata and call its value witnesses per value. `write` returns false for a value it does not
/// take (an unknown raw value, an integer out of range): the generic slot then reads the token,
/// and reports it.
@usableFromInline
struct TypedWrite {
    /// The token kind it reads. A boolean reaches `write` as its one byte (1 or 0).
    @usableFromInline
    enum Token { case string, number, bool }

    let token: Token
    let write: (_ token: UnsafeRawBufferPointer, _ address: UnsafeMutableRawPointer, _ form: DraftDestination) -> Bool

    @usableFromInline
    init(_ token: Token, _ write: @escaping (UnsafeRawBufferPointer, UnsafeMutableRawPointer, DraftDestination) -> Bool) {
        self.token = token
        self.write = write
    }

    /// A string token's text, as `StringCodec` reads it.
    @usableFromInline
    static func string(_ bytes: UnsafeRawBufferPointer) -> String { String(checkedUTF8: bytes) }

    /// A number token's value as an `Int`, or nil where `IntegerCodec<Int>` would not give one.
    @usableFromInline
    static func int(_ text: UnsafeRawBufferPointer) -> Int? {
        guard case .value(let value) = NumberParsing.integer(text, as: Int.self) else { return nil }
        return value
    }
}

/// How a destination holds a value: a fast target's (`Codec.fastTarget`), and a nested model's
/// (``JSONDraftedModel/moveModel(fromDraft:to:as:)``).
public enum DraftDestination: Sendable {
    /// A property of the value's type: the value replaces its value.
    case value
    /// A property of the value's optional type.
    case optional
    /// An array of values: the value is appended.
    case element
}

extension DraftDestination {
    /// Stores `value` at `address`, which holds a `V`, a `V?` or a `[V]` as this says.
    @inlinable
    func store<V>(_ value: consuming V, at address: UnsafeMutableRawPointer) {
        switch self {
        case .value: address.assumingMemoryBound(to: V.self).pointee = value
        case .optional: address.assumingMemoryBound(to: V?.self).pointee = value
        case .element: address.assumingMemoryBound(to: [V].self).pointee.append(value)
        }
    }
}

/// A property or an element written by its codec's ``TypedWrite``.
final class TypedField: FieldSlot {
    private let typed: TypedWrite

    init(_ typed: TypedWrite, offset: Int, form: DraftDestination, fallback: ValueTarget) {
        self.typed = typed
        super.init(offset: offset, form: form, fallback: fallback)
    }

    override func string(_ bytes: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        if typed.token == .string, typed.write(bytes, context + offset, form) { return }
        try fallback.string(bytes, context, &b)
    }
    override func number(_ text: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        if typed.token == .number, typed.write(text, context + offset, form) { return }
        try fallback.number(text, context, &b)
    }
    override func bool(_ value: Bool, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        if typed.token == .bool, withUnsafeBytes(of: value, { typed.write($0, context + offset, form) }) { return }
        try fallback.bool(value, context, &b)
    }
}

/// A property whose value a container owner builds in a frame of its own (an array, a nested
/// draft) and hands back to `deliver`.
class OwnedField: FieldSlot {
    let owner: ContainerOwner

    init(owner: ContainerOwner, offset: Int, form: DraftDestination, fallback: ValueTarget) {
        self.owner = owner
        super.init(offset: offset, form: form, fallback: fallback)
    }
}

/// An array property (`[E]` or `[E]?`, of any element): the array its owner filled is moved into
/// the property as the one reference it is stored as, so delivering it needs no metadata of
/// `[E]` (a generic `Slot<[E]>` looks it up and calls its value witnesses per array). Elements go
/// through the owner's element target as before; anything but an array goes to the generic slot.
final class ArrayField: OwnedField {
    override func startArray(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try owner.start(self, context, &b)
    }
    /// An array is one strong reference to its storage (`nil` is 0 for `[E]?`); the property's
    /// old array is released as that reference, which destroys its elements if it was the last.
    override func deliver(_ storage: UnsafeMutableRawPointer, from owner: ContainerOwner, _ context: UnsafeMutableRawPointer,
                          _ b: inout EventBuilder) throws {
        let address = context + offset
        let old = address.load(as: UInt.self)
        address.storeBytes(of: storage.load(as: UInt.self), as: UInt.self)
        if let old = UnsafeRawPointer(bitPattern: old) { Unmanaged<AnyObject>.fromOpaque(old).release() }
    }
}
