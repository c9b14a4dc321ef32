import Foundation
import Testing
@testable import Magma

// Models declared with @JSONModel: `let` properties, no defaults required, Codable's rules for
// required, optional and defaulted properties.

@JSONModel(keyNaming: .snakeCase)
struct MacroIssue: Equatable {
    enum State: String { case open, closed }

    let url: URL
    let number: Int
    var state: State = .open
    @Key("user.login") let reporterLogin: String?
    @Key("milestones.0.title") let firstMilestone: String?
    let labels: [MacroLabel]
    let assignee: MacroUser?
    @Transform(.date(format: "yyyy-MM-dd'T'HH:mm:ss'Z'")) let updatedAt: Date
    @Ignore var retrievedAt = Date(timeIntervalSince1970: 0)
    var commentCount: Int { labels.count }
}

@JSONModel struct MacroLabel: Equatable {
    let name: String
    let color: String?
}

@JSONModel(keyNaming: .snakeCase)
struct MacroUser: Equatable {
    let login: String
    let id: Int64
    var siteAdmin = false
}

/// A model declared with `Map` holding a macro model, and a macro model holding it back.
struct MappedHolder: JSONModel, Equatable {
    var label: MacroLabel?
    var labels: [MacroLabel] = []
    static let jsonMapping = JSONMapping<MappedHolder> {
        Map(\.label, "label")
        Map(\.labels, "labels")
    }
}

@JSONModel struct MacroHolder: Equatable {
    let holder: MappedHolder
    let user: GHUser?
}

/// Every other attribute: several key paths into one property, `@Required` on an optional and on a
/// defaulted property, an enum array, an escaped dot, an explicit transformer on an optional.
@JSONModel struct MacroExtras: Equatable {
    @Key("first", "last") @Transform(MacroExtras.fullName) let fullName: String
    @Required let note: String?
    @Required var count = 0
    let states: [MacroIssue.State]
    @Key("a\\.b") let dotted: Int?
    @Transform(.iso8601) let seen: Date?

    static let fullName = Transformer<[String: JSONValue], String>(
        forward: { values in
            guard case .string(let first)? = values["first"], case .string(let last)? = values["last"] else {
                throw JSONError(.invalidValue, "first and last are both needed")
            }
            return "\(first) \(last)"
        },
        reverse: { name in
            let parts = name.split(separator: " ").map(String.init)
            return ["first": .string(parts[0]), "last": .string(parts.dropFirst().joined(separator: " "))]
        })
}

@JSONModel final class MacroNode {
    let name: String
    let children: [MacroNode]
    var weight: Double = 1
}

@Suite struct MacroModelTests {
    static let issueJSON = #"""
        {"url": "https://api.github.com/repos/o/r/issues/7", "number": 7, "state": "closed",
         "user": {"login": "octocat", "id": 1}, "labels": [{"name": "bug", "color": "f29513"}, {"name": "ui"}],
         "assignee": {"login": "hubot", "id": 2, "site_admin": true}, "updated_at": "2011-04-22T13:33:48Z",
         "milestones": [{"title": "v1"}, {"title": "v2"}], "unmapped": [1, {"x": [2]}]}
        """#

    @Test func letModel_decodesEveryProperty() throws {
        let issue = try decodeEverywhere(MacroIssue.self, Self.issueJSON)
        #expect(issue.url == URL(string: "https://api.github.com/repos/o/r/issues/7"))
        #expect(issue.number == 7)
        #expect(issue.state == .closed)
        #expect(issue.reporterLogin == "octocat")
        #expect(issue.firstMilestone == "v1")
        #expect(issue.labels == [MacroLabel(name: "bug", color: "f29513"), MacroLabel(name: "ui", color: nil)])
        #expect(issue.assignee == MacroUser(login: "hubot", id: 2, siteAdmin: true))
        #expect(issue.updatedAt == Date(timeIntervalSince1970: 1_303_479_228))
        #expect(issue.retrievedAt == Date(timeIntervalSince1970: 0), "an ignored property keeps its default")
    }

    @Test func memberwiseInitializer_staysUsable() {
        let label = MacroLabel(name: "x", color: nil)
        #expect(label.name == "x")
        let user = MacroUser(login: "a", id: 1)
        #expect(user.siteAdmin == false)
    }

    @Test func absentKeys_defaultAndOptionalKeepTheirValues() throws {
        let json = #"{"url": "https://x.org/1", "number": 1, "labels": [], "updated_at": "2011-04-22T13:33:48Z"}"#
        let issue = try decodeEverywhere(MacroIssue.self, json)
        #expect(issue.state == .open)
        #expect(issue.reporterLogin == nil)
        #expect(issue.firstMilestone == nil)
        #expect(issue.assignee == nil)
    }

    @Test func absentRequiredKey_isMissingKeyNamingTheModelProperty() throws {
        let json = #"{"url": "https://x.org/1", "labels": [], "updated_at": "2011-04-22T13:33:48Z"}"#
        let error = try #require(failureEverywhere(MacroIssue.self, json))
        #expect(error.code == .missingKey)
        #expect(error.property == "MacroIssue.number")
        #expect(error.message == #"missing key "number" for required property MacroIssue.number"#)
    }

    @Test func nullForNonOptional_isNullValueAtItsKey() throws {
        let json = #"{"url": "https://x.org/1", "number": null, "labels": [], "updated_at": "2011-04-22T13:33:48Z"}"#
        let error = try #require(failureEverywhere(MacroIssue.self, json))
        #expect(error.code == .nullValue)
        #expect(error.path == "$.number")
        #expect(error.property == "MacroIssue.number")
        #expect(error.offset == 37, "the null token")
    }

    @Test func nullForOptional_isNil() throws {
        let json = #"{"url": "https://x.org/1", "number": 1, "labels": [], "assignee": null, "user": null, "updated_at": "2011-04-22T13:33:48Z"}"#
        let issue = try decodeEverywhere(MacroIssue.self, json)
        #expect(issue.assignee == nil)
        #expect(issue.reporterLogin == nil, "a null on the way of a key path reads as absent")
    }

    @Test func wrongType_namesExpectedTypeAndModelProperty() throws {
        let json = #"{"url": "https://x.org/1", "number": "7", "labels": [], "updated_at": "2011-04-22T13:33:48Z"}"#
        let error = try #require(failureEverywhere(MacroIssue.self, json))
        #expect(error.code == .typeMismatch)
        #expect(error.property == "MacroIssue.number")
        #expect(error.message.contains("expected Int, found string"))
    }

    @Test func transformer_appliesAndItsErrorsArePositioned() throws {
        let json = #"{"url": "https://x.org/1", "number": 1, "labels": [], "updated_at": "yesterday"}"#
        let error = try #require(failureEverywhere(MacroIssue.self, json))
        #expect(error.code == .invalidValue)
        #expect(error.path == "$.updated_at")
        #expect(error.property == "MacroIssue.updatedAt")
    }

    @Test func encoding_roundTripsThroughTheSameMapping() throws {
        let issue = try JSONAdapter.model(MacroIssue.self, from: Self.issueJSON)
        let json = try JSONAdapter.json(from: issue)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""user":{"login":"octocat"}"#))
        #expect(text.contains(#""updated_at":"2011-04-22T13:33:48Z""#))
        #expect(!text.contains("retrieved"), "an ignored property is not encoded")
        #expect(try JSONAdapter.model(MacroIssue.self, from: json) == issue)
        let many = try JSONAdapter.json(from: [issue, issue])
        #expect(try JSONAdapter.models(MacroIssue.self, from: many) == [issue, issue])
    }

    @Test func macroAndMapModels_nestInsideEachOther() throws {
        let json = #"{"holder": {"label": {"name": "a"}, "labels": [{"name": "b", "color": "c"}]}, "user": {"login": "x", "id": 3}}"#
        let value = try decodeEverywhere(MacroHolder.self, json)
        #expect(value.holder.label == MacroLabel(name: "a", color: nil))
        #expect(value.holder.labels == [MacroLabel(name: "b", color: "c")])
        #expect(value.user?.login == "x")
        #expect(try JSONAdapter.model(MacroHolder.self, from: JSONAdapter.json(from: value)) == value)
        let error = try #require(failureEverywhere(MacroHolder.self, #"{"holder": {"labels": [{"color": "c"}]}}"#))
        #expect(error.code == .missingKey)
        #expect(error.path == "$.holder.labels[0]")
        #expect(error.property == "MacroLabel.name")
    }

    @Test func extras_severalKeysRequiredEnumsEscapedDots() throws {
        let json = #"{"first": "Ada", "last": "Lovelace", "note": null, "count": 2, "states": ["open", "closed"], "a.b": 5, "seen": "2020-01-02T03:04:05Z"}"#
        let value = try decodeEverywhere(MacroExtras.self, json)
        #expect(value.fullName == "Ada Lovelace")
        #expect(value.note == nil)
        #expect(value.count == 2)
        #expect(value.states == [.open, .closed])
        #expect(value.dotted == 5)
        #expect(value.seen == Date(timeIntervalSince1970: 1_577_934_245))
        // A required optional is written as null when nil, or it would not decode back.
        var nulls = EncodingOptions()
        nulls.nilProperties = .writeNull
        #expect(try JSONAdapter.model(MacroExtras.self, from: JSONAdapter.json(from: value, options: nulls)) == value)
        let noNote = try #require(failureEverywhere(MacroExtras.self, #"{"first": "A", "last": "B", "count": 1, "states": []}"#))
        #expect(noNote.code == .missingKey)
        #expect(noNote.property == "MacroExtras.note")
        let noCount = try #require(failureEverywhere(MacroExtras.self, #"{"first": "A", "last": "B", "note": "n", "states": []}"#))
        #expect(noCount.property == "MacroExtras.count")
        let noName = try #require(failureEverywhere(MacroExtras.self, #"{"note": "n", "count": 1, "states": []}"#))
        #expect(noName.code == .missingKey)
        #expect(noName.property == "MacroExtras.fullName")
        let badState = try #require(failureEverywhere(MacroExtras.self, #"{"first": "A", "last": "B", "note": "n", "count": 1, "states": ["gone"]}"#))
        #expect(badState.code == .invalidValue)
        #expect(badState.path == "$.states[0]")
    }

    @Test func finalClass_decodesRecursively() throws {
        let json = #"{"name": "root", "children": [{"name": "a", "children": [], "weight": 2.5}, {"name": "b", "children": []}]}"#
        let root = try JSONAdapter.model(MacroNode.self, from: json)
        #expect(root.name == "root")
        #expect(root.children.map(\.name) == ["a", "b"])
        #expect(root.children.map(\.weight) == [2.5, 1])
        let again = try JSONAdapter.model(MacroNode.self, from: JSONAdapter.json(from: root))
        #expect(again.children.map(\.weight) == [2.5, 1])
    }

    @Test func records_streamMacroModels() throws {
        let one = #"{"name": "x", "color": "y"}"#
        var seen: [MacroLabel] = []
        try JSONAdapter.forEachRecord(MacroLabel.self, from: Data("\(one)\n{\"name\": \"z\"}\n".utf8), layout: .ndjson) { seen.append($0) }
        #expect(seen == [MacroLabel(name: "x", color: "y"), MacroLabel(name: "z", color: nil)])
        let skipped = RecordDecoder(MacroLabel.self, layout: .array, errorPolicy: .skip) { seen.append($0) }
        try skipped.feed(Data(#"[{"name": "a"}, {"color": "no name"}, {"name": "b"}]"#.utf8))
        try skipped.finish()
        #expect(seen.suffix(2).map(\.name) == ["a", "b"])
        #expect(skipped.skipped.map(\.code) == [.missingKey])
    }

    @Test func keywordNames_decodeAndNameTheirErrors() throws {
        let value = try decodeEverywhere(MacroKeywords.self, #"{"default": true, "public": true}"#)
        #expect(value == MacroKeywords(default: true, public: true, private: nil))
        #expect(try JSONAdapter.model(MacroKeywords.self, from: JSONAdapter.json(from: value)) == value)
        let error = try #require(failureEverywhere(MacroKeywords.self, #"{"public": true}"#))
        #expect(error.property == "MacroKeywords.default")
        #expect(error.message == #"missing key "default" for required property MacroKeywords.default"#)
    }

    @Test func nestedTypes_decodeAndEncode() throws {
        let row = try decodeEverywhere(MacroNamespace.Row.self, #"{"id": 1, "cells": [{"text": "a"}, {"text": null}]}"#)
        #expect(row == MacroNamespace.Row(id: 1, cells: [.init(text: "a"), .init(text: nil)]))
        #expect(try JSONAdapter.model(MacroNamespace.Row.self, from: JSONAdapter.json(from: row)) == row)
    }

    @Test func hooks_runOnTheBuiltModel() throws {
        let error = try #require(failureEverywhere(MacroChecked.self, #"{"low": 5, "high": 1}"#))
        #expect(error.code == .validationFailed)
        #expect(try decodeEverywhere(MacroChecked.self, #"{"low": 1, "high": 5}"#).span == 4)
    }
}

/// Keywords as property names (as `magma generate` writes them for keys like "default").
@JSONModel struct MacroKeywords: Equatable {
    let `default`: Bool
    var `public` = false
    let `private`: String?
}

/// Models nested in another type: the expansion names them as the extension does.
enum MacroNamespace {
    @JSONModel struct Row: Equatable {
        let id: Int
        let cells: [Cell]
    }

    @JSONModel struct Cell: Equatable {
        let text: String?
    }
}

@JSONModel struct MacroChecked: Equatable {
    let low: Int
    let high: Int
    @Ignore var span = 0
    mutating func didDecode() throws { span = high - low }
    func validate() throws {
        guard low <= high else { throw RangeProblem() }
    }
    struct RangeProblem: Error {}
}
