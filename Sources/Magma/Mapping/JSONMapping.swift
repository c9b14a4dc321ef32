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

    /// Declares a mapping.
    /// - Parameter content: One ``Map`` per mapped property.
    public init(@MappingBuilder<Model> _ content: () -> [Map<Model>]) {
        let maps = content()
        self.maps = maps
        compiled = Result { try MappingPlan(maps, model: String(describing: Model.self)) }
            .mapError { $0 as? JSONError ?? JSONError.invalidMapping("\($0)") }
    }

    /// Checks the mapping without decoding anything.
    /// - Throws: ``JSONError`` with code ``JSONError/Code/invalidMapping`` and a message naming
    ///   the offending property and key path.
    public func validate() throws { _ = try plan() }

    func plan() throws(JSONError) -> MappingPlan { try compiled.get() }
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
