/// How Magma writes JSON. `EncodingOptions()` writes compact JSON in mapping order, leaving out
/// nil properties.
public struct EncodingOptions: Sendable {
    /// What a nil optional property becomes.
    public enum NilPolicy: Sendable {
        /// Its key is left out (the default, as JSONEncoder does).
        case omit
        /// Its key is written with `null`.
        case writeNull
    }

    /// Nil optional properties. Default ``NilPolicy/omit``.
    public var nilProperties: NilPolicy = .omit
    /// Write object keys in byte order instead of mapping order. Default `false`.
    public var sortedKeys: Bool = false
    /// Indent with two spaces, one member per line. Default `false`.
    public var prettyPrinted: Bool = false
    /// Write `/` as `\/`. Default `false`.
    public var escapeSlashes: Bool = false
    /// Write every non-ASCII character as `\uXXXX` (surrogate pairs above U+FFFF), so the output
    /// is pure ASCII. Default `false`.
    public var asciiOnly: Bool = false

    /// Creates the default options.
    public init() {}
}
