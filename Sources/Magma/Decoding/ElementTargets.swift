// Non-generic element targets for arrays of the commonest element types. A generic
// ArrayOwner<E> appends through unspecialised code: a metadata lookup for [E] and value witness
// calls per element (measured on canada.json, 111k doubles in 56k two-element arrays: 34 % of
// decode time in metadata lookups). These append to the concrete array type directly; anything
// unusual (null, lenient coercions, mismatches) goes to the generic slot.
import Foundation
import Synchronization

/// Appends to an array of a concrete element type; its codec makes it (`Codec.elementTarget`).
class ElementTarget: ForwardingTarget {}

final class DoubleElement: ElementTarget {
    override func number(_ text: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        guard let value = NumberParsing.doubleInRange(text) else { return try fallback.number(text, context, &b) }
        context.assumingMemoryBound(to: [Double].self).pointee.append(value)
    }
}

final class IntElement: ElementTarget {
    override func number(_ text: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        guard case .value(let value) = NumberParsing.integer(text, as: Int.self) else { return try fallback.number(text, context, &b) }
        context.assumingMemoryBound(to: [Int].self).pointee.append(value)
    }
}

final class Int64Element: ElementTarget {
    override func number(_ text: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        guard case .value(let value) = NumberParsing.integer(text, as: Int64.self) else { return try fallback.number(text, context, &b) }
        context.assumingMemoryBound(to: [Int64].self).pointee.append(value)
    }
}

final class StringElement: ElementTarget {
    override func string(_ bytes: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        context.assumingMemoryBound(to: [String].self).pointee.append(String(checkedUTF8: bytes))
    }
}

/// Elements that are themselves `[Double]` (GeoJSON coordinates): each inner array is filled by a
/// non-generic owner and appended to the `[[Double]]` directly.
final class DoubleArrayElement: ElementTarget {
    private let owner: DoubleArrayOwner

    override init(fallback: ValueTarget) {
        let inner = Slot(DoubleCodec.shared, AppendReceiver<Double>(), property: fallback.property)
        owner = DoubleArrayOwner(element: DoubleElement(fallback: inner))
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

final class DoubleArrayOwner: ContainerOwner {
    let element: DoubleElement
    /// The length of the last array finished here, at most `maxReserved`: the next one reserves as
    /// much at its start, so a run of short arrays (coordinate pairs) allocates once each instead of
    /// growing from 1 to 3 (canada.json: 2 allocations and a copy per pair, ~40 M of 190 M
    /// instructions a decode). A hint only, hence relaxed and written only when it changes.
    private let lastCount = Atomic<Int>(0)
    private static let maxReserved = 16

    init(element: DoubleElement) { self.element = element }

    override func start(_ starter: ValueTarget, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        let storage = b.storage(size: MemoryLayout<[Double]>.size, alignment: MemoryLayout<[Double]>.alignment)
        let array = storage.bindMemory(to: [Double].self, capacity: 1)
        array.initialize(to: [])
        let hint = lastCount.load(ordering: .relaxed)
        if hint > 0 { array.pointee.reserveCapacity(hint) }
        b.push(.array, owner: self, node: nil, target: element, starter: starter, storage: storage, parentContext: context)
    }
    override func finish(_ b: inout EventBuilder) throws {
        let frame = b.top
        b.pop()
        let count = min(frame.storage.assumingMemoryBound(to: [Double].self).pointee.count, Self.maxReserved)
        if lastCount.load(ordering: .relaxed) != count { lastCount.store(count, ordering: .relaxed) }
        try frame.starter.unsafelyUnwrapped._withUnsafeGuaranteedRef { try $0.deliver(frame.storage, from: self, frame.parentContext, &b) }
    }
    override func discard(_ storage: UnsafeMutableRawPointer, _ b: inout EventBuilder) {
        storage.assumingMemoryBound(to: [Double].self).deinitialize(count: 1)
    }
}

/// Appends each element through its codec's ``TypedWrite``.
final class TypedElement: ElementTarget {
    private let typed: TypedWrite

    init(_ typed: TypedWrite, fallback: ValueTarget) {
        self.typed = typed
        super.init(fallback: fallback)
    }

    override func string(_ bytes: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        if typed.token == .string, typed.write(bytes, context, .element) { return }
        try fallback.string(bytes, context, &b)
    }
    override func number(_ text: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        if typed.token == .number, typed.write(text, context, .element) { return }
        try fallback.number(text, context, &b)
    }
}
