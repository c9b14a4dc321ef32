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
///
/// On an enum, `tagging` says how its cases are told apart (``JSONTagging``): each case is an
/// object, its labelled associated values read as a model's properties (one unlabelled value is
/// a model flattened into the case's object), its tag its name through `keyNaming` or its
/// ``Key(_:encode:)``; an unknown tag is ``JSONError/Code/unknownType`` unless a case is the
/// ``Fallback()``:
///
/// ```swift
/// @JSONModel(tagging: .internal(key: "type"))
/// enum Shape {
///     case circle(radius: Double)                  // {"type": "circle", "radius": 2}
///     @Key("rect") case rectangle(width: Double, height: Double)
///     @Fallback case unknown
/// }
/// ```
/// - Parameters:
///   - keyNaming: How a property's name (an enum case's name) gives its key when it has no
///     ``Key(_:encode:)``.
///   - tagging: How an enum's cases are told apart; only for an enum, which needs it.
@attached(member, names: named(JSONDraft), named(init(jsonDraft:)))
@attached(extension, conformances: JSONDraftedModel, JSONTaggedEnum,
          names: named(init(jsonDraft:)), named(model(fromDraft:)), named(moveModel(fromDraft:to:as:)), named(model(fromDraft:updating:)), named(jsonDraftKeyPaths), named(jsonDraft), named(jsonTransformer), named(jsonCases))
public macro JSONModel(keyNaming: KeyNaming = .propertyName, tagging: JSONTagging? = nil) = #externalMacro(module: "MagmaMacros", type: "JSONModelMacro")

/// The JSON key path a property reads (`"user.login"`, `"labels.0.name"`, `"a\\.b"` for a key
/// holding a dot), instead of the one its name gives; several key paths feed one property through
/// a `@Transform` taking a `Transformer<[String: JSONValue], V>` that combines them. On an enum's
/// case, its tag.
///
/// `encode:` writes the property back at another key path than the one it reads (for a service
/// that reads `user_name` and writes `userName`); alone, the key read is the one the name gives.
/// A key path two properties write fails the mapping when it is built.
/// - Parameters:
///   - keyPaths: One key path, or several.
///   - encode: The key path encoding writes the property at; default the one it reads.
@attached(peer)
public macro Key(_ keyPaths: String..., encode: String? = nil) = #externalMacro(module: "MagmaMacros", type: "PropertyAttributeMacro")

/// The transformer between the JSON value and the property (for an optional property, its
/// wrapped type), instead of the type's implicit one. A transformer of another type is an error
/// at the attribute, naming both types.
/// - Parameter transformer: For example `.date(format: "yyyy-MM-dd")` or `.url`.
@attached(peer, names: prefixed(_transform_))
public macro Transform<V>(_ transformer: Transformer<JSONValue, V>) = #externalMacro(module: "MagmaMacros", type: "PropertyAttributeMacro")

/// The transformer that combines the values of a property's several key paths (``Key(_:encode:)``).
/// - Parameter transformer: From the values by key path to the property's value, and back.
@attached(peer, names: prefixed(_transform_))
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

/// The property's value when its key is missing or `null`; with `onInvalid: true`, also when its
/// value is of the wrong type or its transformer refuses it (anywhere inside it), which
/// ``JSONAdapter`` notes in a ``DecodingReport`` (``DecodingReport/defaulted``) rather than
/// failing. An error in the input's text (invalid UTF-8, a token over the size cap) still fails.
///
/// ```swift
/// @Default(0) let retries: Int
/// @Default(State.open, onInvalid: true) let state: State   // an unknown state reads as .open
/// @Default([Tag](), onInvalid: true) let tags: [Tag]
/// ```
/// The value is checked before the property's type is known (as ``Merge(_:)``'s hook): name the
/// type of an enum case (`State.open`) or of an empty collection (`[Tag]()`).
/// - Parameters:
///   - value: The default.
///   - onInvalid: Whether an invalid value gives the default too.
@attached(peer)
public macro Default<V>(_ value: V, onInvalid: Bool = false) = #externalMacro(module: "MagmaMacros", type: "PropertyAttributeMacro")

/// The property's array (or dictionary) keeps the elements that read and drops those that fail,
/// noting each in a ``DecodingReport`` (``DecodingReport/dropped``). Without it one bad element
/// fails the property. A value that is not a collection still fails, as does an error in the
/// input's text.
///
/// ```swift
/// @Lossy let tags: [Tag]               // [{"name": "a"}, 42, {"name": "b"}] gives two tags
/// ```
@attached(peer)
public macro Lossy() = #externalMacro(module: "MagmaMacros", type: "PropertyAttributeMacro")

/// The property's model is read from this object's own keys, and written back into it:
///
/// ```swift
/// @JSONModel struct Customer {
///     let name: String
///     @Flatten let address: Address    // {"name": …, "street": …, "city": …}
/// }
/// ```
/// The property's type is a model (`@JSONModel`, or a `JSONModel` struct); a key both models
/// read fails the mapping when it is built (``JSONError/Code/invalidMapping``).
@attached(peer)
public macro Flatten() = #externalMacro(module: "MagmaMacros", type: "PropertyAttributeMacro")

/// The case of a tagged enum (`@JSONModel(tagging:)`) read for an unknown or missing tag; it is
/// written back with its own tag.
@attached(peer)
public macro Fallback() = #externalMacro(module: "MagmaMacros", type: "PropertyAttributeMacro")

extension Transformer where Input == JSONValue {
    /// An optional property's `@Transform`: a transformer of the wrapped type (null and absence
    /// give nil) or of the optional type. Written by `@Transform`'s expansion.
    /// - Parameter wrapped: The attribute's transformer.
    public static func optionalProperty<Wrapped>(_ wrapped: Transformer<JSONValue, Wrapped>) -> Self where Output == Wrapped? {
        .optional(wrapped)
    }

    /// An optional property's `@Transform` of the optional type, as it is.
    /// - Parameter transformer: The attribute's transformer.
    public static func optionalProperty(_ transformer: Self) -> Self { transformer }

    /// A transformer of neither type: chosen only when the others do not fit, so that the
    /// compiler's one error says what to do.
    @available(*, unavailable, message: "the transformer's values are neither the property's type nor its wrapped type: use a transformer to the property's type, or change the property's type")
    public static func optionalProperty<Other>(_ transformer: Transformer<JSONValue, Other>) -> Self { fatalError("unavailable") }
}
