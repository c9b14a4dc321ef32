import Foundation
import Testing
@testable import Magma

@Suite struct HookTests {
    @JSONModel struct Range: Equatable {
        struct Invalid: Error {}
        var low = 0
        var high = 0
        @Ignore var width = 0
        mutating func didDecode() throws { width = high - low }
        func validate() throws { if low > high { throw Invalid() } }
    }

    @JSONModel struct Holder: Equatable {
        var ranges: [Range] = []
    }

    @Test func didDecode_derivesFromDecodedFields() throws {
        #expect(try decodeEverywhere(Range.self, #"{"low": 2, "high": 9}"#).width == 7)
    }

    @Test func validate_errorComesBackWithTheModelsPath() throws {
        let error = failureEverywhere(Holder.self, #"{"ranges": [{"low": 1, "high": 2}, {"low": 5, "high": 1}]}"#)
        #expect(error?.code == .validationFailed)
        #expect(error?.path == "$.ranges[1]")
        #expect(error?.underlying is Range.Invalid)
        #expect(error?.offset == 55, "the closing brace of the invalid object")
    }
}
