/// A nested model, through its own plan: looked up when written, since plans may be recursive
/// and cannot be resolved while the outer plan is built.
final class ModelValue<Model: JSONModel>: ValueWriter {
    /// The model codec's owner, whose plan it caches on first use: a nested model costs a load or
    /// two instead of a mapping lookup and check.
    private let owner: ModelOwner<Model>

    init(_ owner: ModelOwner<Model>) { self.owner = owner }

    override func write(_ value: UnsafeRawPointer, into w: inout JSONWriter) throws {
        try owner.plan()._withUnsafeGuaranteedRef { try $0.encodeRoot.write(value, into: &w) }
    }
    /// The elements of an array of models, through the plan looked up once.
    override func writeElements(_ base: UnsafeRawPointer, count: Int, stride: Int, into w: inout JSONWriter) throws {
        try owner.plan()._withUnsafeGuaranteedRef { plan in
            let node = plan.encodeRoot
            var address = base
            for _ in 0..<count {
                w.element()
                try node.write(address, into: &w)
                address += stride
            }
        }
    }
}
