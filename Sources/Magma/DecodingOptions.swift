/// How Magma reads JSON. Every field has a documented default; `DecodingOptions()` is what most
/// callers want.
public struct DecodingOptions: Sendable {
    /// What to do when one object holds the same key twice.
    public enum DuplicateKeyPolicy: Sendable {
        /// The last occurrence wins, as in JSONSerialization and JSONDecoder (the default).
        case useLast
        /// A duplicate key is a ``JSONError/Code/duplicateKey`` error.
        case reject
    }

    /// What to do with keys the mapping does not name.
    public enum UnknownKeyPolicy: Sendable {
        /// Skip them, at every depth (the default; Mantle's behaviour).
        case ignore
        /// An unmapped key in a mapped object is a ``JSONError/Code/unknownKey`` error.
        case reject
    }

    /// What `null` does to a property that cannot be nil.
    public enum NullPolicy: Sendable {
        /// A ``JSONError/Code/nullValue`` error (the default).
        case error
        /// The property keeps its default value.
        case keepDefault
    }

    /// The deepest nesting of arrays and objects accepted; deeper input fails with
    /// ``JSONError/Code/depthLimitExceeded``. Default 512.
    public var maxDepth: Int = 512
    /// Accept `//` and `/* */` comments. Default `false`.
    public var allowComments: Bool = false
    /// Duplicate keys in one object. Default ``DuplicateKeyPolicy/useLast``.
    public var duplicateKeys: DuplicateKeyPolicy = .useLast
    /// Keys the mapping does not name. Default ``UnknownKeyPolicy/ignore``.
    public var unknownKeys: UnknownKeyPolicy = .ignore
    /// `null` for a non-optional property. Default ``NullPolicy/error``.
    public var nullForNonOptional: NullPolicy = .error
    /// Coerce between strings, numbers and booleans where the text allows it (`"42"` into an `Int`,
    /// `42` into a `String`, `"true"`/`1` into a `Bool`). Default `false`: a wrong type is an error.
    public var lenientTypes: Bool = false

    /// Creates the default options.
    public init() {}
}
