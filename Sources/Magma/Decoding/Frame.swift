// A frame of EventBuilder's stack: one JSON container being filled (see EventBuilder.swift for
// the data layout and its invariants).

/// What a frame is filling.
enum FrameKind: UInt8 {
    /// An object decoded into a model; `storage` holds the model.
    case model
    /// An object on the way down a dotted key path (`user` of `user.login`); writes into its model.
    case path
    /// An array on the way down a key path with an index (`labels.0.name`).
    case pathArray
    /// An array decoded element by element into an accumulator.
    case array
    /// An object decoded into a `[String: V]`.
    case dictionary
}

struct Frame {
    var kind: FrameKind
    /// Index of the model frame a path frame writes into (itself for a model frame).
    var modelFrame: Int32
    /// The current key's entry in `node` (-1 none, -2 an unmapped key), for error paths.
    var entry: Int32
    var target: Unmanaged<ValueTarget>?
    var owner: Unmanaged<ContainerOwner>?
    var node: Unmanaged<PlanNode>?
    /// `node`'s key table and entries, copied in so a key costs no access to the node object.
    var keys: KeyTable?
    var entries: UnsafeMutablePointer<PlanNode.Entry>?
    /// The target that started this container; it takes the finished value.
    var starter: Unmanaged<ValueTarget>?
    var storage: UnsafeMutableRawPointer
    /// Where the finished container is delivered: the parent's context.
    var parentContext: UnsafeMutableRawPointer
    /// Required properties seen (model frames).
    var seenRequired: RequiredSet
    /// Entries seen in this object, for duplicate keys.
    var seenKeys: UInt64
    /// Elements begun so far (array frames).
    var count: Int
}
