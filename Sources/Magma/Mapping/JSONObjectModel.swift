// What every entry point takes: a model Magma reads from a JSON object and writes back as one.
// Two kinds conform (the codec is picked once per entry point call, not per model). A `JSONModel` (the `Map` DSL: `var` properties with defaults and an `init()`)
// is filled in place. A `@JSONModel` type (`let` properties, no defaults needed) is not
// default-constructible, so decoding fills its *draft*, a `JSONModel` the macro generates whose
// properties are all optional or defaulted, and builds the model from it when the object ends;
// encoding writes the draft of the model.

/// A type Magma decodes from JSON objects and encodes back: a `@JSONModel` type, or a
/// ``JSONModel`` declared with the `Map` DSL.
///
/// Declare models with the macro; it writes this conformance:
///
/// ```swift
/// @JSONModel(keyNaming: .snakeCase)
/// struct GHUser {
///     let login: String
///     let id: Int64
///     @Key("html_url") let profile: URL?
/// }
/// ```
public protocol JSONObjectModel: JSONRepresentable {
    /// Called when the model's object has been read, before ``validate()``: derive helper
    /// properties from decoded ones here (as Mantle models did in `initWithDictionary:`).
    /// - Throws: Any error, reported as ``JSONError/Code/validationFailed`` with the model's path.
    mutating func didDecode() throws
    /// Checks the decoded model as a whole.
    /// - Throws: Any error, reported as ``JSONError/Code/validationFailed`` with the model's path.
    func validate() throws
}

/// A model decoded through a draft: what `@JSONModel` makes a type (write the macro, not this
/// conformance). Its `let` properties cannot be filled in place, so decoding fills the draft, a
/// ``JSONModel`` whose properties are all optional or defaulted, and builds the model from it.
public protocol JSONDraftedModel: JSONObjectModel {
    /// The `Map`-declared model decoding fills before this model is built.
    associatedtype Draft: JSONModel
    /// The model with a decoded draft's values.
    /// - Parameter draft: The draft, its required properties all present.
    /// - Returns: The model.
    /// - Throws: ``JSONError`` if a required value is missing from the draft.
    /// Written by the macro: builds the model and runs its ``JSONObjectModel/didDecode()`` and
    /// ``JSONObjectModel/validate()`` hooks, in the model's own (specialised) code.
    static func model(fromDraft draft: consuming Draft) throws -> Self
    /// Builds the model from the finished draft at `draft` (moving it out) and moves the model
    /// into `destination`, in the model's own concrete code: a nested model's value, optional or
    /// array element is written with no generic value witness. Written by the macro.
    /// - Parameters:
    ///   - draft: An initialised `Draft`, left uninitialised (also when this throws).
    ///   - destination: A `Self`, a `Self?` or a `[Self]`, as `form` says.
    ///   - form: How `destination` holds the model.
    /// - Throws: What ``model(fromDraft:)`` throws.
    static func moveModel(fromDraft draft: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer,
                          as form: DraftDestination) throws
    /// The model with a draft's values, its unmapped (`@Ignore`'d) `var` properties taken from
    /// `old`, hooks run last: what updating and merging a model build (see
    /// `JSONAdapter.update(_:from:)`). Written by the macro when the model has such properties;
    /// otherwise ``model(fromDraft:)``.
    /// - Parameters:
    ///   - draft: The draft, its required properties all present.
    ///   - old: The model being updated.
    /// - Returns: The model.
    /// - Throws: ``JSONError`` as ``model(fromDraft:)``.
    static func model(fromDraft draft: consuming Draft, updating old: Self) throws -> Self
    /// The model's mapped values as a draft, for encoding.
    var jsonDraft: Draft { get }
}

extension JSONObjectModel {
    public mutating func didDecode() throws {}
    public func validate() throws {}

    /// Both hooks, on the model in place (`validate()` called on `pointee` from generic code
    /// copied the model first), with what they throw reported as ``decodeHookError(_:)`` says.
    mutating func runDecodeHooksReporting() throws {
        do {
            try didDecode()
            try validate()
        } catch {
            throw Self.decodeHookError(error)
        }
    }

    /// What a hook threw, as decoding reports it: a ``JSONError`` as it is, anything else as
    /// ``JSONError/Code/validationFailed`` naming the model. Also written by `@JSONModel`'s
    /// `model(fromDraft:)`.
    /// - Parameter error: The hook's error.
    /// - Returns: The error to throw.
    public static func decodeHookError(_ error: any Error) -> JSONError {
        if let error = error as? JSONError { return error }
        var wrapped = JSONError(.validationFailed, "\(Self.self) is not valid: \(error)", underlying: error)
        wrapped.model = String(describing: Self.self)
        return wrapped
    }
}

/// The codec of a model of either kind: a ``JSONModel`` is read in place; any other model
/// through its draft.
func objectModelCodec<M: JSONObjectModel>(_ type: M.Type) -> Codec<M> {
    if let mapped = type as? any JSONModel.Type { return mappedModelCodec(mapped, as: M.self) }
    if let drafted = type as? any JSONDraftedModel.Type { return draftedModelCodec(drafted, as: M.self) }
    if let tagged = type as? any JSONTaggedEnum.Type { return taggedEnumCodec(tagged, as: M.self) }
    preconditionFailure("\(M.self) conforms to JSONObjectModel itself; declare it with @JSONModel, or as a JSONModel")
}

private func mappedModelCodec<L: JSONModel, M>(_ type: L.Type, as: M.Type) -> Codec<M> {
    ModelCodec<L>() as! Codec<M>
}

private func draftedModelCodec<D: JSONDraftedModel, M>(_ type: D.Type, as: M.Type) -> Codec<M> {
    DraftModelCodec<D>() as! Codec<M>
}

private func taggedEnumCodec<T: JSONTaggedEnum, M>(_ type: T.Type, as: M.Type) -> Codec<M> {
    T.jsonCases.codec as! Codec<M>
}

/// Reads a model through its draft: the draft's codec fills the draft while the object is read,
/// then the model is built from it (hooks included); writing writes the model's draft.
final class DraftModelCodec<Model: JSONDraftedModel>: Codec<Model>, @unchecked Sendable {
    let draft = ModelCodec<Model.Draft>()

    override var typeName: String { Magma.typeName(Model.self) }
    override var objectOwner: ContainerOwner? { draft.objectOwner }
    override func take(_ storage: UnsafeMutableRawPointer, from owner: ContainerOwner) throws -> Model {
        // The model's own code builds it and runs its hooks: here, generic code would copy it.
        try Model.model(fromDraft: try draft.take(storage, from: owner))
    }
    override func encode(_ value: Model) throws -> JSONValue {
        try JSONTree.value(of: value) { try write($0, discriminator: nil, into: &$1) }
    }
    override func write(_ value: Model, into w: inout JSONWriter) throws { try write(value, discriminator: nil, into: &w) }
    /// Sends the model's draft to `out`, with a cluster's discriminator first when one is given;
    /// a `SelectiveEncoding` model chooses its properties either way.
    @inline(__always)
    func write<Output: ModelOutput>(_ value: Model, discriminator: (key: String, value: String)?, into out: inout Output) throws {
        if let selective { return try withUnsafePointer(to: value) { try selective.write($0, discriminator: discriminator, into: &out) } }
        try ModelCodec<Model.Draft>.write(value.jsonDraft, mapping: nil, discriminator: discriminator, into: &out)
    }
    /// For a `SelectiveEncoding` model, its writer (the model chooses its properties); nil for
    /// the others, which pay one check per write.
    private let selective: SelectiveWriting? = (Model.self as? any (JSONDraftedModel & SelectiveEncoding).Type).map { selectiveWriter($0) }
    override func fastTarget(offset: Int, form: DraftDestination, fallback: ValueTarget) -> ValueTarget? {
        DraftField<Model>(owner: draft.owner, offset: offset, form: form, fallback: fallback)
    }
}

/// Writes a `SelectiveEncoding` `@JSONModel` model: opens the model's type, which the codec knows
/// only as a `JSONDraftedModel`. A class: the codec's optional of it is tested on every write,
/// and an optional struct existential is copied out to be tested.
private protocol SelectiveWriting: AnyObject {
    /// - Parameters:
    ///   - value: The model (of the writer's type).
    ///   - discriminator: A cluster's key and the model's case, written first.
    func write<Output: ModelOutput>(_ value: UnsafeRawPointer, discriminator: (key: String, value: String)?, into out: inout Output) throws
}

private final class SelectiveWriter<Model: JSONDraftedModel & SelectiveEncoding>: SelectiveWriting {
    let paths = Model.jsonDraftKeyPaths

    func write<Output: ModelOutput>(_ value: UnsafeRawPointer, discriminator: (key: String, value: String)?, into out: inout Output) throws {
        try SelectiveEncodingFilter.write(value.assumingMemoryBound(to: Model.self).pointee, paths: paths, discriminator: discriminator,
                                          into: &out)
    }
}

private func selectiveWriter<Model: JSONDraftedModel & SelectiveEncoding>(_: Model.Type) -> SelectiveWriting { SelectiveWriter<Model>() }

/// A nested `@JSONModel` model's property of a struct, or an element of an array of them: its
/// draft's frame is started as the generic slot would, and the finished draft is moved into the
/// property (or appended), as the model, by the model's own code. Everything else (null,
/// mismatches) goes to the generic slot.
final class DraftField<Model: JSONDraftedModel>: OwnedField {
    override func startObject(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try owner.start(self, context, &b)
    }
    override func deliver(_ storage: UnsafeMutableRawPointer, from owner: ContainerOwner, _ context: UnsafeMutableRawPointer,
                          _ b: inout EventBuilder) throws {
        try Model.moveModel(fromDraft: storage, to: context + offset, as: form)
    }
}

extension JSONObjectModel {
    /// The error for a required property a draft does not hold. Written by `@JSONModel`'s
    /// `init(jsonDraft:)` (and its enum cases' makers): the plan has checked the key was present,
    /// so this is a draft built by hand.
    /// - Parameter property: `Model.property`.
    /// - Returns: A ``JSONError/Code/missingKey`` error naming the property.
    public static func missingDraftValue(_ property: String) -> JSONError {
        var error = JSONError(.missingKey, "no value for required property \(property)")
        error.property = property
        return error
    }
}

extension JSONDraftedModel where Self: AnyObject {
    /// Runs a class model's hooks, as ``JSONObjectModel/decodeHookError(_:)`` reports them. Written by
    /// `@JSONModel`'s `model(fromDraft:)` for a final class (whose hooks may or may not mutate).
    /// - Parameter model: The model.
    /// - Throws: What the hooks throw, as ``JSONObjectModel/decodeHookError(_:)`` gives it.
    public static func runDecodeHooks(of model: Self) throws {
        var model = model
        try model.runDecodeHooksReporting()
    }
}
