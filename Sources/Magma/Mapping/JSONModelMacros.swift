// The declarations of `@JSONModel` and its property attributes; MagmaMacros implements them.

/// Makes a struct or a final class a model Magma decodes and encodes, from its stored properties.
///
/// ```swift
/// @JSONModel(keyNaming: .snakeCase)
/// struct GHIssue {
///     let url: URL                                   // no default: a required key
///     let number: Int
///     var state: State = .open                       // a default: kept when the key is absent
///     @Key("user.login") let reporterLogin: String?  // optional: absent or null gives nil
///     @Transform(.date(format: "yyyy-MM-dd'T'HH:mm:ss'Z'")) let updatedAt: Date
///     @Ignore var retrievedAt = Date()               // never decoded nor encoded
/// }
/// ```
///
/// As with `Codable`: a non-optional property with no default is required (absent is
/// ``JSONError/Code/missingKey``, `null` ``JSONError/Code/nullValue``), an optional one may be
/// absent or null, and one with a default keeps it when its key is absent. A `let` with an initial
/// value is not decoded. The memberwise initializer stays; the macro adds
/// ``JSONDraftedModel`` conformance, a draft type decoding fills, and `init(jsonDraft:)`.
/// Class hierarchies (and clusters whose base is a class), relationships and mappings built at
/// run time use the `Map` DSL (``JSONModel``); the two kinds nest inside each other. A macro
/// model can be a case of a protocol ``JSONCluster``, an envelope, a ``VersionedModel``, a
/// ``MappedEquality`` or a ``SelectiveEncoding`` model, and merges (with ``Merge(_:)`` hooks)
/// and updates through its draft.
/// - Parameter keyNaming: How a property's name gives its key when it has no ``Key(_:)``.
@attached(member, names: named(JSONDraft), named(init(jsonDraft:)))
@attached(extension, conformances: JSONDraftedModel,
          names: named(init(jsonDraft:)), named(model(fromDraft:)), named(moveModel(fromDraft:to:as:)), named(model(fromDraft:updating:)), named(jsonDraftKeyPaths), named(jsonDraft), named(jsonTransformer))
public macro JSONModel(keyNaming: KeyNaming = .propertyName) = #externalMacro(module: "MagmaMacros", type: "JSONModelMacro")

/// The JSON key path a property reads (`"user.login"`, `"labels.0.name"`, `"a\\.b"` for a key
/// holding a dot), instead of the one its name gives; several key paths feed one property through
/// a `@Transform` taking a `Transformer<[String: JSONValue], V>` that combines them.
/// - Parameter keyPaths: One key path, or several.
@attached(peer)
public macro Key(_ keyPaths: String...) = #externalMacro(module: "MagmaMacros", type: "PropertyAttributeMacro")

/// The transformer between the JSON value and the property (for an optional property, its
/// wrapped type), instead of the type's implicit one.
/// - Parameter transformer: For example `.date(format: "yyyy-MM-dd")` or `.url`.
@attached(peer)
public macro Transform<V>(_ transformer: Transformer<JSONValue, V>) = #externalMacro(module: "MagmaMacros", type: "PropertyAttributeMacro")

/// The transformer that combines the values of a property's several key paths (``Key(_:)``).
/// - Parameter transformer: From the values by key path to the property's value, and back.
@attached(peer)
public macro Transform<V>(_ transformer: Transformer<[String: JSONValue], V>) = #externalMacro(module: "MagmaMacros", type: "PropertyAttributeMacro")

/// The property's merge hook: ``JSONDraftedModel/merge(from:)`` sets it to `combine(mine, theirs)`
/// instead of to the other model's value (Mantle's `merge<Key>FromModel:`; the `Map` form is
/// ``Map/merging(_:)``). The hook is checked against the property's type when the model compiles.
///
/// ```swift
/// @Merge({ (mine: Int, theirs: Int) in mine + theirs }) let likes: Int
/// @Merge(unionOfTags) var tags: [String] = []      // static func unionOfTags(_:_:) -> [String]
/// ```
/// - Parameter combine: The merged value from this model's value and the other's: a closure
///   that names its parameters' type (the attribute is checked before the property's type is
///   known, as in ``Map/merging(_:)``), or a static function of the model, named without `Self.`.
@attached(peer)
public macro Merge<V>(_ combine: (_ mine: V, _ theirs: V) -> V) = #externalMacro(module: "MagmaMacros", type: "PropertyAttributeMacro")

/// The property is never decoded nor encoded; it needs a default value (or is an optional `var`).
@attached(peer)
public macro Ignore() = #externalMacro(module: "MagmaMacros", type: "PropertyAttributeMacro")

/// The key must be present even though the property is optional or has a default: its absence is
/// ``JSONError/Code/missingKey``.
@attached(peer)
public macro Required() = #externalMacro(module: "MagmaMacros", type: "PropertyAttributeMacro")
