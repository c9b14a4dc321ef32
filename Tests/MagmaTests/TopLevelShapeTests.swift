import Foundation
import Testing
@testable import Magma

@Suite struct TopLevelShapeTests {
    @Test func aTopLevelObjectOfModels_decodesByKey() throws {
        let json = #"{"0": {"login": "a", "id": 1}, "1": {"login": "b", "id": 2}}"#
        for way in splitWays(Array(json.utf8)) {
            let users = try JSONAdapter.value(from: .chunks(way.pieces), .dictionary(.model(GHUser.self)))
            #expect(users.mapValues(\.login) == ["0": "a", "1": "b"], "\(way.name)")
        }
        #expect(try JSONAdapter.value(from: Data(json.utf8), .dictionary(.model(GHUser.self)))["1"]?.id == 2)
        #expect(try JSONAdapter.value(from: json, .dictionary(.model(GHUser.self)))["0"]?.id == 1)
    }

    @Test func aTopLevelObjectOfModels_failsAtTheMember() throws {
        let error = try #require(throws: JSONError.self) {
            try JSONAdapter.value(from: #"{"0": {"login": "a"}, "1": {"login": 5}}"#, .dictionary(.model(GHUser.self)))
        }
        #expect(error.path == "$.1.login")
        #expect(error.property == "GHUser.login")
    }

    @Test func aTopLevelArrayOfScalars_decodes() throws {
        let json = "[0.69, 0.7, 1, -2.5e3]"
        for way in splitWays(Array(json.utf8)) {
            #expect(try JSONAdapter.value(from: .chunks(way.pieces), .array(.double)) == [0.69, 0.7, 1, -2500], "\(way.name)")
        }
        #expect(try JSONAdapter.value(from: Data(json.utf8), .array(.double)).count == 4)
        #expect(try JSONAdapter.value(from: #"["a", "b"]"#, .array(.string)) == ["a", "b"])
        #expect(try JSONAdapter.value(from: "[]", .array(Int.jsonTransformer)) == [])
    }

    @Test func aTopLevelArrayOfScalars_failsAtTheElement() throws {
        let error = try #require(throws: JSONError.self) { try JSONAdapter.value(from: #"[1, 2, "3"]"#, .array(.integer) as Transformer<JSONValue, [Int]>) }
        #expect(error.code == .typeMismatch)
        #expect(error.path == "$[2]")
    }
}
