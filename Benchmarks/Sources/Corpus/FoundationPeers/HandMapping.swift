import Foundation

// The "JSONSerialization + hand mapping" peer: Mantle's architecture in Swift. The whole
// document becomes Foundation objects first (`JSONSerialization.jsonObject`), then code like
// the following maps dictionaries into the same model structs the other systems fill, with
// dates through a `DateFormatter` of the same pattern.

/// A value in the dictionary tree was absent or of another type than the model needs.
public struct HandMappingError: Error, CustomStringConvertible {
    public var key: String
    public var problem: String

    public var description: String { "\(key): \(problem)" }
}

/// What the hand-mapping code reads from: one JSON object as JSONSerialization returns it.
public typealias JSONDictionary = [String: Any]

/// Reusable state of one hand-mapping run (the formatters are not thread-safe: one per peer).
public struct HandMappingContext {
    public var dateFormatter: DateFormatter

    public init(datePattern: String) {
        dateFormatter = Dates.formatter(datePattern)
    }
}

extension Dictionary where Key == String, Value == Any {
    /// The value for `key` as `T`, or nil when the key is absent or `null`.
    @inline(__always)
    func optional<T>(_ key: String, as type: T.Type = T.self) throws -> T? {
        guard let value = self[key], !(value is NSNull) else { return nil }
        guard let typed = value as? T else {
            throw HandMappingError(key: key, problem: "expected \(T.self), found \(Swift.type(of: value))")
        }
        return typed
    }

    /// The value for `key` as `T`; absent or `null` is an error.
    @inline(__always)
    func required<T>(_ key: String, as type: T.Type = T.self) throws -> T {
        guard let value: T = try optional(key) else {
            throw HandMappingError(key: key, problem: "missing")
        }
        return value
    }

    func url(_ key: String) throws -> URL? {
        guard let string: String = try optional(key) else { return nil }
        guard let url = URL(string: string) else { throw HandMappingError(key: key, problem: "not a URL") }
        return url
    }

    func date(_ key: String, _ context: HandMappingContext) throws -> Date? {
        guard let string: String = try optional(key) else { return nil }
        guard let date = context.dateFormatter.date(from: string) else {
            throw HandMappingError(key: key, problem: "not a date: \(string)")
        }
        return date
    }

    func requiredDate(_ key: String, _ context: HandMappingContext) throws -> Date {
        guard let date = try date(key, context) else { throw HandMappingError(key: key, problem: "missing") }
        return date
    }

    func enumeration<E: RawRepresentable>(_ key: String, as type: E.Type = E.self) throws -> E? where E.RawValue == String {
        guard let raw: String = try optional(key) else { return nil }
        guard let value = E(rawValue: raw) else { throw HandMappingError(key: key, problem: "unknown value \(raw)") }
        return value
    }

    /// The array of objects at `key`, each mapped by `transform`; nil when absent or `null`.
    func objects<T>(_ key: String, _ transform: (JSONDictionary) throws -> T) throws -> [T]? {
        guard let array: [Any] = try optional(key) else { return nil }
        var result: [T] = []
        result.reserveCapacity(array.count)
        for element in array {
            guard let object = element as? JSONDictionary else {
                throw HandMappingError(key: key, problem: "element is \(Swift.type(of: element)), not an object")
            }
            result.append(try transform(object))
        }
        return result
    }

    /// The object at `key` mapped by `transform`; nil when absent or `null`.
    func object<T>(_ key: String, _ transform: (JSONDictionary) throws -> T) throws -> T? {
        guard let object: JSONDictionary = try optional(key) else { return nil }
        return try transform(object)
    }

    func requiredObject<T>(_ key: String, _ transform: (JSONDictionary) throws -> T) throws -> T {
        guard let value = try object(key, transform) else { throw HandMappingError(key: key, problem: "missing") }
        return value
    }
}

/// Parses `data` with JSONSerialization and checks the top-level kind.
@inline(__always)
func foundationObject<T>(_ data: Data, as type: T.Type) throws -> T {
    let object = try JSONSerialization.jsonObject(with: data)
    guard let typed = object as? T else {
        throw HandMappingError(key: "$", problem: "top level is \(Swift.type(of: object)), not \(T.self)")
    }
    return typed
}
