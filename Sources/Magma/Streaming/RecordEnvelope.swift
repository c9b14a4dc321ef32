import Foundation

// Records at a key path inside an envelope object (`{"total": 3, "data": {"items": [...]}}`).
//
// The envelope is decoded as a model frame like any other, but its plan node is the envelope
// model's own with one more key path grafted on: the one that leads to the records' array, whose
// target is a RecordArrayTarget. So the envelope's fields are written into its model as they come
// (before or after the array), and the array's elements stream to the record slot one at a time;
// nothing of the array is kept. The envelope model's owner (ModelOwner) still finishes the frame:
// required keys, multi-key bindings and hooks behave as for any model.

/// Where the other fields of the envelope object around a stream's records go, decoded into a
/// model: give it to ``RecordDecoder/Layout/array(at:envelope:)``, and read ``model`` once the
/// stream has finished.
///
/// ```swift
/// let page = Envelope(Page.self)
/// try JSONAdapter.forEachRecord(GHIssue.self, from: data, layout: .array(at: "data.items", envelope: page)) {
///     try store.insert($0)
/// }
/// print(page.model?.total ?? 0)
/// ```
public final class Envelope<Model: JSONObjectModel>: EnvelopeSlot, @unchecked Sendable {
    private let lock = NSLock()
    private var decoded: Model?

    /// Creates an empty envelope.
    /// - Parameter type: The model of the envelope's other fields (`@JSONModel` or `Map`-declared;
    ///   a mapping naming none is fine).
    public init(_ type: Model.Type = Model.self) {}

    /// The envelope model, once a stream laid out with this envelope has finished: nil before, and
    /// after a stream that failed. A layout used again overwrites it.
    public var model: Model? { lock.withLock { decoded } }

    func root(keyPath: String, records: RecordArrayOwner) throws(JSONError) -> EnvelopeRoot {
        try envelopeTarget(Model.self, keyPath: keyPath, records: records)
    }

    func keep(_ value: Any?) { lock.withLock { decoded = value as? Model } }
}

/// An ``Envelope`` of any model, as a ``RecordDecoder/Layout`` holds it.
protocol EnvelopeSlot: AnyObject, Sendable {
    func root(keyPath: String, records: RecordArrayOwner) throws(JSONError) -> EnvelopeRoot
    /// Called with the decoded envelope when the stream finishes.
    func keep(_ value: Any?)
}

/// The root of a stream of records nested in an envelope; holds the decoded envelope.
class EnvelopeRoot: ValueTarget {
    /// The envelope model, once its object has ended.
    var decoded: Any? { nil }
}

/// The root of a stream of records in an envelope of model `E`: a `Map`-declared envelope is
/// filled in place; a `@JSONModel` one fills its draft, and is built from it when its object ends.
func envelopeTarget<E: JSONObjectModel>(_ type: E.Type, keyPath: String, records: RecordArrayOwner) throws(JSONError) -> EnvelopeRoot {
    func mapped<L: JSONModel>(_ type: L.Type) throws(JSONError) -> EnvelopeRoot {
        try EnvelopeTarget<L>(keyPath: keyPath, records: records, name: "\(E.self)") { $0 }
    }
    func drafted<D: JSONDraftedModel>(_ type: D.Type) throws(JSONError) -> EnvelopeRoot {
        try EnvelopeTarget<D.Draft>(keyPath: keyPath, records: records, name: "\(E.self)") { try D.model(fromDraft: $0) }
    }
    if let type = E.self as? any JSONModel.Type { return try mapped(type) }
    if let type = E.self as? any JSONDraftedModel.Type { return try drafted(type) }
    preconditionFailure("\(E.self) conforms to JSONObjectModel itself; declare it with @JSONModel, or as a JSONModel")
}

/// Fills an envelope `Envelope` (a `Map` model, or a `@JSONModel` model's draft) and keeps
/// what `build` makes of it.
final class EnvelopeTarget<Envelope: JSONModel>: EnvelopeRoot {
    let keyPath: String
    let records: RecordArrayOwner
    private let codec = ModelCodec<Envelope>()
    private let node: PlanNode
    private let captureCount: Int
    /// The envelope model from the filled `Envelope`: itself, or the model built from a draft.
    private let build: (Envelope) throws -> Any
    private var envelope: Any?

    override var decoded: Any? { envelope }

    /// - Parameter name: The envelope model's name, for messages.
    /// - Throws: ``JSONError/Code/invalidMapping`` if the key path is malformed or the envelope's
    ///   mapping already uses it (or a prefix of it) as a value.
    init(keyPath: String, records: RecordArrayOwner, name: String, build: @escaping (Envelope) throws -> Any) throws(JSONError) {
        self.keyPath = keyPath
        self.records = records
        self.build = build
        let plan = try Envelope.cachedMapping.plan(for: Envelope.self)
        let components = try MappingPlan.components(of: keyPath, property: "the records' key path")
        node = try EnvelopeTarget.graft(components[...], onto: plan.root, RecordArrayTarget(owner: records), keyPath: keyPath, name: name)
        captureCount = plan.captureCount
        super.init(property: nil)
    }

    override var expected: String { "an object with an array of records at \"\(keyPath)\"" }

    override func startObject(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        let storage = b.storage(size: MemoryLayout<Envelope>.size, alignment: MemoryLayout<Envelope>.alignment)
        storage.bindMemory(to: Envelope.self, capacity: 1).initialize(to: Envelope())
        b.push(.model, owner: codec.objectOwner!, node: node, target: nil, starter: self, storage: storage, parentContext: context)
        if captureCount > 0 { b.captures.append(Array(repeating: nil, count: captureCount)) }
    }

    override func deliver(_ storage: UnsafeMutableRawPointer, from owner: ContainerOwner, _ context: UnsafeMutableRawPointer,
                          _ b: inout EventBuilder) throws {
        let value = storage.assumingMemoryBound(to: Envelope.self).move()
        guard records.started else {
            throw JSONError(.missingKey, "no array of records at \"\(keyPath)\" in the envelope")
        }
        envelope = try build(value)
    }

    /// `node` with `path` leading to `leaf`: a copy with the missing keys added, sharing every
    /// other target.
    private static func graft(_ path: ArraySlice<String>, onto node: PlanNode?, _ leaf: ValueTarget,
                              keyPath: String, name: String) throws(JSONError) -> PlanNode {
        let key = path.first!
        var names = node?.names ?? []
        var targets = names.indices.map { node!.entries[$0].target.takeUnretainedValue() }
        var bits = names.indices.map { node!.entries[$0].requiredBits }
        if let i = names.firstIndex(of: key) {
            guard path.count > 1, let through = targets[i] as? PathTarget else {
                throw .invalidMapping("the records' key path \"\(keyPath)\" is mapped by \(name) as a value; "
                    + "the envelope maps the other fields")
            }
            targets[i] = PathTarget(try graft(path.dropFirst(), onto: through.node, leaf, keyPath: keyPath, name: name))
        } else {
            names.append(key)
            targets.append(path.count == 1 ? leaf : PathTarget(try graft(path.dropFirst(), onto: nil, leaf, keyPath: keyPath, name: name)))
            bits.append(.none)
        }
        return PlanNode(names: names, targets: targets, requiredBits: bits)
    }
}

/// The envelope of a stream that names none: every field but the records' array is ignored.
struct NoEnvelope: JSONModel {
    static let jsonMapping = JSONMapping<NoEnvelope> {}
}
