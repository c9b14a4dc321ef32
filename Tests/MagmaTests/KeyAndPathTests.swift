import Foundation
import Testing
@testable import Magma

/// A key mapped as a value and a key path through it (`owner` to a nested model, `owner.login`
/// to a flat property), as Mantle and Codable allow.
@Suite struct KeyAndPathTests {
    @JSONModel struct Repo: Equatable {
        var name = ""
        var owner: GHUser?
        @Key("owner.login") @Required var ownerLogin = ""
    }

    /// The path first, then the value: the order of the lines does not matter.
    @JSONModel struct PathFirst: Equatable {
        @Key("owner.login") var ownerLogin = ""
        var owner: JSONValue = .null
    }

    @Test func bothTargets_readTheSameObject() throws {
        let json = #"{"name": "magma", "owner": {"login": "ann", "id": 7, "site_admin": true}}"#
        let repo = try decodeEverywhere(Repo.self, json)
        #expect(repo == Repo(name: "magma", owner: GHUser(login: "ann", id: 7, siteAdmin: true), ownerLogin: "ann"))
        let other = try decodeEverywhere(PathFirst.self, #"{"owner": {"id": 1, "login": "bob"}}"#)
        #expect(other.ownerLogin == "bob")
        #expect(other.owner == .object(["id": .number(1), "login": .string("bob")]))
    }

    @Test func aRequiredPathThroughTheKey_isStillRequired() {
        let error = failureEverywhere(Repo.self, #"{"name": "x", "owner": {"id": 7}}"#)
        #expect(error?.code == .missingKey)
        #expect(error?.property == "Repo.ownerLogin")
    }

    @Test func nullAtTheKey_leavesTheNestedModelNil() throws {
        let error = failureEverywhere(Repo.self, #"{"owner": null}"#)
        #expect(error?.code == .missingKey)
        #expect(try JSONAdapter.model(PathFirst.self, from: #"{"owner": null}"#) == PathFirst(ownerLogin: "", owner: .null))
    }

    /// Encoding writes `owner` once, from the nested model: its value wins over the flat one.
    @Test func encoding_writesTheKeyOnce_fromTheValue() throws {
        let repo = Repo(name: "magma", owner: GHUser(login: "ann", id: 7), ownerLogin: "someone else")
        #expect(String(decoding: try JSONAdapter.json(from: repo), as: UTF8.self)
            == #"{"name":"magma","owner":{"login":"ann","id":7,"site_admin":false}}"#)
        let other = PathFirst(ownerLogin: "x", owner: .object(["login": .string("bob")]))
        #expect(String(decoding: try JSONAdapter.json(from: other), as: UTF8.self) == #"{"owner":{"login":"bob"}}"#)
    }
}

extension KeyAndPathTests {
    @JSONModel struct Deep {
        @Key("a.meta") var meta: JSONValue = .null
        @Key("a.meta.name") var metaName = ""
        @Key("a.owner.login") var ownerLogin = ""
    }

    /// Through a key that is also a value, the error still names every property below.
    @Test func notAnObject_namesThePropertiesBelowAKeyThatIsAlsoAValue() {
        let error = failureEverywhere(Deep.self, #"{"a": 5}"#)
        #expect(error?.code == .notAnObject)
        #expect(error?.property == "Deep.meta, Deep.metaName, Deep.ownerLogin")
    }
}
