/// How Magma reads JSON. Every field has a documented default; `DecodingOptions()` is what most
/// callers want.
public struct DecodingOptions: Sendable {
    /// What to do when one object holds the same key twice.
    public enum DuplicateKeyPolicy: Sendable {
        /// The last occurrence wins, as in JSONSerialization (the default). (Foundation's
        /// JSONDecoder keeps the first.)
        case useLast
        /// A key repeated in one object is a ``JSONError/Code/duplicateKey`` error, whether the
        /// model maps it or not (a model's object, a dictionary's, a `JSONValue`'s; the inside of
        /// an unmapped value is skipped unread, and not checked).
        ///
        /// Under either policy, two keys that differ in bytes but that `String` compares equal
        /// (canonically equivalent: `"\u00e9"` and `"e\u0301"`) in a `[String: V]` or a
        /// `JSONValue` object are a ``JSONError/Code/duplicateKey`` error, not merged.
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

    /// What to do with a `\u` escape of a UTF-16 surrogate that is not part of a pair (a lone
    /// `\uD800`, `\uDC00`, or `\uD800` followed by anything but a `\u` low surrogate).
    public enum InvalidSurrogatePolicy: Sendable {
        /// An ``JSONError/Code/invalidUnicode`` error at the escape (the default).
        case reject
        /// Each such escape becomes U+FFFD, the replacement character.
        case replace
    }

    /// The deepest nesting of arrays and objects accepted; deeper input fails with
    /// ``JSONError/Code/depthLimitExceeded``. Default 512.
    public var maxDepth: Int = 512
    /// The longest string, key or number accepted, in bytes as written in the input (a string's
    /// quotes not counted); longer ones fail with ``JSONError/Code/sizeLimitExceeded`` at the
    /// token's first byte. A stream fed in chunks fails as soon as the token under way passes
    /// the limit, holding O(limit) bytes. Default 16 MiB.
    public var maxTokenLength: Int = 16 << 20
    /// Bad surrogate escapes in strings and keys. Default ``InvalidSurrogatePolicy/reject``.
    public var invalidSurrogateEscapes: InvalidSurrogatePolicy = .reject
    /// Accept `//` and `/* */` comments. Default `false`. With comments, whitespace is read as
    /// JSON5 reads it: form feed and vertical tab count as whitespace too.
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
    /// How many skipped records' errors a stream with the `.skip` policy keeps: the first ones,
    /// in input order. Every skip is still counted, by error code (`SkippedRecords`), so a stream
    /// with millions of bad records holds no more than this many errors. Default 100.
    public var keptSkippedErrors: Int = 100
    /// Which reader reads the bytes.
    public enum Reader: Sendable {
        /// Magma's scanner for whatever is whole in memory (a document, an NDJSON line, a record
        /// cut from a stream), yajl for a document fed in pieces and for JSON with comments (the
        /// default).
        case automatic
        /// yajl for every byte of every value: the C parser the project is built on, as the
        /// reference. The same models, errors and offsets as `.automatic`, at yajl's speed.
        case yajl
    }

    /// Which reader reads the bytes. Default ``Reader/automatic``.
    public var reader: Reader = .automatic
    /// The longest record of a stream (an NDJSON line, an element of a records array, a
    /// concatenated value, or the envelope around a records array), in bytes: a record is held
    /// whole until it ends, then read; a longer one fails with
    /// ``JSONError/Code/sizeLimitExceeded`` at its first byte (or, with the skip policy, is read
    /// past and skipped), holding O(limit) bytes, unless its first `maxRecordLength` bytes hold an
    /// error of their own, which is reported instead. An NDJSON line's leading blanks do not
    /// count. Default 256 MiB.
    public var maxRecordLength: Int = 256 << 20

    /// Whether yajl reads whole values too.
    var readsWithYajl: Bool { allowComments || reader == .yajl }
    /// Whether an unmapped value is passed over by the scanner unread (its validity checked), not
    /// read and dropped. Internal: the two give the same models and errors; tests compare them.
    var skipsUnmappedInPlace = true

    /// Creates the default options.
    public init() {}
}
