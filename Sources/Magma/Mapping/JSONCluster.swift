// Class clusters: a base type whose concrete model is picked from the JSON, by the value of a
// discriminator key (Mantle's +classForParsingJSONDictionary:). Decoding is ClusterOwner's
// (Decoding/ClusterOwner.swift); this file declares the cluster and writes its models.

/// A family of models decoded through one base type, the concrete model picked by the value of
/// a discriminator key.
///
/// The base can be a class (its subclasses are the models) or a protocol (conforming models,
/// `Map`-declared or `@JSONModel` ones):
///
/// ```swift
/// class Shape: JSONModel {
///     static let jsonCluster: JSONCluster<Shape>? = JSONCluster(discriminator: "type") {
///         ClusterCase("circle", Circle.self)
///         ClusterCase("square", Square.self)
///     }
///     …
/// }
/// let shapes = try JSONAdapter.models(Shape.self, from: data)     // Circles and Squares
///
/// protocol Event {}
/// let events = JSONCluster<any Event>(discriminator: "kind") { … }
/// Map(\.events, "events", .array(.cluster(events)))
/// ```
///
/// In a stream, the discriminator may come after other keys: only that object's events are
/// kept until it arrives, then replayed into the chosen model. An unknown value, a missing key
/// or a value that is not a string is a ``JSONError/Code/unknownType`` error (unless a
/// ``ClusterCase/fallback(_:)`` is given). Encoding a model of the cluster writes its
/// discriminator first, then its own mapping (unless that mapping writes the key itself).
///
/// An illegal cluster (a case whose model is not a `Base`, a value given twice, a second
/// fallback) fails when it is built, as an illegal mapping does: ``validate()`` reports it, and
/// no object is read or model written through it. (A `@JSONModel` case of a protocol `Base`
/// that does not conform is found when its first model is read: it has no default model to ask.)
public final class JSONCluster<Base>: @unchecked Sendable {
    /// The key whose value picks the model; empty for a cluster that picks by rules.
    public let discriminator: String
    /// Whether the model is picked by the cases' rules over the whole object
    /// (``init(rules:)``) rather than by a discriminator.
    let picksByRule: Bool
    /// How an enum's cases are written (`@JSONModel(tagging:)`); nil for a cluster of models.
    let tagging: JSONTagging?
    let cases: [ClusterCase<Base>]
    /// Why the cluster cannot be used, found when it was declared.
    let problem: JSONError?
    private let lock = Lock()
    private var built: ClusterCodec<Base>?

    /// Declares a cluster.
    /// - Parameters:
    ///   - discriminator: The key whose value picks the model, at the top level of the object.
    ///   - cases: One ``ClusterCase`` per model, and at most one fallback.
    public init(discriminator: String, @ClusterBuilder<Base> _ cases: () -> [ClusterCase<Base>]) {
        self.discriminator = discriminator
        self.cases = cases()
        picksByRule = false
        tagging = nil
        problem = JSONCluster.problem(of: self.cases, byRule: false)
    }

    /// The cases of a tagged enum, as `@JSONModel(tagging:)` declares them: each case's tag is
    /// its own key, or its name as `keyNaming` gives it.
    init(tagging: JSONTagging, keyNaming: KeyNaming, cases: [ClusterCase<Base>]) {
        self.tagging = tagging
        discriminator = tagging.discriminator
        self.cases = cases.map { $0.tagged(by: keyNaming) }
        picksByRule = false
        problem = JSONCluster.problem(of: self.cases, byRule: false)
    }

    /// Declares a cluster whose model is picked by a rule over the object: a key present, a
    /// value's type or shape. The object is read whole first (as a ``JSONValue``), then the
    /// first case whose rule holds reads it into its model; an object no rule matches is a
    /// ``JSONError/Code/unknownType`` error (unless a ``ClusterCase/fallback(_:)`` is given), at
    /// that object, before any of its fields is read into a model.
    ///
    /// ```swift
    /// static let jsonCluster: JSONCluster<Shape>? = JSONCluster(rules: {
    ///     ClusterCase(Circle.self, whenKey: "radius")
    ///     ClusterCase(Square.self) { if case .number? = $0["side"] { true } else { false } }
    /// })
    /// ```
    ///
    /// Models are written back without a discriminator.
    /// - Parameter cases: Cases with rules (``ClusterCase/init(_:when:)``), tried in order, and
    ///   at most one fallback.
    public init(@ClusterBuilder<Base> rules cases: () -> [ClusterCase<Base>]) {
        discriminator = ""
        self.cases = cases()
        picksByRule = true
        tagging = nil
        problem = JSONCluster.problem(of: self.cases, byRule: true)
    }

    /// Checks the cluster without decoding anything.
    /// - Throws: ``JSONError`` with code ``JSONError/Code/invalidMapping`` naming the case whose
    ///   model is not a `Base`, the value given twice, or the second fallback.
    public func validate() throws {
        if let problem { throw problem }
    }

    private static func problem(of cases: [ClusterCase<Base>], byRule: Bool) -> JSONError? {
        var models: [String: String] = [:]
        var fallback: String?
        for c in cases {
            if !c.isBase {
                return .invalidMapping("\(c.name) is in the cluster of \(Base.self) but is not a \(Base.self)")
            }
            if byRule, c.value != nil {
                return .invalidMapping("\(c.name) is picked by a discriminator value in the cluster of \(Base.self), which picks by rules")
            }
            if !byRule, c.rule != nil {
                return .invalidMapping("\(c.name) is picked by a rule in the cluster of \(Base.self), which picks by its discriminator")
            }
            if let value = c.value {
                if let earlier = models[value] {
                    return .invalidMapping("\"\(value)\" picks both \(earlier) and \(c.name) in the cluster of \(Base.self)")
                }
                models[value] = c.name
            }
            if c.isFallback {
                if let earlier = fallback { return .invalidMapping("the cluster of \(Base.self) has two fallbacks, \(earlier) and \(c.name)") }
                fallback = c.name
            }
        }
        return nil
    }

    /// Reads and writes the cluster's models; built on first use (not when the cluster is made:
    /// a base class's cluster is a static of the base, read while its own codec is made).
    var codec: ClusterCodec<Base> {
        lock.withLock {
            if let built { return built }
            let codec = ClusterCodec(self)
            built = codec
            return codec
        }
    }
}

extension Transformer where Input == JSONValue {
    /// Models of a class cluster, picked by their discriminator.
    /// - Parameter cluster: The cluster.
    public static func cluster(_ cluster: JSONCluster<Output>) -> Self { Transformer(codec: cluster.codec) }
}

/// One model of a ``JSONCluster``.
public struct ClusterCase<Base> {
    /// The discriminator's value; nil for a model's fallback and for a case picked by a rule.
    var value: String?
    /// The rule over the object's members that picks this case, in a cluster picking by rules.
    let rule: (@Sendable ([String: JSONValue]) -> Bool)?
    /// The case's model, or an enum's case, for messages.
    let name: String
    /// Whether the case is the one for a missing or unknown discriminator.
    let isFallback: Bool
    /// Whether the model is a `Base`; if not, the cluster fails to build.
    let isBase: Bool
    /// An enum case's name, which the enum's key naming turns into its tag (`value` is nil until then).
    var caseName: String?
    /// Makes the entry, in its cluster.
    let makeEntry: (EntryContext) -> ClusterEntry<Base>

    /// What a case's entry is made in: its cluster's tagging (an enum's, or none), its final
    /// value, and every case's value.
    struct EntryContext {
        let tagging: JSONTagging?
        let value: String?
        let values: [String]
    }

    /// The model `type` for objects whose discriminator is `value`.
    /// - Parameters:
    ///   - value: The discriminator's value.
    ///   - type: The model; it must be a `Base` (a subclass, or a conforming type), else the
    ///     cluster fails to build with ``JSONError/Code/invalidMapping``.
    public init<M: JSONObjectModel>(_ value: String, _ type: M.Type) {
        self.init(value: value, M.self)
    }

    /// The model for objects whose discriminator is missing or names no other case; written
    /// back without a discriminator.
    /// - Parameter type: The model; it must be a `Base`.
    /// - Returns: The case; a cluster has at most one.
    public static func fallback<M: JSONObjectModel>(_ type: M.Type) -> ClusterCase {
        ClusterCase(value: nil, M.self, isFallback: true)
    }

    /// The model `type` for objects whose members satisfy `rule`, in a cluster that picks by
    /// rules (``JSONCluster/init(rules:)``).
    /// - Parameters:
    ///   - type: The model; it must be a `Base`.
    ///   - rule: Whether an object, given by its members, is one of this model's.
    public init<M: JSONObjectModel>(_ type: M.Type, when rule: @escaping @Sendable ([String: JSONValue]) -> Bool) {
        self.init(value: nil, M.self, rule: rule)
    }

    /// The model `type` for objects that have the key `key`, in a cluster that picks by rules.
    /// - Parameters:
    ///   - type: The model; it must be a `Base`.
    ///   - key: A key only this model's objects have (of those tried before it).
    public init<M: JSONObjectModel>(_ type: M.Type, whenKey key: String) {
        self.init(value: nil, M.self, rule: { $0[key] != nil })
    }

    private init<M: JSONObjectModel>(value: String?, _ type: M.Type, isFallback: Bool = false,
                                     rule: (@Sendable ([String: JSONValue]) -> Bool)? = nil) {
        self.value = value
        self.rule = rule
        self.isFallback = isFallback
        name = typeName(M.self)
        if let mapped = M.self as? any JSONModel.Type {
            (isBase, makeEntry) = Self.mappedCase(mapped, value: value, rule: rule, isFallback: isFallback)
        } else if let drafted = M.self as? any JSONDraftedModel.Type {
            (isBase, makeEntry) = Self.draftedCase(drafted, value: value, rule: rule, isFallback: isFallback)
        } else {
            preconditionFailure("\(M.self) is not a model a cluster's case can be; declare it with @JSONModel, or as a JSONModel")
        }
    }

    /// An enum's case (see JSONTaggedEnum.swift).
    init(value: String?, name: String, isFallback: Bool, makeEntry: @escaping (EntryContext) -> ClusterEntry<Base>) {
        self.value = value
        self.name = name
        self.isFallback = isFallback
        rule = nil
        isBase = true
        self.makeEntry = makeEntry
    }

    private static func mappedCase<M: JSONModel>(_ type: M.Type, value: String?, rule: (@Sendable ([String: JSONValue]) -> Bool)?,
                                                 isFallback: Bool) -> (Bool, (EntryContext) -> ClusterEntry<Base>) {
        // `M` is `Base` or a subclass of the class `Base`; for a protocol `Base`, no test on the
        // metatype asks whether `M` conforms to a protocol given as a generic existential, so a
        // default model is asked, once.
        (M.self is Base.Type || M() is Base, { _ in TypedClusterEntry<Base, M>(value: value, rule: rule, isFallback: isFallback) })
    }

    private static func draftedCase<M: JSONDraftedModel>(_ type: M.Type, value: String?, rule: (@Sendable ([String: JSONValue]) -> Bool)?,
                                                         isFallback: Bool) -> (Bool, (EntryContext) -> ClusterEntry<Base>) {
        // A `@JSONModel` model has no default to ask: for a class `Base` the metatype answers;
        // for a protocol `Base`, the first model read is asked (`DraftedClusterEntry.take`).
        (M.self is Base.Type || !(Base.self is AnyObject.Type),
         { _ in DraftedClusterEntry<Base, M>(value: value, rule: rule, isFallback: isFallback) })
    }
}

/// Collects the cases of a ``JSONCluster``.
@resultBuilder
public enum ClusterBuilder<Base> {
    public static func buildExpression(_ c: ClusterCase<Base>) -> [ClusterCase<Base>] { [c] }
    public static func buildBlock(_ parts: [ClusterCase<Base>]...) -> [ClusterCase<Base>] { parts.flatMap { $0 } }
    public static func buildArray(_ parts: [[ClusterCase<Base>]]) -> [ClusterCase<Base>] { parts.flatMap { $0 } }
}

/// A cluster that writes models given as `Any` (a model codec of the cluster's base or of a
/// subclass writes through it).
protocol ClusterWriting: AnyObject {
    /// Sends `value` to `out` with its discriminator if it is a model of the cluster; false if not.
    func write<Output: ModelOutput>(_ value: Any, into out: inout Output) throws -> Bool
}

/// Reads a cluster's models (see ClusterOwner) and writes them with their discriminators.
final class ClusterCodec<Base>: Codec<Base>, ClusterWriting, @unchecked Sendable {
    let discriminator: String
    /// Whether the model is picked by `ruled`'s rules over the whole object.
    let picksByRule: Bool
    /// Whether the model is picked by the object's key (an enum's case, tagged `.external`).
    let picksByKey: Bool
    let entries: [ClusterEntry<Base>]
    /// The cases picked by rules, in order.
    let ruled: [ClusterEntry<Base>]
    let fallback: ClusterEntry<Base>?
    /// Why the cluster cannot be used (``JSONCluster/problem``): thrown instead of reading or
    /// writing any model.
    let problem: JSONError?
    /// The entries' discriminator values, to their indices.
    private let values: KeyTable
    private var owner: ClusterOwner<Base>!

    init(_ cluster: JSONCluster<Base>) {
        discriminator = cluster.discriminator
        let tags = cluster.cases.compactMap(\.value)
        let all = cluster.cases.filter(\.isBase).map { $0.makeEntry(.init(tagging: cluster.tagging, value: $0.value, values: tags)) }
        entries = all.filter { $0.value != nil }
        ruled = all.filter { $0.rule != nil }
        picksByRule = cluster.picksByRule
        picksByKey = cluster.tagging?.picksByKey == true
        fallback = all.first(where: \.isFallback)
        problem = cluster.problem
        values = KeyTable(entries.map { Array($0.value!.utf8) })
        super.init()
        owner = ClusterOwner(self)
    }

    deinit { values.deallocate() }

    override var typeName: String { Magma.typeName(Base.self) }
    override var objectOwner: ContainerOwner? { owner }

    /// The entry whose discriminator value is `bytes`.
    func entry(for bytes: UnsafeRawBufferPointer) -> ClusterEntry<Base>? {
        let index = values.index(of: bytes)
        return index < 0 ? nil : entries[index]
    }

    override func take(_ storage: UnsafeMutableRawPointer, from owner: ContainerOwner) throws -> Base {
        for entry in entries where entry.owner === owner { return try entry.take(storage) }
        for entry in ruled where entry.owner === owner { return try entry.take(storage) }
        if let fallback, fallback.owner === owner { return try fallback.take(storage) }
        throw JSONError(.invalidValue, "no model of \(Base.self)'s cluster was read")
    }

    override func write(_ value: Base, into w: inout JSONWriter) throws { try send(value, to: &w) }
    override func encode(_ value: Base) throws -> JSONValue { try JSONTree.value(of: value) { try send($0, to: &$1) } }

    @inline(__always)
    private func send<Output: ModelOutput>(_ value: Base, to out: inout Output) throws {
        if let problem { throw problem }
        if try writeIfMember(value, into: &out) { return }
        throw JSONError(.notEncodable, "\(type(of: value as Any)) is not a model of \(Base.self)'s cluster")
    }

    func write<Output: ModelOutput>(_ value: Any, into out: inout Output) throws -> Bool {
        if let problem { throw problem }
        guard let base = value as? Base else { return false }
        return try writeIfMember(base, into: &out)
    }

    /// The case of the value's own type first, then the first case it is a model of (a subclass
    /// of a case's class), then the fallback.
    private func writeIfMember<Output: ModelOutput>(_ value: Base, into out: inout Output) throws -> Bool {
        // An enum's cases share its type: each case's entry writes only its own values.
        let type = ObjectIdentifier(Swift.type(of: value as Any))
        for entry in entries where entry.modelType == type {
            if try entry.write(value, discriminator: discriminator, into: &out) { return true }
        }
        for entry in ruled where entry.modelType == type {
            if try entry.write(value, discriminator: discriminator, into: &out) { return true }
        }
        for entry in entries where try entry.write(value, discriminator: discriminator, into: &out) { return true }
        for entry in ruled where try entry.write(value, discriminator: discriminator, into: &out) { return true }
        if let fallback { return try fallback.write(value, discriminator: discriminator, into: &out) }
        return false
    }
}
