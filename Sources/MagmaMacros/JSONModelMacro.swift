// @JSONModel: writes what the engine needs for a struct or final class with `let` properties.
//
//   struct GHIssue {
//       ...the declaration...
//       struct JSONDraft: Magma.JSONModel {          // in the body; every property optional or defaulted
//           var url: URL?
//           var state: State?
//           init() {}
//           static let jsonMapping = Magma.JSONMapping<JSONDraft>(keyNaming: .snakeCase) {
//               Magma.Map(nonOptional: \JSONDraft.url).named("url", in: "GHIssue")   // required, null an error
//               Magma.Map(nonOptional: \JSONDraft.state, required: false).named("state", in: "GHIssue")
//           }
//       }
//   }
//   extension GHIssue: Magma.JSONDraftedModel {
//       init(jsonDraft draft: consuming JSONDraft) throws { ... }   // in the body, for a class
//       static func model(fromDraft:) / moveModel(fromDraft:to:as:) / var jsonDraft / static var jsonTransformer
//   }
//
// Decoding fills the draft through the same compiled plan as any `Map` model (field writes at
// stored-property offsets), then moves its values into the model; encoding writes the model's draft.
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

public struct JSONModelMacro: ExtensionMacro, MemberMacro {
    /// The expansion is laid out as it is written here. swift-syntax's default re-formats every
    /// expansion, which was a large share of compiling many models.
    public static var formatMode: FormatMode { .disabled }

    /// The draft goes in the model's body, where the property types resolve as the model's own
    /// declarations do (a nested model's sibling types are not in scope in an extension). A
    /// class's `init(jsonDraft:)` goes there too (an extension cannot initialise a class's stored
    /// properties); a struct's goes in the extension, which keeps its memberwise init.
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        if let enumDeclaration = declaration.as(EnumDeclSyntax.self) {
            return enumMembers(EnumDeclaration(enumDeclaration, attribute: node))
        }
        let model = ModelDeclaration(declaration, attribute: node)
        guard model.isUsable else { return [] }
        let access = model.access
        let naming = node.arguments?.as(LabeledExprListSyntax.self)?.first { $0.label?.text == "keyNaming" }
            .map { "(keyNaming: \($0.expression.trimmedDescription))" } ?? ""
        var draft = ["\(access)struct JSONDraft: Magma.JSONModel {"]
        draft += model.properties.map { "    var \($0.name)\(draftType($0))" }
        draft += ["    \(access)init() {}", model.isGeneric
            ? "    \(access)static var jsonMapping: Magma.JSONMapping<JSONDraft> { Magma.JSONMapping<JSONDraft>\(naming) {"
            : "    \(access)static let jsonMapping = Magma.JSONMapping<JSONDraft>\(naming) {"]
        draft += model.properties.map { "        " + line($0, model: model.typeName) }
        draft += [model.isGeneric ? "    } }" : "    }", "}"]
        var members = [DeclSyntax(stringLiteral: draft.joined(separator: "\n"))]
        if model.isClass { members.append(DeclSyntax(stringLiteral: initializer(model, indent: "").joined(separator: "\n"))) }
        return members
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax, providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        if let enumDeclaration = declaration.as(EnumDeclSyntax.self) {
            let model = EnumDeclaration(enumDeclaration, attribute: node)
            for diagnostic in model.diagnostics { context.diagnose(diagnostic) }
            return try enumExtension(model, type: type, conforms: protocols.contains { $0.trimmedDescription.hasSuffix("JSONTaggedEnum") })
        }
        let model = ModelDeclaration(declaration, attribute: node)
        for diagnostic in model.diagnostics { context.diagnose(diagnostic) }
        guard model.isUsable else { return [] }
        let access = model.access
        let conformance = protocols.contains { $0.trimmedDescription.hasSuffix("JSONDraftedModel") } ? ": Magma.JSONDraftedModel" : ""
        let modelType = model.isGeneric ? "Self" : type.trimmedDescription
        var text: [String] = ["extension \(type.trimmed)\(conformance) {"]
        if !model.isClass { text += initializer(model, indent: "    ") }
        text += [
            "    \(access)static func model(fromDraft draft: consuming JSONDraft) throws -> Self {",
        ]
        text += ["        \(model.isClass ? "let" : "var") model = try Self(jsonDraft: draft)"] + hooks(isClass: model.isClass)
        text += [
            "        return model",
            "    }",
            "    \(access)static func moveModel(fromDraft draft: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer, as form: Magma.DraftDestination) throws {",
            "        let model = try Self.model(fromDraft: draft.assumingMemoryBound(to: JSONDraft.self).move())",
            "        switch form {",
            "        case .value: destination.assumingMemoryBound(to: Self.self).pointee = model",
            "        case .optional: destination.assumingMemoryBound(to: Self?.self).pointee = model",
            "        case .element: destination.assumingMemoryBound(to: [Self].self).pointee.append(model)",
            "        }",
            "    }",
        ]
        if !model.keptProperties.isEmpty {
            // An update or merge builds the model anew: the ignored properties come from the old
            // one, before the hooks (which may derive them).
            text += [
                // A class names itself: `Self` cannot be a parameter's type in a class.
                "    \(access)static func model(fromDraft draft: consuming JSONDraft, updating old: \(model.isClass ? type.trimmedDescription : "Self")) throws -> Self {",
                "        \(model.isClass ? "let" : "var") model = try Self(jsonDraft: draft)",
            ]
            text += model.keptProperties.map { "        model.\($0) = old.\($0)" }
            text += hooks(isClass: model.isClass)
            text += ["        return model", "    }"]
        }
        if model.isSelective {
            // The model's filter is asked with the model's key paths; the draft is what is written.
            let pairs = model.properties.map { "            \\JSONDraft.\($0.name): \\\(type.trimmed).\($0.name)," }
            text += ["    \(access)static var jsonDraftKeyPaths: [AnyKeyPath: AnyKeyPath] {", "        [" + (pairs.isEmpty ? ":]" : "")]
                + (pairs.isEmpty ? [] : pairs + ["        ]"]) + ["    }"]
        }
        text += [
            "    \(access)var jsonDraft: JSONDraft {",
            "        var draft = JSONDraft()",
        ]
        text += model.properties.map {
            $0.isFlattened ? "        draft.\($0.name) = Magma.FlattenedModel.draft(of: self.\($0.name))" : "        draft.\($0.name) = self.\($0.name)"
        }
        text += [
            "        return draft",
            "    }",
            // The type as the extension names it: a nested model's bare name is not in scope here.
            // A generic model's extension names it without its arguments: `Self` is the instance.
            "    \(access)static var jsonTransformer: Magma.Transformer<Magma.JSONValue, \(modelType)> { .model(\(modelType).self) }",
            "}",
        ]
        return [try ExtensionDeclSyntax(SyntaxNodeString(stringLiteral: text.joined(separator: "\n")))]
    }

    /// The lines that run a built `model`'s `didDecode` and `validate` hooks.
    static func hooks(isClass: Bool) -> [String] {
        if isClass { return ["        try Self.runDecodeHooks(of: model)"] }
        return [
            "        do {",
            "            try model.didDecode()",
            "            try model.validate()",
            "        } catch {",
            "            throw Self.decodeHookError(error)",
            "        }",
        ]
    }

    /// The draft's declaration of a property, after its name.
    static func draftType(_ property: MappedProperty) -> String {
        if property.isFlattened, let type = property.type { return " = Magma.FlattenedModel.emptyDraft(of: \(type.trimmedDescription).self)" }
        let type = property.type.map { ": \($0.trimmedDescription)" } ?? ""
        if property.isHeldOptional { return ": \(optional(property.type!))" }
        if let value = property.initializer { return "\(type) = \(value.trimmedDescription)" }
        return type
    }

    /// `T?` for `T`, parenthesised where `?` would bind to part of it (`(any P)?`, `(() -> Int)?`).
    static func optional(_ type: TypeSyntax) -> String {
        let text = type.trimmedDescription
        let simple = type.is(IdentifierTypeSyntax.self) || type.is(MemberTypeSyntax.self) || type.is(ArrayTypeSyntax.self)
            || type.is(DictionaryTypeSyntax.self) || type.is(TupleTypeSyntax.self)
        return simple ? "\(text)?" : "(\(text))?"
    }

    /// The draft's mapping line for a property.
    static func line(_ property: MappedProperty, model: String, draft: String = "JSONDraft") -> String {
        let path = "\\\(draft).\(property.name)"
        if property.isFlattened { return "Magma.Map.flattening(\(path), as: \"\(model).\(property.bareName)\")" }
        // Held as an optional and read as the model's type (null an error), or as an optional.
        let nonOptional = property.isHeldOptional && !property.readsNullAsAbsent
        var arguments: [String] = []
        if property.keys.count > 1 {
            arguments.append("[" + property.keyLiterals.joined(separator: ", ") + "]")
        } else if let key = property.keyLiterals.first {
            arguments.append(key)
        } else if nonOptional && property.transform != nil {
            arguments.append("nil")
        }
        if property.hasTransformPeer {
            arguments.append("\(model).\(PropertyAttributes.transformPeerName(property.name))")
        } else if let transform = property.transform {
            arguments.append(transform.trimmedDescription)
        }
        let call: String
        if nonOptional {
            if !property.isRequiredNonOptional && !property.explicitlyRequired { arguments.append("required: false") }
            call = "Magma.Map(nonOptional: \(([path] + arguments).joined(separator: ", ")))"
        } else {
            if property.explicitlyRequired { arguments.append("required: true") }
            call = "Magma.Map(\(([path] + arguments).joined(separator: ", ")))"
        }
        var text = "\(call).named(\"\(property.bareName)\", in: \"\(model)\")"
        if let merge = property.merge {
            // Typed by the draft's key path: a hook of another type does not compile.
            text += ".merging(\(property.isHeldOptional ? "nonOptional: " : "")\(path), \(merge.trimmedDescription))"
        }
        if let key = property.encodeKeyLiteral { text += ".encodingKey(\(key))" }
        if property.isLossy { text += ".lossy()" }
        if property.defaultsOnInvalid { text += ".defaultingOnInvalid(\(path))" }
        return text
    }

    /// `init(jsonDraft:)`: every mapped property from the draft, required ones unwrapped (the
    /// plan has already checked they were present).
    static func initializer(_ model: ModelDeclaration, indent: String) -> [String] {
        // Every check that can throw comes before the first stored property is set: a throw
        // between two stores made the compiler track (and copy) the half-built value.
        let checks = model.properties.filter { $0.isRequiredNonOptional || $0.isFlattened }.map { property -> String in
            let (name, bare) = (property.name, property.bareName)
            if property.isFlattened, let type = property.type {
                return "\(indent)    let _\(bare) = try Magma.FlattenedModel.model(\(type.trimmedDescription).self, from: draft.\(name))"
            }
            return "\(indent)    guard let _\(bare) = draft.\(name).take() else { throw Self.missingDraftValue(\"\(model.typeName).\(bare)\") }"
        }
        let mapped = model.properties.map { property -> (name: String, label: String, value: String) in
            let (name, label) = (property.name, property.label)
            if property.isRequiredNonOptional || property.isFlattened { return (name, label, "_\(property.bareName)") }
            if let value = property.defaultValue { return (name, label, "draft.\(name).take() ?? \(value.trimmedDescription)") }
            if property.isHeldOptional, let value = property.initializer {
                return (name, label, "draft.\(name).take() ?? \(value.trimmedDescription)")
            }
            // An optional moves out; a default whose type is not written (so not held as an
            // optional) is copied.
            return (name, label, property.isOptional ? "draft.\(name).take()" : "draft.\(name)")
        }
        let byName = Dictionary(mapped.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let values = model.storedOrder.compactMap { name -> (name: String, label: String, value: String)? in
            guard model.placeholders.contains(name) else { return byName[name] }
            let bare = name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : name
            return (name, ["inout", "var", "let"].contains(bare) ? name : bare, "{ Swift.fatalError(\"\(model.typeName).\(bare) has an error\") }()")
        }
        let assignments: [String]
        if model.hasMemberwiseInit && !values.isEmpty {
            // Assigning a property that has a default (`var tags: [Tag] = []`) re-assigns the
            // value its initial value set, after which the optimiser copies the whole model on
            // return (an initializeWithCopy and a destroy per model); the memberwise initializer
            // builds it in one go. Ignored properties keep their defaults.
            let arguments = values.map { "\(indent)        \($0.label): \($0.value)" }
            assignments = ["\(indent)    self.init("] + arguments.enumerated().map { $0.offset < arguments.count - 1 ? $0.element + "," : $0.element }
                + ["\(indent)    )"]
        } else {
            assignments = values.map { "\(indent)    self.\($0.name) = \($0.value)" }
        }
        return ["\(indent)\(model.access)init(jsonDraft draft: consuming JSONDraft) throws {"] + checks + assignments + ["\(indent)}"]
    }
}

/// `@Key`, `@Transform`, `@Merge`, `@Ignore`, `@Required`, `@Default`, `@Lossy`, `@Flatten`,
/// `@Fallback`: markers @JSONModel reads; alone they only check that they sit on a stored
/// property (`@Key` and `@Fallback`: on an enum's case; @JSONModel checks the rest).
public struct PropertyAttributeMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let name = PropertyAttributes.name(of: node)
        if let enumCase = declaration.as(EnumCaseDeclSyntax.self) {
            // In a @JSONModel enum, the enum reports it (with a fix-it in its own tree).
            let inModel = context.lexicalContext.contains {
                $0.as(EnumDeclSyntax.self)?.attributes.contains { $0.as(AttributeSyntax.self).map(PropertyAttributes.name) == "JSONModel" } == true
            }
            if !["Key", "Fallback"].contains(name), !inModel { context.diagnose(PropertyAttributes.remove(node, .notOnCase(name), from: enumCase)) }
            return []
        }
        if name == "Fallback" {
            context.diagnose(Diagnostic(node: Syntax(node), message: ModelMessage.fallbackNotOnCase))
            return []
        }
        guard let variable = declaration.as(VariableDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: Syntax(node), message: ModelMessage.notOnProperty(name)))
            return []
        }
        if variable.bindings.contains(where: { $0.accessorBlock.map(PropertyAttributes.isComputed) == true }) {
            context.diagnose(PropertyAttributes.remove(node, .onComputed(name), from: variable))
            return []
        }
        guard name == "Transform", let peer = PropertyAttributes.transformPeer(of: variable, PropertyAttributes(variable.attributes)) else { return [] }
        return [peer]
    }
}
