// Enums with associated values as tagged unions (`@JSONModel(tagging:)` on an enum). Each case's
// labelled values are read like a model's properties, into a draft of the case (a `JSONModel` the
// macro writes), and the case is built from it. The cases are a cluster's (JSONCluster.swift,
// ClusterOwner.swift): the tag picks the case as a discriminator picks a model, the events before
// it kept and replayed. `.internal` reads the case's values from the tagged object itself;
// `.adjacent` and `.external` from one member of it, through a box model (`TaggedContent`) whose
// mapping holds the case's draft at the content key or at the tag.

/// How a tagged enum's cases are told apart in JSON (`@JSONModel(tagging:)`).
///
/// ```swift
/// .internal(key: "type")                  // {"type": "circle", "radius": 2}
/// .external                               // {"circle": {"radius": 2}}
/// .adjacent(tag: "type", content: "data") // {"type": "circle", "data": {"radius": 2}}
/// ```
public struct JSONTagging: Sendable, Hashable {
    enum Form: Hashable {
        case `internal`(key: String)
        case external
        case adjacent(tag: String, content: String)
    }

    let form: Form

    /// The tag is a member of the case's own object, beside its values.
    /// - Parameter key: The tag's key.
    public static func `internal`(key: String) -> JSONTagging { JSONTagging(form: .internal(key: key)) }

    /// The object has one member: the tag is its key, the case's values its value.
    public static var external: JSONTagging { JSONTagging(form: .external) }

    /// The tag and the case's values are two members of the object.
    /// - Parameters:
    ///   - tag: The tag's key.
    ///   - content: The key of the object holding the case's values.
    public static func adjacent(tag: String, content: String) -> JSONTagging { JSONTagging(form: .adjacent(tag: tag, content: content)) }

    /// The key whose string value is the tag; empty when the tag is the key itself.
    var discriminator: String {
        switch form {
        case .internal(let key): return key
        case .adjacent(let tag, _): return tag
        case .external: return ""
        }
    }

    var picksByKey: Bool { form == .external }
}

/// An enum whose cases `@JSONModel(tagging:)` reads and writes as tagged objects (write the
/// macro, not this conformance).
public protocol JSONTaggedEnum: JSONObjectModel {
    /// The cases, each with its tag, its draft, and how the case is made from it and back.
    static var jsonCases: JSONCluster<Self> { get }
}

extension JSONTaggedEnum {
    /// A tagged enum is read and written through its cases.
    public static var jsonTransformer: Transformer<JSONValue, Self> { .cluster(jsonCases) }
}

extension JSONCluster where Base: JSONTaggedEnum {
    /// The cases of a tagged enum. Written by `@JSONModel(tagging:)`'s expansion.
    /// - Parameters:
    ///   - tagging: How the cases are told apart.
    ///   - keyNaming: How a case's name gives its tag when it has no `@Key`.
    ///   - cases: One ``ClusterCase`` per enum case.
    public convenience init(tagging: JSONTagging, keyNaming: KeyNaming = .propertyName,
                            @ClusterBuilder<Base> _ cases: () -> [ClusterCase<Base>]) {
        self.init(tagging: tagging, keyNaming: keyNaming, cases: cases())
    }
}

extension ClusterCase where Base: JSONTaggedEnum {
    /// One case of a tagged enum. Written by `@JSONModel(tagging:)`'s expansion.
    /// - Parameters:
    ///   - name: The case's name (its tag, through the enum's key naming, unless `key` is given).
    ///   - key: The tag `@Key` gives it.
    ///   - draft: The case's draft: a model of its labelled values.
    ///   - fallback: Whether the case is read for an unknown or missing tag (`@Fallback`).
    ///   - make: The case from its draft, filled.
    ///   - unmake: The draft of a value of this case; nil for a value of another case.
    public init<Draft: JSONModel>(_ name: String, key: String? = nil, _ draft: Draft.Type, fallback: Bool = false,
                                  make: @escaping (Draft) throws -> Base, unmake: @escaping (Base) -> Draft?) {
        let shown = "\(typeName(Base.self)).\(name)"
        self.init(value: key, name: shown, isFallback: fallback) { context in
            TaggedCaseEntry(context, name: shown, isFallback: fallback, make: make, unmake: unmake)
        }
        caseName = key == nil ? name : nil
    }
}

extension ClusterCase {
    /// The case with its tag: its `@Key`, or its name as `naming` gives it.
    func tagged(by naming: KeyNaming) -> ClusterCase {
        guard let caseName else { return self }
        var tagged = self
        tagged.value = naming.key(for: caseName)
        return tagged
    }
}

/// A case of a tagged enum: its draft's frame reads the case's values (the draft's own, or a box
/// holding it), and the case is built from the finished draft, its hooks run.
final class TaggedCaseEntry<Base: JSONObjectModel, Draft: JSONModel>: ClusterEntry<Base> {
    private let tagging: JSONTagging
    private let make: (Draft) throws -> Base
    private let unmake: (Base) -> Draft?
    /// `.adjacent` and `.external`: the box's mapping, the draft at the content key or the tag.
    private let box: JSONMapping<TaggedContent<Draft>>?

    init(_ context: ClusterCase<Base>.EntryContext, name: String, isFallback: Bool, make: @escaping (Draft) throws -> Base,
         unmake: @escaping (Base) -> Draft?) {
        let tagging = context.tagging ?? .external, tag = context.value ?? name
        self.tagging = tagging
        self.make = make
        self.unmake = unmake
        switch tagging.form {
        case .internal: box = nil
        case .adjacent(_, let content):
            box = TaggedContent<Draft>.mapping(at: content, required: Draft.self != CaseWithoutValues.self, name: name)
        case .external:
            box = TaggedContent<Draft>.mapping(at: tag, required: false, name: name, otherTags: context.values.filter { $0 != tag })
        }
        let owner: ContainerOwner = box.map { ModelOwner<TaggedContent<Draft>>(mapping: $0) } ?? ModelOwner<Draft>()
        super.init(value: tag, rule: nil, isFallback: isFallback, owner: owner, modelType: Base.self)
    }

    override func take(_ storage: UnsafeMutableRawPointer) throws -> Base {
        let draft = box == nil ? storage.assumingMemoryBound(to: Draft.self).move()
                               : storage.assumingMemoryBound(to: TaggedContent<Draft>.self).move().content ?? Draft()
        var value = try make(draft)
        try value.runDecodeHooksReporting()
        return value
    }

    override func write<Output: ModelOutput>(_ value: Base, discriminator: String, into out: inout Output) throws -> Bool {
        guard let draft = unmake(value) else { return false }
        let tag = self.value.map { (discriminator, $0) }
        guard let box else {
            try ModelCodec<Draft>.write(draft, mapping: nil, discriminator: tag, into: &out)
            return true
        }
        // A case without values has no content member (`.adjacent`); `.external` keeps its `{}`.
        let content = tagging.picksByKey || Draft.self != CaseWithoutValues.self ? draft : nil
        try ModelCodec<TaggedContent<Draft>>.write(TaggedContent(content: content), mapping: box,
                                                   discriminator: tagging.picksByKey ? nil : tag, into: &out)
        return true
    }
}

/// The draft of an enum case without values.
public struct CaseWithoutValues: JSONModel {
    /// The draft.
    public init() {}
    /// No lines: the case has no values to read.
    public static let jsonMapping = JSONMapping<CaseWithoutValues> {}
}

/// The object of a case tagged `.adjacent` or `.external`: one member (the content key, or the
/// tag) holds the case's draft. Read and written with the mapping its entry gives it.
struct TaggedContent<Draft: JSONModel>: JSONModel {
    var content: Draft?
    /// `.external`: another case's tag in the same object, which is an error (read, never written).
    var otherTag = false

    init() {}
    init(content: Draft?) { self.content = content }

    /// Not used: the entries give their own.
    static var jsonMapping: JSONMapping<TaggedContent> { JSONMapping(maps: []) }

    /// - Parameters:
    ///   - key: Where the case's draft is.
    ///   - name: The case, as messages name it (`Shape.circle`).
    ///   - otherTags: Keys that fail the object when they come with this one.
    static func mapping(at key: String, required: Bool, name: String, otherTags: [String] = []) -> JSONMapping<TaggedContent> {
        var content = Map(\TaggedContent.content, key, .model(Draft.self), required: required)
        content.propertyName = name
        var maps = [content]
        if !otherTags.isEmpty {
            var other = Map(\TaggedContent.otherTag, otherTags, Transformer(forward: { values in
                guard let tag = values.keys.sorted().first else { return false }
                throw JSONError(.unknownType, "an object holds one case: \"\(key)\" and \"\(tag)\" are two")
            }))
            other.propertyName = name
            maps.append(other)
        }
        return JSONMapping(maps: maps)
    }
}
