// @JSONModel(tagging:) on an enum: a draft per case with values (its labelled values as a model's
// properties), and the enum's cases as a cluster the tag picks from.
//
//   enum Shape {
//       case circle(radius: Double)
//       @Fallback case unknown
//       enum JSONDraft {                                   // in the body
//           struct circle: Magma.JSONModel {
//               var radius: Double?
//               init() {}
//               static let jsonMapping = Magma.JSONMapping<circle> {
//                   Magma.Map(nonOptional: \circle.radius).named("radius", in: "Shape.circle")
//               }
//           }
//       }
//   }
//   extension Shape: Magma.JSONTaggedEnum {
//       static let jsonCases = Magma.JSONCluster<Shape>(tagging: .internal(key: "type")) {
//           Magma.ClusterCase("circle", JSONDraft.circle.self, make: { draft in … .circle(radius: _0) },
//                             unmake: { value in guard case .circle(let _0) = value else { return nil } … })
//           Magma.ClusterCase("unknown", Magma.CaseWithoutValues.self, fallback: true, make: …, unmake: …)
//       }
//   }
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

extension JSONModelMacro {
    /// The drafts of the cases that have values, in a namespace named as a model's draft is.
    static func enumMembers(_ model: EnumDeclaration) -> [DeclSyntax] {
        guard model.isUsable else { return [] }
        let access = model.access
        let naming = model.keyNaming.map { "(keyNaming: \($0))" } ?? ""
        var text = ["\(access)enum JSONDraft {"]
        for c in model.cases where !c.values.isEmpty {
            let owner = "\(model.typeName).\(c.bareName)"
            text += ["    \(access)struct \(c.name): Magma.JSONModel {"]
            text += c.values.map { "        var \($0.name)\(draftType($0))" }
            text += ["        \(access)init() {}", "        \(access)static let jsonMapping = Magma.JSONMapping<\(c.name)>\(naming) {"]
            text += c.values.map { "            " + line($0, model: owner, draft: c.name) }
            text += ["        }", "    }"]
        }
        text.append("}")
        return [DeclSyntax(stringLiteral: text.joined(separator: "\n"))]
    }

    /// The conformance, and the cases as the cluster the tag picks from.
    static func enumExtension(_ model: EnumDeclaration, type: some TypeSyntaxProtocol, conforms: Bool) throws -> [ExtensionDeclSyntax] {
        guard model.isUsable else { return [] }
        let access = model.access
        let naming = model.keyNaming.map { ", keyNaming: \($0)" } ?? ""
        var text = ["extension \(type.trimmed)\(conforms ? ": Magma.JSONTaggedEnum" : "") {"]
        text.append("    \(access)static let jsonCases = Magma.JSONCluster<\(type.trimmed)>(tagging: \(model.tagging)\(naming)) {")
        for c in model.cases { text += caseLines(c, model: model) }
        text += ["    }", "}"]
        return [try ExtensionDeclSyntax(SyntaxNodeString(stringLiteral: text.joined(separator: "\n")))]
    }

    /// A case: its tag, its draft, how the case is made from the filled draft (required values
    /// present, defaults given, a flattened model built) and how a value of it gives its draft.
    private static func caseLines(_ c: TaggedCase, model: EnumDeclaration) -> [String] {
        let indent = "        "
        let draft = c.values.isEmpty ? "Magma.CaseWithoutValues" : "JSONDraft.\(c.name)"
        var head = "\(indent)Magma.ClusterCase(\"\(c.bareName)\""
        if let key = c.keyLiteral { head += ", key: \(key)" }
        head += ", \(draft).self\(c.isFallback ? ", fallback: true" : ""), make: { \(c.values.isEmpty ? "_" : "draft") in"
        var lines = [head]
        var arguments: [String] = []
        for (i, value) in c.values.enumerated() {
            let local = "_\(i)"
            if value.isFlattened, let type = value.type {
                lines.append("\(indent)    let \(local) = try Magma.FlattenedModel.model(\(type.trimmedDescription).self, from: draft.\(value.name))")
            } else if value.isRequiredNonOptional {
                lines.append("\(indent)    guard let \(local) = draft.\(value.name) else { "
                             + "throw Self.missingDraftValue(\"\(model.typeName).\(c.bareName).\(value.bareName)\") }")
            } else {
                lines.append("\(indent)    let \(local) = draft.\(value.name)\(value.defaultValue.map { " ?? \($0.trimmedDescription)" } ?? "")")
            }
            arguments.append(value.isFlattened ? local : "\(value.label): \(local)")
        }
        lines.append("\(indent)    return .\(c.name)\(arguments.isEmpty ? "" : "(" + arguments.joined(separator: ", ") + ")")")
        let pattern = c.values.isEmpty ? "" : "(" + c.values.indices.map { "let _\($0)" }.joined(separator: ", ") + ")"
        lines += ["\(indent)}, unmake: { value in", "\(indent)    guard case .\(c.name)\(pattern) = value else { return nil }"]
        if c.values.isEmpty {
            lines.append("\(indent)    return Magma.CaseWithoutValues()")
        } else {
            lines.append("\(indent)    var draft = \(draft)()")
            for (i, value) in c.values.enumerated() {
                lines.append(value.isFlattened ? "\(indent)    draft.\(value.name) = Magma.FlattenedModel.draft(of: _\(i))"
                                               : "\(indent)    draft.\(value.name) = _\(i)")
            }
            lines.append("\(indent)    return draft")
        }
        lines.append("\(indent)})")
        return lines
    }
}
