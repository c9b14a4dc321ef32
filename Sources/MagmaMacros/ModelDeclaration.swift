// What @JSONModel reads from a declaration: its kind, access, and mapped stored properties with
// their attributes, and every problem found on the way (reported as diagnostics at the attribute
// or property at fault). Reading is separate from writing code (JSONModelMacro) so that the two
// expansions (members, extension) read the same thing and only one reports problems.
import SwiftDiagnostics
import SwiftSyntax

/// One stored property @JSONModel maps.
struct MappedProperty {
    /// The name as written: `` `default` `` keeps its backquotes (it is a keyword).
    let name: String
    /// The name without backquotes, for names made from it and for messages.
    var bareName: String { name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : name }
    /// The name as an argument label: bare, as a keyword needs no backquotes there (the compiler
    /// warns about them), except `inout`, `var` and `let`.
    var label: String { ["inout", "var", "let"].contains(bareName) ? name : bareName }
    /// The type as written; nil when inferred from the initial value.
    let type: TypeSyntax?
    let initializer: ExprSyntax?
    let isOptional: Bool
    /// `@Key` key paths as written (string literal source) and as values (for duplicate checks).
    let keyLiterals: [String]
    let keys: [String]
    let transform: ExprSyntax?
    /// `@Merge`'s hook.
    let merge: ExprSyntax?
    /// `@Required` on an optional or defaulted property.
    let explicitlyRequired: Bool
    let node: Syntax

    /// Non-optional with no default: held as `T?` in the draft, required, null an error.
    var isRequiredNonOptional: Bool { !isOptional && initializer == nil }
    /// Non-optional with its type written: held as `T?` in the draft (nil until decoded), so the
    /// model's init moves the value out (`take()`) instead of copying it; null is still an error.
    var isHeldOptional: Bool { !isOptional && type != nil }
}

struct ModelDeclaration {
    let typeName: String
    /// "public ", "package " or "" (internal and narrower: members then default to the type's).
    let access: String
    let isClass: Bool
    let keyNaming: KeyNamingRule
    var properties: [MappedProperty] = []
    /// `@Ignore`'d `var` properties: an update or merge keeps their values.
    var keptProperties: [String] = []
    var diagnostics: [Diagnostic] = []
    /// Whether code can be written at all (the declaration is a struct or a final class).
    var isUsable = true
    /// Whether `init(jsonDraft:)` can delegate to the memberwise initializer: a struct that
    /// declares no init, no `#if` block, no private stored property and no attribute but ours
    /// on one.
    var hasMemberwiseInit = false
    /// Whether the declaration names `SelectiveEncoding`: the macro then maps the draft's key
    /// paths to the model's, which the model's filter is asked with.
    var isSelective = false
    /// A generic struct: its draft is generic too, so its mapping is computed (Swift has no
    /// stored statics in generic types; Magma caches the mapping per type).
    var isGeneric = false

    init(_ declaration: some DeclGroupSyntax, attribute: AttributeSyntax) {
        let name: String
        if let s = declaration.as(StructDeclSyntax.self) {
            name = s.name.text
            isClass = false
            isGeneric = s.genericParameterClause != nil
        } else if let c = declaration.as(ClassDeclSyntax.self) {
            name = c.name.text
            isClass = true
            if !c.modifiers.contains(where: { $0.name.tokenKind == .keyword(.final) }) {
                let finalClass = c.modifiers.isEmpty
                    ? c.with(\.modifiers, [DeclModifierSyntax(leadingTrivia: c.classKeyword.leadingTrivia, name: .keyword(.final), trailingTrivia: .space)])
                        .with(\.classKeyword, c.classKeyword.with(\.leadingTrivia, []))
                    : c.with(\.modifiers, c.modifiers + [DeclModifierSyntax(name: .keyword(.final), trailingTrivia: .space)])
                diagnostics.append(Diagnostic(
                    node: Syntax(c.classKeyword), message: ModelMessage.nonFinalClass,
                    fixIt: FixIt(message: ModelFixIt.addFinal, changes: [.replace(oldNode: Syntax(c), newNode: Syntax(finalClass))])))
                isUsable = false
            }
            if c.genericParameterClause != nil {
                diagnostics.append(Diagnostic(node: Syntax(attribute), message: ModelMessage.generic))
                isUsable = false
            }
        } else {
            name = ""
            isClass = false
            let kind = declaration.is(EnumDeclSyntax.self) ? "an enum" : declaration.is(ActorDeclSyntax.self) ? "an actor" : "this declaration"
            diagnostics.append(Diagnostic(node: Syntax(attribute), message: ModelMessage.notAModel(kind)))
            isUsable = false
        }
        typeName = name
        let modifiers = declaration.modifiers
        if modifiers.contains(where: { $0.name.tokenKind == .keyword(.public) || $0.name.tokenKind == .keyword(.open) }) {
            access = "public "
        } else if modifiers.contains(where: { $0.name.tokenKind == .keyword(.package) }) {
            access = "package "
        } else {
            access = ""
        }
        keyNaming = KeyNamingRule(attribute)
        isSelective = declaration.inheritanceClause?.inheritedTypes.contains {
            ["SelectiveEncoding", "Magma.SelectiveEncoding"].contains($0.type.trimmedDescription)
        } ?? false
        guard isUsable else { return }
        hasMemberwiseInit = !isClass
        for member in declaration.memberBlock.members {
            // An init, or an `#if` block that may hold one (or stored properties it does not read).
            if member.decl.is(InitializerDeclSyntax.self) || member.decl.is(IfConfigDeclSyntax.self) { hasMemberwiseInit = false }
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            if !ModelDeclaration.keepsMemberwiseInit(variable) { hasMemberwiseInit = false }
            read(variable)
        }
        checkDuplicateKeys()
    }

    /// Whether a member leaves the memberwise initializer as `init(jsonDraft:)` calls it: one
    /// parameter per stored property, internal.
    private static func keepsMemberwiseInit(_ variable: VariableDeclSyntax) -> Bool {
        if variable.modifiers.contains(where: { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) }) { return true }
        if variable.modifiers.contains(where: { [.keyword(.private), .keyword(.fileprivate)].contains($0.name.tokenKind) }) { return false }
        return variable.attributes.allSatisfy { element in
            guard case .attribute(let attribute) = element else { return false }
            return PropertyAttributes.names.contains(PropertyAttributes.name(of: attribute))
        }
    }

    private mutating func read(_ variable: VariableDeclSyntax) {
        if variable.modifiers.contains(where: {
            [.keyword(.static), .keyword(.class), .keyword(.lazy)].contains($0.name.tokenKind)
        }) { return }
        let attributes = PropertyAttributes(variable.attributes)
        diagnostics += attributes.problems
        let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        // `let a, b: Int` shares the type written after the last of them.
        let bindings = Array(variable.bindings)
        var types = [TypeSyntax?](repeating: nil, count: bindings.count)
        var shared: TypeSyntax? = nil
        for (i, binding) in bindings.enumerated().reversed() {
            if let annotation = binding.typeAnnotation { shared = annotation.type } else if binding.initializer != nil { shared = nil }
            types[i] = binding.typeAnnotation?.type ?? (binding.initializer == nil ? shared : nil)
        }
        for (binding, type) in zip(bindings, types) {
            guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
            if binding.accessorBlock.map(PropertyAttributes.isComputed) == true { continue }
            let name = identifier.identifier.text
            let isOptional = type.map(PropertyAttributes.isOptional) ?? false
            if attributes.ignore {
                if let merge = attributes.mergeAttribute {
                    diagnostics.append(Diagnostic(node: merge, message: ModelMessage.mergeOnIgnored(name)))
                }
                if binding.initializer == nil && !(isOptional && !isLet) {
                    diagnostics.append(Diagnostic(node: Syntax(binding), message: ModelMessage.ignoredWithoutDefault(name)))
                }
                if !isLet { keptProperties.append(name) }
                continue
            }
            if isLet, binding.initializer != nil {
                let asVar = variable.with(\.bindingSpecifier, .keyword(.var, trailingTrivia: .space))
                diagnostics.append(Diagnostic(
                    node: Syntax(binding), message: ModelMessage.letWithValue(name),
                    fixIt: FixIt(message: ModelFixIt.makeVar, changes: [.replace(oldNode: Syntax(variable), newNode: Syntax(asVar))])))
                continue
            }
            if attributes.keys.count > 1 && attributes.transform == nil {
                diagnostics.append(Diagnostic(node: attributes.keyAttribute ?? Syntax(binding), message: ModelMessage.severalKeysNeedTransform(name)))
                continue
            }
            if let type, let problem = typeProblem(name, type, attributes) {
                diagnostics.append(problem)
                continue
            }
            properties.append(MappedProperty(
                name: name, type: type, initializer: binding.initializer?.value, isOptional: isOptional,
                keyLiterals: attributes.keyLiterals, keys: attributes.keys, transform: attributes.transform, merge: attributes.merge,
                explicitlyRequired: attributes.required, node: Syntax(binding)))
        }
    }

    /// A declared type with no JSON form and no transformer, or a built-in transformer whose
    /// values cannot be the property's (see PropertyTypeCheck).
    private func typeProblem(_ name: String, _ type: TypeSyntax, _ attributes: PropertyAttributes) -> Diagnostic? {
        guard let transform = attributes.transform else {
            return PropertyTypeCheck.noJSONForm(type).map { Diagnostic(node: Syntax(type), message: ModelMessage.noJSONForm(name, $0)) }
        }
        // Several keys are combined by a Transformer<[String: JSONValue], V>: not a built-in.
        guard attributes.keys.count <= 1, let value = PropertyTypeCheck.builtinValue(transform) else { return nil }
        // An optional property takes a transformer of its wrapped type or of its own.
        let candidates = [PropertyTypeCheck.wrappedType(type), type].compactMap { $0 }
        guard candidates.allSatisfy({ PropertyTypeCheck.fits(value, $0) == false }) else { return nil }
        return Diagnostic(node: attributes.transformAttribute ?? Syntax(type),
                          message: ModelMessage.transformMismatch(name, value.description, type.trimmedDescription))
    }

    /// Two properties reading one key is allowed (each gets the value) but is usually a slip: a
    /// warning. One `@Key` naming a key twice is an error.
    private mutating func checkDuplicateKeys() {
        var seen: [String: String] = [:]
        for property in properties {
            let keys: [String]
            if !property.keys.isEmpty {
                keys = property.keys
            } else if let derived = keyNaming.key(for: property.bareName) {
                keys = [derived]
            } else {
                continue
            }
            var own = Set<String>()
            for key in keys {
                if !own.insert(key).inserted {
                    diagnostics.append(Diagnostic(node: property.node, message: ModelMessage.keyTwiceInOneProperty(key, property.name)))
                } else if let other = seen[key] {
                    diagnostics.append(Diagnostic(node: property.node, message: ModelMessage.keyReadTwice(key, other, property.name)))
                } else {
                    seen[key] = property.name
                }
            }
        }
    }
}

/// The attributes on one stored property.
struct PropertyAttributes {
    var keyLiterals: [String] = []
    var keys: [String] = []
    var keyAttribute: Syntax? = nil
    var transform: ExprSyntax? = nil
    var transformAttribute: Syntax? = nil
    var merge: ExprSyntax? = nil
    var mergeAttribute: Syntax? = nil
    var ignore = false
    var required = false
    var problems: [Diagnostic] = []

    init(_ list: AttributeListSyntax) {
        for element in list {
            guard case .attribute(let attribute) = element else { continue }
            switch PropertyAttributes.name(of: attribute) {
            case "Key":
                keyAttribute = Syntax(attribute)
                let arguments = attribute.arguments?.as(LabeledExprListSyntax.self) ?? []
                if arguments.isEmpty { problems.append(Diagnostic(node: Syntax(attribute), message: ModelMessage.keyWithoutPath)) }
                for argument in arguments {
                    guard let literal = argument.expression.as(StringLiteralExprSyntax.self),
                          let value = literal.representedLiteralValue else {
                        problems.append(Diagnostic(node: Syntax(argument), message: ModelMessage.keyNotALiteral))
                        continue
                    }
                    if value.isEmpty { problems.append(Diagnostic(node: Syntax(argument), message: ModelMessage.emptyKey)) }
                    keyLiterals.append(literal.trimmedDescription)
                    keys.append(value)
                }
            case "Transform":
                transformAttribute = Syntax(attribute)
                transform = attribute.arguments?.as(LabeledExprListSyntax.self)?.first?.expression
            case "Merge":
                mergeAttribute = Syntax(attribute)
                merge = attribute.arguments?.as(LabeledExprListSyntax.self)?.first?.expression
                if merge == nil { problems.append(Diagnostic(node: Syntax(attribute), message: ModelMessage.mergeWithoutHook)) }
            case "Ignore":
                ignore = true
            case "Required":
                required = true
            default:
                continue
            }
        }
    }

    /// `Key` for `@Key` and `@Magma.Key`.
    static func name(of attribute: AttributeSyntax) -> String {
        let written = attribute.attributeName.trimmedDescription
        return written.hasPrefix("Magma.") ? String(written.dropFirst(6)) : written
    }

    static let names: Set<String> = ["Key", "Transform", "Merge", "Ignore", "Required"]

    /// A getter, or accessors other than observers: no storage to decode into.
    static func isComputed(_ block: AccessorBlockSyntax) -> Bool {
        switch block.accessors {
        case .getter: return true
        case .accessors(let list):
            return list.contains { ![.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) }
        }
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

    /// The same words as Magma's `KeyNaming.separated`.
    func key(for name: String) -> String? {
        switch self {
        case .propertyName: return name
        case .custom: return nil
        case .separated(let separator):
            let chars = Array(name)
            var out = ""
            for (i, c) in chars.enumerated() {
                if c.isUppercase, i > 0 {
                    let previous = chars[i - 1]
                    let nextIsLower = i + 1 < chars.count && chars[i + 1].isLowercase
                    if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                        if out.last != separator && previous != "_" { out.append(separator) }
                    }
                }
                out += c.lowercased()
            }
            return out
        }
    }
}
