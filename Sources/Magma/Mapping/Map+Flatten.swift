// Flattening (`@Flatten`): a nested model read from its parent's own object and written back
// there. The nested model lives inside the parent's storage (a `@JSONModel` model as its draft),
// so each of its mapping's lines becomes a line of the parent's, rerooted: its targets and its
// writers are the nested model's own, handed the parent's storage moved on by the nested model's
// offset in it. The plan then reads the nested keys as the parent's (one key table, one pass), and
// refuses a key both claim (MappingPlan).

extension Map {
    /// The lines of a nested model read from this model's own object (`@Flatten`): its keys are
    /// this object's keys, and encoding writes them back here.
    ///
    /// ```swift
    /// struct Customer: JSONModel {
    ///     var name = ""
    ///     var address = Address()            // a JSONModel: "street", "city"
    ///     static let jsonMapping = JSONMapping<Customer> {
    ///         Map(\.name, "name")
    ///         Map.flattening(\.address)      // {"name": …, "street": …, "city": …}
    ///     }
    /// }
    /// ```
    /// A key the nested model reads that this model reads too (or another flattened model does)
    /// fails the mapping when it is built, with ``JSONError/Code/invalidMapping``. The model must
    /// be a struct (the nested model is stored inside it); the nested model's hooks run when the
    /// model that holds it is built (for a `@JSONModel` model, from its draft).
    /// - Parameters:
    ///   - property: The nested model, a stored property of a struct model.
    ///   - name: The property's name in messages (`Customer.address`); default its key path's.
    /// - Returns: The nested model's lines, as this model's.
    public static func flattening<Child: JSONModel>(_ property: WritableKeyPath<Model, Child>, as name: String? = nil) -> [Map]
    where Child.MappingRoot == Child {
        let name = name ?? Map.name(of: property)
        guard let offset = MemoryLayout<Model>.offset(of: property) else {
            return [Map(problem: .invalidMapping("\(name): only a struct model stores a flattened model inside itself"), property: property,
                        name: name)]
        }
        let lines = Child.jsonMapping.maps
        if let line = lines.first(where: { $0.makeRelationship != nil }) {
            return [Map(problem: .invalidMapping("\(name): the flattened \(line.propertyName) has a relationship"), property: property, name: name)]
        }
        return lines.map { line in
            var map = line.flattened(into: property, offset: offset)
            map.origin = name
            return map
        }
    }

    /// A property whose type is not a model: its line only fails the mapping (the compiler has
    /// said so already, at `FlattenedModel.emptyDraft(of:)`, for a `@JSONModel` model's).
    @_disfavoredOverload
    public static func flattening<V>(_ property: WritableKeyPath<Model, V>, as name: String? = nil) -> [Map] {
        let name = name ?? Map.name(of: property)
        return [Map(problem: .invalidMapping("\(name): \(V.self) is not a model, so it cannot be flattened"), property: property, name: name)]
    }

    /// This line of a model stored at `offset` in `Parent` (through `parent`), as a line of `Parent`.
    fileprivate func flattened<Parent>(into parent: WritableKeyPath<Parent, Model>, offset: Int) -> Map<Parent> {
        let source: Map<Parent>.Source
        switch self.source {
        case .single(let key, let makeTarget): source = .single(key) { OffsetTarget(makeTarget($0), offset: offset) }
        case .multiple(let keys, let makeBinding): source = .multiple(keys) { makeBinding($0).shifted(by: offset) }
        }
        let merge = self.merge
        var map = Map<Parent>(
            property: (parent as AnyKeyPath).appending(path: property) ?? property, propertyName: propertyName, bareName: nil,
            source: source, required: required, writer: writer.map { make in { OffsetPropertyWriter(make($0), offset: offset) } },
            problem: problem, derivesKey: false, merge: { mine, theirs in merge(&mine[keyPath: parent], theirs[keyPath: parent]) },
            remake: nil, makeRelationship: nil)
        map.encodeKey = encodeKey
        map.origin = origin
        return map
    }

    /// A line that only fails the mapping (a flattening that cannot be).
    private init<V>(problem: JSONError, property: WritableKeyPath<Model, V>, name: String) {
        self.init(property: property, propertyName: name, bareName: nil, source: .multiple([], { _ in MultiKeyBinding(keyPaths: [], property: name) { _, _ in } }),
                  required: false, writer: nil, problem: problem, derivesKey: false, merge: { _, _ in }, remake: nil, makeRelationship: nil)
    }
}

/// What `@Flatten` writes for a flattened property: the nested model's storage in the parent's
/// draft (a `@JSONModel` model's draft; a `JSONModel` itself), and the model built from it.
public enum FlattenedModel {
    /// An empty draft of a `@JSONModel` model, to be filled from its parent's object.
    /// - Parameter type: The nested model.
    /// - Returns: The draft.
    public static func emptyDraft<M: JSONDraftedModel>(of type: M.Type) -> M.Draft { M.Draft() }

    /// A `JSONModel` with its defaults, to be filled from its parent's object.
    /// - Parameter type: The nested model.
    /// - Returns: The model.
    public static func emptyDraft<M: JSONModel>(of type: M.Type) -> M { M() }

    /// A type that is not a model: chosen only when no other fits, so that the one error says what to do.
    @available(*, unavailable, message: "a flattened value (@Flatten, or an enum case's one unlabelled value) is a JSON model: mark its type @JSONModel or make it a JSONModel, or label the case's value")
    @_disfavoredOverload
    public static func emptyDraft<M>(of type: M.Type) -> M { fatalError("unavailable") }

    /// A value that is not a model, as it is: the one error about it is `emptyDraft(of:)`'s.
    /// - Parameters:
    ///   - type: The value's type.
    ///   - draft: The value.
    /// - Returns: The value.
    @_disfavoredOverload
    public static func model<M>(_ type: M.Type, from draft: M) throws -> M { draft }

    /// A value that is not a model, as it is: the one error about it is `emptyDraft(of:)`'s.
    /// - Parameter model: The value.
    /// - Returns: The value.
    @_disfavoredOverload
    public static func draft<M>(of model: M) -> M { model }

    /// The `@JSONModel` model of a filled draft, its hooks run.
    /// - Parameters:
    ///   - type: The nested model.
    ///   - draft: Its draft, filled.
    /// - Returns: The model.
    /// - Throws: What its hooks throw, or a missing required value.
    public static func model<M: JSONDraftedModel>(_ type: M.Type, from draft: M.Draft) throws -> M { try M.model(fromDraft: draft) }

    /// A filled `JSONModel`, its hooks run.
    /// - Parameters:
    ///   - type: The nested model.
    ///   - draft: The model, filled.
    /// - Returns: The model.
    /// - Throws: What its hooks throw.
    public static func model<M: JSONModel>(_ type: M.Type, from draft: M) throws -> M {
        var model = draft
        try model.runDecodeHooksReporting()
        return model
    }

    /// The draft a `@JSONModel` model is written back from.
    /// - Parameter model: The nested model.
    /// - Returns: Its draft.
    public static func draft<M: JSONDraftedModel>(of model: M) -> M.Draft { model.jsonDraft }

    /// A `JSONModel` is written back as it is.
    /// - Parameter model: The nested model.
    /// - Returns: The model.
    public static func draft<M: JSONModel>(of model: M) -> M { model }
}

/// A flattened model's target: the nested model's own, given the parent's storage moved on to
/// where the nested model is stored.
final class OffsetTarget: ForwardingTarget {
    let offset: Int

    init(_ target: ValueTarget, offset: Int) {
        self.offset = offset
        super.init(fallback: target)
    }

    override func string(_ bytes: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try fallback.string(bytes, context + offset, &b)
    }
    override func number(_ text: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try fallback.number(text, context + offset, &b)
    }
    override func bool(_ value: Bool, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try fallback.bool(value, context + offset, &b)
    }
    override func null(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try fallback.null(context + offset, &b)
    }
    override func startObject(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try fallback.startObject(context + offset, &b)
    }
    override func startArray(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try fallback.startArray(context + offset, &b)
    }
}

/// A flattened model's property writer: the nested model's own, reading from the parent moved
/// on to the nested model.
final class OffsetPropertyWriter: PropertyWriter {
    let writer: PropertyWriter
    let offset: Int

    init(_ writer: PropertyWriter, offset: Int) {
        self.writer = writer
        self.offset = offset
        super.init(property: writer.property)
    }

    override func member(_ key: MemberKey, part: String?) -> EncodeMember {
        OffsetMember(writer.member(key, part: part), offset: offset)
    }
}

/// Writes a flattened model's member from the parent's storage.
final class OffsetMember: EncodeMember {
    let member: EncodeMember
    let offset: Int

    init(_ member: EncodeMember, offset: Int) {
        self.member = member
        self.offset = offset
        super.init(MemberKey(member.key.name))
    }

    override func write(_ model: UnsafeRawPointer, into w: inout JSONWriter) throws { try member.write(model + offset, into: &w) }
    override func value(_ model: UnsafeRawPointer, choosing filter: ((UnsafeRawPointer, AnyKeyPath) -> Bool)?,
                        omitsNil: Bool) throws -> JSONValue? {
        try member.value(model + offset, choosing: filter, omitsNil: omitsNil)
    }
    override func writeElement(_ model: UnsafeRawPointer, choosing filter: ((UnsafeRawPointer, AnyKeyPath) -> Bool)?,
                               into w: inout JSONWriter) throws {
        try member.writeElement(model + offset, choosing: filter, into: &w)
    }
}

extension MultiKeyBinding {
    /// The same binding for a model stored `offset` bytes into the storage it is applied to.
    func shifted(by offset: Int) -> MultiKeyBinding {
        MultiKeyBinding(keyPaths: keyPaths, property: property) { values, storage in try self.body(values, storage + offset) }
    }
}
