import Synchronization

/// A type Magma decodes from JSON objects and encodes back, through its declared mapping.
///
/// Structs and classes conform alike. A model needs an `init()` that gives every property its
/// default (absent keys keep it) and a ``jsonMapping`` naming which key path feeds which property:
///
/// ```swift
/// struct GHUser: JSONModel {
///     var login = ""
///     var id: Int64 = 0
///     static let jsonMapping = JSONMapping<GHUser> {
///         Map(\.login, "login")
///         Map(\.id, "id")
///     }
/// }
/// ```
///
/// Properties the mapping does not name are never read nor written (set them locally).
///
/// A non-final class declares its mapping as an overridable `class var` of type
/// `JSONMapping<Base>`, and each subclass overrides it with a mapping that inherits the
/// superclass's lines (``JSONMapping/init(_:inheriting:keyNaming:_:)``); see <doc:ModelLayer>.
public protocol JSONModel: JSONObjectModel {
    /// The type whose ``JSONMapping`` declares this model's mapping: `Self`, inferred from
    /// ``jsonMapping``. A class hierarchy's mappings are all `JSONMapping<Base>` (Swift cannot
    /// let a non-final class name `Self` there); each subclass's holds its own lines.
    associatedtype MappingRoot: JSONModel = Self
    /// A model with every property at its default.
    init()
    /// How JSON key paths map to this model's properties; declare it as a `static let` so it is
    /// compiled once (a non-final class: a `class var` returning a `static let`).
    static var jsonMapping: JSONMapping<MappingRoot> { get }
    /// The class cluster this model is the base of: decoding the base picks the concrete model
    /// from a discriminator key (Mantle's `classForParsingJSONDictionary:`), and encoding any
    /// model of the cluster writes its discriminator. Default nil: no cluster, no cost.
    static var jsonCluster: JSONCluster<MappingRoot>? { get }
}

extension JSONModel {
    public static var jsonCluster: JSONCluster<MappingRoot>? { nil }
    /// A nested model decodes through its own mapping (a class hierarchy's: the base class's
    /// codec, which encodes each model through its dynamic type's mapping).
    public static var jsonTransformer: Transformer<JSONValue, MappingRoot> { .model(MappingRoot.self) }
}

/// Reads a model from a JSON object and writes it back.
final class ModelCodec<Model: JSONModel>: Codec<Model>, @unchecked Sendable {
    /// Reads the model's objects; its plan is also the one `ModelValue` writes through.
    let owner: ModelOwner<Model>
    /// A mapping given for this codec instead of the model's own (one loaded at run time).
    private let mapping: JSONMapping<Model.MappingRoot>?
    /// The base of a class cluster: its objects are read by the cluster, which picks the
    /// concrete model from the discriminator. Nil for every other model (no cost then).
    private let cluster: ClusterCodec<Model>?
    /// `cluster != nil`, tested per model taken without loading (and retaining) the reference.
    private let isCluster: Bool
    /// The cluster that writes this model with its discriminator (a cluster's base, or one of
    /// its subclasses).
    private let clusterWriter: ClusterWriting?
    /// Whether a value's dynamic type may have another mapping (a class), or a cluster is in
    /// play: then nested values are written through `write`, not a plan. A struct written
    /// through a given mapping is not: `owner` holds the plan of that mapping for `Model`, the
    /// one `write` would look up per value.
    let writesDynamically: Bool

    init(mapping: JSONMapping<Model.MappingRoot>? = nil) {
        self.mapping = mapping
        owner = ModelOwner(mapping: mapping)
        let declared = mapping == nil ? Model.jsonCluster : nil
        cluster = ObjectIdentifier(Model.self) == ObjectIdentifier(Model.MappingRoot.self) ? declared?.codec as? ClusterCodec<Model> : nil
        clusterWriter = declared?.codec as? ClusterWriting
        isCluster = cluster != nil
        writesDynamically = declared != nil || Model.self is AnyObject.Type
    }

    override var objectOwner: ContainerOwner? { cluster?.objectOwner ?? owner }
    override func take(_ storage: UnsafeMutableRawPointer, from owner: ContainerOwner) throws -> Model {
        if isCluster { return try cluster.unsafelyUnwrapped.take(storage, from: owner) }
        return storage.assumingMemoryBound(to: Model.self).move()
    }
    override func encode(_ value: Model) throws -> JSONValue { try JSONTree.value(of: value) { try send($0, to: &$1) } }
    /// A model is written in place through its plan, unless its writing depends on the value.
    override func makeValueWriter() -> ValueWriter { writesDynamically ? CodecValue(self) : ModelValue(owner) }
    override func write(_ value: Model, into w: inout JSONWriter) throws { try send(value, to: &w) }

    /// Sends `value` to `out`: through a cluster, with its discriminator, if the model's type
    /// declares one, else through `mapping` or the model's own.
    @inline(__always)
    private func send<Output: ModelOutput>(_ value: Model, to out: inout Output) throws {
        if let clusterWriter, try clusterWriter.write(value, into: &out) { return }
        try ModelCodec.write(value, mapping: mapping, discriminator: nil, into: &out)
    }

    /// Sends `value` to `out` through its dynamic type's mapping (a subclass's, for a class
    /// model), or through `mapping`; with `discriminator` first unless the mapping writes that key.
    @inline(__always)
    static func write<Output: ModelOutput>(_ value: Model, mapping: JSONMapping<Model.MappingRoot>?,
                                          discriminator: (key: String, value: String)?, into out: inout Output) throws {
        let plan: MappingPlan
        if let mapping {
            plan = try mapping.plan(for: Model.self)
        } else {
            let type = type(of: value)
            plan = try type.cachedMapping.plan(for: type)
        }
        try withUnsafePointer(to: value) { try out.model(UnsafeRawPointer($0), plan: plan, discriminator: discriminator, choosing: nil) }
    }
}

/// Fills a model frame: the model lives in the frame's storage while its object is read.
final class ModelOwner<Model: JSONModel>: ContainerOwner {
    /// The model's plan, fetched on first use (not at init: a recursive model's owner is made
    /// while its own mapping is being compiled) and kept, retained, for the owner's life. Set
    /// once through an atomic compare-exchange, so concurrent first decodes are safe.
    private let cachedPlan = Atomic<UnsafeRawPointer?>(nil)
    /// A mapping to use instead of the model's own.
    private let mapping: JSONMapping<Model.MappingRoot>?
    /// The type the plan is for: `Model`, or the dynamic type of a class model being updated.
    private let planType: Any.Type

    init(mapping: JSONMapping<Model.MappingRoot>? = nil, planType: Any.Type = Model.self) {
        self.mapping = mapping
        self.planType = planType
    }

    /// The plan, unretained: the owner keeps it.
    @inline(__always)
    func plan() throws -> Unmanaged<MappingPlan> {
        if let cached = cachedPlan.load(ordering: .acquiring) { return Unmanaged.fromOpaque(cached) }
        let retained = Unmanaged.passRetained(try (mapping ?? Model.cachedMapping).plan(for: planType))
        let (stored, current) = cachedPlan.compareExchange(
            expected: nil, desired: UnsafeRawPointer(retained.toOpaque()), ordering: .acquiringAndReleasing)
        if stored { return retained }
        retained.release()
        return Unmanaged.fromOpaque(current!)
    }

    deinit {
        if let cached = cachedPlan.load(ordering: .acquiring) { Unmanaged<MappingPlan>.fromOpaque(cached).release() }
    }

    override func start(_ starter: ValueTarget, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        // The plan is shared by every thread decoding this model: borrowed, not retained (two
        // retains and releases per model on one shared object held parallel NDJSON back).
        try plan()._withUnsafeGuaranteedRef { plan in
            let storage = b.storage(size: MemoryLayout<Model>.size, alignment: MemoryLayout<Model>.alignment)
            // Made in place: a model passed in would be copied into the storage.
            storage.bindMemory(to: Model.self, capacity: 1).initialize(to: Model())
            push(plan, storage, starter, context, &b)
        }
    }

    /// Pushes the frame of a model that starts as `initial` (one being updated).
    func begin(_ initial: consuming Model, _ starter: ValueTarget, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        let plan = try self.plan().takeUnretainedValue()
        let storage = b.storage(size: MemoryLayout<Model>.size, alignment: MemoryLayout<Model>.alignment)
        storage.bindMemory(to: Model.self, capacity: 1).initialize(to: initial)
        push(plan, storage, starter, context, &b)
    }

    @inline(__always)
    private func push(_ plan: MappingPlan, _ storage: UnsafeMutableRawPointer, _ starter: ValueTarget,
                      _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) {
        b.push(.model, owner: self, node: plan.root, target: nil, starter: starter, storage: storage, parentContext: context)
        if plan.captureCount > 0 { b.captures.append(Array(repeating: nil, count: plan.captureCount)) }
    }

    override func finish(_ b: inout EventBuilder) throws {
        try plan()._withUnsafeGuaranteedRef { try finish($0, &b) }
    }

    private func finish(_ plan: MappingPlan, _ b: inout EventBuilder) throws {
        var frame = b.top
        let model = frame.storage.assumingMemoryBound(to: Model.self)
        // Errors from here on are about the model as a whole: no current key in its path.
        b.setTopEntry(-1)
        frame.entry = -1
        let missing = plan.requiredMask.subtracting(frame.seenRequired)
        if !missing.isEmpty {
            let name = plan.requiredName(for: missing)
            var error = JSONError(.missingKey, "missing key \"\(name.key)\" for required property \(name.property)")
            error.property = name.property
            throw error
        }
        if plan.captureCount > 0 {
            let captured = b.captures.removeLast()
            for binding in plan.multiKey { try binding.apply(captured, to: frame.storage) }
        }
        if plan.hasRelationships {
            for relationship in plan.relationships { relationship.link(frame.storage) }
        }
        try model.pointee.runDecodeHooksReporting()
        b.pop()
        try frame.starter.unsafelyUnwrapped._withUnsafeGuaranteedRef { try $0.deliver(frame.storage, from: self, frame.parentContext, &b) }
    }

    override func discard(_ storage: UnsafeMutableRawPointer, _ b: inout EventBuilder) {
        storage.assumingMemoryBound(to: Model.self).deinitialize(count: 1)
        if let plan = try? plan().takeUnretainedValue(), plan.captureCount > 0, !b.captures.isEmpty { b.captures.removeLast() }
    }
}
