import Foundation
import Testing
@testable import Magma

/// With `lenientTypes`, every number type takes a string holding JSON number text, and only that.
@Suite struct LenientNumberTests {
    @JSONModel struct Numbers: Equatable {
        var int = 0
        var double = 0.0
        var float: Float = 0
        var decimal: Decimal = 0
        var number: JSONNumber = 0
    }

    private static var lenient: DecodingOptions {
        var options = DecodingOptions()
        options.lenientTypes = true
        return options
    }

    @Test func numberText_inAString_decodesForEveryNumberType() throws {
        let json = #"{"int": "-42", "double": "2.5e3", "float": "0.5", "decimal": "12.345", "number": "1e400"}"#
        let model = try decodeEverywhere(Numbers.self, json, options: Self.lenient)
        #expect(model == Numbers(int: -42, double: 2500, float: 0.5, decimal: Decimal(string: "12.345")!,
                                 number: JSONNumber("1e400")!))
        #expect(model.number.text == "1e400", "the text is kept as written")
    }

    @Test func otherStrings_orStrictOptions_areTypeMismatches() {
        for key in ["int", "double", "float", "decimal", "number"] {
            for text in ["", "4 2", "0x10", "+1", "1.", "NaN", "one"] {
                let error = failureEverywhere(Numbers.self, #"{"\#(key)": "\#(text)"}"#, options: Self.lenient)
                #expect(error?.code == .typeMismatch, "\(key) \(text)")
            }
            #expect(failureEverywhere(Numbers.self, #"{"\#(key)": "1"}"#)?.code == .typeMismatch, "\(key) strict")
        }
    }

    /// `JSONNumber(_:)` takes JSON number text and nothing else: the scanner's number grammar.
    @Test func jsonNumber_acceptsNumberSyntaxOnly() {
        for text in ["0", "-0", "12", "-1.5", "1e9", "1E+2", "2.5e-3", "123456789012345678901234567890", "1e400"] {
            #expect(JSONNumber(text)?.text == text, "\(text)")
        }
        for text in ["", "-", "01", "-01", ".5", "1.", "1e", "1e+", "+1", " 1", "1 ", "1x", "0x10", "NaN", "Infinity", "1,5", "١"] {
            #expect(JSONNumber(text) == nil, "\(text)")
        }
    }
}
