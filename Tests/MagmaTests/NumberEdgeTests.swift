// Issue 6's number cases through model properties, whole and in every chunk size. The rules:
// - an integer property takes a number whose exact value is an integer in its range (`1.0`, `1e2`
//   and `-0` read as 1, 100 and 0); a fraction (`1.5`, `1e-400`) or a value out of range is
//   `numberOutOfRange`, never rounded or wrapped;
// - Double and Float round to nearest; a magnitude beyond their range (`1e400`), or nonzero
//   and so small it rounds to zero (`1e-400`), is `numberOutOfRange`: never rounded silently
//   (strtod would give zero); a subnormal is a value;
// - Decimal is exact or `numberOutOfRange` (it holds about 38 significant digits: a wider number
//   is an error, not rounded);
// - JSONNumber keeps the text exactly, whatever its size, and writes it back byte for byte.
import Foundation
import Testing
@testable import Magma

@Suite struct NumberEdgeTests {
    @JSONModel struct Numbers: Equatable {
        @Key("i") var int64: Int64 = 7
        @Key("n") var int = 7
        @Key("u") var uint64: UInt64 = 7
        @Key("d") var double = 7.0
        @Key("m") var decimal: Decimal = 7
        @Key("x") var exact: JSONNumber = 7
        @Key("f") var float: Float = 7
        @Key("ds") var doubles: [Double] = []
    }

    func decode(_ json: String) throws -> Numbers { try decodeEverywhere(Numbers.self, json) }
    func code(_ json: String) -> JSONError.Code? { failureEverywhere(Numbers.self, json)?.code }

    @Test func int64Limits_exact_oneBeyond_overflows() throws {
        #expect(try decode(#"{"i": -9223372036854775808}"#).int64 == .min)
        #expect(try decode(#"{"i": 9223372036854775807}"#).int64 == .max)
        #expect(code(#"{"i": 9223372036854775808}"#) == .numberOutOfRange)
        #expect(code(#"{"i": -9223372036854775809}"#) == .numberOutOfRange)
        #expect(try decode(#"{"u": 18446744073709551615}"#).uint64 == .max)
        #expect(code(#"{"u": 18446744073709551616}"#) == .numberOutOfRange)
        #expect(code(#"{"u": -1}"#) == .numberOutOfRange)
        // One beyond Int64 is fine for Double, Decimal and JSONNumber.
        let beyond = try decode(#"{"d": 9223372036854775808, "m": -9223372036854775809, "x": 9223372036854775808}"#)
        #expect(beyond.double == 9_223_372_036_854_775_808.0)
        #expect(beyond.decimal == Decimal(string: "-9223372036854775809"))
        #expect(beyond.exact.text == "9223372036854775808")
    }

    @Test func negativeZero() throws {
        let zero = try decode(#"{"i": -0, "n": -0.0, "d": -0, "m": -0, "x": -0}"#)
        #expect(zero.int64 == 0 && zero.int == 0)
        #expect(zero.double == 0 && zero.double.sign == .minus)
        #expect(zero.decimal == 0)
        #expect(zero.exact.text == "-0" && zero.exact == 0)
    }

    @Test func hugeAndTinyExponents() throws {
        #expect(code(#"{"d": 1e400}"#) == .numberOutOfRange)
        #expect(code(#"{"d": -1e400}"#) == .numberOutOfRange)
        #expect(code(#"{"i": 1e400}"#) == .numberOutOfRange)
        #expect(code(#"{"m": 1e400}"#) == .numberOutOfRange)
        #expect(code(#"{"d": 1e-400}"#) == .numberOutOfRange)
        #expect(code(#"{"d": -1e-400}"#) == .numberOutOfRange)
        #expect(code(#"{"d": 2.4703282292062327e-324}"#) == .numberOutOfRange)
        #expect(try decode(#"{"d": 2.4703282292062328e-324}"#).double == .leastNonzeroMagnitude)
        #expect(try decode(#"{"d": -0.000e-400}"#).double.sign == .minus)
        #expect(code(#"{"f": 1e-50}"#) == .numberOutOfRange)
        #expect(try decode(#"{"f": 1e-45}"#).float == .leastNonzeroMagnitude)
        #expect(code(#"{"ds": [1, 1e-400]}"#) == .numberOutOfRange)
        let tinyNumber = try #require(JSONNumber("1e-400"))
        #expect(tinyNumber.doubleValue == nil)
        #expect(code(#"{"n": 1e-400}"#) == .numberOutOfRange)
        #expect(try decode(#"{"x": 1e400}"#).exact.text == "1e400")
    }

    @JSONModel struct Floats {
        @Key("f") var float: Float = 0
        @Key("o") var optional: Float?
        @Key("a") var array: [Float] = []
    }

    @Test func floats_encodeAsJSONEncoderWritesThem() throws {
        // JSONEncoder's form (`description` without ".0") through a property, an optional, an
        // array and MagmaEncoder, for awkward values and random bit patterns; nothing is lost.
        var rng = SeededGenerator(seed: 0x666C6F6174)
        var values: [Float] = [0, -0.0, 1, -1, 0.5, 0.1, 16_777_215, 16_777_216, 1e10, -1e10, 1e-5, 3.4e38,
                               .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude]
        for _ in 0..<2000 {
            let f = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
            if f.isFinite { values.append(f) }
        }
        let foundation = JSONEncoder(), magma = MagmaEncoder()
        for f in values {
            let expected = String(decoding: try foundation.encode(f), as: UTF8.self)
            var model = Floats()
            (model.float, model.optional, model.array) = (f, f, [f, -f])
            let minus = String(decoding: try foundation.encode(-f), as: UTF8.self)
            let json = String(decoding: try JSONAdapter.json(from: model), as: UTF8.self)
            #expect(json == #"{"f":\#(expected),"o":\#(expected),"a":[\#(expected),\#(minus)]}"#)
            #expect(String(decoding: try magma.encode([f]), as: UTF8.self) == "[\(expected)]")
            let back = try JSONAdapter.model(Floats.self, from: json)
            #expect(back.float.bitPattern == f.bitPattern && back.optional?.bitPattern == f.bitPattern
                    && back.array.map(\.bitPattern) == [f.bitPattern, (-f).bitPattern], "\(f)")
        }
        var infinite = Floats()
        infinite.array = [1, .infinity]
        #expect { try JSONAdapter.json(from: infinite) } throws: { ($0 as? JSONError)?.code == .notEncodable }
    }

    @Test func integralForms_intoInt() throws {
        #expect(try decode(#"{"n": 1.0}"#).int == 1)
        #expect(try decode(#"{"n": 1e2}"#).int == 100)
        #expect(try decode(#"{"n": 1E+2}"#).int == 100)
        #expect(try decode(#"{"n": 12.50e1}"#).int == 125)
        #expect(try decode(#"{"n": 100e-2}"#).int == 1)
        #expect(code(#"{"n": 1.5}"#) == .numberOutOfRange)
        #expect(code(#"{"n": 1e-1}"#) == .numberOutOfRange)
    }

    @Test func hundredDigits_exactThroughJSONNumber_errorThroughDecimal() throws {
        let digits = String(repeating: "1234567890", count: 10)
        for text in [digits, "-" + digits + ".5e-7", "0." + digits] {
            let json = #"{"x": \#(text)}"#
            let model = try decode(json)
            #expect(model.exact.text == text)
            #expect(model.exact == JSONNumber(text)!)
            // Encoded back byte for byte.
            let encoded = String(decoding: try JSONAdapter.json(from: model), as: UTF8.self)
            #expect(encoded.contains("\"x\":\(text)"), "\(encoded)")
            #expect(try JSONAdapter.model(Numbers.self, from: Data(encoded.utf8)) == model)
            // Decimal cannot hold it: an error, not a rounded value.
            #expect(code(#"{"m": \#(text)}"#) == .numberOutOfRange)
        }
        #expect(code(#"{"x": "12"}"#) == .typeMismatch)
    }

    /// Not local to its test: a local type cannot take @JSONModel's extension.
    @JSONModel struct Bag: Equatable {
        var list: [JSONNumber] = []
        var maybe: JSONNumber?
    }

    @Test func jsonNumberProperty_inCollections() throws {
        let bag = try decodeEverywhere(Bag.self, #"{"list": [1, 2.50, -0, 1e999], "maybe": null}"#)
        #expect(bag.list.map(\.text) == ["1", "2.50", "-0", "1e999"])
        #expect(bag.maybe == nil)
        #expect(String(decoding: try JSONAdapter.json(from: bag), as: UTF8.self).contains("[1,2.50,-0,1e999]"))
    }
}

@Suite struct DuplicateKeyTests {
    @JSONModel struct Inner: Equatable {
        var v = 0
    }
    @JSONModel struct Outer: Equatable {
        var a = 0
        @Key("user.login") var login = ""
        var inner = Inner()
        var map: [String: Int] = [:]
        var any: JSONValue = .null
    }

    /// The documented policy: the last occurrence wins (as in JSONSerialization),
    /// for model fields, key paths, nested models, dictionaries and JSONValue objects alike.
    @Test func lastWins_byDefault_everywhere() throws {
        let json = #"{"a": 1, "user": {"login": "x", "login": "y"}, "inner": {"v": 1, "v": 2}, "a": 3, "#
            + #""map": {"k": 1, "k": 2}, "any": {"z": 1, "z": [2]}}"#
        let model = try decodeEverywhere(Outer.self, json)
        #expect(model == Outer(a: 3, login: "y", inner: Inner(v: 2), map: ["k": 2], any: .object(["z": .array([.number(2)])])))
    }

    @Test func rejected_whenAsked_atTheSecondKey_everywhere() throws {
        var options = DecodingOptions()
        options.duplicateKeys = .reject
        let cases: [(String, String)] = [
            (#"{"a": 1, "a": 2}"#, "$.a"),
            (#"{"user": {"login": "x", "login": "y"}}"#, "$.user.login"),
            (#"{"inner": {"v": 1, "v": 2}}"#, "$.inner.v"),
            (#"{"map": {"k": 1, "k": 2}}"#, "$.map.k"),
            (#"{"any": {"z": 1, "z": 2}}"#, "$.any.z"),
            // Keys the model does not map: repeated in one object all the same.
            (#"{"skip": 1, "a": 2, "skip": [3]}"#, "$.skip"),
            (#"{"user": {"id": 1, "login": "x", "id": 2}}"#, "$.user.id"),
            (#"{"inner": {"w": {"a": 1}, "v": 1, "w": 2}}"#, "$.inner.w"),
        ]
        for (json, path) in cases {
            let error = failureEverywhere(Outer.self, json, options: options)
            #expect(error?.code == .duplicateKey, "\(json)")
            #expect(error?.path == path, "\(json): \(String(describing: error))")
        }
        // Not duplicates: the same key in sibling objects, and keys of a skipped (unmapped) subtree,
        // which Magma does not read.
        #expect(try decodeEverywhere(Outer.self, #"{"inner": {"v": 1}, "any": [{"v": 1}, {"v": 2}], "skip": {"q": 1, "q": 2}}"#,
                                     options: options).inner.v == 1)
        #expect(try decodeEverywhere(Outer.self, #"{"inner": {"w": 1}, "user": {"w": 1}, "w": 1, "a": 1}"#, options: options).a == 1)
    }

    /// A model of more than 64 mapped keys: the ones past the 64th are tracked too.
    struct Wide: JSONModel {
        var values = [Int](repeating: 0, count: 70)
        static let jsonMapping = JSONMapping<Wide> { (0..<70).map { i in Map(\Wide.values[i], "k\(i)") } }
    }

    @Test func rejected_pastTheSixtyFourthMappedKey() throws {
        var options = DecodingOptions()
        options.duplicateKeys = .reject
        for key in ["k0", "k63", "k64", "k69"] {
            let error = failureEverywhere(Wide.self, #"{"\#(key)": 1, "k5": 2, "\#(key)": 3}"#, options: options)
            #expect(error?.code == .duplicateKey, "\(key): \(String(describing: error))")
        }
        #expect(try JSONAdapter.model(Wide.self, from: #"{"k69": 1, "k68": 2}"#, options: options).values[69] == 1)
    }

    /// Keys that differ in bytes but that Swift's `String` compares equal (canonically equivalent,
    /// `"\u00e9"` and `"e\u0301"`) cannot both be keys of a `[String: V]`: an error under either
    /// policy, never one silently merged into the other.
    @Test func canonicallyEquivalentKeys_areAnError_notMerged() throws {
        for policy in [DecodingOptions.DuplicateKeyPolicy.useLast, .reject] {
            var options = DecodingOptions()
            options.duplicateKeys = policy
            for (json, path) in [(#"{"any": {"\u00e9": 1, "e\u0301": 2}}"#, "$.any"), ("{\"map\": {\"\u{E9}\": 1, \"e\u{301}\": 2}}", "$.map")] {
                let error = failureEverywhere(Outer.self, json, options: options)
                #expect(error?.code == .duplicateKey, "\(json): \(String(describing: error))")
                #expect(error?.message.contains("canonically equivalent") == true, "\(json): \(String(describing: error))")
                #expect(error?.path.hasPrefix(path) == true, "\(json): \(String(describing: error))")
            }
        }
        // The same key in other spellings is the same key: the last wins.
        #expect(try decodeEverywhere(Outer.self, "{\"map\": {\"\\u00e9\": 1, \"\u{E9}\": 2}}").map == ["\u{E9}": 2])
    }
}
