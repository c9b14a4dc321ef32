import Foundation
import Testing
@testable import Magma

/// The strict option (`unknownKeys: .reject`): unknown keys rejected with their paths, at every depth.
@Suite struct StrictDecodingTests {
    @JSONModel struct Model: Equatable {
        @Key("user.login") var login = ""
        var counts: [String: Int] = [:]
        var raw: JSONValue = .null
        var children: [Model] = []
    }

    static var strict: DecodingOptions {
        var options = DecodingOptions()
        options.unknownKeys = .reject
        return options
    }

    @Test(arguments: [
        (#"{"user": {"login": "x", "id": 1}}"#, "$.user.id", "\"id\""),
        (#"{"children": [{}, {"user": {}, "bogus": 1}]}"#, "$.children[1].bogus", "\"bogus\""),
        (#"{"extra": null}"#, "$.extra", "\"extra\""),
        (#"{"children": [{"children": [{"odd key": 1}]}]}"#, #"$.children[0].children[0]["odd key"]"#, "\"odd key\""),
    ])
    func unknownKey_isRejected_withItsPath(_ json: String, _ path: String, _ named: String) {
        let error = failureEverywhere(Model.self, json, options: Self.strict)
        #expect(error?.code == .unknownKey)
        #expect(error?.path == path)
        #expect(error?.message.contains(named) == true)
    }

    @Test func unknownKey_longKey_isCutInTheMessage() {
        let key = String(repeating: "k", count: 64) + String(repeating: "z", count: 10_000)
        let error = failureEverywhere(Model.self, #"{"\#(key)": 1}"#, options: Self.strict)
        #expect(error?.code == .unknownKey)
        #expect(error?.message == "unknown key \"\(String(repeating: "k", count: 64))...\"")
    }

    @Test func dictionariesAndCapturedValues_haveNoUnknownKeys() throws {
        let json = #"{"user": {"login": "x"}, "counts": {"any": 1, "key": 2}, "raw": {"free": {"form": true}}}"#
        let model = try decodeEverywhere(Model.self, json, options: Self.strict)
        #expect(model.counts == ["any": 1, "key": 2] && model.login == "x")
        // And by default unknown keys are ignored.
        #expect(try decodeEverywhere(Model.self, #"{"user": {"login": "y", "id": 1}, "extra": [1]}"#).login == "y")
    }
}
