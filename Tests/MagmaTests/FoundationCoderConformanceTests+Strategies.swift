// Foundation's coder behaviours, part 2: the date, data, non-conforming float and key strategies
// (see FoundationCoderConformanceTests.swift for what is compared and how).
import Foundation
import Testing
@testable import Magma

@Suite struct FoundationStrategyConformanceTests {
    // MARK: Dates

    @Test func dates_deferredToDate_roundTrip() {
        expectRoundTrip(Date(timeIntervalSince1970: 1_000))
        expectRoundTrip(ArrayBox(Date(timeIntervalSinceReferenceDate: 12_345.678)))
    }

    @Test(arguments: [(JSONEncoder.DateEncodingStrategy.secondsSince1970, JSONDecoder.DateDecodingStrategy.secondsSince1970),
                      (.millisecondsSince1970, .millisecondsSince1970), (.iso8601, .iso8601)])
    func dates_epochAndISO8601_roundTrip(_ strategies: (JSONEncoder.DateEncodingStrategy, JSONDecoder.DateDecodingStrategy)) {
        for date in [Date(timeIntervalSince1970: 1_000), Date(timeIntervalSince1970: 0)] {
            expectRoundTrip(date, encoder: { $0.dateEncodingStrategy = strategies.0 }, decoder: { $0.dateDecodingStrategy = strategies.1 })
            expectRoundTrip(Date?.some(date), encoder: { $0.dateEncodingStrategy = strategies.0 }, decoder: { $0.dateDecodingStrategy = strategies.1 })
            expectRoundTrip(ArrayBox(date), encoder: { $0.dateEncodingStrategy = strategies.0 }, decoder: { $0.dateDecodingStrategy = strategies.1 })
        }
    }

    @Test func dates_formattedWithFullStyles_roundTrip() {
        let formatter = DateFormatter()
        formatter.dateStyle = .full
        formatter.timeStyle = .full
        let date = Date(timeIntervalSince1970: 1_000)
        expectRoundTrip(ArrayBox(date), encoder: { $0.dateEncodingStrategy = .formatted(formatter) },
                        decoder: { $0.dateDecodingStrategy = .formatted(formatter) })
    }

    /// A custom strategy that writes a number, and one that writes nothing (an empty object).
    @Test func dates_custom_writeWhatTheClosureWrites() {
        let date = Date(timeIntervalSince1970: 1_000)
        let number: @Sendable (Date, any Encoder) throws -> Void = { _, encoder in
            var c = encoder.singleValueContainer()
            try c.encode(42)
        }
        let nothing: @Sendable (Date, any Encoder) throws -> Void = { _, _ in }
        let decode: @Sendable (any Decoder) throws -> Date = { _ in date }
        for encode in [number, nothing] {
            expectRoundTrip(date, encoder: { $0.dateEncodingStrategy = .custom(encode) }, decoder: { $0.dateDecodingStrategy = .custom(decode) })
            expectRoundTrip(Date?.some(date), encoder: { $0.dateEncodingStrategy = .custom(encode) },
                            decoder: { $0.dateDecodingStrategy = .custom(decode) })
            expectRoundTrip(ArrayBox(date), encoder: { $0.dateEncodingStrategy = .custom(encode) },
                            decoder: { $0.dateDecodingStrategy = .custom(decode) })
        }
    }

    /// An infinite date fails to encode under every strategy that writes a number.
    @Test func dates_infinite_failToEncode() {
        let date = Date(timeIntervalSince1970: .infinity)
        for strategy in [JSONEncoder.DateEncodingStrategy.deferredToDate, .secondsSince1970, .millisecondsSince1970] {
            let outcome = expectSameEncode([date], configure: { $0.dateEncodingStrategy = strategy })
            #expect(outcome.error != nil)
        }
    }

    // MARK: Data

    @Test func data_base64AndDeferred_roundTrip() {
        let data = Data([0xDE, 0xAD, 0xBE, 0xEF])
        expectRoundTrip(data)
        expectRoundTrip(Data?.some(data))
        expectRoundTrip(ArrayBox(data))
        expectRoundTrip(data, encoder: { $0.dataEncodingStrategy = .deferredToData }, decoder: { $0.dataDecodingStrategy = .deferredToData })
        expectRoundTrip(Data?.some(data), encoder: { $0.dataEncodingStrategy = .deferredToData },
                        decoder: { $0.dataDecodingStrategy = .deferredToData })
    }

    @Test func data_custom_writeWhatTheClosureWrites() {
        let number: @Sendable (Data, any Encoder) throws -> Void = { _, encoder in
            var c = encoder.singleValueContainer()
            try c.encode(42)
        }
        let nothing: @Sendable (Data, any Encoder) throws -> Void = { _, _ in }
        let decode: @Sendable (any Decoder) throws -> Data = { _ in Data() }
        for encode in [number, nothing] {
            expectRoundTrip(Data(), encoder: { $0.dataEncodingStrategy = .custom(encode) }, decoder: { $0.dataDecodingStrategy = .custom(decode) })
            expectRoundTrip(ArrayBox(Data()), encoder: { $0.dataEncodingStrategy = .custom(encode) },
                            decoder: { $0.dataDecodingStrategy = .custom(decode) })
        }
    }

    @Test func data_invalidBase64_failsAlike() {
        expectSameDecode(Data.self, "\"not base64!\"")
        expectSameDecode([Data].self, "[\"3q2+7w==\", 12]")
    }

    // MARK: Non-conforming floats

    @Test func nonConformingFloats_throwByDefault() {
        for value in [Float.infinity, -.infinity, .nan] {
            #expect(expectSameEncode(value).error != nil)
            #expect(expectSameEncode(ArrayBox(value)).error != nil)
        }
        for value in [Double.infinity, -.infinity, .nan] {
            #expect(expectSameEncode(value).error != nil)
            #expect(expectSameEncode(Double?.some(value)).error != nil)
        }
    }

    @Test func nonConformingFloats_convertToString_roundTrip() {
        let encode: (JSONEncoder) -> Void = { $0.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "INF", negativeInfinity: "-INF", nan: "NaN") }
        let decode: (JSONDecoder) -> Void = { $0.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "INF", negativeInfinity: "-INF", nan: "NaN") }
        for value in [Float.infinity, -.infinity] {
            expectRoundTrip(value, encoder: encode, decoder: decode)
            expectRoundTrip(ArrayBox(value), encoder: encode, decoder: decode)
        }
        for value in [Double.infinity, -.infinity] {
            expectRoundTrip(value, encoder: encode, decoder: decode)
            expectRoundTrip(Double?.some(value), encoder: encode, decoder: decode)
        }
        expectRoundTrip(NaNProbe<Float>(), encoder: encode, decoder: decode)
        expectRoundTrip(NaNProbe<Double>(), encoder: encode, decoder: decode)
        expectSameDecode(Double.self, "\"nan\"", configure: decode)
    }

    // MARK: Keys

    /// The strategy is called once per key, with the path of Swift keys (not converted ones).
    /// JSONEncoder calls it once the key's value is encoded, MagmaEncoder before (it writes the
    /// key first): the same calls, in another order.
    @Test func keyEncoding_custom_seesTheSwiftPath() {
        let log = PathLog()
        let foundation = JSONEncoder()
        foundation.keyEncodingStrategy = .custom { path in
            log.add(path.map(\.stringValue).joined(separator: "/"))
            return AnyKey("QQQ" + path.last!.stringValue)
        }
        func calls(_ encode: () throws -> Data) -> [String] {
            _ = try? encode()
            return log.take()
        }
        let flat = KeyWriter(keyName: "hello"), nested = Outer(outerValue: Inner(nestedValue: KeyWriter(keyName: "helloWorld")))
        #expect(calls { try MagmaEncoder(foundation).encode(flat) } == calls { try foundation.encode(flat) })
        #expect(calls { try MagmaEncoder(foundation).encode(nested) }.sorted() == calls { try foundation.encode(nested) }.sorted())
        expectSameEncode(flat, configure: { $0.keyEncodingStrategy = foundation.keyEncodingStrategy })
        expectSameEncode(nested, configure: { $0.keyEncodingStrategy = foundation.keyEncodingStrategy })
    }

    @Test func keyDecoding_custom_dropsAPrefix() {
        let configure: (JSONDecoder) -> Void = {
            $0.keyDecodingStrategy = .custom { path in
                let last = path.last!.stringValue
                return last.count > 4 ? AnyKey(String(last.dropFirst(4))) : path.last!
            }
        }
        expectSameDecode(Hello.self, "{\"----hello\":\"test\"}", configure: configure)
        expectSameDecode(Hello.self, "{\"hello\":\"test\"}", configure: configure)
    }

    /// A String-keyed dictionary keeps its keys as written; the error path names them so.
    @Test func snakeCase_leavesDictionaryKeysAlone() {
        let snake: (JSONDecoder) -> Void = { $0.keyDecodingStrategy = .convertFromSnakeCase }
        expectSameDecode([String: String].self, "{\"leave_me_alone\":\"test\"}", configure: snake)
        expectSameDecode([String: Int].self, "{\"leave_me_alone\":\"test\"}", configure: snake)
        expectSameDecode([String: [String: Int]].self, "{\"snake_case_key\":{\"nested_dictionary\":1}}", configure: snake)
        expectSameDecode([String: [String: Nest]].self,
                         "{\"top_level\": {\"sub_level\": {\"nested_value\": {\"int_value\": \"not_an_int\"}}}}", configure: snake)
        expectSameEncode(["leaveMeAlone": "test"], configure: { $0.keyEncodingStrategy = .convertToSnakeCase })
        expectSameEncode(["camelCaseKey": ["nested_dictionary": 1]], configure: { $0.keyEncodingStrategy = .convertToSnakeCase })
    }

    /// Every key a custom strategy maps to one name: the first value is kept, one key counted.
    @Test func customKeys_duplicates_firstWinsOnDecode_lastOnEncode() {
        let same: @Sendable ([any CodingKey]) -> any CodingKey = { _ in AnyKey("oneTwo") }
        expectSameDecode(Duplicates.self, "{\"unused key 1\":\"test1\",\"unused key 2\":\"test2\"}",
                         configure: { $0.keyDecodingStrategy = .custom(same) })
        expectSameEncode(Duplicates(), configure: { $0.keyEncodingStrategy = .custom(same) })
    }

    static let fromSnakeCase = ["", "a", "ALLCAPS", "ALL_CAPS", "single", "snake_case", "one_two_three", "one_2_three", "one2_three",
                                "snake_Ćase", "snake_ćase", "alreadyCamelCase", "__this_and_that", "_this_and_that", "this__and__that",
                                "this_and_that__", "this_aNd_that", "_one_two_three", "one_two_three_", "__one_two_three",
                                "one_two_three__", "_one_two_three_", "__one_two_three__", "_test", "_test_", "__test", "test__", "_",
                                "__", "___", "m͉̟̹y̦̳G͍͚͎̳r̤͉̤͕ͅea̲͕t͇̥̼͖U͇̝̠R͙̻̥͓̣L̥̖͎͓̪̫ͅR̩͖̩eq͈͓u̞e̱s̙t̤̺ͅ", "🐧_🐟"]

    /// Each snake-case key is found under the name JSONDecoder converts it to.
    @Test(arguments: fromSnakeCase)
    func snakeCase_decodingConvertsAsJSONDecoder(_ key: String) {
        let converted = JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase(key)
        let json = "{\"camelCaseKey\":\(CoderTestText.quoted(converted)),\(CoderTestText.quoted(key)):true}"
        let outcome = expectSameDecode(FoundUnder.self, json, configure: { $0.keyDecodingStrategy = .convertFromSnakeCase })
        #expect(outcome == .value(FoundUnder(found: true)))
    }

    static let toSnakeCase = ["simpleOneTwo", "myURL", "singleCharacterAtEndX", "thisIsAnXMLProperty", "single", "", "a", "aA",
                              "version4Thing", "partCAPS", "partCAPSLowerAGAIN", "manyWordsInThisThing", "asdfĆqer", "already_snake_case",
                              "dataPoint22", "dataPoint22Word", "_oneTwoThree", "oneTwoThree_", "__oneTwoThree", "oneTwoThree__",
                              "_oneTwoThree_", "__oneTwoThree__", "_test", "_test_", "__test", "test__", "m͉̟̹y̦̳G͍͚͎̳r̤͉̤͕ͅea̲͕t͇̥̼͖U͇̝̠R͙̻̥͓̣L̥̖͎͓̪̫ͅR̩͖̩eq͈͓u̞e̱s̙t̤̺ͅ", "🐧🐟"]

    @Test(arguments: toSnakeCase)
    func snakeCase_encodingConvertsAsJSONEncoder(_ key: String) {
        expectSameEncode(KeyWriter(keyName: key), configure: { $0.keyEncodingStrategy = .convertToSnakeCase })
    }

    /// Snake case with synthesized keys, a custom raw value among them, both ways.
    @Test func snakeCase_synthesizedAndCustomKeys_bothWays() {
        expectRoundTrip(Renamed(thisIsCamelCase: "test", thisIsCamelCaseToo: "test2"),
                        encoder: { $0.keyEncodingStrategy = .convertToSnakeCase }, decoder: { $0.keyDecodingStrategy = .convertFromSnakeCase })
        expectRoundTrip(Camel(thisIsCamelCase: "test"), encoder: { $0.keyEncodingStrategy = .convertToSnakeCase },
                        decoder: { $0.keyDecodingStrategy = .convertFromSnakeCase })
        expectSameDecode(Camel.self, "{\"this_is_camel_case\":\"test\"}", configure: { $0.keyDecodingStrategy = .convertFromSnakeCase })
        expectSameDecode(Camel.self, "{\"thisIsCamelCase\": null}")
    }

    /// Every scalar type and a date, with snake-case keys, both ways.
    @Test func snakeCase_everyScalarType_roundTrip() {
        expectRoundTrip(EveryScalar.sample, encoder: { $0.keyEncodingStrategy = .convertToSnakeCase; $0.dateEncodingStrategy = .iso8601 },
                        decoder: { $0.keyDecodingStrategy = .convertFromSnakeCase; $0.dateDecodingStrategy = .iso8601 })
    }

    /// An encode failure inside a dictionary: its path holds the dictionary's keys as written.
    @Test func encodeFailure_pathThroughDictionaries() {
        expectSameEncode(["key": Measure(someValue: .nan)], configure: { $0.keyEncodingStrategy = .convertToSnakeCase })
        expectSameEncode(["key": ["sub_key": MeasureBox(nestedValue: Measure(someValue: .nan))]],
                         configure: { $0.keyEncodingStrategy = .convertToSnakeCase })
    }
}

// MARK: - Fixture types

/// Text helpers for building JSON in tests.
enum CoderTestText {
    /// `text` as a JSON string, escaped by JSONEncoder.
    static func quoted(_ text: String) -> String { String(decoding: try! JSONEncoder().encode(text), as: UTF8.self) }
}

/// Calls recorded from a `@Sendable` closure.
final class PathLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    func add(_ entry: String) { lock.lock(); entries.append(entry); lock.unlock() }
    func take() -> [String] { lock.lock(); defer { entries = []; lock.unlock() }; return entries }
}

/// Encodes "test" under a key of the given name.
struct KeyWriter: Encodable {
    let keyName: String
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode("test", forKey: AnyKey(keyName))
    }
}

struct Inner: Encodable { let nestedValue: KeyWriter }
struct Outer: Encodable { let outerValue: Inner }
struct Hello: Decodable, Equatable { var hello: String }
struct Nest: Decodable, Equatable { struct Leaf: Decodable, Equatable { var intValue: Int }; var nestedValue: Leaf }

/// Reads the key named by the value of "camelCaseKey", then a Bool under it.
struct FoundUnder: Decodable, Equatable {
    let found: Bool
    init(found: Bool) { self.found = found }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        let name = try c.decode(String.self, forKey: AnyKey("camelCaseKey"))
        found = try c.decode(Bool.self, forKey: AnyKey(name))
    }
}

/// Two coding keys; counts the keys its container has.
struct Duplicates: Codable, Equatable {
    var oneTwo = "test"
    var numberOfKeys = 0
    enum CodingKeys: String, CodingKey { case oneTwo, oneTwoThree }
    init() {}
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        oneTwo = try c.decode(String.self, forKey: .oneTwo)
        numberOfKeys = c.allKeys.count
    }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(oneTwo, forKey: .oneTwo)
        try c.encode("test2", forKey: .oneTwoThree)
    }
}

struct Camel: Codable, Equatable { var thisIsCamelCase: String }

struct Renamed: Codable, Equatable {
    var thisIsCamelCase: String
    var thisIsCamelCaseToo: String
    private enum CodingKeys: String, CodingKey {
        case thisIsCamelCase = "fooBar"
        case thisIsCamelCaseToo
    }
}

struct EveryScalar: Codable, Equatable {
    let thisIsAString: String, thisIsABool: Bool
    let thisIsAnInt: Int, thisIsAnInt8: Int8, thisIsAnInt16: Int16, thisIsAnInt32: Int32, thisIsAnInt64: Int64
    let thisIsAUint: UInt, thisIsAUint8: UInt8, thisIsAUint16: UInt16, thisIsAUint32: UInt32, thisIsAUint64: UInt64
    let thisIsAFloat: Float, thisIsADouble: Double, thisIsADate: Date
    let thisIsAnArray: [Int], thisIsADictionary: [String: Bool]
    static let sample = EveryScalar(thisIsAString: "Hello", thisIsABool: true, thisIsAnInt: 1, thisIsAnInt8: 2, thisIsAnInt16: 3,
                                    thisIsAnInt32: 4, thisIsAnInt64: 5, thisIsAUint: 6, thisIsAUint8: 7, thisIsAUint16: 8,
                                    thisIsAUint32: 9, thisIsAUint64: 10, thisIsAFloat: 11, thisIsADouble: 12,
                                    thisIsADate: Date(timeIntervalSince1970: 0), thisIsAnArray: [1, 2, 3],
                                    thisIsADictionary: ["trueValue": true, "falseValue": false])
}

struct Measure: Encodable { var someValue: Double }
struct MeasureBox: Encodable { var nestedValue: Measure }

/// Encodes NaN and accepts only NaN back (NaN is not equal to itself).
struct NaNProbe<F: BinaryFloatingPoint & Codable>: Codable, Equatable {
    init() {}
    init(from decoder: any Decoder) throws {
        guard try decoder.singleValueContainer().decode(F.self).isNaN else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not NaN"))
        }
    }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(F.nan)
    }
}
