/// The declared mapping of one model type: which JSON key path feeds which property, through which
/// transformer. Compiled once, when first used, into a checked plan.
///
/// ```swift
/// static let jsonMapping = JSONMapping<GHIssue> {
///     Map(\.number, "number")
///     Map(\.reporterLogin, "user.login")
///     Map(\.updatedAt, "updated_at", .date(format: "yyyy-MM-dd'T'HH:mm:ss'Z'"))
/// }
/// ```
public final class JSONMapping<Model: JSONModel>: @unchecked Sendable {
    let maps: [Map<Model>]
    private let compiled: Result<MappingPlan, JSONError>
    /// The type the lines were written for: `Model`, or a subclass of it for a subclass's mapping.
    let linesType: Any.Type
    /// Whether a type may use these lines: `linesType` or one of its subclasses.
    let accepts: (Any.Type) -> Bool
    /// The properties ``MappedEquality`` compares; nil when one is not `Equatable`.
    let comparedProperties: [ComparedProperty]?

    /// Declares a mapping.
    /// - Parameters:
    ///   - keyNaming: How lines written without a key path (`Map(\.createdAt)`) name their key;
    ///     default the property's name as written.
    ///   - content: One ``Map`` per mapped property. A property may have a line without a key
    ///     path and one with: the explicit one wins (an override).
    public convenience init(keyNaming: KeyNaming = .propertyName, @MappingBuilder<Model> _ content: () -> [Map<Model>]) {
        self.init(maps: JSONMapping.resolve(content(), keyNaming))
    }

    convenience init(maps: [Map<Model>]) { self.init(maps: maps, linesType: Model.self) }

    /// - Parameter problem: Why the mapping cannot be built, found before its lines are compiled
    ///   (it fails with this error instead).
    init<Lines>(maps: [Map<Model>], linesType: Lines.Type, problem: JSONError? = nil) {
        self.maps = maps
        self.linesType = linesType
        accepts = { $0 is Lines.Type }
        comparedProperties = ComparedProperty.of(maps)
        if let problem {
            compiled = .failure(problem)
        } else {
            compiled = Result { try MappingPlan(maps, model: typeName(Lines.self)) }
                .mapError { $0 as? JSONError ?? JSONError.invalidMapping("\($0)") }
        }
    }

    /// Derived keys named; derived lines dropped where an explicit line maps the same property.
    static func resolve(_ maps: [Map<Model>], _ naming: KeyNaming) -> [Map<Model>] {
        let explicit = Set(maps.filter { !$0.derivesKey }.map(\.property))
        return maps.filter { !$0.derivesKey || !explicit.contains($0.property) }.map { $0.resolvingKey(naming) }
    }

    /// Checks the mapping without decoding anything.
    /// - Throws: ``JSONError`` with code ``JSONError/Code/invalidMapping`` and a message naming
    ///   the offending property and key path.
    public func validate() throws { _ = try plan() }

    func plan() throws(JSONError) -> MappingPlan { try compiled.get() }

    /// The plan, for decoding or encoding a `type`: checks the lines were written for it (or for
    /// a superclass of it), since a plan writes into the model's memory by its key paths.
    @inline(__always)
    func plan(for type: Any.Type) throws(JSONError) -> MappingPlan {
        if ObjectIdentifier(type) == ObjectIdentifier(linesType) || accepts(type) { return try compiled.get() }
        throw .invalidMapping("\(type)'s jsonMapping declares the properties of \(linesType), which \(type) is not")
    }
}

/// Collects the ``Map`` lines of a ``JSONMapping``.
@resultBuilder
public enum MappingBuilder<Model> {
    public static func buildExpression(_ map: Map<Model>) -> [Map<Model>] { [map] }
    public static func buildExpression(_ maps: [Map<Model>]) -> [Map<Model>] { maps }
    public static func buildBlock(_ parts: [Map<Model>]...) -> [Map<Model>] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [Map<Model>]?) -> [Map<Model>] { part ?? [] }
    public static func buildEither(first: [Map<Model>]) -> [Map<Model>] { first }
    public static func buildEither(second: [Map<Model>]) -> [Map<Model>] { second }
    public static func buildArray(_ parts: [[Map<Model>]]) -> [Map<Model>] { parts.flatMap { $0 } }
}
