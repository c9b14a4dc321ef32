/// A type with an implicit transformer: `Map(\.x, "x")` needs no transformer argument for it.
///
/// String, Bool, every integer and floating-point type, Decimal, URL, UUID, Data (Base64), Date
/// (ISO 8601), JSONValue, optionals, arrays and `[String: T]` dictionaries of these, and every
/// ``JSONModel`` conform. RawRepresentable enums need no conformance: `Map` takes them directly.
public protocol JSONRepresentable {
    /// The type ``jsonTransformer`` produces: `Self`, but for a subclass of a class model (its
    /// base class; map a property of the subclass's type with `.model(Sub.self)`).
    associatedtype JSONForm = Self
    /// The transformer used when a mapping names none.
    static var jsonTransformer: Transformer<JSONValue, JSONForm> { get }
}
