import Foundation
import Testing
@testable import Magma

/// Decimal holds about 38 significant digits; `Decimal(string:)` silently drops the rest.
/// Magma decodes a number into a Decimal only when the Decimal is exactly that number.
@Suite struct DecimalExactnessTests {
    @JSONModel struct Amount: Equatable {
        var value: Decimal = 0
    }

    @Test(arguments: ["0.1", "-12345678901234567890.123456789", "1e30", "123456789012345678901234567890123456", "-0", "100e-2"])
    func representable_decodesExactly(text: String) throws {
        let value = try decodeEverywhere(Amount.self, "{\"value\": \(text)}").value
        #expect(JSONNumber(value.description) == JSONNumber(text), "\(text) -> \(value)")
    }

    @Test(arguments: [String(repeating: "1234567890", count: 10), "0.1234567890123456789012345678901234567890123",
                      "99999999999999999999999999999999999999999", "1e200", "1e-200"])
    func notRepresentable_isAnError(text: String) throws {
        #expect(failureEverywhere(Amount.self, "{\"value\": \(text)}")?.code == .numberOutOfRange, "\(text)")
    }
}
