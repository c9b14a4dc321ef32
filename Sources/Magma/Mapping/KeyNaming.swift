/// How a ``JSONMapping`` turns a property's name into its JSON key, for the lines written without
/// one (`Map(\.createdAt)`).
///
/// ```swift
/// static let jsonMapping = JSONMapping<GHIssue>(keyNaming: .snakeCase) {
///     Map(\.createdAt)                    // "created_at"
///     Map(\.htmlURL)                      // "html_url"
///     Map(\.reporterLogin, "user.login")  // an explicit key path is used as written
/// }
/// ```
public struct KeyNaming: Sendable {
    let convert: @Sendable (String) -> String

    /// Converts names with a closure.
    /// - Parameter convert: The JSON key for a property name.
    public init(_ convert: @escaping @Sendable (String) -> String) { self.convert = convert }

    /// The key is the property's name as written (`createdAt`). The default.
    public static let propertyName = KeyNaming { $0 }

    /// `createdAt` -> `created_at`, `htmlURL` -> `html_url`, `URLString` -> `url_string`: words
    /// split where a lower-case letter or digit meets an upper-case one, and before the last
    /// capital of an acronym that a lower-case word follows (as `JSONEncoder`'s
    /// `convertToSnakeCase`).
    public static let snakeCase = KeyNaming { separatedWords($0, by: "_") }

    /// `createdAt` -> `created-at`.
    public static let kebabCase = KeyNaming { separatedWords($0, by: "-") }

    /// The key for `name`.
    /// - Parameter name: A property name.
    /// - Returns: Its JSON key.
    public func key(for name: String) -> String { convert(name) }
}
