import Foundation
import Testing
import Magma

/// `magma generate`: the models it writes for sample JSON, and (in a scratch package) that they
/// build and decode the benchmark corpora into models that encode back to equivalent JSON.
@Suite struct GenerateCommandTests {
    static let samples = """
    {"url": "https://example.com/1", "number": 1, "title": "a", "user": {"login": "ann", "id": 1}, "labels": [{"name": "bug"}], "node_id": "N1", "created_at": "2024-01-31T12:34:56Z", "score": 1, "big": 1, "tags": {"1": "x"}, "mixed": 1, "HTMLBody": "x"}
    {"url": "https://example.com/2", "number": 2, "title": null, "user": {"login": "bob", "id": 2, "site_admin": true}, "labels": [{"name": "ui", "color": "red"}, {"name": "x"}], "node_id": "N2", "created_at": "2024-02-01T00:00:00Z", "score": 1.5, "big": 18446744073709551616, "tags": {"2": "y"}, "mixed": "one", "HTMLBody": "y"}
    """

    @Test func macroForm_isTheDefault() throws {
        let run = try MagmaTool.run(["generate", "--name", "Issue", "-"], input: Self.samples)
        #expect(run.status == 0, "\(run.stderr)")
        let expected = """
            @JSONModel(keyNaming: .snakeCase)
            struct Issue {
                @Key("HTMLBody") let htmlBody: String
                let big: Double
                let createdAt: Date
                let labels: [Label]
                let mixed: JSONValue
                let nodeID: String
                let number: Int
                let score: Double
                let tags: [String: String]
                let title: String?
                let url: URL
                let user: User
            }

            @JSONModel(keyNaming: .snakeCase)
            struct Label {
                let name: String
                let color: String?
            }

            @JSONModel(keyNaming: .snakeCase)
            struct User {
                let id: Int
                let login: String
                let siteAdmin: Bool?
            }

            """
        #expect(run.stdout.hasSuffix(expected), "\(run.stdout)")
        #expect(run.stdout.contains("import Magma"))
    }

    @Test func mapForm_hasVarsDefaultsAndAMapping() throws {
        let run = try MagmaTool.run(["generate", "--style", "map", "--name", "Issue", "-"], input: Self.samples)
        #expect(run.status == 0, "\(run.stderr)")
        for line in ["struct Issue: JSONModel {", "    var number: Int = 0", "    var title: String?", "    var user: User = User()",
                     "    var labels: [Label] = []", "    static let jsonMapping = JSONMapping<Issue> {",
                     "        Map(\\.nodeID, \"node_id\", required: true)", "        Map(\\.title, \"title\")",
                     "        Map(\\.htmlBody, \"HTMLBody\", required: true)"] {
            #expect(run.stdout.contains(line + "\n"), "\(line)\n\(run.stdout)")
        }
    }

    @Test func arrayElements_takeSingularNames_emptyObjects_dictionaries() throws {
        let run = try MagmaTool.run(["generate", "-"], input: #"{"statuses": [{"a": 1}], "entries": [{"b": 1}], "extra": {}}"#)
        #expect(run.status == 0, "\(run.stderr)")
        for line in ["let statuses: [Status]", "let entries: [Entry]", "let extra: [String: JSONValue]", "struct Status {", "struct Entry {"] {
            #expect(run.stdout.contains(line), "\(line)\n\(run.stdout)")
        }
    }

    /// update-center.json's shape: plugins keyed by name, each of one shape, with fractional dates.
    static let plugins: String = {
        let plugins = (0..<20).map { i in
            "\"plugin-\(i)\": {\"name\": \"plugin-\(i)\", \"version\": \"1.\(i)\", \"buildDate\": \"2024-01-0\(i % 9 + 1)T10:11:24.00Z\""
                + (i % 2 == 0 ? ", \"wiki\": \"https://example.com/\(i)\"}" : "}")
        }
        return "{\"plugins\": {\(plugins.joined(separator: ", "))}, \"core\": {\"version\": \"2.0\", \"stamp\": \"2023-05-13T22:09:38.000-04:00\"}, "
            + "\"owner\": {\"login\": \"a\", \"id\": 1}, \"reviewer\": {\"login\": \"b\", \"id\": 2}}"
    }()

    @Test func nameKeyedObjects_becomeDictionaries_fractionalDatesDates_sameShapesOneModel() throws {
        let run = try MagmaTool.run(["generate", "--name", "UpdateCenter", "-"], input: Self.plugins)
        #expect(run.status == 0, "\(run.stderr)")
        for line in ["let plugins: [String: Plugin]", "struct Plugin {", "let buildDate: Date", "let wiki: URL?", "let stamp: Date",
                     "let owner: Owner", "let reviewer: Owner"] {
            #expect(run.stdout.contains(line), "\(line)\n\(run.stdout)")
        }
        #expect(run.stdout.components(separatedBy: "struct ").count - 1 == 4, "UpdateCenter, Plugin, Core, Owner: \(run.stdout)")
    }

    @Test func dictionaryOrStruct_canBeForced() throws {
        let forced = try MagmaTool.run(["generate", "--struct", "plugins", "--dictionary", "owner", "-"], input: Self.plugins)
        #expect(forced.status == 0, "\(forced.stderr)")
        for line in ["let plugins: Plugins", "struct Plugins {", "let owner: [String: JSONValue]", "let reviewer: Reviewer"] {
            #expect(forced.stdout.contains(line), "\(line)\n\(forced.stdout)")
        }
        // The 20 plugins are of two shapes (with and without a wiki): two models, not twenty.
        #expect(forced.stdout.components(separatedBy: "struct ").count - 1 == 6, "Record, Plugins, Plugin0, Plugin1, Core, Reviewer: \(forced.stdout)")
    }

    @Test func names_areSwiftIdentifiers() {
        #expect(ModelNames.property("created_at") == "createdAt")
        #expect(ModelNames.property("html_url") == "htmlURL")
        #expect(ModelNames.property("default") == "`default`")
        #expect(ModelNames.property("2fa") == "_2fa")
        #expect(ModelNames.property("a.b-c") == "aBC")
    }
}

/// The property names `generate` writes, read back from its output for one key.
enum ModelNames {
    static func property(_ key: String) -> String? {
        let sample = "{\(JSONQuote(key)): 1}"
        guard let run = try? MagmaTool.run(["generate", "--style", "map", "-"], input: sample) else { return nil }
        let line = run.stdout.split(separator: "\n").first { $0.hasPrefix("    var ") }
        return line.map { String($0.dropFirst(8).prefix { $0 != ":" }) }
    }

    static func JSONQuote(_ s: String) -> String { "\"" + s + "\"" }
}
