/// Equality, hashing and description derived from a model's mapped properties, as Mantle's
/// `MTLModel` derived `-isEqual:`, `-hash` and `-description` from its property keys: for
/// class models, which have no synthesised `==`.
///
/// Two models are equal when they are of the same dynamic type and their mapped properties
/// (those written back to JSON, through their own type's mapping: unmapped and one-way
/// properties do not count) are equal, compared directly with their own `==`; the hash
/// combines the same properties' hashes. Only where a mapped property's type is not
/// `Equatable` are the models compared by the JSON they encode to. The description is the
/// type's name and the JSON.
///
/// ```swift
/// final class User: JSONModel, MappedEquality { … }
/// @JSONModel final class Account: MappedEquality { … }   // compares the mapped values of its draft
/// ```
public protocol MappedEquality: JSONObjectModel, Hashable, CustomStringConvertible {}

extension MappedEquality {
    public var description: String {
        var options = EncodingOptions()
        options.sortedKeys = true
        var w = JSONWriter(options: options)
        do { try objectModelCodec(Self.self).write(self, into: &w) } catch { return "\(type(of: self)) ?" }
        return "\(type(of: self)) \(w.withUnsafeBytes { String(decoding: $0, as: UTF8.self) })"
    }
}

extension MappedEquality where Self: JSONModel {
    /// The model's mapped properties as JSON; `.null` if a property cannot be encoded.
    public var mappedJSON: JSONValue { mappedValuesJSON }
    public static func == (a: Self, b: Self) -> Bool { mappedValuesEqual(a, b) }
    public func hash(into hasher: inout Hasher) { hashMappedValues(into: &hasher) }
}

extension MappedEquality where Self: JSONDraftedModel {
    /// The model's mapped properties as JSON; `.null` if a property cannot be encoded.
    public var mappedJSON: JSONValue { jsonDraft.mappedValuesJSON }
    public static func == (a: Self, b: Self) -> Bool { Draft.mappedValuesEqual(a.jsonDraft, b.jsonDraft) }
    public func hash(into hasher: inout Hasher) { jsonDraft.hashMappedValues(into: &hasher) }
}

extension JSONModel {
    /// The mapped properties as JSON; `.null` if a property cannot be encoded.
    var mappedValuesJSON: JSONValue { (try? ModelCodec<Self>().encode(self)) ?? .null }

    /// Whether two models are of the same dynamic type with equal mapped properties.
    static func mappedValuesEqual(_ a: Self, _ b: Self) -> Bool {
        guard ObjectIdentifier(type(of: a)) == ObjectIdentifier(type(of: b)) else { return false }
        guard let properties = type(of: a).cachedMapping.comparedProperties else { return a.mappedValuesJSON == b.mappedValuesJSON }
        for property in properties where !property.equal(a[keyPath: property.keyPath] as Any, b[keyPath: property.keyPath] as Any) {
            return false
        }
        return true
    }

    /// Hashes the dynamic type and the mapped properties.
    func hashMappedValues(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type(of: self)))
        guard let properties = type(of: self).cachedMapping.comparedProperties else { return hasher.combine(mappedValuesJSON) }
        for property in properties { property.hash(self[keyPath: property.keyPath] as Any, &hasher) }
    }
}

/// One mapped property as `MappedEquality` compares it: read through its key path and compared
/// with its type's own `==` (and hashed with its `hash(into:)` where it is `Hashable`).
struct ComparedProperty: @unchecked Sendable {
    let keyPath: AnyKeyPath
    let equal: (Any, Any) -> Bool
    let hash: (Any, inout Hasher) -> Void

    /// The properties of `maps` that are encoded, or nil if one of them is not `Equatable`
    /// (then only the JSON can compare them).
    static func of<Model>(_ maps: [Map<Model>]) -> [ComparedProperty]? {
        var properties: [ComparedProperty] = []
        for map in maps where map.writer != nil {
            guard let property = ComparedProperty(map.property) else { return nil }
            properties.append(property)
        }
        return properties
    }

    init?(_ keyPath: AnyKeyPath) {
        let valueType = type(of: keyPath).valueType
        if let hashable = valueType as? any Hashable.Type {
            (equal, hash) = ComparedProperty.hashable(hashable)
        } else if let equatable = valueType as? any Equatable.Type {
            (equal, hash) = (ComparedProperty.equatable(equatable), { _, _ in })
        } else {
            return nil
        }
        self.keyPath = keyPath
    }

    private static func equatable<V: Equatable>(_: V.Type) -> (Any, Any) -> Bool {
        { ($0 as? V) == ($1 as? V) }
    }

    private static func hashable<V: Hashable>(_: V.Type) -> ((Any, Any) -> Bool, (Any, inout Hasher) -> Void) {
        ({ ($0 as? V) == ($1 as? V) }, { value, hasher in hasher.combine(value as? V) })
    }
}
