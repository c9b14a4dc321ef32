import Foundation
import Testing
@testable import Magma

/// decode(encode(m)) == m for every model of the tests, from a JSON sample of each; and the
/// output always parses with JSONSerialization. A model's `JSONValue` (a model transformer's
/// reverse, `mappedJSON`) is what it writes.
@Suite struct RoundTripTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let check: @Sendable () throws -> Void
        var testDescription: String { name }
    }

    /// A model's sample: its round trip, and the check of its `JSONValue` against the JSON it writes.
    static func roundTrip<M: JSONObjectModel & Equatable & SendableMetatype>(_: M.Type, _ json: String) -> (roundTrip: Case, value: Case) {
        (Case(name: String(describing: M.self)) {
            let model = try JSONAdapter.model(M.self, from: json)
            for options in RoundTripTests.optionSets {
                let data = try JSONAdapter.json(from: model, options: options)
                #expect(try JSONAdapter.model(M.self, from: data) == model, "\(M.self) \(options)")
                #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) }
            }
        }, writtenValue(M.self, json))
    }

    /// The model's codec gives, as a `JSONValue`, the JSON its writer writes with the default
    /// options, read back: the members, the nil properties left out, the objects its dotted keys
    /// rebuild, a cluster's discriminators, a model's own choice of its properties.
    static func writtenValue<M: JSONObjectModel & SendableMetatype>(_: M.Type, _ json: String) -> Case {
        Case(name: String(describing: M.self)) {
            let model = try JSONAdapter.model(M.self, from: json)
            let written = try JSONAdapter.json(from: model)
            let expected = try written.withUnsafeBytes { try JSONValueCodec.shared.decode(from: $0, options: DecodingOptions()) }
            let value = try objectModelCodec(M.self).encode(model)
            #expect(value == expected, "\(M.self): \(String(decoding: written, as: UTF8.self))")
            guard case .object(let members) = value else {
                Issue.record("\(M.self) is not an object: \(value)")
                return
            }
            #expect(!members.isEmpty, "\(M.self)'s sample writes members")
        }
    }

    static let optionSets: [EncodingOptions] = {
        var pretty = EncodingOptions()
        pretty.prettyPrinted = true
        pretty.sortedKeys = true
        var nulls = EncodingOptions()
        nulls.nilProperties = .writeNull
        nulls.escapeSlashes = true
        nulls.asciiOnly = true
        return [EncodingOptions(), pretty, nulls]
    }()

    static let samples: [(roundTrip: Case, value: Case)] = [
        roundTrip(GHIssue.self, String(decoding: (try? Fixtures.data("github_issue.json")) ?? Data(), as: UTF8.self)),
        roundTrip(GHUser.self, #"{"login": "a\/b", "id": 9223372036854775807, "site_admin": true}"#),
        roundTrip(GHLabel.self, #"{"name": "bug \ud83d\udc1b", "color": "f00"}"#),
        roundTrip(MappingTests.Paths.self, #"{"user": {"login": "x"}, "labels": [{"name": "l0"}, {"color": "c1"}], "a.b": 2, "x": {"y": {"z": true}}}"#),
        roundTrip(MappingTests.FullName.self, #"{"first": "Ada", "last": "Lovelace", "id": 1}"#),
        roundTrip(MappingTests.Fanout.self, #"{"count": 3, "user": {"login": "u", "id": 2, "site_admin": false}}"#),
        roundTrip(SemanticsTests.Item.self, #"{"name": "n", "count": 2, "note": "z", "tags": ["a", "b"], "id": 5}"#),
        roundTrip(OptionsTests.Pair.self, #"{"a": 1, "b": {"x": 1, "y": -2}, "child": {"x": 3}}"#),
        roundTrip(OptionsTests.Nest.self, #"{"v": [[1, 2.5e-3, {"k": [null, true, "s"]}], {}]}"#),
        roundTrip(HookTests.Holder.self, #"{"ranges": [{"low": 1, "high": 4}, {"low": 2, "high": 2}]}"#),
        roundTrip(TokenizerTests.Text.self, #"{"text": "tab\there \"q\" \u0001", "after": -7}"#),
        roundTrip(EncodingTests.Texts.self, #"{"text": "x", "values": [0.1, -0.0, 1e300], "amount": 12.50, "big": 18446744073709551615, "small": -128}"#),
        roundTrip(URLCacheTests.Links.self, #"{"links": ["https://a.example/1", "https://a.example/1", "mailto:x@y.z"], "first": "http://b/"}"#),
        roundTrip(ElementTargetTests.Geo.self, #"{"rings": [[[1.5, 2]], []], "ints": [1], "longs": [-9], "names": ["n"], "pairs": [[0.5]]}"#),
        roundTrip(StreamingTests.Event.self, #"{"id": 4, "name": "e", "tags": ["t"]}"#),
        roundTrip(SplitAndParallelTests.Line.self, #"{"id": 1, "text": "line"}"#),
        roundTrip(FuzzRegressionTests.Stamped.self, #"{"at": "2024-01-31T12:34:56Z", "day": "2024-02-29"}"#),
    ]

    static let cases = samples.map(\.roundTrip)

    @Test(arguments: cases)
    func decodeOfEncode_isTheModel(_ c: Case) throws { try c.check() }

    /// The samples' models, and models whose round trip other suites check.
    static let valueCases: [Case] = samples.map(\.value) + [
        writtenValue(FuzzRecord.self, #"""
            {"id": 42, "i8": -128, "u32": 4294967295, "name": "caf\u00e9 \"q\"\n", "nick": null, "score": 1.5e3, "ratio": 0.25,
             "amount": 12.50, "flag": true, "kind": "b", "level": 2, "kinds": ["a", "c"],
             "created": "2024-01-31T12:34:56.789+01:00", "stamp": "2024-02-29T23:59:59Z", "day": "Thu, 29 Feb 2024",
             "epoch": 1706704496789, "link": "https://example.com/a?b=c", "uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
             "blob": "aGVsbG8=", "owner": {"name": "o", "value": 1, "w": 2.5, "kids": [{"name": "k"}]},
             "children": [{"name": "a", "kids": []}, {"name": "b", "value": null}], "matrix": [[1, 2], [], [3]],
             "tags": {"x": 1, "y": 2}, "meta": {"m": {"name": "n"}}, "any": {"a": [1, "2", null, true, {"b": -0}]},
             "x": {"extra": [1e400, "\ud83d\ude00"]}, "user": {"login": "octocat"}, "labels": [{"name": "bug"}],
             "first": "Ada", "last": "Lovelace", "mapped": "two", "custom": "ok"}
            """#),
        writtenValue(ClusterTests.Drawing.self, #"""
            {"shapes": [{"radius": 2.5, "extra": {"n": -1.5e3}, "id": 1, "type": "circle"}, {"type": "square", "side": 3, "id": 2}],
             "main": {"id": 9, "type": "circle", "radius": 1}}
            """#),
        writtenValue(ClusterTests.Log.self, #"{"events": [{"x": 5, "at": 1, "kind": "click"}, {"kind": "key", "key": "a", "at": 2}, {"at": 3}]}"#),
        writtenValue(SelectiveEncodingTests.Thread.self, #"""
            {"first": {"title": "a", "author": "ann", "review": {"by": "bob"}},
             "pinned": {"title": "b", "author": "cat", "anonymous": true, "review": {"by": "dan"}},
             "replies": [{"title": "c", "anonymous": true, "review": {"by": "eve"}}, {"title": "d", "review": {"by": "fay"}}]}
            """#),
        writtenValue(MappingTests.Account.self, #"{"name": "savings", "balance": 12.5, "owner": {"login": "ada", "id": 1, "site_admin": false}}"#),
    ]

    @Test(arguments: valueCases)
    func jsonValueOfAModel_isWhatItWrites(_ c: Case) throws { try c.check() }

    @JSONModel struct Branch {
        var name = ""
        var kids: [Branch] = []
        var size: Double?
    }

    /// A model nested deeper than a decoder reads (512 levels) has a `JSONValue` all the same:
    /// it is built from the members' values, not written and read back.
    @Test func jsonValueOfADeepModel_isBuilt_notReadBack() throws {
        var model = Branch(name: "0")
        var expected: JSONValue = .object(["name": .string("0"), "kids": .array([])])
        for level in 1...600 {
            model = Branch(name: "\(level)", kids: [model], size: Double(level) / 4)
            expected = .object(["name": .string("\(level)"), "kids": .array([expected]), "size": .number(JSONNumber(Double(level) / 4))])
        }
        let written = try JSONAdapter.json(from: model)
        #expect(throws: JSONError.self, "the JSON it writes is too deep to read back") {
            try written.withUnsafeBytes { try JSONValueCodec.shared.decode(from: $0, options: DecodingOptions()) }
        }
        #expect(try Transformer<JSONValue, Branch>.model(Branch.self).reverseTransform(model) == expected)
    }

    /// A property that cannot be encoded fails the `JSONValue` as it fails the write: same code,
    /// message and property, through the nested models and arrays it is in.
    @Test func jsonValueOfAModel_failsAsTheWriteFails() throws {
        let model = Branch(name: "a", kids: [Branch(name: "b"), Branch(name: "c", kids: [Branch(name: "d", size: .nan)])])
        let writeError = try #require(throwsError { try JSONAdapter.json(from: model) })
        let valueError = try #require(throwsError { try Transformer<JSONValue, Branch>.model(Branch.self).reverseTransform(model) })
        #expect(valueError.code == .notEncodable && valueError.code == writeError.code)
        #expect(valueError.message == writeError.message, "\(valueError.message)")
        #expect(valueError.message.contains("nan has no JSON form"))
        #expect(valueError.property == writeError.property)
    }

    private func throwsError(_ body: () throws -> Any) -> JSONError? {
        do { _ = try body() } catch { return error as? JSONError }
        return nil
    }

    @Test func classModel_roundTrips() throws {
        let json = #"{"name": "savings", "balance": 12.5, "owner": {"login": "ada", "id": 1, "site_admin": false}}"#
        let account = try JSONAdapter.model(MappingTests.Account.self, from: json)
        let back = try JSONAdapter.model(MappingTests.Account.self, from: try JSONAdapter.json(from: account))
        #expect(back.name == account.name && back.balance == account.balance && back.owner == account.owner)
        #expect(back.derivedUpper == "SAVINGS")
    }

    @Test func oneKeyManyProperties_isWrittenOnce() throws {
        let model = try JSONAdapter.model(MappingTests.Fanout.self, from: #"{"count": 3, "user": {"login": "u", "id": 2}}"#)
        let text = String(decoding: try JSONAdapter.json(from: model), as: UTF8.self)
        #expect(text.components(separatedBy: "\"user\"").count == 2, "\(text)")
        #expect(text.components(separatedBy: "\"count\"").count == 2, "\(text)")
    }
}
