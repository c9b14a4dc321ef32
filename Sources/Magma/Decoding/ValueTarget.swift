// The pieces a compiled plan is made of. A ValueTarget receives one JSON value (its scalar token,
// or the start of its container); a Receiver<V> stores a decoded V somewhere (a model property, an
// array, a dictionary, the caller's result); a ContainerOwner fills one frame's container and hands
// the finished value back to the target that started it.

/// Receives one JSON value. Subclasses override what they accept; the rest is a type mismatch.
class ValueTarget {
    /// The model property this value is for, for error messages (`GHIssue.reporterLogin`).
    let property: String?

    init(property: String?) { self.property = property }

    var expected: String { "a value" }

    func string(_ bytes: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        throw JSONError.typeMismatch(expected: expected, found: "string", value: JSONError.quote(bytes, asString: true))
    }
    func number(_ text: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        throw JSONError.typeMismatch(expected: expected, found: "number", value: JSONError.quote(text, asString: false))
    }
    func bool(_ value: Bool, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        throw JSONError.typeMismatch(expected: expected, found: "bool", value: "\(value)")
    }
    func null(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        throw JSONError.typeMismatch(expected: expected, found: "null")
    }
    func startObject(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        throw JSONError.typeMismatch(expected: expected, found: "object")
    }
    func startArray(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        throw JSONError.typeMismatch(expected: expected, found: "array")
    }
    /// A container this target started has finished: `storage` holds its value, which the target
    /// takes (moves out) and stores in `context`.
    func deliver(_ storage: UnsafeMutableRawPointer, from owner: ContainerOwner, _ context: UnsafeMutableRawPointer,
                 _ b: inout EventBuilder) throws {}
}

/// Stores a decoded value in a context: a property, an array, a dictionary, the result.
class Receiver<V> {
    /// Whether it writes a model property (where "keep the default on null" applies).
    var writesProperty: Bool { false }
    func receive(_ value: consuming V, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {}
}

/// Fills the container of one frame, then hands its value to the target that started it.
class ContainerOwner {
    /// Pushes a frame for a new container; `starter` will receive the finished value in `context`.
    func start(_ starter: ValueTarget, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {}
    /// A key in a dictionary frame.
    func key(_ bytes: UnsafeRawBufferPointer, _ storage: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {}
    /// The top frame is this owner's and its container ended: check it, pop it, deliver it.
    func finish(_ b: inout EventBuilder) throws {}
    /// Deinitialises a half-built container after an error.
    func discard(_ storage: UnsafeMutableRawPointer, _ b: inout EventBuilder) {}
    /// The dictionary key being read in the frame `fromTop` frames below the top, for error
    /// paths (owners whose frames share one storage tell them apart by it).
    func currentKey(_ storage: UnsafeMutableRawPointer, fromTop: Int) -> String? { nil }
}

/// A typed value target: decodes tokens through a codec and stores the result through a receiver.
final class Slot<V>: ValueTarget {
    let codec: Codec<V>
    let receiver: Receiver<V>
    /// The codec's container owners, read once (a class property read per value costs a
    /// retain/release). Nil when the codec had none yet at init (JSONValueCodec's own slots,
    /// made while it is initialised): then the codec is asked each time.
    private let objectOwner: Unmanaged<ContainerOwner>?
    private let arrayOwner: Unmanaged<ContainerOwner>?
    /// Whether `null` may keep the default (`DecodingOptions.nullForNonOptional`): the value is a
    /// property's and its codec has no value for null. Fixed at init, not cast per value.
    private let nullMayKeepDefault: Bool

    init(_ codec: Codec<V>, _ receiver: Receiver<V>, property: String? = nil) {
        self.codec = codec
        self.receiver = receiver
        objectOwner = codec.objectOwner.map { Unmanaged.passUnretained($0) }
        arrayOwner = codec.arrayOwner.map { Unmanaged.passUnretained($0) }
        nullMayKeepDefault = receiver.writesProperty && !codec.acceptsNull
        super.init(property: property)
    }

    override var expected: String { codec.typeName }

    override func string(_ bytes: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try receiver.receive(try codec.string(bytes, b.flags), context, &b)
    }
    override func number(_ text: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try receiver.receive(try codec.number(text, b.flags), context, &b)
    }
    override func bool(_ value: Bool, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try receiver.receive(try codec.bool(value, b.flags), context, &b)
    }
    override func null(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        if nullMayKeepDefault, b.flags.keepDefaultOnNull { return }
        try receiver.receive(try codec.null(), context, &b)
    }
    override func startObject(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        if let owner = objectOwner { return try owner._withUnsafeGuaranteedRef { try $0.start(self, context, &b) } }
        guard let owner = codec.objectOwner else { return try super.startObject(context, &b) }
        try owner.start(self, context, &b)
    }
    override func startArray(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        if let owner = arrayOwner { return try owner._withUnsafeGuaranteedRef { try $0.start(self, context, &b) } }
        guard let owner = codec.arrayOwner else { return try super.startArray(context, &b) }
        try owner.start(self, context, &b)
    }
    override func deliver(_ storage: UnsafeMutableRawPointer, from owner: ContainerOwner, _ context: UnsafeMutableRawPointer,
                          _ b: inout EventBuilder) throws {
        try receiver.receive(try codec.take(storage, from: owner), context, &b)
    }
}

/// Writes a model property: through the stored-property offset for structs, the key path otherwise.
final class PropertyReceiver<Model, V>: Receiver<V> {
    override var writesProperty: Bool { true }
    let keyPath: WritableKeyPath<Model, V>
    let offset: Int?

    init(_ keyPath: WritableKeyPath<Model, V>) {
        self.keyPath = keyPath
        offset = MemoryLayout<Model>.offset(of: keyPath)
    }

    override func receive(_ value: consuming V, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        if let offset {
            (context + offset).assumingMemoryBound(to: V.self).pointee = value
        } else {
            context.assumingMemoryBound(to: Model.self).pointee[keyPath: keyPath] = value
        }
    }
}

/// Stores the top-level value into an `Optional<V>` the caller owns.
final class ResultReceiver<V>: Receiver<V> {
    override func receive(_ value: consuming V, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        context.assumingMemoryBound(to: Optional<V>.self).pointee = value
    }
}

/// A key on the way down a dotted key path: its object (or array, for index components) gets a
/// path frame that writes into the same model.
final class PathTarget: ValueTarget {
    let node: PlanNode
    /// The properties whose key paths continue through this key, for the error when they cannot
    /// (not `property`: an error inside the object, at a key none of them reads, is not theirs).
    private let continuing: String?

    init(_ node: PlanNode) {
        self.node = node
        continuing = node.properties.isEmpty ? nil : node.properties.joined(separator: ", ")
        super.init(property: nil)
    }

    override var expected: String { "an object (a key path continues through it)" }

    override func string(_ bytes: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        throw notAnObject("string")
    }
    override func number(_ text: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        throw notAnObject("number")
    }
    override func bool(_ value: Bool, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        throw notAnObject("bool")
    }
    /// `null` where a key path continues: the properties below keep their defaults, as if absent.
    override func null(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {}
    override func startObject(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        b.pushPath(node, array: false, storage: context)
    }
    override func startArray(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        guard node.hasIndices else { throw notAnObject("array") }
        b.pushPath(node, array: true, storage: context)
    }

    private func notAnObject(_ found: String) -> JSONError {
        var error = JSONError(.notAnObject, "a key path continues through this value, but it is \(JSONError.article(found)) \(found), not an object")
        error.property = continuing
        return error
    }
}

/// One key feeding several properties: scalars go to each; a container is captured once as a
/// JSONValue and replayed into each.
final class TeeTarget: ValueTarget {
    let targets: [ValueTarget]

    init(_ targets: [ValueTarget]) {
        self.targets = targets
        super.init(property: targets.compactMap(\.property).joined(separator: ", "))
    }

    override func string(_ bytes: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        for t in targets { try t.string(bytes, context, &b) }
    }
    override func number(_ text: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        for t in targets { try t.number(text, context, &b) }
    }
    override func bool(_ value: Bool, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        for t in targets { try t.bool(value, context, &b) }
    }
    override func null(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        for t in targets { try t.null(context, &b) }
    }
    override func startObject(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try JSONValueCodec.shared.objectOwner!.start(self, context, &b)
    }
    override func startArray(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try JSONValueCodec.shared.arrayOwner!.start(self, context, &b)
    }
    override func deliver(_ storage: UnsafeMutableRawPointer, from owner: ContainerOwner, _ context: UnsafeMutableRawPointer,
                          _ b: inout EventBuilder) throws {
        let value = try JSONValueCodec.shared.take(storage, from: owner)
        for t in targets { try b.replay(value, into: t, context) }
    }
}

extension EventBuilder {
    /// Feeds `value` to `target` as if it had been read from the input: the same frames, codecs
    /// and errors as for parsed JSON.
    mutating func replay(_ value: JSONValue, into target: ValueTarget, _ context: UnsafeMutableRawPointer) throws {
        switch value {
        case .null: try target.null(context, &self)
        case .bool(let v): try target.bool(v, context, &self)
        case .number(let n):
            var text = n.text
            try text.withUTF8 { try target.number(UnsafeRawBufferPointer($0), context, &self) }
        case .string(var s):
            try s.withUTF8 { try target.string(UnsafeRawBufferPointer($0), context, &self) }
        case .object:
            let base = depth
            try target.startObject(context, &self)
            if depth == base { return }
            try replayContents(value)
        case .array:
            let base = depth
            try target.startArray(context, &self)
            if depth == base { return }
            try replayContents(value)
        }
    }

    /// Replays a value through the event methods, into whatever the top frame expects.
    private mutating func replayEvents(_ value: JSONValue) throws {
        switch value {
        case .null: try check(null())
        case .bool(let v): try check(bool(v))
        case .number(let n):
            var text = n.text
            try check(text.withUTF8 { number(UnsafeRawBufferPointer($0)) })
        case .string(var s): try check(s.withUTF8 { string(UnsafeRawBufferPointer($0)) })
        case .object:
            try check(startObject())
            try replayContents(value)
        case .array:
            try check(startArray())
            try replayContents(value)
        }
    }

    /// The members or elements of the container `value`, just started, and its end.
    private mutating func replayContents(_ value: JSONValue) throws {
        switch value {
        case .object(let members):
            for (k, v) in members {
                var k = k
                try check(k.withUTF8 { key(UnsafeRawBufferPointer($0)) })
                try replayEvents(v)
            }
            try check(endObject())
        case .array(let elements):
            for v in elements { try replayEvents(v) }
            try check(endArray())
        default:
            return
        }
    }

    /// Throws the error an event method stored when it returned false.
    mutating func check(_ ok: Bool) throws {
        if !ok { throw takeError() ?? JSONError(.invalidValue, "replay failed") }
    }
}
