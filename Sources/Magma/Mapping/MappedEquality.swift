/// Equality, hashing and description derived from a model's mapped properties, as Mantle's
/// `MTLModel` derived `-isEqual:`, `-hash` and `-description` from its property keys: for
/// class models, which have no synthesised `==`.
///
/// Two models are equal when they are of the same dynamic type and encode to the same JSON
/// (through their own mappings, so unmapped properties do not count); the hash is that JSON's;
/// the description is the type's name and the JSON.
///
/// ```swift
/// final class User: JSONModel, MappedEquality { … }
/// ```
public protocol MappedEquality: JSONModel, Hashable, CustomStringConvertible {}

extension MappedEquality {
    /// The model's mapped properties as JSON; `.null` if a property cannot be encoded.
    public var mappedJSON: JSONValue { (try? ModelCodec<Self>().encode(self)) ?? .null }

    public static func == (a: Self, b: Self) -> Bool {
        ObjectIdentifier(type(of: a)) == ObjectIdentifier(type(of: b)) && a.mappedJSON == b.mappedJSON
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type(of: self)))
        hasher.combine(mappedJSON)
    }

    public var description: String {
        var options = EncodingOptions()
        options.sortedKeys = true
        let json = (try? JSONAdapter.json(from: self, options: options)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        return "\(type(of: self)) \(json)"
    }
}
