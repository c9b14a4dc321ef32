import Foundation
import Testing
@testable import Magma

/// Each message a user reads, word for word: the property or model it names, articles, values.
@Suite struct ErrorMessageTests {
    @JSONModel struct Owned {
        @Key("owner.login") var login = ""
        @Key("owner.id") var id = 0
    }

    @Test func notAnObject_namesThePropertiesWhoseKeyPathFailed() {
        let error = failureEverywhere(Owned.self, #"{"owner": "x"}"#)
        #expect(error?.code == .notAnObject)
        #expect(error?.description == "notAnObject: a key path continues through this value, but it is a string, not an object "
            + "(at $.owner, property Owned.login, Owned.id, line 1, column 11, byte 10)")
    }

    @Test func notAnObject_saysAnArray() {
        let error = failureEverywhere(Owned.self, #"{"owner": [1]}"#)
        #expect(error?.message == "a key path continues through this value, but it is an array, not an object")
    }

    @Test func errorsInsideTheObject_atAKeyNoPathReads_nameNoProperty() {
        var options = DecodingOptions()
        options.unknownKeys = .reject
        let error = failureEverywhere(Owned.self, #"{"owner": {"other": 1}}"#, options: options)
        #expect(error?.code == .unknownKey)
        #expect(error?.property == nil)
    }

    @JSONModel struct Coded {
        @Transform(.valueMapping([.string("a"): 1])) var n = 0
    }

    @Test func aJSONValue_printsAsJSON() {
        let error = failureEverywhere(Coded.self, #"{"n": ["x", {"b": null, "a": 1.50}]}"#)
        #expect(error?.message == #"["x",{"a":1.50,"b":null}] is not one of the mapped values"#)
        #expect("\(JSONValue.object(["k": .array([.bool(true), .string("q\"")])]))" == #"{"k":[true,"q\""]}"#)
    }

    @JSONModel struct Refused {
        @Transform(Refused.n) var n: Int? = 5
        static let n = Transformer<JSONValue, Int?>(forward: { _ in nil }, reverse: { _ in throw JSONError(.notEncodable, "refused") })
    }

    @Test func notEncodable_showsTheValueWithoutOptional() throws {
        let error = try #require(throws: JSONError.self) { try JSONAdapter.json(from: Refused()) }
        #expect(error.description == "notEncodable: cannot encode Refused.n = 5: refused (at $, property Refused.n)")
        var none = Refused()
        none.n = nil
        let nilError = try #require(throws: JSONError.self) { try JSONAdapter.json(from: none) }
        #expect(nilError.message == "cannot encode Refused.n = nil: refused")
    }

    class Animal: JSONModel {
        var legs = 0
        required init() {}
        class var jsonMapping: JSONMapping<Animal> { JSONMapping<Animal> { Map(\.legs, "legs.count") } }
    }

    @Test func aClassPropertyWithoutName_isNamedFromItsKeyPath() {
        let error = failureEverywhere(Animal.self, #"{"legs": {"count": "x"}}"#)
        #expect(error?.description == #"typeMismatch: expected Int, found string "x" "#
            + "(at $.legs.count, property Animal.legs.count, line 1, column 20, byte 19)")
    }

    @JSONModel struct Checked {
        struct TooSmall: Error, CustomStringConvertible { var description: String { "n must be at least 2" } }
        var n = 0
        func validate() throws { if n < 2 { throw TooSmall() } }
    }

    @Test func validationFailure_namesTheModelInItsOwnSlot() {
        let error = failureEverywhere(Checked.self, #"{"n": 1}"#)
        #expect(error?.code == .validationFailed)
        #expect(error?.model == "Checked")
        #expect(error?.property == nil)
        #expect(error?.description == "validationFailed: Checked is not valid: n must be at least 2 (at $, model Checked, line 1, column 8, byte 7)")
    }
}
