// `@Lossy` collections: an element that fails to read is dropped and reported, the others kept.
// The collection's frame is a recovery point of the builder's, as a stream's records array is: an
// error inside an element unwinds to the collection, the rest of the element is read past by
// counting, and the next element is read. Errors in the input's text (invalid UTF-8, a token over
// the size cap) are not an element's: they fail the read (or the record) as before.

/// A collection property (an array, or a dictionary's members) whose bad elements are dropped.
/// Anything but a collection goes to the property's own target, and fails as it would.
final class LossyTarget: ForwardingTarget {
    private let sink: LossySink

    init(_ target: ValueTarget) {
        sink = LossySink(property: target.property)
        super.init(fallback: target)
    }

    override func startObject(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        let base = b.depth
        try fallback.startObject(context, &b)
        begin(above: base, &b)
    }
    override func startArray(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        let base = b.depth
        try fallback.startArray(context, &b)
        begin(above: base, &b)
    }

    /// The collection's frame, pushed above `base`, recovers its elements' errors; its end comes here.
    private func begin(above base: Int, _ b: inout EventBuilder) {
        guard b.depth == base + 1 else { return }
        b.setTopStarter(self)
        b.beginRecovery(sink)
    }

    override func deliver(_ storage: UnsafeMutableRawPointer, from owner: ContainerOwner, _ context: UnsafeMutableRawPointer,
                          _ b: inout EventBuilder) throws {
        b.endRecovery(sink)
        try fallback.deliver(storage, from: owner, context, &b)
    }
}

/// Notes a dropped element (``DecodingReport/dropped``), at the element's path.
final class LossySink: RecoverySink {
    let property: String?

    init(property: String?) { self.property = property }

    override var recoversTextErrors: Bool { false }
    override func recovered(_ error: JSONError, recordIndex: Int?, at point: RecoveryPoint, _ b: inout EventBuilder) throws {
        b.report(error, property: property, defaulted: false)
    }
}

extension Map {
    /// The same line with its collection read lossily (`@Lossy`): an element of the array (or a
    /// member of the dictionary) that fails to read is dropped and noted in the
    /// ``DecodingReport``, the others kept. A value that is not a collection fails as before, as
    /// does an error in the input's text.
    ///
    /// ```swift
    /// Map(\.tags, "tags").lossy()     // ["a", 1, "b"] gives ["a", "b"] for a [String]
    /// ```
    /// - Returns: The lossy line; a line of several key paths fails to build.
    public func lossy() -> Map {
        var map = self
        guard case .single(let key, let makeTarget) = source else {
            map.problem = .invalidMapping("\(propertyName): a property read from several key paths cannot be lossy")
            return map
        }
        guard type(of: property).valueType is any ElementCollection.Type else {
            map.problem = .invalidMapping("\(propertyName): lossy applies to an array or a dictionary, not \(type(of: property).valueType)")
            return map
        }
        map.source = .single(key) { LossyTarget(makeTarget($0)) }
        map.remake = remake.map { remake in { remake($0, $1, $2, $3).lossy() } }
        return map
    }
}

/// The types whose elements a lossy line drops: arrays, dictionaries, and their optionals.
protocol ElementCollection {}
extension Array: ElementCollection {}
extension Dictionary: ElementCollection {}
extension Optional: ElementCollection where Wrapped: ElementCollection {}
