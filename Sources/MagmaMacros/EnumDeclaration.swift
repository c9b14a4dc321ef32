// What @JSONModel(tagging:) reads from an enum: its tagging, and per case its name, its `@Key`
// tag, whether it is the `@Fallback`, and its associated values as the properties of the case's
// draft (labelled values; one unlabelled value is a model flattened into the case's object). Every
// problem is reported at the attribute, case or value at fault, and the case is left out.
import SwiftDiagnostics
import SwiftSyntax

/// One case of a tagged enum.
struct TaggedCase {
    /// The name as written (backquoted if a keyword), and bare.
    let name: String
    var bareName: String { name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : name }
    /// `@Key`'s tag, as written.
    let keyLiteral: String?
    let isFallback: Bool
    /// The associated values, as the draft's properties: named by label, or `_0` for a model
    /// flattened into the case's object.
    let values: [MappedProperty]
}

struct EnumDeclaration {
    let typeName: String
    let access: String
    /// The `tagging:` argument as written, and the key naming.
    let tagging: String
    let keyNaming: String?
    var cases: [TaggedCase] = []
    var diagnostics: [Diagnostic] = []
    var isUsable = true

    init(_ declaration: EnumDeclSyntax, attribute: AttributeSyntax) {
        typeName = declaration.name.text
        let modifiers = declaration.modifiers
        access = modifiers.contains { [.keyword(.public), .keyword(.open)].contains($0.name.tokenKind) } ? "public "
            : modifiers.contains { $0.name.tokenKind == .keyword(.package) } ? "package " : ""
        let arguments = attribute.arguments?.as(LabeledExprListSyntax.self) ?? []
        keyNaming = arguments.first { $0.label?.text == "keyNaming" }?.expression.trimmedDescription
        tagging = arguments.first { $0.label?.text == "tagging" }?.expression.trimmedDescription ?? ""
        if tagging.isEmpty || tagging == "nil" {
            diagnostics.append(Diagnostic(node: Syntax(attribute), message: ModelMessage.enumWithoutTagging(typeName),
                                          fixIt: EnumDeclaration.addTagging(attribute)))
            isUsable = false
            return
        }
        if declaration.genericParameterClause != nil {
            diagnostics.append(Diagnostic(node: Syntax(attribute), message: ModelMessage.genericEnum))
            isUsable = false
            return
        }
        let tagKey = EnumDeclaration.internalKey(tagging)
        let naming = KeyNamingRule(attribute)
        var names: Set<String> = []
        var tags: [String: String] = [:]
        var fallback: String?
        for member in declaration.memberBlock.members {
            guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            let attributes = PropertyAttributes(caseDecl.attributes)
            diagnostics += attributes.problems
            if let other = attributes.first(of: ["Transform", "Merge", "Default", "Lossy", "Flatten", "Required", "Ignore"]) {
                diagnostics.append(PropertyAttributes.remove(other, .notOnCase(PropertyAttributes.name(of: other))))
                continue
            }
            if caseDecl.elements.count > 1, let key = attributes.keyAttribute ?? attributes.fallbackAttribute {
                diagnostics.append(Diagnostic(node: Syntax(key), message: ModelMessage.caseAttributeOnSeveral(PropertyAttributes.name(of: key))))
                continue
            }
            if let key = attributes.keyAttribute, attributes.keys.count != 1 || attributes.encodeArgument != nil {
                diagnostics.append(Diagnostic(node: Syntax(key), message: ModelMessage.caseKeyNotOneTag))
                continue
            }
            for element in caseDecl.elements {
                let name = element.name.text
                guard names.insert(name).inserted else {
                    diagnostics.append(Diagnostic(node: Syntax(element), message: ModelMessage.caseNameTwice(name)))
                    continue
                }
                if let fallbackAttribute = attributes.fallbackAttribute {
                    if let earlier = fallback {
                        diagnostics.append(PropertyAttributes.remove(fallbackAttribute, .secondFallback(earlier)))
                        continue
                    }
                    fallback = name
                }
                guard let values = readValues(element, case: name, tagKey: tagKey, naming: naming) else { continue }
                let bare = name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : name
                if let tag = attributes.keys.first ?? naming.key(for: bare) {
                    if let other = tags[tag] {
                        diagnostics.append(Diagnostic(node: Syntax(element), message: ModelMessage.tagTwice(tag, other, name)))
                        continue
                    }
                    tags[tag] = name
                }
                cases.append(TaggedCase(name: name, keyLiteral: attributes.keyLiterals.first, isFallback: attributes.fallbackAttribute != nil,
                                        values: values))
            }
        }
    }

    /// The case's associated values as draft properties, or nil (reported) when they cannot be.
    private mutating func readValues(_ element: EnumCaseElementSyntax, case name: String, tagKey: String?,
                                     naming: KeyNamingRule) -> [MappedProperty]? {
        let parameters = Array(element.parameterClause?.parameters ?? [])
        let labels = parameters.map { parameter -> String? in
            guard let label = parameter.firstName, label.tokenKind != .wildcard else { return nil }
            return label.text
        }
        if parameters.count == 1, labels[0] == nil {
            var value = MappedProperty(name: "_0", type: parameters[0].type, initializer: nil, isOptional: false, keyLiterals: [], keys: [],
                                       transform: nil, merge: nil, explicitlyRequired: false, node: Syntax(parameters[0]))
            if PropertyAttributes.isOptional(parameters[0].type) {
                diagnostics.append(Diagnostic(node: Syntax(parameters[0]), message: ModelMessage.unlabelledOptional(name)))
                return nil
            }
            value.isFlattened = true
            return [value]
        }
        if let unlabelled = parameters.first(where: { $0.firstName == nil || $0.firstName?.tokenKind == .wildcard }) {
            diagnostics.append(Diagnostic(node: Syntax(unlabelled), message: ModelMessage.unlabelledValues(name)))
            return nil
        }
        var values: [MappedProperty] = []
        for (parameter, label) in zip(parameters, labels) {
            let label = label!
            let bare = label.hasPrefix("`") ? String(label.dropFirst().dropLast()) : label
            if let why = PropertyTypeCheck.noJSONForm(parameter.type) {
                diagnostics.append(Diagnostic(node: Syntax(parameter.type), message: ModelMessage.noJSONForm(bare, why)))
                return nil
            }
            if let tagKey, naming.key(for: bare) == tagKey {
                diagnostics.append(Diagnostic(node: Syntax(parameter), message: ModelMessage.valueReadsTheTag(bare, tagKey)))
                return nil
            }
            var value = MappedProperty(name: label, type: parameter.type, initializer: nil, isOptional: PropertyAttributes.isOptional(parameter.type),
                                       keyLiterals: [], keys: [], transform: nil, merge: nil, explicitlyRequired: false, node: Syntax(parameter))
            value.defaultValue = parameter.defaultValue?.value
            values.append(value)
        }
        return values
    }

    /// The tag's key of `.internal(key: "type")`, when written as a literal.
    static func internalKey(_ tagging: String) -> String? {
        let prefix = "internal(key: \""
        guard let open = tagging.firstIndex(of: "("), tagging[tagging.index(before: open)...].hasPrefix("l(key: \""),
              tagging.hasSuffix("\")"), tagging.contains(prefix) else { return nil }
        let start = tagging.index(open, offsetBy: 7)
        return String(tagging[start..<tagging.index(tagging.endIndex, offsetBy: -2)])
    }

    /// The attribute with `tagging: .internal(key: "type")` added.
    static func addTagging(_ attribute: AttributeSyntax) -> FixIt {
        var arguments = Array(attribute.arguments?.as(LabeledExprListSyntax.self) ?? [])
        if let last = arguments.indices.last { arguments[last] = arguments[last].with(\.trailingComma, .commaToken(trailingTrivia: .space)) }
        arguments.append(LabeledExprSyntax(label: "tagging", colon: .colonToken(trailingTrivia: .space),
                                           expression: ExprSyntax(stringLiteral: ".internal(key: \"type\")")))
        let fixed = attribute.with(\.leftParen, .leftParenToken()).with(\.rightParen, .rightParenToken())
            .with(\.arguments, .argumentList(LabeledExprListSyntax(arguments)))
            .with(\.attributeName, attribute.attributeName.with(\.trailingTrivia, []))
            .with(\.trailingTrivia, attribute.trailingTrivia)
        return FixIt(message: ModelFixIt.addTagging, changes: [.replace(oldNode: Syntax(attribute), newNode: Syntax(fixed))])
    }
}
