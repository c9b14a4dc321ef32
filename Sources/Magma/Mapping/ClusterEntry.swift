// The entries of a cluster's codec: one per case, each knowing its model's owner, how the model
// it reads becomes a `Base`, and how a `Base` of its case is written (JSONCluster.swift declares
// the cluster; an enum's cases are TaggedCaseEntry, in JSONTaggedEnum.swift).

/// One case, typed: its model's owner, and how its model becomes a `Base` and is written.
class ClusterEntry<Base> {
    let value: String?
    let rule: (@Sendable ([String: JSONValue]) -> Bool)?
    let isFallback: Bool
    let owner: ContainerOwner
    let modelType: ObjectIdentifier

    init(value: String?, rule: (@Sendable ([String: JSONValue]) -> Bool)?, isFallback: Bool, owner: ContainerOwner, modelType: Any.Type) {
        self.value = value
        self.rule = rule
        self.isFallback = isFallback
        self.owner = owner
        self.modelType = ObjectIdentifier(modelType)
    }

    /// Moves the finished model out of its frame's storage.
    func take(_ storage: UnsafeMutableRawPointer) throws -> Base { fatalError("abstract") }
    /// Sends `value` to `out` if it is this case's model, with `discriminator` (the cluster's key)
    /// unless this is the fallback; false if it is not.
    func write<Output: ModelOutput>(_ value: Base, discriminator: String, into out: inout Output) throws -> Bool { fatalError("abstract") }
}

final class TypedClusterEntry<Base, M: JSONModel>: ClusterEntry<Base> {
    init(value: String?, rule: (@Sendable ([String: JSONValue]) -> Bool)?, isFallback: Bool) {
        super.init(value: value, rule: rule, isFallback: isFallback, owner: ModelOwner<M>(), modelType: M.self)
    }

    /// The cast cannot fail: a cluster whose model is not a `Base` fails to build. (Reading the
    /// storage as a `Base` for a class `Base` would save too little to show in a decode.)
    override func take(_ storage: UnsafeMutableRawPointer) throws -> Base {
        storage.assumingMemoryBound(to: M.self).move() as! Base
    }

    override func write<Output: ModelOutput>(_ value: Base, discriminator: String, into out: inout Output) throws -> Bool {
        guard let model = value as? M else { return false }
        try ModelCodec<M>.write(model, mapping: nil, discriminator: self.value.map { (discriminator, $0) }, into: &out)
        return true
    }
}

/// A `@JSONModel` case: its objects fill the model's draft, and the model is built from it.
final class DraftedClusterEntry<Base, M: JSONDraftedModel>: ClusterEntry<Base> {
    private let codec: DraftModelCodec<M>

    init(value: String?, rule: (@Sendable ([String: JSONValue]) -> Bool)?, isFallback: Bool) {
        codec = DraftModelCodec<M>()
        super.init(value: value, rule: rule, isFallback: isFallback, owner: codec.objectOwner!, modelType: M.self)
    }

    override func take(_ storage: UnsafeMutableRawPointer) throws -> Base {
        let model = try codec.take(storage, from: owner)
        guard let base = model as? Base else {
            throw JSONError.invalidMapping("\(M.self) is in the cluster of \(Base.self) but is not a \(Base.self)")
        }
        return base
    }

    override func write<Output: ModelOutput>(_ value: Base, discriminator: String, into out: inout Output) throws -> Bool {
        guard let model = value as? M else { return false }
        // Through the model's codec: a `SelectiveEncoding` model chooses its properties here too.
        try codec.write(model, discriminator: self.value.map { (discriminator, $0) }, into: &out)
        return true
    }
}
