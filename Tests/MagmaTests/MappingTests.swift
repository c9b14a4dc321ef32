import Foundation
import Testing
@testable import Magma

/// Key-path features of mappings, and illegal mappings caught when the plan is built.
@Suite struct MappingTests {
    struct Paths: JSONModel, Equatable {
        var login = ""
        var firstLabel = ""
        var secondColor: String?
        var dotted = 0
        var deep = false
        static let jsonMapping = JSONMapping<Paths> {
            Map(\.login, "user.login")
            Map(\.firstLabel, "labels.0.name")
            Map(\.secondColor, "labels.1.color")
            Map(\.dotted, #"a\.b"#)
            Map(\.deep, "x.y.z")
        }
    }

    @Test func dottedIndexedAndEscapedKeyPaths_decode() throws {
        let json = #"""
        {"labels": [{"name": "bug", "color": "red"}, {"name": "ui", "color": "blue"}, {"name": "x"}],
         "user": {"id": 1, "login": "octocat", "extra": {"deep": [1, 2]}},
         "a.b": 7, "a": {"b": 99}, "x": {"y": {"z": true, "w": null}}}
        """#
        let model = try decodeEverywhere(Paths.self, json)
        #expect(model == Paths(login: "octocat", firstLabel: "bug", secondColor: "blue", dotted: 7, deep: true))
    }

    @Test func numericComponent_alsoMatchesObjectKey() throws {
        let model = try decodeEverywhere(Paths.self, #"{"labels": {"0": {"name": "zero"}, "1": {"color": "c"}}}"#)
        #expect(model.firstLabel == "zero")
        #expect(model.secondColor == "c")
    }

    struct NumberLikeKeys: JSONModel, Equatable {
        var padded = ""
        var negativeZero = ""
        var plus = ""
        static let jsonMapping = JSONMapping<NumberLikeKeys> {
            Map(\.padded, "labels.007")
            Map(\.negativeZero, "labels.-0")
            Map(\.plus, "labels.+1")
        }
    }

    /// Only a canonical number (`0`, `7`) indexes an array; `007`, `-0` and `+1` are keys, so an
    /// array there is not an object, and an object reads them as written.
    @Test func nonCanonicalNumericComponents_areKeys() throws {
        #expect(MappingPlan.arrayIndex("0") == 0 && MappingPlan.arrayIndex("12") == 12)
        #expect(["007", "-0", "+1", "", "1e2", " 1", "99999999999999999999"].allSatisfy { MappingPlan.arrayIndex($0) == nil })
        let model = try decodeEverywhere(NumberLikeKeys.self, #"{"labels": {"007": "a", "-0": "b", "+1": "c", "7": "x", "0": "y", "1": "z"}}"#)
        #expect(model == NumberLikeKeys(padded: "a", negativeZero: "b", plus: "c"))
        let error = failureEverywhere(NumberLikeKeys.self, #"{"labels": ["a", "b", "c", "d", "e", "f", "g", "h"]}"#)
        #expect(error?.code == .notAnObject)
        #expect(error?.path == "$.labels")
    }

    @Test func keyPathThroughNonObject_isAnError() throws {
        let error = failureEverywhere(Paths.self, #"{"user": "bar"}"#)
        #expect(error?.code == .notAnObject)
        #expect(error?.path == "$.user")
        let arrayError = failureEverywhere(Paths.self, #"{"user": [1]}"#)
        #expect(arrayError?.code == .notAnObject)
    }

    @Test func keyPathThroughNull_keepsDefaults() throws {
        let model = try decodeEverywhere(Paths.self, #"{"user": null, "labels": null}"#)
        #expect(model == Paths())
    }

    struct FullName: JSONModel, Equatable {
        var name = ""
        var id = 0
        static let jsonMapping = JSONMapping<FullName> {
            Map(\.name, ["first", "last"], Transformer(forward: { (parts: [String: JSONValue]) -> String in
                var words: [String] = []
                for key in ["first", "last"] {
                    if case .string(let s)? = parts[key] { words.append(s) }
                }
                return words.joined(separator: " ")
            }, reverse: { name in
                let words = name.split(separator: " ", maxSplits: 1).map(String.init)
                var parts: [String: JSONValue] = ["first": .string(words.first ?? "")]
                if words.count > 1 { parts["last"] = .string(words[1]) }
                return parts
            }))
            Map(\.id, "id")
        }
    }

    @Test func severalKeyPaths_oneProperty_transformerGetsThemTogether() throws {
        #expect(try decodeEverywhere(FullName.self, #"{"last": "Lovelace", "id": 3, "first": "Ada"}"#)
            == FullName(name: "Ada Lovelace", id: 3))
        #expect(try decodeEverywhere(FullName.self, #"{"first": "Ada"}"#).name == "Ada")
        #expect(try decodeEverywhere(FullName.self, #"{"id": 1}"#).name == "")
    }

    struct Fanout: JSONModel, Equatable {
        var count = 0
        var countText = ""
        var user: GHUser?
        var userJSON: JSONValue = .null
        static let jsonMapping = JSONMapping<Fanout> {
            Map(\.count, "count")
            Map(\.countText, "count", Transformer<JSONValue, String>(forward: { json in
                guard case .number(let n) = json else { throw JSONError(.typeMismatch, "not a number") }
                return n.text
            }))
            Map(\.user, "user")
            Map(\.userJSON, "user")
        }
    }

    @Test func oneKey_severalProperties_eachGetsTheValue() throws {
        let model = try decodeEverywhere(Fanout.self, #"{"count": 12, "user": {"login": "a", "id": 5, "site_admin": true}}"#)
        #expect(model.count == 12)
        #expect(model.countText == "12")
        #expect(model.user == GHUser(login: "a", id: 5, siteAdmin: true))
        #expect(model.userJSON == .object(["login": .string("a"), "id": .number(5), "site_admin": .bool(true)]))
    }

    // MARK: Illegal mappings

    struct Twice: JSONModel {
        var a = 0
        static let jsonMapping = JSONMapping<Twice> { Map(\.a, "a"); Map(\.a, "b") }
    }
    struct EmptyPath: JSONModel {
        var a = 0
        static let jsonMapping = JSONMapping<EmptyPath> { Map(\.a, "") }
    }
    struct EmptyComponent: JSONModel {
        var a = 0
        static let jsonMapping = JSONMapping<EmptyComponent> { Map(\.a, "user..login") }
    }
    struct TrailingBackslash: JSONModel {
        var a = 0
        static let jsonMapping = JSONMapping<TrailingBackslash> { Map(\.a, "a\\") }
    }

    @Test(arguments: [
        (Twice.jsonMapping.validate, "Twice.a is mapped twice"),
        (EmptyPath.jsonMapping.validate, "empty key path"),
        (EmptyComponent.jsonMapping.validate, "empty component"),
        (TrailingBackslash.jsonMapping.validate, "lone backslash"),
    ] as [(@Sendable () throws -> Void, String)])
    func illegalMapping_failsWhenBuilt(validate: @Sendable () throws -> Void, message: String) {
        #expect {
            try validate()
        } throws: { error in
            guard let error = error as? JSONError else { return false }
            return error.code == .invalidMapping && error.message.contains(message)
        }
    }

    @Test func illegalMapping_failsDecodeWithTheSameError() {
        #expect(throws: JSONError.self) { try JSONAdapter.model(Twice.self, from: "{}") }
        do {
            _ = try JSONAdapter.model(Twice.self, from: #"{"a": 1}"#)
        } catch let error as JSONError {
            #expect(error.code == .invalidMapping)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    // MARK: Classes

    final class Account: JSONModel {
        var name = ""
        var balance = 0.0
        var owner: GHUser?
        var derivedUpper = ""
        init() {}
        static let jsonMapping = JSONMapping<Account> {
            Map(\.name, "name")
            Map(\.balance, "balance")
            Map(\.owner, "owner")
        }
        func didDecode() throws { derivedUpper = name.uppercased() }
    }

    @Test func classModel_decodesThroughKeyPaths() throws {
        let json = #"{"name": "savings", "balance": 12.5, "owner": {"login": "ada", "id": 1}}"#
        for size in chunkSizes {
            let account = try JSONAdapter.model(Account.self, from: .chunks(chunks(Array(json.utf8), size)))
            #expect(account.name == "savings")
            #expect(account.balance == 12.5)
            #expect(account.owner == GHUser(login: "ada", id: 1, siteAdmin: false))
            #expect(account.derivedUpper == "SAVINGS", "didDecode runs on classes too")
        }
    }
}
