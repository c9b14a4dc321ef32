import Foundation
import Testing
@testable import Magma

/// decode(encode(m)) == m for every model of the tests, from a JSON sample of each; and the
/// output always parses with JSONSerialization.
@Suite struct RoundTripTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let check: @Sendable () throws -> Void
        var testDescription: String { name }
    }

    static func roundTrip<M: JSONObjectModel & Equatable & SendableMetatype>(_: M.Type, _ json: String) -> Case {
        Case(name: String(describing: M.self)) {
            let model = try JSONAdapter.model(M.self, from: json)
            for options in RoundTripTests.optionSets {
                let data = try JSONAdapter.json(from: model, options: options)
                #expect(try JSONAdapter.model(M.self, from: data) == model, "\(M.self) \(options)")
                #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) }
            }
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

    static let cases: [Case] = [
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

    @Test(arguments: cases)
    func decodeOfEncode_isTheModel(_ c: Case) throws { try c.check() }

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
