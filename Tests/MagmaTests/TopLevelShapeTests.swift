import Foundation
import Testing
@testable import Magma

@Suite struct TopLevelShapeTests {
    @Test func aTopLevelObjectOfModels_decodesByKey() throws {
        let json = #"{"0": {"login": "a", "id": 1}, "1": {"login": "b", "id": 2}}"#
        for way in splitWays(Array(json.utf8)) {
            let users = try JSONAdapter.modelsByKey(GHUser.self, from: .chunks(way.pieces))
            #expect(users.mapValues(\.login) == ["0": "a", "1": "b"], "\(way.name)")
        }
        #expect(try JSONAdapter.modelsByKey(GHUser.self, from: Data(json.utf8))["1"]?.id == 2)
        #expect(try JSONAdapter.modelsByKey(GHUser.self, from: json)["0"]?.id == 1)
    }

    @Test func aTopLevelObjectOfModels_failsAtTheMember() throws {
        let error = try #require(throws: JSONError.self) {
            try JSONAdapter.modelsByKey(GHUser.self, from: #"{"0": {"login": "a"}, "1": {"login": 5}}"#)
        }
        #expect(error.path == "$.1.login")
        #expect(error.property == "GHUser.login")
    }

    @Test func aTopLevelArrayOfScalars_decodes() throws {
        let json = "[0.69, 0.7, 1, -2.5e3]"
        for way in splitWays(Array(json.utf8)) {
            #expect(try JSONAdapter.values(Double.self, from: .chunks(way.pieces)) == [0.69, 0.7, 1, -2500], "\(way.name)")
        }
        #expect(try JSONAdapter.values(Double.self, from: Data(json.utf8)).count == 4)
        #expect(try JSONAdapter.values(String.self, from: #"["a", "b"]"#) == ["a", "b"])
        #expect(try JSONAdapter.values(Int.self, from: "[]") == [])
    }

    @Test func aTopLevelArrayOfScalars_failsAtTheElement() throws {
        let error = try #require(throws: JSONError.self) { try JSONAdapter.values(Int.self, from: #"[1, 2, "3"]"#) }
        #expect(error.code == .typeMismatch)
        #expect(error.path == "$[2]")
    }
}
