import Foundation
import Testing

/// The Transformers article (Sources/Magma/Magma.docc/Transformers.md) lists every built-in
/// transformer and every type's default, and nothing that does not exist: its tables are checked
/// against the library's source, so a new `Transformer` static member or `JSONRepresentable`
/// conformance without a row fails here.
@Suite struct TransformerListTests {
    static let sources = ConformanceTests.packageRoot.appendingPathComponent("Sources/Magma")
    static let article = sources.appendingPathComponent("Magma.docc/Transformers.md")

    /// The Swift files of the library, as text.
    static func libraryFiles() throws -> [String] {
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        var texts: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            if url.pathExtension == "swift" { texts.append(try String(contentsOf: url, encoding: .utf8)) }
        }
        return texts
    }

    /// The names of the public static members declared in `extension Transformer` blocks.
    static func declaredTransformers() throws -> Set<String> {
        var names: Set<String> = []
        let member = try Regex(#"^\s+public static (?:var|func) (\w+)"#)
        for text in try libraryFiles() {
            var inTransformerExtension = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("extension ") { inTransformerExtension = line.hasPrefix("extension Transformer ") || line.hasPrefix("extension Transformer{") }
                else if line.hasPrefix("}") { inTransformerExtension = false }
                if inTransformerExtension, let match = line.firstMatch(of: member), let name = match.output[1].substring {
                    names.insert(String(name))
                }
            }
        }
        return names
    }

    /// The types the library gives a `jsonTransformer`.
    static func typesWithDefaults() throws -> Set<String> {
        let conformance = try Regex(#"^extension (\w+): JSONRepresentable"#)
        var names: Set<String> = []
        for text in try libraryFiles() {
            for line in text.split(separator: "\n") {
                if let match = line.firstMatch(of: conformance), let name = match.output[1].substring { names.insert(String(name)) }
            }
        }
        return names
    }

    /// The rows of the article's table under `heading`: each row's first cell.
    static func firstCells(under heading: String) throws -> [String] {
        let text = try String(contentsOf: article, encoding: .utf8)
        guard let start = text.range(of: "## \(heading)\n") else { return [] }
        let section = String(text[start.upperBound...]).components(separatedBy: "\n## ").first ?? ""
        return section.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| ---") }.dropFirst()
            .map { String($0.dropFirst(2).prefix { $0 != "|" }) }
    }

    @Test func article_listsEveryBuiltInTransformer_andNoOther() throws {
        // What `@Transform`'s expansion writes around the user's transformer is not one to pick.
        let declared = try Self.declaredTransformers().subtracting(["optionalProperty"])
        let listed = Set(try Self.firstCells(under: "Built-in transformers").compactMap { cell -> String? in
            guard let match = cell.firstMatch(of: try! Regex(#"`\.(\w+)"#)), let name = match.output[1].substring else { return nil }
            return String(name)
        })
        #expect(declared.count >= 20, "the source scan found \(declared.sorted())")
        #expect(declared.subtracting(listed).isEmpty, "not in Transformers.md: \(declared.subtracting(listed).sorted())")
        #expect(listed.subtracting(declared).isEmpty, "listed but not declared: \(listed.subtracting(declared).sorted())")
    }

    /// Every attribute `@JSONModel` reads (each `public macro` the library declares) has a row.
    @Test func article_listsEveryAttribute() throws {
        let declarations = try String(contentsOf: Self.sources.appendingPathComponent("Mapping/JSONModelMacros.swift"), encoding: .utf8)
        let macros = Set(declarations.matches(of: try Regex(#"public macro (\w+)"#)).compactMap { $0.output[1].substring.map(String.init) })
        let cells = try Self.firstCells(under: "Attributes").joined(separator: " ")
        #expect(macros.count >= 10, "the source scan found \(macros.sorted())")
        for name in macros { #expect(cells.contains("`@\(name)"), "@\(name) is not in Transformers.md's attributes") }
    }

    @Test func article_listsEveryTypesDefault() throws {
        let types = try Self.typesWithDefaults()
        let cells = try Self.firstCells(under: "Defaults by property type").joined(separator: " ")
        #expect(types.count >= 15, "the source scan found \(types.sorted())")
        for type in types {
            #expect(cells.contains("`\(type)`") || cells.contains("``\(type)``"), "\(type)'s default is not in Transformers.md")
        }
    }
}
