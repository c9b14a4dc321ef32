import Foundation
import Testing
@testable import Magma

/// Elements of an array rebuilt from index key paths (`tags.0`) written by each kind of member: a
/// class model's property (read through its key path) and one key path of a multi-key property.
struct RebuiltArrayTests {
    final class Tagged: JSONModel {
        var first: String?
        var second: Int?
        var pair = ""
        required init() {}
        static let jsonMapping = JSONMapping<Tagged> {
            Map(\.first, "tags.0")
            Map(\.second, "tags.2")
            Map(\.pair, ["pair.0", "pair.1"], RebuiltArrayTests.pair)
        }
    }

    /// `a|b` from two elements; "" writes neither.
    static let pair = Transformer<[String: JSONValue], String>(forward: { values in
        [values["pair.0"], values["pair.1"]].map { value -> String in
            if case .string(let s)? = value { return s }
            return ""
        }.joined(separator: "|")
    }, reverse: { text in
        guard !text.isEmpty else { return [:] }
        let parts = text.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        return ["pair.0": .string(parts[0]), "pair.1": .string(parts.count > 1 ? parts[1] : "")]
    })

    @Test func classPropertiesAndMultiKeyParts_areWrittenAsElements() throws {
        let model = try JSONAdapter.model(Tagged.self, from: #"{"tags": ["a", "skipped", 3], "pair": ["x", "y"]}"#)
        #expect((model.first, model.second, model.pair) == ("a", 3, "x|y"))
        let expected = #"{"tags":["a",null,3],"pair":["x","y"]}"#
        #expect(String(decoding: try JSONAdapter.json(from: model), as: UTF8.self) == expected)
        #expect(try objectModelCodec(Tagged.self).encode(model) == JSONValue.object([
            "tags": .array([.string("a"), .null, .number(JSONNumber(3))]),
            "pair": .array([.string("x"), .string("y")])]))

        // A nil element is null while a later one has a value; the multi-key property's parts
        // are left out together.
        model.first = nil
        model.pair = ""
        #expect(String(decoding: try JSONAdapter.json(from: model), as: UTF8.self) == #"{"tags":[null,null,3]}"#)
    }
}
