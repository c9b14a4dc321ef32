import Foundation
import Testing
@testable import Magma

/// The semantics table of DESIGN.md, row by row.
@Suite struct SemanticsTests {
    @JSONModel struct Item: Equatable {
        var name = "default"
        var count = 7
        var note: String?
        var tags: [String] = ["t"]
        @Required var id = 0
    }

    @Test func unknownKeys_ignoredAtEveryDepth() throws {
        let json = #"{"id": 1, "zzz": {"name": "inner", "a": [1, {"count": 3}, [[]]]}, "name": "outer", "q": [true, null]}"#
        #expect(try decodeEverywhere(Item.self, json) == Item(name: "outer", id: 1))
    }

    @Test func absentKeys_keepDefaults() throws {
        #expect(try decodeEverywhere(Item.self, #"{"id": 2}"#) == Item(id: 2))
    }

    @Test func requiredKey_missing_isMissingKey() throws {
        let error = failureEverywhere(Item.self, #"{"name": "x", "count": 1}"#)
        #expect(error?.code == .missingKey)
        #expect(error?.property == "Item.id")
        #expect(error?.message.contains("\"id\"") == true)
        #expect(error?.offset == 24, "at the closing brace of the object")
    }

    @Test func null_makesOptionalNil() throws {
        let model = try decodeEverywhere(Item.self, #"{"id": 1, "note": null}"#)
        #expect(model.note == nil)
        #expect(try decodeEverywhere(Item.self, #"{"id": 1, "note": "n"}"#).note == "n")
    }

    @Test func null_forNonOptional_isAnError() throws {
        let error = failureEverywhere(Item.self, #"{"id": 1, "count": null}"#)
        #expect(error?.code == .nullValue)
        #expect(error?.property == "Item.count")
        #expect(error?.path == "$.count")
        let arrayError = failureEverywhere(Item.self, #"{"id": 1, "tags": null}"#)
        #expect(arrayError?.code == .nullValue)
    }

    @Test func null_forNonOptional_keepsDefaultWhenAsked() throws {
        var options = DecodingOptions()
        options.nullForNonOptional = .keepDefault
        let model = try decodeEverywhere(Item.self, #"{"id": 1, "count": null, "name": null, "tags": null, "note": null}"#,
                                         options: options)
        #expect(model == Item(id: 1))
    }

    @Test func wrongType_isTypeMismatchNamingBoth() throws {
        let error = failureEverywhere(Item.self, #"{"id": 1, "name": 12}"#)
        #expect(error?.code == .typeMismatch)
        #expect(error?.message == "expected String, found number 12")
        #expect(error?.property == "Item.name")
        let other = failureEverywhere(Item.self, #"{"id": 1, "count": "12"}"#)
        #expect(other?.message == "expected Int, found string \"12\"")
        let container = failureEverywhere(Item.self, #"{"id": 1, "count": {"a": 1}}"#)
        #expect(container?.message == "expected Int, found object")
        let array = failureEverywhere(Item.self, #"{"id": 1, "tags": [1]}"#)
        #expect(array?.message == "expected String, found number 1")
        #expect(array?.path == "$.tags[0]")
    }

    @Test func lenientTypes_coerceWhenAsked() throws {
        var options = DecodingOptions()
        options.lenientTypes = true
        let model = try decodeEverywhere(Item.self, #"{"id": "3", "name": 12, "count": "42", "tags": [true, 1.5]}"#,
                                         options: options)
        #expect(model == Item(name: "12", count: 42, tags: ["true", "1.5"], id: 3))
        let error = failureEverywhere(Item.self, #"{"id": "three"}"#, options: options)
        #expect(error?.code == .typeMismatch)
    }

    @Test func topLevelValueOfWrongType_isTypeMismatch() throws {
        let error = failureEverywhere(Item.self, #"[1, 2]"#)
        #expect(error?.code == .typeMismatch)
        #expect(error?.path == "$")
        #expect(failureEverywhere(Item.self, #""text""#)?.code == .typeMismatch)
    }
}

@Suite struct PartialResultTests {
    @Test func modelsUntilError_keepsEveryModelBeforeTheFailure() throws {
        let json = #"[{"number": 1}, {"number": 2, "labels": [{"name": "a"}]}, {"number": "three"}, {"number": 4}]"#
        let (models, error) = JSONAdapter.modelsUntilError(GHIssue.self, from: Data(json.utf8))
        #expect(models.map(\.number) == [1, 2])
        #expect(models[1].labels == [GHLabel(name: "a", color: "")])
        #expect(error?.code == .typeMismatch)
        #expect(error?.path == "$[2].number")
    }

    @Test func modelsUntilError_syntaxErrorAfterCompleteModels() throws {
        let (models, error) = JSONAdapter.modelsUntilError(GHIssue.self, from: Data(#"[{"number": 1}, {"number": 2}, {"numb"#.utf8))
        #expect(models.map(\.number) == [1, 2])
        #expect(error?.code == .unexpectedEnd)
    }

    @Test func modelsUntilError_noErrorGivesAll() throws {
        let (models, error) = JSONAdapter.modelsUntilError(GHIssue.self, from: Data(#"[{"number": 1}]"#.utf8))
        #expect(models.map(\.number) == [1])
        #expect(error == nil)
    }
}
