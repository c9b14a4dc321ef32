// What @JSONModel checks on a property's declared type, from syntax alone: a type that can have no
// JSON form (a function, a tuple, `Any`, `Void`, a metatype) with no transformer, and `@Lossy` on
// a type that is certainly not a collection. Without these, the compiler reports them inside the
// expanded draft. Whatever the macro cannot judge (a type of the user's, which may be a
// typealias) is left to the compiler; so is a transformer's type (see `transformPeer`).
import SwiftSyntax

enum PropertyTypeCheck {
    /// Why `type` can have no JSON form ("'() -> Int' is a function type"), or nil. Looks
    /// through optionals, arrays and dictionary values: `[() -> Int]?` has none either.
    static func noJSONForm(_ type: TypeSyntax) -> String? {
        if let wrapped = wrappedType(type) ?? elementType(type) ?? dictionaryValueType(type) { return noJSONForm(wrapped) }
        if let attributed = type.as(AttributedTypeSyntax.self) { return noJSONForm(attributed.baseType) }
        let written = "'\(type.trimmedDescription)'"
        if type.is(FunctionTypeSyntax.self) { return "\(written) is a function type" }
        if type.is(MetatypeTypeSyntax.self) { return "\(written) is a metatype" }
        if let tuple = type.as(TupleTypeSyntax.self) {
            if tuple.elements.isEmpty { return "\(written) is Void" }
            if tuple.elements.count == 1, let only = tuple.elements.first, only.firstName == nil { return noJSONForm(only.type) }
            return "\(written) is a tuple"
        }
        switch plainName(type) {
        case "Any": return "\(written) may hold any value"
        case "AnyObject": return "\(written) may hold any class instance"
        case "Void": return "\(written) holds no value"
        default: return nil
        }
    }

    /// Why `type` is certainly not an array or a dictionary (`'a String'`), or nil: a built-in
    /// scalar, a function, a tuple or a metatype, or an optional of one. A type of the user's may
    /// be a typealias of a collection: left to the mapping's own check.
    static func notACollection(_ type: TypeSyntax) -> String? {
        if let wrapped = wrappedType(type) { return notACollection(wrapped) }
        if elementType(type) != nil || dictionaryValueType(type) != nil { return nil }
        let known = plainName(type).map(builtinNames.contains) == true || type.is(FunctionTypeSyntax.self)
            || type.is(TupleTypeSyntax.self) || type.is(MetatypeTypeSyntax.self)
        return known ? "declared '\(type.trimmedDescription)'" : nil
    }

    /// Scalar types Magma reads as they are: a property declared as one of these is no collection
    /// (a user's typealias to one would have another name).
    static let builtinNames: Set<String> = ["Int", "Int8", "Int16", "Int32", "Int64", "Int128", "UInt", "UInt8", "UInt16", "UInt32",
                                            "UInt64", "UInt128", "String", "Bool", "Double", "Float", "Decimal", "URL", "UUID",
                                            "Data", "Date", "JSONValue"]

    /// `T` for `T?`, `T!` and `Optional<T>`.
    static func wrappedType(_ type: TypeSyntax) -> TypeSyntax? {
        if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType }
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return unwrapped.wrappedType }
        return genericArguments(type, named: "Optional", count: 1)?[0]
    }

    /// `T` for `[T]` and `Array<T>`.
    static func elementType(_ type: TypeSyntax) -> TypeSyntax? {
        if let array = type.as(ArrayTypeSyntax.self) { return array.element }
        return genericArguments(type, named: "Array", count: 1)?[0]
    }

    /// `V` for `[K: V]` and `Dictionary<K, V>`.
    static func dictionaryValueType(_ type: TypeSyntax) -> TypeSyntax? {
        if let dictionary = type.as(DictionaryTypeSyntax.self) { return dictionary.value }
        return genericArguments(type, named: "Dictionary", count: 2)?[1]
    }

    /// `Int` for `Int`, `Swift.Int` and `Foundation.Date`'s `Date`: a name with no generic
    /// arguments, qualified by nothing or a standard module.
    static func plainName(_ type: TypeSyntax) -> String? {
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil {
            return identifier.name.text
        }
        if let member = type.as(MemberTypeSyntax.self), member.genericArgumentClause == nil,
           ["Swift", "Foundation", "Magma"].contains(member.baseType.trimmedDescription) {
            return member.name.text
        }
        return nil
    }

    private static func genericArguments(_ type: TypeSyntax, named name: String, count: Int) -> [TypeSyntax]? {
        let clause: GenericArgumentClauseSyntax?
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == name {
            clause = identifier.genericArgumentClause
        } else if let member = type.as(MemberTypeSyntax.self), member.name.text == name, member.baseType.trimmedDescription == "Swift" {
            clause = member.genericArgumentClause
        } else {
            return nil
        }
        let types = clause?.arguments.compactMap { argument -> TypeSyntax? in
            if case .type(let type) = argument.argument { return type }
            return nil
        } ?? []
        return types.count == count ? types : nil
    }
}
