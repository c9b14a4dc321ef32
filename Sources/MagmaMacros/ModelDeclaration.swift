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
    /// `@Key(…, encode:)`'s key, as written, as a value, and its argument.
    var encodeKeyLiteral: String? = nil
    var encodeKey: String? = nil
    var encodeArgument: LabeledExprSyntax? = nil
    /// `@Default`'s value, and whether an invalid value gives it too (`onInvalid: true`).
    var defaultValue: ExprSyntax? = nil
    var defaultsOnInvalid = false
    var isLossy = false
    /// `@Flatten`: the model's keys are read from this object.
    var isFlattened = false
    /// `@Transform` wrote the transformer as the model's static property (see `transformPeer`).
    var hasTransformPeer = false
    let node: Syntax

    /// Non-optional with no default: held as `T?` in the draft, required, null an error.
    var isRequiredNonOptional: Bool { !isOptional && initializer == nil && defaultValue == nil && !isFlattened }
    /// Non-optional with its type written: held as `T?` in the draft (nil until decoded), so the
    /// model's init moves the value out (`take()`) instead of copying it; null is still an error
    /// (unless `@Default` gives a value for it).
    var isHeldOptional: Bool { !isOptional && type != nil && !isFlattened }
    /// Read as an optional is, null giving nil: an optional, or one `@Default` gives a value.
    var readsNullAsAbsent: Bool { isOptional || defaultValue != nil }
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
    /// Stored properties left out after an error, which `init(jsonDraft:)` still initialises
    /// (with a placeholder that never runs: the build has failed), so that nothing follows the
    /// error; in declaration order, among the mapped properties' names.
    var placeholders: [String] = []
    var storedOrder: [String] = []
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
        if let tagging = attribute.arguments?.as(LabeledExprListSyntax.self)?.first(where: { $0.label?.text == "tagging" }) {
            diagnostics.append(Diagnostic(node: Syntax(tagging), message: ModelMessage.taggingNotOnEnum,
                                          fixIts: PropertyAttributes.removal(tagging, .removeTagging)))
        }
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
                    diagnostics.append(Diagnostic(node: Syntax(merge), message: ModelMessage.mergeOnIgnored(name)))
                }
                if let other = attributes.first(of: ["Default", "Lossy", "Flatten"]) {
                    diagnostics.append(PropertyAttributes.remove(other, .onIgnored(name, PropertyAttributes.name(of: other))))
                }
                if binding.initializer == nil && !(isOptional && !isLet) {
                    diagnostics.append(Diagnostic(node: Syntax(binding), message: ModelMessage.ignoredWithoutDefault(name)))
                    placeholders.append(name)
                    storedOrder.append(name)
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
            if let problem = attributeProblem(name, binding, type, attributes)
                ?? type.flatMap({ attributes.flatten ? nil : typeProblem(name, $0, attributes) }) {
                diagnostics.append(problem)
                if binding.initializer == nil {
                    placeholders.append(name)
                    storedOrder.append(name)
                }
                continue
            }
            storedOrder.append(name)
            var property = MappedProperty(
                name: name, type: type, initializer: binding.initializer?.value, isOptional: isOptional,
                keyLiterals: attributes.keyLiterals, keys: attributes.keys, transform: attributes.transform, merge: attributes.merge,
                explicitlyRequired: attributes.required, node: Syntax(binding))
            property.encodeKeyLiteral = attributes.encodeKeyLiteral
            property.encodeKey = attributes.encodeKey
            property.encodeArgument = attributes.encodeArgument
            property.defaultValue = attributes.defaultValue
            property.defaultsOnInvalid = attributes.defaultsOnInvalid
            property.isLossy = attributes.lossy
            property.isFlattened = attributes.flatten
            property.hasTransformPeer = PropertyAttributes.transformPeer(of: variable, attributes) != nil
            properties.append(property)
        }
    }

    /// Attributes that cannot go together on this property, each reported at the attribute at
    /// fault, with the fix-it that removes it; the property is then left out of the expansion, so
    /// nothing follows the one error.
    private func attributeProblem(_ name: String, _ binding: PatternBindingSyntax, _ type: TypeSyntax?,
                                  _ attributes: PropertyAttributes) -> Diagnostic? {
        if let flatten = attributes.flattenAttribute {
            if let other = attributes.first(of: ["Key", "Transform", "Default", "Lossy", "Required", "Merge"]) {
                return PropertyAttributes.remove(other, .withFlatten(name, PropertyAttributes.name(of: other)))
            }
            if binding.initializer != nil || type == nil || type.map(PropertyAttributes.isOptional) == true {
                return Diagnostic(node: Syntax(flatten), message: ModelMessage.flattenNeedsModel(name))
            }
            return nil
        }
        if attributes.keys.count > 1 {
            if attributes.transform == nil {
                return Diagnostic(node: attributes.keyAttribute.map(Syntax.init) ?? Syntax(binding), message: ModelMessage.severalKeysNeedTransform(name))
            }
            if let other = attributes.first(of: ["Default", "Lossy"]) {
                return PropertyAttributes.remove(other, .severalKeysWith(name, PropertyAttributes.name(of: other)))
            }
            if let encode = attributes.encodeArgument {
                return Diagnostic(node: Syntax(encode), message: ModelMessage.encodeWithSeveralKeys(name), fixIts: PropertyAttributes.removal(encode))
            }
        }
        if let attribute = attributes.defaultAttribute {
            if binding.initializer != nil { return PropertyAttributes.remove(attribute, .defaultAndInitialValue(name)) }
            if let required = attributes.requiredAttribute { return PropertyAttributes.remove(required, .requiredWithDefault(name)) }
        }
        if let lossy = attributes.lossyAttribute, let type, let why = PropertyTypeCheck.notACollection(type) {
            return PropertyAttributes.remove(lossy, .lossyNotACollection(name, why))
        }
        return nil
    }

    /// A declared type with no JSON form and no transformer. A transformer of another type is
    /// the compiler's error, at `@Transform` (see `PropertyAttributes.transformPeer`).
    private func typeProblem(_ name: String, _ type: TypeSyntax, _ attributes: PropertyAttributes) -> Diagnostic? {
        guard attributes.transform == nil else { return nil }
        return PropertyTypeCheck.noJSONForm(type).map { Diagnostic(node: Syntax(type), message: ModelMessage.noJSONForm(name, $0)) }
    }

    /// Two properties reading one key is allowed (each gets the value) but is usually a slip: a
    /// warning. One `@Key` naming a key twice is an error. A key written back by `encode:` may
    /// not be one another property writes too, and is pointless where it is the key read.
    private mutating func checkDuplicateKeys() {
        var seen: [String: String] = [:]
        var writes: [(key: String, property: MappedProperty)] = []
        for property in properties where !property.isFlattened {
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
            if let encode = property.encodeKey, let argument = property.encodeArgument, keys == [encode] {
                diagnostics.append(Diagnostic(node: Syntax(argument), message: ModelMessage.encodeKeyIsTheKeyRead(property.name, encode),
                                              fixIts: PropertyAttributes.removal(argument)))
            }
            writes += (property.encodeKey.map { [$0] } ?? keys).map { ($0, property) }
        }
        for (i, write) in writes.enumerated() {
            guard let other = writes[..<i].first(where: { $0.key == write.key && $0.property.name != write.property.name }),
                  let separate = [write.property, other.property].first(where: { $0.encodeKey == write.key }),
                  let argument = separate.encodeArgument else { continue }
            let another = separate.name == write.property.name ? other.property : write.property
            diagnostics.append(Diagnostic(node: Syntax(argument), message: ModelMessage.keyWrittenTwice(write.key, another.name, separate.name)))
        }
    }
}
