// Foundation's coder behaviours, part 3: numbers, strings and escapes, fragments, errors, input
// encodings and byte order marks, trailing commas (see FoundationCoderConformanceTests.swift).
import Foundation
import Testing
@testable import Magma

@Suite struct FoundationDecodingConformanceTests {
    // MARK: Numbers

    /// Each built-in number type, as an object member and as an array element, both ways.
    @Test func builtInScalars_roundTrip() {
        func both<T: Codable & Equatable>(_ value: T) {
            expectRoundTrip(ObjectBox(value: value))
            expectRoundTrip(ArrayBox(value))
        }
        both(true); both(false); both(Int?.none)
        both(Int8(-42)); both(UInt8(42)); both(Int16(-30042)); both(UInt16(30042))
        both(Int32(-2_000_000_042)); both(UInt32(2_000_000_042))
        both(Int64(-9_000_000_000_000_000_042)); both(UInt64(9_000_000_000_000_000_042))
        both(Int(-9_000_000_000_000_000_042)); both(UInt(9_000_000_000_000_000_042))
        both(Float(1.5)); both(Double(1.5)); both(Decimal.pi); both("Hello, world!")
        both(URL(string: "https://swift.org")!)
    }

    /// Booleans are never numbers, nor numbers booleans.
    @Test(arguments: ["intValue", "int8Value", "int16Value", "int32Value", "int64Value", "uintValue", "uint8Value", "uint16Value",
                      "uint32Value", "uint64Value", "floatValue", "doubleValue", "decimalValue"])
    func booleans_neverReadAsNumbers(_ member: String) {
        expectSameDecode(Numbers.self, "{ \"\(member)\": false }")
        expectSameDecode(Numbers.self, "{ \"\(member)\": true }")
        expectSameDecode(Numbers.self, "{ \"\(member)\": 1 }")
    }

    @Test func typeCoercion_failsAlike() {
        func coerce<T: Decodable & Equatable>(_ json: String, _ type: T.Type) { #expect(expectSameDecode(type, json).error != nil) }
        for json in ["[false,true]"] {
            coerce(json, [Int].self); coerce(json, [Int8].self); coerce(json, [Int16].self); coerce(json, [Int32].self)
            coerce(json, [Int64].self); coerce(json, [UInt].self); coerce(json, [UInt8].self); coerce(json, [UInt16].self)
            coerce(json, [UInt32].self); coerce(json, [UInt64].self); coerce(json, [Float].self); coerce(json, [Double].self)
        }
        for json in ["[0,1]", "[0.0,1.0]", "[1]"] { coerce(json, [Bool].self) }
    }

    @Test func integerLimits_minMax_encodeAlike() {
        expectSameEncode(Extremes())
        expectSameEncode(Extremes(), configure: { $0.outputFormatting = .sortedKeys })
    }

    /// Integers written with a fraction of zero (`-12.0`) read into integer types.
    @Test func numericTypes_baselineAndFractionOfZero() {
        let source = NumberBag(int8Value: -12, uint8Value: 34, int16Value: -5678, uint16Value: 9011, int32Value: -12_141_516,
                               uint32Value: 17_181_920, int64Value: -21_222_324_252_627, intValue: -2_829_303_132, uintValue: 33_343_536,
                               uint64Value: 373_839_404_142, floatValue: 1.234, doubleValue: 5.101520, decimalValue: Decimal(10))
        expectRoundTrip(source)
        expectSameDecode(NumberBag.self, """
            {"int8Value": -12.0, "uint8Value": 34.0, "int16Value": -5678.0, "uint16Value": 9011.0, "int32Value": -12141516.0,
             "uint32Value": 17181920.0, "int64Value": -21222324252627.0, "intValue": -2829303132.0, "uintValue": 33343536.0,
             "uint64Value": 373839404142.0, "floatValue": 1.234, "doubleValue": 5.101520, "decimalValue": 10.0}
            """)
    }

    static let numericLimits: [(String, String)] = [
        ("int8Value", "0"), ("int8Value", "-128"), ("int8Value", "127"), ("int8Value", "-129"), ("int8Value", "128"), ("int8Value", "1.2"),
        ("uint8Value", "255"), ("uint8Value", "-0"), ("uint8Value", "-1"), ("uint8Value", "256"),
        ("int16Value", "-32768"), ("int16Value", "32767"), ("int16Value", "-32769"), ("int16Value", "32768"),
        ("uint16Value", "65535"), ("uint16Value", "34.0"), ("uint16Value", "-1"), ("uint16Value", "65536"),
        ("int32Value", "-2147483648"), ("int32Value", "2147483647"), ("int32Value", "-2147483649"), ("int32Value", "2147483648"),
        ("uint32Value", "4294967295"), ("uint32Value", "-1"), ("uint32Value", "4294967296"),
        ("int64Value", "-9223372036854775808"), ("int64Value", "9223372036854775807"), ("int64Value", "9223372036854775808"),
        ("int64Value", "-100000000000000000000"), ("int64Value", "10000000000000000000000000000000000000"),
        ("uint64Value", "18446744073709551615"), ("uint64Value", "-1"), ("uint64Value", "18446744073709600000"),
        ("intValue", "-9223372036854775808"), ("intValue", "9223372036854775807"), ("uintValue", "18446744073709551615"),
        ("doubleValue", "2.2250738585072014e-308"), ("doubleValue", "1.7976931348623157e+308"), ("doubleValue", "5e-324"),
        ("doubleValue", "3.141592653589793"), ("decimalValue", "1.2"), ("decimalValue", "3.14159265358979323846264338327950288419"),
        ("decimalValue", "3402823669209384634633746074317682114550000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"),
        ("decimalValue", "-3402823669209384634633746074317682114550000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"),
        // Not JSON numbers.
        ("int8Value", "0000000000000000000000000000001"), ("doubleValue", "-.1"), ("int32Value", "+1"), ("intValue", ".012"),
    ]

    /// Values in range read; out of range, or not JSON numbers, fail alike.
    @Test(arguments: numericLimits)
    func numericLimits_inRangeReadOthersFailAlike(_ member: (String, String)) {
        expectSameDecode(Numbers.self, "{ \"\(member.0)\": \(member.1) }")
    }

    @Test func floats_tooLargeFail_extremesRoundTrip() {
        expectSameDecode(Float.self, "1e100")
        expectSameDecode(Double.self, "100e323")
        expectRoundTrip(FloatExtremes(floats: [.greatestFiniteMagnitude, .leastNormalMagnitude],
                                      doubles: [.greatestFiniteMagnitude, .leastNormalMagnitude]))
        expectRoundTrip([["magic_number": 7.45673334164903e-115]])
        expectSameDecode([String: UInt64].self, "{\"a\":6032314514195021674}")
    }

    @Test func doublesAndDecimals_roundTrip() {
        let doubles: [String: Double] = ["-55.66": -55.66, "-9.81": -9.81, "-0.284": -0.284, "-3.4028234663852886e+38": Double(-Float.greatestFiniteMagnitude),
                                         "-1.1754943508222875e-38": Double(-Float.leastNormalMagnitude), "-1.7976931348623157e+308": -.greatestFiniteMagnitude,
                                         "-2.2250738585072014e-308": -.leastNormalMagnitude, "0.000001": 0.000001]
        let texts = ["1.234567891011121314", "-1.234567891011121314", "0.1234567891011121314", "-0.1234567891011121314", "123.4567891011121314e-100",
                     "-123.4567891011121314e-100", "1234567891011121314e-100", "-1234567891011121314e-100", "0.1234567891011121314e-100",
                     "-0.1234567891011121314e-100", "3.14159265358979323846264338327950288419", "2.71828182845904523536028747135266249775",
                     "440474310512876335.18692524723746578303827301433673643795"]
        let decimals = Dictionary(uniqueKeysWithValues: texts.map { ($0, Decimal(string: $0)!) })
        expectRoundTrip(DoublesAndDecimals(doubles: doubles, decimals: decimals), encoder: { $0.outputFormatting = .sortedKeys })
    }

    @Test func decimals_largeAndHuge() {
        expectRoundTrip(Decimal(sign: .plus, exponent: 127, significand: Decimal(1)))
        expectRoundTrip(Decimal?.some(Decimal(sign: .plus, exponent: 127, significand: Decimal(1))))
        expectRoundTrip(BigDecimals(), encoder: { $0.outputFormatting = .sortedKeys })
        expectSameDecode(Decimal.self, "23456789012000000000000000000000000000000000000000000000000000000000000000000 ")
        expectSameDecode(Decimal.self, "\"12\"")
    }

    // MARK: Strings

    /// `_test(JSONString:to:)`: the same text in UTF-8 and in UTF-16 of both byte orders.
    static func inEveryEncoding<T: Decodable & Equatable>(_ json: String, as type: T.Type, sourceLocation: SourceLocation = #_sourceLocation) {
        for encoding in [String.Encoding.utf8, .utf16BigEndian, .utf16LittleEndian, .utf32BigEndian, .utf32LittleEndian] {
            expectSameDecode(type, json.data(using: encoding)!, sourceLocation: sourceLocation)
        }
    }

    @Test func escapesAndUnicode_decodeAlikeInEveryEncoding() {
        Self.inEveryEncoding("\"\\/test\\/path\"", as: String.self)
        Self.inEveryEncoding("\"\\\\/test\\\\/path\"", as: String.self)
        Self.inEveryEncoding("[\"閆崬밺뀫颒\"]", as: [String].self)
        Self.inEveryEncoding("[\"本日\"]", as: [String].self)
        for json in ["\"\\u00e9\\u2265\"", "\"42\\u00e942\\u226542\"", "\"\\u00E9\"", "\"\\uD834\\uDD1E\""] {
            Self.inEveryEncoding(json, as: String.self)
        }
        for escape in ["\\u0000", "\\u0001", "\\u0007", "\\b", "\\t", "\\n", "\\u000b", "\\f", "\\r", "\\u000e", "\\u001f", " "] {
            Self.inEveryEncoding("\"\(escape)\"", as: String.self)
        }
    }

    @Test func badEscapes_failAlike() {
        for json in ["\\uD834", "\\uD834hello", "hello\\uD834", "\\uD834\\u1221", "\\uD8", "\\uD834x\\uDD1E"] {
            #expect(expectSameDecode(String.self, json).error != nil)
        }
        expectSameDecode([String].self, "[\"\\h\\e\\l\\l\\o\"]")
    }

    @Test func nullCharacter_roundTripsEverywhere() {
        let text = "abc\u{0000}def"
        expectRoundTrip([text])
        expectRoundTrip([text: text])
        expectRoundTrip(ObjectBox(value: text))
    }

    /// Keys equal as Strings but not as bytes: one dictionary entry.
    @Test func canonicallyEquivalentKeys_oneEntry() {
        let outcome = expectSameDecode([String: Bool].self, "{\n  \"caf\\u00e9\" : true,\n  \"cafe\\u0301\" : false\n}")
        #expect(outcome.value?.count == 1)
    }

    // MARK: Fragments, whitespace and structure

    @Test func numberFragments_decodeAlike() {
        for json in ["0 ", "1.0 ", "0.1 ", "1e3 ", "-2.01e-3 ", "0", "1.0", "1e3", "-2.01e-3", "0e-10"] {
            Self.inEveryEncoding(json, as: Double.self)
        }
        for json in ["0.", "1e ", "-2.01e- ", "+", "2.01e-1234", "+2.0q", "2s", "NaN", "nan", "Infinity", "inf", "-", "0x42", "1.e2"] {
            #expect(expectSameDecode(Float.self, json).error != nil)
        }
    }

    @Test func fragmentsWithGarbage_failAlike() {
        expectSameDecode(Bool.self, "tru_")
        expectSameDecode(Bool.self, "fals_")
        expectSameDecode(Bool?.self, "nul_")
        expectSameDecode(FragmentBox.self, "\"foo")
        expectSameDecode(Int.self, " ")
        expectSameDecode(Int.self, "")
        expectSameDecode([Int].self, "[1] x")
    }

    /// A number cut out of a longer one by a `Data` slice ends where the slice does.
    @Test func numberInADataSlice_endsWithTheSlice() {
        let whole = Data("3.141596".utf8)
        expectSameDecode(Double.self, whole[0..<4])
        expectSameDecode(Double.self, whole[2..<6])
    }

    @Test func whitespaceBeforeColon_decodesAlike() {
        for json in ["{\"v\"\n : true}", "{\"v\"\r\n : true}", "{\"v\"\r : true}", "{\"v\"\t:true}"] {
            expectSameDecode([String: Bool].self, json)
        }
    }

    /// 256 levels read; 513 are too deep for both.
    @Test func nestingDepth_limitAlike() {
        expectSameDecode(Depth.self, String(repeating: "[", count: 256) + String(repeating: "]", count: 256))
        expectSameDecode(Depth.self, String(repeating: "[", count: 513) + String(repeating: "]", count: 513))
    }

    /// JSONDecoder accepts one trailing comma in an array or an object, at any depth, and nothing
    /// else out of place.
    @Test(arguments: ["{\"key\" : [ true, ],}", "[1,]", "[1 , ]", "[[1,],[2],]", "{\"a\":{\"b\":1,},}", "{\"a\":1,\n}",
                      "[,]", "[1,,]", "{,}", "{\"a\":1,,}", "[1,]]", ",", "[1],", "{\"a\",}", "{\"a\":,}"])
    func trailingCommas_acceptedAsJSONDecoder(_ json: String) {
        expectSameDecode([String: [Bool]].self, json)
        expectSameDecode(AnyJSON.self, json)
    }

    /// Trailing commas past the document scanner's nesting (read by yajl) and before an error.
    @Test func trailingCommas_deepAndBeforeAnError() {
        let deep = String(repeating: "[", count: 300) + "1," + String(repeating: "],", count: 299) + "]"
        expectSameDecode(AnyJSON.self, deep)
        expectSameDecode(AnyJSON.self, "[[1,],[2,],{\"a\":tru}]")
    }

    // MARK: Input encodings

    /// UTF-16 and UTF-32 of either byte order, with and without a byte order mark; mismatched marks fail.
    @Test func byteOrderMarks_andEncodings_decodeAlike() {
        let json = "\"👍🏻\""
        func bytes(_ encoding: String.Encoding) -> [UInt8] { Array(json.data(using: encoding)!) }
        let utf8BOM: [UInt8] = [0xEF, 0xBB, 0xBF], be16: [UInt8] = [0xFE, 0xFF], le16: [UInt8] = [0xFF, 0xFE]
        let be32: [UInt8] = [0, 0, 0xFE, 0xFF], foundationLE32: [UInt8] = [0xFE, 0xFF, 0, 0]
        let inputs = [utf8BOM + bytes(.utf8), be16 + bytes(.utf16BigEndian), le16 + bytes(.utf16LittleEndian),
                      be32 + bytes(.utf32BigEndian), foundationLE32 + bytes(.utf32LittleEndian),
                      bytes(.utf16BigEndian), bytes(.utf16LittleEndian), bytes(.utf32BigEndian), bytes(.utf32LittleEndian),
                      foundationLE32 + bytes(.utf32BigEndian), be16 + bytes(.utf32LittleEndian), utf8BOM + bytes(.utf16BigEndian)]
        for input in inputs { expectSameDecode(String.self, Data(input)) }
        for encoding in [String.Encoding.utf16BigEndian, .utf16LittleEndian, .utf32BigEndian, .utf32LittleEndian] {
            expectSameDecode(Int.self, "7".data(using: encoding)!)
            expectSameDecode([String: Int].self, "{\"ab\":12}".data(using: encoding)!)
            expectSameDecode([String: Int].self, "{\"ab\":\"x\"}".data(using: encoding)!)
            expectSameDecode([String: Int].self, "{\"ab\":1,}".data(using: encoding)!)
        }
    }

    /// JSONDecoder takes a UTF-32LE mark's FF FE for UTF-16LE and fails; Magma reads UTF-32LE.
    @Test func utf32LittleEndianMark_readAsUTF32() throws {
        let input = Data([0xFF, 0xFE, 0, 0] + Array("[\"👍🏻\",1]".data(using: .utf32LittleEndian)!))
        #expect(throws: (any Error).self) { try JSONDecoder().decode([AnyJSON].self, from: input) }
        #expect(try MagmaDecoder().decode([AnyJSON].self, from: input) == [.string("👍🏻"), .int(1)])
    }

    // MARK: Errors

    @Test func errors_textAndPathAsJSONDecoder() {
        expectSameDecode(Invalid.self, "{\"invalid\": json}")
        expectSameDecode(Invalid.self, "{\"invalid\": 1}")
        expectSameDecode(Invalid.self, "{\"invalid\": null}")
        expectSameDecode(Invalid.self, "{}")
        expectSameDecode(Invalid.self, "[]")
        expectSameDecode([Invalid].self, "[{\"invalid\": \"a\"}, {\"invalid\": true}]")
        expectSameDecode([String: [Int]].self, "{\"a\": [1, \"2\"]}")
        expectSameDecode([[Int]].self, "[[1], {}]")
        expectSameDecode(Int.self, "[1,]")
        expectSameDecode(String.self, "{}")
        expectSameDecode(Double.self, "\"1\"")
        expectSameDecode(URL.self, "\"\"")
        expectSameDecode(Date.self, "\"x\"", configure: { $0.dateDecodingStrategy = .iso8601 })
        expectSameDecode(Date.self, "1", configure: { $0.dateDecodingStrategy = .iso8601 })
    }

    /// An error `init(from:)` throws itself leaves `decode` as it was thrown.
    @Test func errorsThrownByInit_passThrough() {
        expectSameDecode(Checked.self, "{ \"checkedString\" : \"baz\" }")
        expectSameDecode(CheckedSingle.self, "\"baz\"")
        expectSameDecode(CheckedSingle.self, "{ \"checkedString\" : \"baz\" }")
    }

    /// `decodeNil` that finds a value moves nothing on.
    @Test func repeatedFailedNilChecks_readTheValuesAfter() {
        #expect(expectSameDecode(NilChecks.self, "[1, 2, 3]").value != nil)
    }

    /// A dictionary with keys that are not String or Int, empty, both ways.
    @Test func emptyDictionaryWithStructKeys_roundTrips() {
        expectRoundTrip(StructKeyed(dict: [:]))
        expectRoundTrip(StructKeyed(dict: [StructKeyed.Key(x: "a"): "b"]))
    }
}

// MARK: - Fixture types

struct Numbers: Codable, Equatable {
    var intValue: Int?, int8Value: Int8?, int16Value: Int16?, int32Value: Int32?, int64Value: Int64?
    var uintValue: UInt?, uint8Value: UInt8?, uint16Value: UInt16?, uint32Value: UInt32?, uint64Value: UInt64?
    var floatValue: Float?, doubleValue: Double?, decimalValue: Decimal?
    var boolValue: Bool?
}

struct NumberBag: Codable, Equatable {
    let int8Value: Int8, uint8Value: UInt8, int16Value: Int16, uint16Value: UInt16, int32Value: Int32, uint32Value: UInt32
    let int64Value: Int64, intValue: Int, uintValue: UInt, uint64Value: UInt64
    let floatValue: Float, doubleValue: Double, decimalValue: Decimal
}

struct Extremes: Encodable {
    let int64Min = Int64.min, int64Max = Int64.max, uint64Min = UInt64.min, uint64Max = UInt64.max
}

struct FloatExtremes: Codable, Equatable { let floats: [Float]; let doubles: [Double] }
struct DoublesAndDecimals: Codable, Equatable { let doubles: [String: Double]; let decimals: [String: Decimal] }

struct BigDecimals: Codable, Equatable {
    var uint64Max = Decimal(UInt64.max)
    var uint64MaxPlus1 = Decimal(UInt64.max) + Decimal(1)
    var int64Min = Decimal(Int64.min)
    var int64MinMinus1 = Decimal(Int64.min) - Decimal(1)
}

struct FragmentBox: Decodable, Equatable { var foo: String }
struct Invalid: Decodable, Equatable { var invalid: String }

/// Opens arrays inside arrays while the last one holds something.
struct Depth: Decodable, Equatable {
    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        while c.count! > 0 { c = try c.nestedUnkeyedContainer() }
    }
}

/// Throws its own error when the string is not "foo".
struct Checked: Decodable, Equatable {
    enum Wrong: Error { case notFoo }
    var checkedString: String
    init(from decoder: any Decoder) throws {
        enum CodingKeys: String, CodingKey { case checkedString }
        checkedString = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .checkedString)
        guard checkedString == "foo" else { throw Wrong.notFoo }
    }
}

struct CheckedSingle: Decodable, Equatable {
    init(from decoder: any Decoder) throws {
        guard try decoder.singleValueContainer().decode(String.self) == "foo" else { throw Checked.Wrong.notFoo }
    }
}

/// Two failed nil checks before each of three integers.
struct NilChecks: Decodable, Equatable {
    struct Unexpected: Error {}
    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        for expected in 1...3 {
            guard try !c.decodeNil(), try !c.decodeNil(), try c.decode(Int.self) == expected else { throw Unexpected() }
        }
    }
}

struct StructKeyed: Codable, Equatable {
    struct Key: Codable, Hashable { var x: String }
    var dict: [Key: String]
}
