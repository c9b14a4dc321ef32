import Foundation
import Testing
@testable import Magma

@Suite struct OptionsTests {
    @JSONModel struct Pair: Equatable {
        var a = 0
        var b: [String: Int] = [:]
        var child: Pair.Child?
        @JSONModel struct Child: Equatable {
            var x = 0
        }
    }

    @Test func comments_rejectedByDefault_acceptedWhenAllowed() throws {
        let json = "{ /* block */ \"a\": 1, // line\n \"b\": {\"k\": 2} }"
        #expect(failureEverywhere(Pair.self, json)?.code == .syntax)
        var options = DecodingOptions()
        options.allowComments = true
        #expect(try decodeEverywhere(Pair.self, json, options: options) == Pair(a: 1, b: ["k": 2]))
    }

    @Test func duplicateKeys_lastWinsByDefault() throws {
        #expect(try decodeEverywhere(Pair.self, #"{"a": 1, "a": 2, "b": {"k": 1, "k": 3}}"#) == Pair(a: 2, b: ["k": 3]))
    }

    @Test func duplicateKeys_rejectedWhenAsked() throws {
        var options = DecodingOptions()
        options.duplicateKeys = .reject
        let field = failureEverywhere(Pair.self, #"{"a": 1, "a": 2}"#, options: options)
        #expect(field?.code == .duplicateKey)
        #expect(field?.offset == 9)
        let dictionary = failureEverywhere(Pair.self, #"{"b": {"k": 1, "k": 3}}"#, options: options)
        #expect(dictionary?.code == .duplicateKey)
        #expect(dictionary?.path == "$.b.k")
        // The same key in sibling objects is not a duplicate.
        #expect(try decodeEverywhere(Pair.self, #"{"child": {"x": 1}, "a": 1}"#, options: options).child?.x == 1)
    }

    @Test func unknownKeys_rejectedWhenAsked() throws {
        var options = DecodingOptions()
        options.unknownKeys = .reject
        let error = failureEverywhere(Pair.self, #"{"a": 1, "child": {"x": 1, "y": 2}}"#, options: options)
        #expect(error?.code == .unknownKey)
        #expect(error?.path == "$.child.y")
        #expect(error?.message.contains("\"y\"") == true)
    }

    @JSONModel struct Nest: Equatable {
        @Key("v") var value: JSONValue = .null
    }

    @Test func depthLimit_acceptsTheLimitAndRejectsOneMore() throws {
        // The model's object is depth 1; `v` holds n - 1 nested arrays.
        func json(depth: Int) -> String {
            "{\"v\": " + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}"
        }
        _ = try JSONAdapter.model(Nest.self, from: json(depth: 512))
        do {
            _ = try JSONAdapter.model(Nest.self, from: json(depth: 513))
            Issue.record("depth 513 decoded")
        } catch let error as JSONError {
            #expect(error.code == .depthLimitExceeded)
            #expect(error.offset == 6 + 511, "the offset of the 513th bracket")
        }
        var options = DecodingOptions()
        options.maxDepth = 3
        #expect(failureEverywhere(Nest.self, json(depth: 4), options: options)?.code == .depthLimitExceeded)
        _ = try decodeEverywhere(Nest.self, json(depth: 3), options: options)
    }

    @Test func depthLimit_countsSkippedSubtrees() throws {
        var options = DecodingOptions()
        options.maxDepth = 4
        let json = #"{"unmapped": [[[[1]]]]}"#
        #expect(failureEverywhere(Nest.self, json, options: options)?.code == .depthLimitExceeded)
    }
}
