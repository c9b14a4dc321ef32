// Foundation's coder behaviours, part 5: `allowsJSON5` and `assumesTopLevelDictionary` (see
// FoundationCoderConformanceTests.swift). swift-foundation's JSON5 spec files are restated as
// inputs of each category here: with JSONDecoder as the oracle, any input of the category serves.
import Foundation
import Testing
@testable import Magma

@Suite struct FoundationJSON5ConformanceTests {
    static let json5: @Sendable (JSONDecoder) -> Void = { $0.allowsJSON5 = true }

    /// Each input decoded as `type` with JSON5 on, and with it off.
    static func both<T: Decodable & Equatable>(_ type: T.Type, _ inputs: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for json in inputs {
            expectSameDecode(type, json, configure: json5, sourceLocation: sourceLocation)
            expectSameDecode(type, json, sourceLocation: sourceLocation)
        }
    }

    static let integers = ["1", "11", "99887766", "-1", "-10", "0", "+0", "-0", "+1", "+10", "0x1F", "0x0000000E", "-0X1f", "+0X1f",
                           "1.", "1.e2", "1e2", "1E2", "1e+2", "1E+2", "1e+02", "1E+02", "0xFFFFFFFFFFFFFFFF", "-0x8000000000000000",
                           "-", "+", "-a", "+a", "-0x", "+0x", "-0x ", "+0x ", "-0xAFFFFFAFFFFFAFFFFFAFFFFFAFFFFFAFFFFFAFFFFFAFFFFF",
                           "0xABC.DEF", "0xABCpD", "1e", "1E", "1e ", "1E ", "+1e ", "+1e", "-1e ", "-1E ", "Infinity", "NaN", "01", "-01"]
    static let doubles = ["1", "-10", "+0", "-0", "+10", "Infinity", "-Infinity", "+Infinity", "-NaN", "+NaN", "NaN", ".1", "1.", "-.1",
                          "+.1", "1e-2", "1E-02", "1e+02", "0x1F", "-0X1f", "+0X1f", "-Inf", "-Inf       ", "+Inf", "+Na", "-Na    ",
                          "-infinity", "+infinity       ", "+NAN", "-NA", "-NAN    ", "0x2.", "0x2.2", ".e1", "0xFFFFFFFFFFFFFFFFFFFFFF",
                          ".", "+.", "1e400", "Infinityx", " Infinity ", "[Infinity, -Infinity, NaN]"]

    /// (A negative hexadecimal number read as an unsigned type can stop JSONDecoder's JSON5 at a
    /// precondition in its number validation, here: those are read as `Int` only.)
    @Test func numbers_asIntegers() {
        Self.both(Int.self, Self.integers)
        Self.both(UInt64.self, Self.integers.filter { !$0.lowercased().hasPrefix("-0x") })
    }

    @Test func numbers_asDoubles() {
        for json in Self.doubles {
            let (f, m) = BothDecoders(Self.json5).decode(FloatBits.self, Data(json.utf8))
            #expect(f == m, "\(json)")
        }
        Self.both([FloatBits].self, ["[Infinity, -Infinity, NaN, +1, .5, 0x10]"])
    }

    @Test func numbers_intoOtherTypes() {
        Self.both(String.self, ["Infinity", "0x10", "+1"])
        Self.both(Decimal.self, ["+1.5", ".5", "0x10", "Infinity"])
        Self.both(Int8.self, ["0x7F", "0x80", "-0x80", "-0x81"])
        Self.both(Float.self, ["+3.5", "-Infinity", "1e39"])
    }

    @Test func null_andNearMisses() {
        Self.both(NullOnly.self, ["null", "nul", "nu", "n", "n    ", "nu   "])
    }

    /// JSONDecoder's JSON5 takes any run of letters and digits that starts as a number may
    /// (`Null`, by its `N`) as a number, checked only when decoded as one; Magma checks every
    /// token when the document is read, as it does JSON.
    @Test func numberLikeRun_checkedWhenRead() throws {
        let decoder = JSONDecoder(), magma = MagmaDecoder(), json = Data("Null".utf8)
        decoder.allowsJSON5 = true
        magma.allowsJSON5 = true
        #expect(throws: NullOnly.NotNull.self) { try decoder.decode(NullOnly.self, from: json) }
        #expect(throws: DecodingError.self) { try magma.decode(NullOnly.self, from: json) }
        #expect(CoderOutcome { try magma.decode(FloatBits.self, from: json) } == CoderOutcome { try decoder.decode(FloatBits.self, from: json) })
    }

    @Test func incompleteAndInvalidInput_failAlike() {
        Self.both([String].self, ["[", "[ ", "[\n\n", "['hi',", "['hi', ", "['hi',\n"])
        Self.both([String: Bool].self, ["{", "{ ", "{k ", "{k :", "{k : ", "{k : true", "{k : true ", "{k : true\n\n", "{k : true  "])
        for bytes: [UInt8] in [[0x7B, 0x80], [0x7B, 0xC0], [0x7B, 0xE0, 0x80], [0x7B, 0xF0, 0x80, 0x80]] {
            expectSameDecode([String: Bool].self, Data(bytes), configure: Self.json5)
        }
    }

    /// Unquoted keys, newlines of each kind and comments in every place a blank may be.
    @Test func keysCommentsAndNewlines_decodeAlike() {
        Self.both([String: Bool].self, [
            "{v\n : true}", "{v \n : true}", "{ v \n : true,\nv\n:true,}", "{v\r : true}", "{ v \r : true,\rv\r:true,}",
            "{v\r\n : true}", "{ v \r\n : true,\r\nv\r\n:true,}", "{v// comment \n : true}", "{v // comment \n : true}",
            "{v/* comment*/ \n : true}", "{v/* comment */:/*comment*/\ntrue}", "{v// comment \r : true}",
            "{v/* comment */\r: true}", "{v// comment \r\n : true}", "{v/* comment */:/*comment*/\r\ntrue}",
            "// start with a comment\r\n{v:true}", "{v:true}// end", "/* a */{v:/* b */true/* c */}/* d */", "{/**/v/**/:/**/true/**/,/**/}",
            "{v:true/* unterminated", "{v:true// no newline", "{v:true}/", "{ $_a9: true }", "{ while: true, null: false }",
            "{ 'single': true }", "{ \"double\": true }", "{ \\u0061b: true }", "{ ünï: true }", "{ a-b: true }", "{ 1a: true }",
            "{ ,a: true }", "{ , }", "{ a: true b: false }", "{ a: true,, }", "{\u{00A0}a\u{2028}:\u{2029}true\u{FEFF}}",
            "{\u{000B}a\u{000C}: true}",
        ])
    }

    /// JSON5's strings: single quotes, `\x` escapes, line continuations, NUL refused.
    @Test func strings_decodeAlike() {
        Self.both([String: String].self, [
            "{v : \"hi\\x20there\"}", "{v : \"hi\\xthere\"}", "{v : \"hi\\x2there\"}", "{v : \"hi\\0there\"}", "{v : \"hi\\x00there\"}",
            "{v : \"hi\\u0000there\"}", "{v:\"hello\\uA\"}", "{v:\"hello\\uA   \"}", "{v: 'it\\'s \"quoted\"'}", "{v: 'a\\\nb'}",
            "{v: 'a\\\r\nb'}", "{v: 'a\\\rb'}", "{v: \"a\nb\"}", "{v: '\\q\\v\\b\\f\\/'}", "{v: '\\u00e9\\uD834\\uDD1E'}",
            "{v: 'é 𝄞'}", "{v: '\\a'}", "{v: '\\1'}", "{v: \"\\'\"}", "{v: '\u{2028}'}",
        ])
        Self.both(String.self, ["'single'", "\"double\"", "'multi\\\nline'", "'unescaped\nnewline'", "'\\''"])
    }

    @Test func arrays_decodeAlike() {
        Self.both([Bool?].self, ["[]", "[true, null, false]", "[true,]", "[,true]", "[,]", "[true false]", "[true /* c */, // d\n false ,]"])
    }

    @Test func topLevel_commentsAndEmpty() {
        Self.both(NullOnly.self, ["/* a */ null", "null /* a */", "// a\nnull", "null // a", "/**/", "//", "", " "])
        Self.both(Bool.self, ["/* unterminated true", "true /* unterminated", "/** a **/ true"])
    }

    /// A document in the style of a package manifest, as JSON and as JSON5.
    @Test func documents_decodeAlike() {
        Self.both(Manifest.self, [
            "{\"name\":\"magma\",\"version\":\"1.0.0\",\"private\":true,\"keywords\":[\"json\",\"swift\"],\"deps\":{\"yajl\":\"2\"},\"hex\":10}",
            """
            // a manifest
            {
              name: 'magma', version: "1.0.0", // inline
              private: true, /* block */ keywords: ['json', 'swift',],
              deps: { yajl: '2', }, hex: 0xA,
            }
            """,
        ])
        Self.both(Example.self, ["""
            {
              unquoted: 'and you can quote me on that',
              singleQuotes: 'I can use "double quotes" here',
              lineBreaks: "Look, Mom! \\
            No \\\\n's!",
              hexadecimal: 0xdecaf,
              leadingDecimalPoint: .8675309, andTrailing: 8675309.,
              positiveSign: +1,
              trailingComma: 'in objects', andIn: ['arrays',],
              "backwardsCompatible": "with JSON",
            }
            """])
    }

    @Test func assumedTopLevelDictionary_plainJSON() {
        let assume: (JSONDecoder) -> Void = { $0.assumesTopLevelDictionary = true }
        for json in ["\"x\" : 42", "{\"x\" : 42}", "", " ", "\"x\" : 42}", "{\"x\" : 42", "\"x\" : 42, \"y\": 1", "\"x\" : 42,",
                     "[1]", "42", "\"x\"", ",", "\"x\" : 42 x"] {
            expectSameDecode([String: Int].self, json, configure: assume)
        }
        expectSameDecode([Int].self, "[1,2,3]", configure: assume)
        expectSameDecode(Int.self, "42", configure: assume)
    }

    @Test func assumedTopLevelDictionary_json5() {
        let assume: (JSONDecoder) -> Void = { $0.allowsJSON5 = true; $0.assumesTopLevelDictionary = true }
        for json in ["hello: \"world\"", "{hello: \"world\"}", "hello: \"world\", goodbye: \"42\"", "hello: \"world\",",
                     "hello: \"world\"   ", "hello: \"world\",  ", "hello: \"world\"  ,  ", "   hello   : \"world\"   ",
                     "{hello: \"world\"", "hello: \"world\"}", "hello: \"world\" x ", "hello: \"world\" x", "hello: \"world\"x",
                     "", " ", "{ }", "{}", ",", " , ", ", ", "   ,", "// c\nhello: 'w'", "/* c */ {hello: 'w'}"] {
            expectSameDecode([String: String].self, json, configure: assume)
        }
        for json in ["hello: \"world\", goodbye: {\"hi\":\"there\"}", "hello: \"world\", goodbye: {\"hi\":\"there\"},",
                     "hello: \"world\", goodbye: {\"hi\":\"there\",},"] {
            expectSameDecode(HelloGoodbye.self, json, configure: assume)
        }
        expectSameDecode([Int].self, "[1,2,3]", configure: assume)
        expectSameDecode(String.self, "fragment", configure: assume)
        expectSameDecode(Int.self, "42", configure: assume)
    }

    /// A JSON5 error is placed in the text as written (comments, quotes and all), not in the JSON
    /// Magma made of it.
    @Test func errorLocation_inTheTextAsWritten() throws {
        let json = "{\n  // a comment\n  a: 'x', /* more */ b: tru\n}"
        let decoder = MagmaDecoder()
        decoder.allowsJSON5 = true
        do {
            _ = try decoder.decode([String: String].self, from: Data(json.utf8))
            Issue.record("decoded")
        } catch DecodingError.dataCorrupted(let context) {
            let error = try #require(context.underlyingError as? JSONError)
            let bytes = Array(json.utf8)
            let offset = bytes.indices.first { bytes[$0...].starts(with: "tru".utf8) }!
            let lineStart = bytes[..<offset].lastIndex(of: 0x0A)! + 1
            #expect(error.offset == offset)
            #expect(error.line == 3 && error.column == offset - lineStart + 1)
        }
    }
}

// MARK: - Fixture types

/// A Double compared by its bits (NaN equals NaN of the same sign).
struct FloatBits: Decodable, Equatable, CustomStringConvertible {
    let value: Double
    init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Double.self) }
    static func == (a: FloatBits, b: FloatBits) -> Bool { a.value.bitPattern == b.value.bitPattern || (a.value.isNaN && b.value.isNaN && a.value.sign == b.value.sign) }
    var description: String { "\(value)" }
}

struct Manifest: Decodable, Equatable {
    let name: String, version: String, `private`: Bool, keywords: [String], deps: [String: String], hex: Int
}

struct Example: Decodable, Equatable {
    let unquoted: String, singleQuotes: String, lineBreaks: String, hexadecimal: UInt
    let leadingDecimalPoint: Double, andTrailing: Double, positiveSign: Int
    let trailingComma: String, andIn: [String], backwardsCompatible: String
}

struct HelloGoodbye: Decodable, Equatable {
    let hello: String
    let goodbye: [String: String]
}
