// Arrays of arrays of numbers (GeoJSON coordinates), without generic code: a generic
// ArrayOwner<E> appends through a metadata lookup for [E] and value witness calls per element.
// Arrays of scalars take their elements through the scalars' field targets (FieldSlots.swift);
// anything unusual (null, lenient coercions, mismatches) goes to the generic slot.
import Foundation

/// Elements that are themselves `[Double]` (GeoJSON coordinates): each inner array is filled by a
/// non-generic owner and appended to the `[[Double]]` directly.
final class DoubleArrayElement: ForwardingTarget {
    private let owner: DoubleArrayOwner

    /// `codec` is the element's (`Double`'s), for the values the fast path does not take.
    init(_ codec: Codec<Double>, fallback: ValueTarget) {
        let inner = Slot(codec, AppendReceiver<Double>(), property: fallback.property)
        owner = DoubleArrayOwner(element: InlineDoubleElement(codec, fallback: inner))
        super.init(fallback: fallback)
    }

    override func startArray(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try owner.start(self, context, &b)
    }
    override func deliver(_ storage: UnsafeMutableRawPointer, from owner: ContainerOwner, _ context: UnsafeMutableRawPointer,
                          _ b: inout EventBuilder) throws {
        let value = storage.assumingMemoryBound(to: [Double].self).move()
        context.assumingMemoryBound(to: [[Double]].self).pointee.append(value)
    }
}

/// The frame storage of an inner `[Double]`: its first `inlineCapacity` numbers are kept in place
/// and the array is made once, at its end, with exactly their count (for many short arrays of
/// coordinates, cheaper than reserving room at the start and appending). A value the fast path
/// does not take (null, a lenient string, an out-of-range number) or one past the room moves them
/// into the array first ("spills"), and from then on the elements are appended.
///
/// Layout: `[Double]` at 0 (the array, the context the appending targets write to), the inline
/// count at 8 (-1 once spilled), the numbers from 16.
enum InlineDoubles {
    static let inlineCapacity = 16
    static let countOffset = 8
    static let valuesOffset = 16
    static let size = valuesOffset + 8 * inlineCapacity

    static func initialize(_ storage: UnsafeMutableRawPointer) {
        storage.bindMemory(to: [Double].self, capacity: 1).initialize(to: [])
        storage.storeBytes(of: 0, toByteOffset: countOffset, as: Int.self)
    }

    /// Moves the inline numbers into the array; later elements are appended to it.
    @inline(never)
    static func spill(_ storage: UnsafeMutableRawPointer) {
        let count = storage.load(fromByteOffset: countOffset, as: Int.self)
        guard count >= 0 else { return }
        let values = UnsafeBufferPointer(start: (storage + valuesOffset).assumingMemoryBound(to: Double.self), count: count)
        storage.assumingMemoryBound(to: [Double].self).pointee.append(contentsOf: values)
        storage.storeBytes(of: -1, toByteOffset: countOffset, as: Int.self)
    }

    /// Makes the array of the inline numbers, unless they were spilled.
    static func finish(_ storage: UnsafeMutableRawPointer) {
        let count = storage.load(fromByteOffset: countOffset, as: Int.self)
        guard count > 0 else { return }
        let values = (storage + valuesOffset).assumingMemoryBound(to: Double.self)
        let array = storage.assumingMemoryBound(to: [Double].self)
        // Literals for the common short lengths (points, pairs, triples): the compiler allocates
        // them with the storage type's metadata at hand. `Array(unsafeUninitializedCapacity:)`
        // is not specialised here and asks the runtime for that metadata each time.
        switch count {
        case 1: array.pointee = [values[0]]
        case 2: array.pointee = [values[0], values[1]]
        case 3: array.pointee = [values[0], values[1], values[2]]
        default:
            array.pointee = [Double](repeating: 0, count: count)
            array.pointee.withUnsafeMutableBufferPointer { $0.baseAddress.unsafelyUnwrapped.update(from: values, count: count) }
        }
    }
}

/// An element of an inner `[Double]` (see ``InlineDoubles``): a number in range is stored in
/// place; anything else spills the numbers so far, and from then on `appending` (`Double`'s
/// element target) takes every element.
final class InlineDoubleElement: ForwardingTarget {
    private let appending: ValueTarget

    /// `codec` is the element's (`Double`'s), whose field target appends.
    init(_ codec: Codec<Double>, fallback: ValueTarget) {
        appending = codec.fastTarget(offset: 0, form: .element, fallback: fallback) ?? fallback
        super.init(fallback: fallback)
    }

    override func number(_ text: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        let count = context.load(fromByteOffset: InlineDoubles.countOffset, as: Int.self)
        if count >= 0 {
            if count < InlineDoubles.inlineCapacity, let value = NumberParsing.inlinedDoubleInRange(text) {
                context.storeBytes(of: value, toByteOffset: InlineDoubles.valuesOffset &+ 8 &* count, as: Double.self)
                context.storeBytes(of: count &+ 1, toByteOffset: InlineDoubles.countOffset, as: Int.self)
                return
            }
            InlineDoubles.spill(context)
        }
        try appending.number(text, context, &b)
    }
    override func string(_ bytes: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try spilled(context).string(bytes, context, &b)
    }
    override func bool(_ value: Bool, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try spilled(context).bool(value, context, &b)
    }
    override func null(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try spilled(context).null(context, &b)
    }
    override func startObject(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try spilled(context).startObject(context, &b)
    }
    override func startArray(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try spilled(context).startArray(context, &b)
    }

    /// The fallback, after the numbers so far have moved into the array.
    private func spilled(_ context: UnsafeMutableRawPointer) -> ValueTarget {
        InlineDoubles.spill(context)
        return fallback
    }
}

final class DoubleArrayOwner: ContainerOwner {
    let element: InlineDoubleElement

    init(element: InlineDoubleElement) { self.element = element }

    override func start(_ starter: ValueTarget, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        let storage = b.storage(size: InlineDoubles.size, alignment: MemoryLayout<[Double]>.alignment)
        InlineDoubles.initialize(storage)
        b.push(.array, owner: self, node: nil, target: element, starter: starter, storage: storage, parentContext: context)
    }
    override func finish(_ b: inout EventBuilder) throws {
        let frame = b.top
        b.pop()
        InlineDoubles.finish(frame.storage)
        try frame.starter.unsafelyUnwrapped._withUnsafeGuaranteedRef { try $0.deliver(frame.storage, from: self, frame.parentContext, &b) }
    }
    override func discard(_ storage: UnsafeMutableRawPointer, _ b: inout EventBuilder) {
        storage.assumingMemoryBound(to: [Double].self).deinitialize(count: 1)
    }
}
