// What @JSONModel checks on a property's declared type, from syntax alone: a type that can have no
// JSON form (a function, a tuple, `Any`, `Void`, a metatype) with no transformer, and a built-in
// transformer (`.date(format:)`, `.url`, `.array(.integer)`...) whose value type cannot be the
// property's. Without these, the compiler reports both inside the expanded draft. Whatever the
// macro cannot judge (a type of the user's, which may be a typealias; a custom transformer) is
// left to the compiler.
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

    /// The values a built-in transformer gives, as far as its expression tells.
    indirect enum Value {
        /// One of these types (`.integer` gives any fixed-width integer).
        case oneOf([String])
        case optional(Value)
        case array(Value)
        case dictionary(Value)

        var description: String {
            switch self {
            case .oneOf(let names): return names.count == 1 ? names[0] : "FixedWidthInteger"
            case .optional(let wrapped): return "\(wrapped.description)?"
            case .array(let element): return "[\(element.description)]"
            case .dictionary(let value): return "[String: \(value.description)]"
            }
        }
    }

    static let integers = ["Int", "Int8", "Int16", "Int32", "Int64", "Int128", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "UInt128"]

    /// The type names whose transformers are built in: a property declared as one of these is
    /// that type (a user's typealias to one would have another name).
    static let builtinNames: Set<String> = Set(integers + ["String", "Bool", "Double", "Float", "Decimal", "URL", "UUID",
                                                            "Data", "Date", "JSONValue"])

    /// The values of a built-in transformer factory (`.date(format: "yyyy")`,
    /// `Transformer.array(.url)`), or nil for any other expression.
    static func builtinValue(_ expression: ExprSyntax) -> Value? {
        var callee = expression
        var firstArgument: ExprSyntax? = nil
        if let call = expression.as(FunctionCallExprSyntax.self) {
            callee = call.calledExpression
            firstArgument = call.arguments.first?.expression
        }
        guard let member = callee.as(MemberAccessExprSyntax.self) else { return nil }
        if let base = member.base, !["Transformer", "Magma.Transformer"].contains(base.trimmedDescription) { return nil }
        switch member.declName.baseName.text {
        case "string": return .oneOf(["String"])
        case "bool": return .oneOf(["Bool"])
        case "integer": return .oneOf(integers)
        case "double": return .oneOf(["Double"])
        case "float": return .oneOf(["Float"])
        case "decimal": return .oneOf(["Decimal"])
        case "url": return .oneOf(["URL"])
        case "uuid": return .oneOf(["UUID"])
        case "base64": return .oneOf(["Data"])
        case "json": return .oneOf(["JSONValue"])
        case "iso8601", "date", "epochSeconds", "epochMilliseconds": return .oneOf(["Date"])
        case "optional": return firstArgument.flatMap(builtinValue).map(Value.optional)
        case "array": return firstArgument.flatMap(builtinValue).map(Value.array)
        case "dictionary": return firstArgument.flatMap(builtinValue).map(Value.dictionary)
        default: return nil
        }
    }

    /// Whether a transformer giving `value` fits a property of `type`: false only when it
    /// certainly cannot; nil when the type is not one the macro can judge.
    static func fits(_ value: Value, _ type: TypeSyntax) -> Bool? {
        if let attributed = type.as(AttributedTypeSyntax.self) { return fits(value, attributed.baseType) }
        if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return fits(value, only.type)
        }
        let wrapped = wrappedType(type), element = elementType(type), dictionaryValue = dictionaryValueType(type)
        let known = wrapped != nil || element != nil || dictionaryValue != nil || plainName(type).map(builtinNames.contains) == true
            || type.is(FunctionTypeSyntax.self) || type.is(TupleTypeSyntax.self) || type.is(MetatypeTypeSyntax.self)
        switch value {
        case .oneOf(let names):
            if let name = plainName(type), names.contains(name) { return true }
        case .optional(let inner):
            if let wrapped { return fits(inner, wrapped) }
        case .array(let inner):
            if let element { return fits(inner, element) }
        case .dictionary(let inner):
            if let dictionaryValue {
                if let key = dictionaryKeyType(type), let name = plainName(key), name != "String", builtinNames.contains(name) { return false }
                return fits(inner, dictionaryValue)
            }
        }
        return known ? false : nil
    }

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

    static func dictionaryKeyType(_ type: TypeSyntax) -> TypeSyntax? {
        if let dictionary = type.as(DictionaryTypeSyntax.self) { return dictionary.key }
        return genericArguments(type, named: "Dictionary", count: 2)?[0]
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
