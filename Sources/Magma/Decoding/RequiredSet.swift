// RequiredSet: one bit per required property of a model, in two words. A plan numbers its
// required properties; each key's entry carries the bits it supplies, each model frame the bits
// seen, and the object's end checks the plan's mask against them. Two words keep a key and a
// frame free of allocation (a key costs two ORs) and allow 128 required properties.

/// A set of required-property numbers below ``capacity``.
struct RequiredSet: Equatable {
    private var low: UInt64
    private var high: UInt64

    /// The most required properties a model may have.
    static let capacity = 128
    /// No property.
    static let none = RequiredSet(low: 0, high: 0)
    /// Every property (a merge's frame, whose model already holds every value).
    static let all = RequiredSet(low: ~0, high: ~0)

    private init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// The property numbered `index`.
    init(index: Int) {
        precondition(index >= 0 && index < RequiredSet.capacity, "required property number out of range")
        self.init(low: index < 64 ? 1 << UInt64(index) : 0, high: index >= 64 ? 1 << UInt64(index - 64) : 0)
    }

    /// The properties numbered `0..<count`.
    init(first count: Int) {
        func ones(_ n: Int) -> UInt64 { n <= 0 ? 0 : n >= 64 ? ~0 : (1 << UInt64(n)) - 1 }
        self.init(low: ones(count), high: ones(count - 64))
    }

    var isEmpty: Bool { low | high == 0 }

    /// Adds `other`'s properties.
    @inline(__always)
    mutating func formUnion(_ other: RequiredSet) {
        low |= other.low
        high |= other.high
    }

    /// The properties of this set not in `other`.
    func subtracting(_ other: RequiredSet) -> RequiredSet { RequiredSet(low: low & ~other.low, high: high & ~other.high) }

    /// The lowest property number in the set (which must not be empty).
    var first: Int { low != 0 ? low.trailingZeroBitCount : 64 + high.trailingZeroBitCount }
}
