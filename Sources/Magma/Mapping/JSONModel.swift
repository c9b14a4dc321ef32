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
public protocol JSONModel: JSONRepresentable {
    /// A model with every property at its default.
    init()
    /// How JSON key paths map to this model's properties; declare it as a `static let` so it is
    /// compiled once.
    static var jsonMapping: JSONMapping<Self> { get }
    /// Called when the model's object has been read, before ``validate()``: derive helper
    /// properties from decoded ones here (as Mantle models did in `initWithDictionary:`).
    /// - Throws: Any error, reported as ``JSONError/Code/validationFailed`` with the model's path.
    mutating func didDecode() throws
    /// Checks the decoded model as a whole.
    /// - Throws: Any error, reported as ``JSONError/Code/validationFailed`` with the model's path.
    func validate() throws
}

extension JSONModel {
    public mutating func didDecode() throws {}
    public func validate() throws {}
    /// A nested model decodes through its own mapping.
    public static var jsonTransformer: Transformer<JSONValue, Self> { .model(Self.self) }
}

/// A type with an implicit transformer: `Map(\.x, "x")` needs no transformer argument for it.
///
/// String, Bool, every integer and floating-point type, Decimal, URL, UUID, Data (Base64), Date
/// (ISO 8601), JSONValue, optionals, arrays and `[String: T]` dictionaries of these, and every
/// ``JSONModel`` conform. RawRepresentable enums need no conformance: `Map` takes them directly.
public protocol JSONRepresentable {
    /// The transformer used when a mapping names none.
    static var jsonTransformer: Transformer<JSONValue, Self> { get }
}

/// Reads a model from a JSON object and writes it back.
final class ModelCodec<Model: JSONModel>: Codec<Model>, @unchecked Sendable {
    private let owner = ModelOwner<Model>()
    override var objectOwner: ContainerOwner? { owner }
    override func encode(_ value: Model) throws -> JSONValue {
        var w = JSONWriter(options: EncodingOptions())
        try write(value, into: &w)
        return try w.bytes.withUnsafeBytes { try JSONAdapter.decode(JSONValueCodec.shared, from: $0, options: DecodingOptions()) }
    }
    override func write(_ value: Model, into w: inout JSONWriter) throws {
        let plan = try Model.jsonMapping.plan()
        try withUnsafePointer(to: value) { try plan.encodeRoot.write(UnsafeRawPointer($0), into: &w) }
    }
}

/// Fills a model frame: the model lives in the frame's storage while its object is read.
final class ModelOwner<Model: JSONModel>: ContainerOwner {
    /// The model's plan, fetched on first use (not at init: a recursive model's owner is made
    /// while its own mapping is being compiled) and kept, retained, for the owner's life. Set
    /// once through an atomic compare-exchange, so concurrent first decodes are safe.
    private let cachedPlan = Atomic<UnsafeRawPointer?>(nil)

    @inline(__always)
    private func plan() throws -> Unmanaged<MappingPlan> {
        if let cached = cachedPlan.load(ordering: .acquiring) { return Unmanaged.fromOpaque(cached) }
        let retained = Unmanaged.passRetained(try Model.jsonMapping.plan())
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
        let plan = try self.plan().takeUnretainedValue()
        let storage = b.storage(size: MemoryLayout<Model>.size, alignment: MemoryLayout<Model>.alignment)
        storage.bindMemory(to: Model.self, capacity: 1).initialize(to: Model())
        b.push(.model, owner: self, node: plan.root, target: nil, starter: starter, storage: storage, parentContext: context)
        if plan.captureCount > 0 { b.captures.append(Array(repeating: nil, count: plan.captureCount)) }
    }

    override func finish(_ b: inout EventBuilder) throws {
        let plan = try self.plan().takeUnretainedValue()
        var frame = b.top
        let model = frame.storage.assumingMemoryBound(to: Model.self)
        // Errors from here on are about the model as a whole: no current key in its path.
        b.setTopEntry(-1)
        frame.entry = -1
        let missing = plan.requiredMask & ~frame.seenRequired
        if missing != 0 {
            let name = plan.requiredName(for: missing)
            var error = JSONError(.missingKey, "missing key \"\(name.key)\" for required property \(name.property)")
            error.property = name.property
            throw error
        }
        if plan.captureCount > 0 {
            let captured = b.captures.removeLast()
            for binding in plan.multiKey { try binding.apply(captured, to: frame.storage) }
        }
        do {
            try model.pointee.didDecode()
            try model.pointee.validate()
        } catch let error as JSONError {
            throw error
        } catch {
            var wrapped = JSONError(.validationFailed, "\(Model.self) is not valid: \(error)", underlying: error)
            wrapped.property = String(describing: Model.self)
            throw wrapped
        }
        b.pop()
        try frame.starter.unsafelyUnwrapped._withUnsafeGuaranteedRef { try $0.deliver(frame.storage, from: self, frame.parentContext, &b) }
    }

    override func discard(_ storage: UnsafeMutableRawPointer, _ b: inout EventBuilder) {
        storage.assumingMemoryBound(to: Model.self).deinitialize(count: 1)
        if let plan = try? plan().takeUnretainedValue(), plan.captureCount > 0, !b.captures.isEmpty { b.captures.removeLast() }
    }
}
