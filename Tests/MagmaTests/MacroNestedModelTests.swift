import Foundation
import Testing
@testable import Magma

// Nested @JSONModel models: their drafts are moved into the parent's property or array by the
// model's generated `moveModel(fromDraft:to:as:)` (`DraftField`), in each form a
// property can hold them: required, optional, defaulted, `@Required` optional, arrays, key paths,
// and inside a `Map`-declared model.

@JSONModel struct NestedChild: Equatable {
    let name: String
    var rank = 0
    func validate() throws {
        guard rank >= 0 else { throw NegativeRank() }
    }
    struct NegativeRank: Error {}
}

@JSONModel(keyNaming: .snakeCase)
struct NestedParent: Equatable {
    let required: NestedChild
    let optional: NestedChild?
    var defaulted = NestedChild(name: "default")
    @Required let requiredOptional: NestedChild?
    var children: [NestedChild] = []
    let optionalChildren: [NestedChild]?
    @Key("wrapper.inner") let deep: NestedChild?
}

/// A `Map` model holding macro models: a non-optional property (the model's own type, not an
/// optional) and an array.
struct MappedNestedParent: JSONModel, Equatable {
    var child = NestedChild(name: "none")
    var children: [NestedChild] = []
    static let jsonMapping = JSONMapping<MappedNestedParent> {
        Map(\.child, "child")
        Map(\.children, "children")
    }
}

@Suite struct MacroNestedModelTests {
    static let full = #"""
        {"required": {"name": "r", "rank": 1}, "optional": {"name": "o"}, "defaulted": {"name": "d", "rank": 2},
         "required_optional": null, "children": [{"name": "a"}, {"name": "b", "rank": 3}],
         "optional_children": [{"name": "c"}], "wrapper": {"inner": {"name": "w"}}}
        """#

    @Test func everyForm_decodesIntoItsProperty() throws {
        let parent = try decodeEverywhere(NestedParent.self, Self.full)
        #expect(parent.required == NestedChild(name: "r", rank: 1))
        #expect(parent.optional == NestedChild(name: "o"))
        #expect(parent.defaulted == NestedChild(name: "d", rank: 2))
        #expect(parent.requiredOptional == nil)
        #expect(parent.children == [NestedChild(name: "a"), NestedChild(name: "b", rank: 3)])
        #expect(parent.optionalChildren == [NestedChild(name: "c")])
        #expect(parent.deep == NestedChild(name: "w"))
        var nulls = EncodingOptions()
        nulls.nilProperties = .writeNull
        #expect(try JSONAdapter.model(NestedParent.self, from: JSONAdapter.json(from: parent, options: nulls)) == parent)
    }

    @Test func absentOrNull_keepsDefaultsAndGivesNil() throws {
        let json = #"{"required": {"name": "r"}, "optional": null, "required_optional": {"name": "q"}, "optional_children": null}"#
        let parent = try decodeEverywhere(NestedParent.self, json)
        #expect(parent.optional == nil)
        #expect(parent.defaulted == NestedChild(name: "default"))
        #expect(parent.requiredOptional == NestedChild(name: "q"))
        #expect(parent.children == [])
        #expect(parent.optionalChildren == nil)
        #expect(parent.deep == nil)
    }

    @Test func nestedModels_takeTheFastPaths() throws {
        let plan = try NestedParent.JSONDraft.cachedMapping.plan(for: NestedParent.JSONDraft.self)
        func target(_ key: String) throws -> ValueTarget {
            let index = try #require(plan.root.names.firstIndex(of: key))
            return plan.root.entries[index].target.takeUnretainedValue()
        }
        // A draft holds a required model as an optional until the key is known to be present.
        #expect((try target("required") as? DraftField<NestedChild>)?.form == .optional)
        #expect((try target("optional") as? DraftField<NestedChild>)?.form == .optional)
        #expect((try target("defaulted") as? DraftField<NestedChild>)?.form == .value)
        let elements = try #require(ArrayCodec(objectModelCodec(NestedChild.self)).arrayOwner as? ArrayOwner<NestedChild>)
        #expect((elements.elementTarget as? DraftField<NestedChild>)?.form == .element)
    }

    @Test func mappedModel_holdsMacroModels() throws {
        let json = #"{"child": {"name": "x", "rank": 4}, "children": [{"name": "y"}]}"#
        let parent = try decodeEverywhere(MappedNestedParent.self, json)
        #expect(parent.child == NestedChild(name: "x", rank: 4))
        #expect(parent.children == [NestedChild(name: "y")])
        #expect(try decodeEverywhere(MappedNestedParent.self, "{}").child == NestedChild(name: "none"))
        let error = try #require(failureEverywhere(MappedNestedParent.self, #"{"child": {"rank": 1}}"#))
        #expect(error.code == .missingKey)
        #expect(error.path == "$.child")
        #expect(error.property == "NestedChild.name")
    }

    @Test func topLevelArray_appendsModels() throws {
        let models = try JSONAdapter.models(NestedChild.self, from: #"[{"name": "a"}, {"name": "b", "rank": 1}]"#)
        #expect(models == [NestedChild(name: "a"), NestedChild(name: "b", rank: 1)])
        #expect(throws: JSONError.self) { try JSONAdapter.models(NestedChild.self, from: #"[{"name": "a"}, null]"#) }
    }

    @Test func missingRequiredModel_isMissingKeyNamingTheProperty() throws {
        let error = try #require(failureEverywhere(NestedParent.self, #"{"required_optional": null}"#))
        #expect(error.code == .missingKey)
        #expect(error.property == "NestedParent.required")
        let optional = try #require(failureEverywhere(NestedParent.self, #"{"required": {"name": "r"}}"#))
        #expect(optional.property == "NestedParent.requiredOptional")
    }

    @Test func nullForRequiredModel_isNullValueAtItsKey() throws {
        let error = try #require(failureEverywhere(NestedParent.self, #"{"required": null, "required_optional": null}"#))
        #expect(error.code == .nullValue)
        #expect(error.path == "$.required")
        #expect(error.property == "NestedParent.required")
        #expect(error.offset == 13, "the null token")
    }

    @Test func wrongType_namesTheModelAndProperty() throws {
        let error = try #require(failureEverywhere(NestedParent.self, #"{"required": "r", "required_optional": null}"#))
        #expect(error.code == .typeMismatch)
        #expect(error.property == "NestedParent.required")
        #expect(error.message.contains("expected NestedChild, found string"))
        let element = try #require(failureEverywhere(NestedParent.self,
                                                     #"{"required": {"name": "r"}, "required_optional": null, "children": [{"name": "a"}, 7]}"#))
        #expect(element.code == .typeMismatch)
        #expect(element.path == "$.children[1]")
    }

    @Test func errorsInsideNestedModels_arePositioned() throws {
        let missing = try #require(failureEverywhere(NestedParent.self,
                                                     #"{"required": {"name": "r"}, "required_optional": null, "children": [{"name": "a"}, {"rank": 1}]}"#))
        #expect(missing.code == .missingKey)
        #expect(missing.path == "$.children[1]")
        #expect(missing.property == "NestedChild.name")
        let invalid = try #require(failureEverywhere(NestedParent.self, #"{"required": {"name": "r", "rank": -1}, "required_optional": null}"#))
        #expect(invalid.code == .validationFailed)
        #expect(invalid.path == "$.required")
        let deep = try #require(failureEverywhere(NestedParent.self,
                                                  #"{"required": {"name": "r"}, "required_optional": null, "wrapper": {"inner": {"name": 1}}}"#))
        #expect(deep.code == .typeMismatch)
        #expect(deep.path == "$.wrapper.inner.name")
        #expect(deep.property == "NestedChild.name")
    }
}
