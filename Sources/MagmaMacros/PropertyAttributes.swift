// The attributes @JSONModel reads on a stored property (or an enum case), each argument checked
// where it is written; and the key naming it can apply itself.
import SwiftDiagnostics
import SwiftSyntax

/// The attributes on one stored property, or one enum case.
struct PropertyAttributes {
    var keyLiterals: [String] = []
    var keys: [String] = []
    var keyAttribute: AttributeSyntax? = nil
    /// `@Key(…, encode: "k")`: the key written back, and the argument (for its diagnostics).
    var encodeKey: String? = nil
    var encodeKeyLiteral: String? = nil
    var encodeArgument: LabeledExprSyntax? = nil
    var transform: ExprSyntax? = nil
    var transformAttribute: AttributeSyntax? = nil
    var merge: ExprSyntax? = nil
    var mergeAttribute: AttributeSyntax? = nil
    /// `@Default(value)` and `@Default(value, onInvalid: true)`.
    var defaultValue: ExprSyntax? = nil
    var defaultsOnInvalid = false
    var defaultAttribute: AttributeSyntax? = nil
    var lossyAttribute: AttributeSyntax? = nil
    var flattenAttribute: AttributeSyntax? = nil
    var fallbackAttribute: AttributeSyntax? = nil
    var ignoreAttribute: AttributeSyntax? = nil
    var requiredAttribute: AttributeSyntax? = nil
    var problems: [Diagnostic] = []

    var ignore: Bool { ignoreAttribute != nil }
    var required: Bool { requiredAttribute != nil }
    var lossy: Bool { lossyAttribute != nil }
    var flatten: Bool { flattenAttribute != nil }

    init(_ list: AttributeListSyntax) {
        for element in list {
            guard case .attribute(let attribute) = element else { continue }
            let arguments = attribute.arguments?.as(LabeledExprListSyntax.self) ?? []
            switch PropertyAttributes.name(of: attribute) {
            case "Key":
                keyAttribute = attribute
                readKey(attribute, arguments)
            case "Transform":
                transformAttribute = attribute
                transform = arguments.first?.expression
            case "Merge":
                mergeAttribute = attribute
                merge = arguments.first?.expression
                if merge == nil { problems.append(Diagnostic(node: Syntax(attribute), message: ModelMessage.mergeWithoutHook)) }
            case "Default":
                defaultAttribute = attribute
                readDefault(attribute, arguments)
            case "Lossy": lossyAttribute = attribute
            case "Flatten": flattenAttribute = attribute
            case "Fallback": fallbackAttribute = attribute
            case "Ignore": ignoreAttribute = attribute
            case "Required": requiredAttribute = attribute
            default: continue
            }
        }
    }

    /// Key paths (unlabelled) and the key written back (`encode:`), each a non-empty literal.
    private mutating func readKey(_ attribute: AttributeSyntax, _ arguments: LabeledExprListSyntax) {
        if arguments.isEmpty { problems.append(Diagnostic(node: Syntax(attribute), message: ModelMessage.keyWithoutPath)) }
        for argument in arguments {
            guard let literal = argument.expression.as(StringLiteralExprSyntax.self), let value = literal.representedLiteralValue else {
                problems.append(Diagnostic(node: Syntax(argument), message: ModelMessage.keyNotALiteral))
                continue
            }
            if value.isEmpty { problems.append(Diagnostic(node: Syntax(argument), message: ModelMessage.emptyKey)) }
            if argument.label?.text == "encode" {
                encodeArgument = argument
                encodeKey = value
                encodeKeyLiteral = literal.trimmedDescription
            } else {
                keyLiterals.append(literal.trimmedDescription)
                keys.append(value)
            }
        }
    }

    /// The value, and `onInvalid:`, which must be a literal (the macro writes code by it).
    private mutating func readDefault(_ attribute: AttributeSyntax, _ arguments: LabeledExprListSyntax) {
        defaultValue = arguments.first { $0.label == nil }?.expression
        if defaultValue == nil { problems.append(Diagnostic(node: Syntax(attribute), message: ModelMessage.defaultWithoutValue)) }
        guard let onInvalid = arguments.first(where: { $0.label?.text == "onInvalid" }) else { return }
        guard let literal = onInvalid.expression.as(BooleanLiteralExprSyntax.self) else {
            problems.append(Diagnostic(node: Syntax(onInvalid), message: ModelMessage.onInvalidNotALiteral))
            return
        }
        defaultsOnInvalid = literal.literal.tokenKind == .keyword(.true)
    }

    /// The first attribute of `names` present, for a diagnostic that asks to remove it.
    func first(of names: [String]) -> AttributeSyntax? {
        let present: [(String, AttributeSyntax?)] = [
            ("Key", keyAttribute), ("Transform", transformAttribute), ("Merge", mergeAttribute), ("Default", defaultAttribute),
            ("Lossy", lossyAttribute), ("Flatten", flattenAttribute), ("Required", requiredAttribute), ("Ignore", ignoreAttribute),
        ]
        return present.first { names.contains($0.0) && $0.1 != nil }?.1
    }

    /// `Key` for `@Key` and `@Magma.Key`.
    static func name(of attribute: AttributeSyntax) -> String {
        let written = attribute.attributeName.trimmedDescription
        return written.hasPrefix("Magma.") ? String(written.dropFirst(6)) : written
    }

    static let names: Set<String> = ["Key", "Transform", "Merge", "Ignore", "Required", "Default", "Lossy", "Flatten"]

    /// A diagnostic at `attribute` whose fix-it removes it from its declaration (`declaration`,
    /// for an attribute a peer macro is given apart from it).
    static func remove(_ attribute: AttributeSyntax, _ message: ModelMessage, from declaration: (any WithAttributesSyntax)? = nil) -> Diagnostic {
        guard let declaration = declaration ?? attribute.parent?.parent?.asProtocol(WithAttributesSyntax.self) else {
            return Diagnostic(node: Syntax(attribute), message: message)
        }
        let fixIt = FixIt(message: ModelFixIt.removeAttribute(name(of: attribute)),
                          changes: [.replace(oldNode: Syntax(declaration), newNode: without(attribute, declaration))])
        return Diagnostic(node: Syntax(attribute), message: message, fixIt: fixIt)
    }

    /// The declaration without `attribute`, in its place (the attribute's leading trivia, when it
    /// was the first, stays).
    private static func without<D: WithAttributesSyntax>(_ attribute: AttributeSyntax, _ declaration: D) -> Syntax {
        let kept = declaration.attributes.filter { $0.as(AttributeSyntax.self)?.id != attribute.id }
        return Syntax(declaration.with(\.attributes, kept).with(\.leadingTrivia, declaration.leadingTrivia))
    }

    /// The fix-it that deletes an argument (`encode: "k"`) from its attribute.
    static func removal(_ argument: LabeledExprSyntax, _ message: ModelFixIt = .removeArgument) -> [FixIt] {
        guard let list = argument.parent?.as(LabeledExprListSyntax.self) else { return [] }
        var kept = Array(list.filter { $0.id != argument.id })
        if let last = kept.indices.last { kept[last] = kept[last].with(\.trailingComma, nil) }
        return [FixIt(message: message, changes: [.replace(oldNode: Syntax(list), newNode: Syntax(LabeledExprListSyntax(kept)))])]
    }

    /// A getter, or accessors other than observers: no storage to decode into.
    static func isComputed(_ block: AccessorBlockSyntax) -> Bool {
        switch block.accessors {
        case .getter: return true
        case .accessors(let list):
            return list.contains { ![.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) }
        }
    }

    /// `@Transform`'s peer: the transformer as a private static member of the model beside the
    /// property, typed for the property's type (`Transformer<JSONValue, Date>`; an optional
    /// property's takes one of its wrapped type too).
    /// A transformer of another type is then the compiler's error at the attribute, naming both
    /// types, whatever the transformer; and the draft reads it typed, with no error of its own.
    /// Nil without a declared type (the draft's line is then the only check).
    static func transformPeer(of variable: VariableDeclSyntax, _ attributes: PropertyAttributes) -> DeclSyntax? {
        guard let transform = attributes.transform, variable.bindings.count == 1, let binding = variable.bindings.first,
              let type = binding.typeAnnotation?.type, let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier
        else { return nil }
        let input = attributes.keys.count > 1 ? "[Swift.String: Magma.JSONValue]" : "Magma.JSONValue"
        let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self).map { "\($0.wrappedType.trimmedDescription)?" }
        let output = unwrapped ?? type.trimmedDescription
        let value = input == "Magma.JSONValue" && isOptional(type) ? ".optionalProperty(\(transform.trimmedDescription))" : transform.trimmedDescription
        return "private static var \(raw: transformPeerName(name.text)): Magma.Transformer<\(raw: input), \(raw: output)> { \(raw: value) }"
    }

    /// The peer's name (backquotes dropped: `_transform_default`).
    static func transformPeerName(_ property: String) -> String {
        "_transform_" + property.filter { $0 != "`" }
    }

    static func isOptional(_ type: TypeSyntax) -> Bool {
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text == "Optional" }
        if let member = type.as(MemberTypeSyntax.self) {
            return member.name.text == "Optional" && member.baseType.trimmedDescription == "Swift"
        }
        return false
    }
}

/// The key naming given to @JSONModel, when the macro can apply it itself (for duplicate checks);
/// a custom naming is applied at run time only.
enum KeyNamingRule {
    case propertyName, separated(Character), custom

    init(_ attribute: AttributeSyntax) {
        let argument = attribute.arguments?.as(LabeledExprListSyntax.self)?.first { $0.label?.text == "keyNaming" }
        switch argument?.expression.trimmedDescription {
        case nil, ".propertyName", "KeyNaming.propertyName", "Magma.KeyNaming.propertyName": self = .propertyName
        case ".snakeCase", "KeyNaming.snakeCase", "Magma.KeyNaming.snakeCase": self = .separated("_")
        case ".kebabCase", "KeyNaming.kebabCase", "Magma.KeyNaming.kebabCase": self = .separated("-")
        default: self = .custom
        }
    }

    /// The key `KeyNaming` gives at run time (SeparatedWords.swift is the same file in both modules).
    func key(for name: String) -> String? {
        switch self {
        case .propertyName: return name
        case .custom: return nil
        case .separated(let separator): return separatedWords(name, by: separator)
        }
    }
}
