// MagmaDecoder against Foundation's JSONDecoder (issue 15): the same bytes through both give equal
// values, or errors of the same case with the same coding path.
import Foundation
import Testing
@testable import Magma

/// Any JSON value, decoded the way Codable code usually writes it: a chain of `try?`.
enum AnyJSON: Codable, Equatable {
    case null, bool(Bool), int(Int64), double(Double), string(String), array([AnyJSON]), object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int64.self) { self = .int(i) }
        else if let d = try? c.decode(Double.self) { self = .double(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([AnyJSON].self) { self = .array(a) }
        else { self = .object(try c.decode([String: AnyJSON].self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let v): try c.encode(v)
        case .int(let v): try c.encode(v)
        case .double(let v): try c.encode(v)
        case .string(let v): try c.encode(v)
        case .array(let v): try c.encode(v)
        case .object(let v): try c.encode(v)
        }
    }
}

/// What a decode gave, comparable across the two decoders.
enum DecodeOutcome<T: Equatable>: Equatable, CustomStringConvertible {
    case value(T)
    /// The error's case, its type or key where it has one, and its coding path.
    case error(String)

    init(_ body: () throws -> T) {
        do { self = .value(try body()) } catch { self = .error(DecodeOutcome.describe(error)) }
    }

    static func describe(_ error: any Error) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { k in k.intValue.map { "[\($0)|\(k.stringValue)]" } ?? ".\(k.stringValue)" }.joined()
        }
        switch error as? DecodingError {
        case .typeMismatch(let type, let c): return "typeMismatch(\(type)) at \(path(c))"
        case .valueNotFound(let type, let c): return "valueNotFound(\(type)) at \(path(c))"
        case .keyNotFound(let key, let c): return "keyNotFound(\(key.stringValue)) at \(path(c))"
        case .dataCorrupted(let c): return "dataCorrupted at \(path(c))"
        default: return "other: \(error)"
        }
    }

    var description: String {
        switch self {
        case .value(let v): "value \(v)"
        case .error(let e): e
        }
    }
}

/// Decodes `bytes` as `T` with both decoders, configured alike by `configure`.
func bothDecoders<T: Decodable & Equatable>(_ type: T.Type, _ bytes: [UInt8],
                                           configure: (JSONDecoder, MagmaDecoder) -> Void = { _, _ in })
    -> (foundation: DecodeOutcome<T>, magma: DecodeOutcome<T>) {
    let foundation = JSONDecoder(), magma = MagmaDecoder()
    configure(foundation, magma)
    return (DecodeOutcome { try foundation.decode(type, from: Data(bytes)) }, DecodeOutcome { try magma.decode(type, from: bytes) })
}

@Suite struct CodableDifferentialTests {
    static let suiteDirectory = ConformanceTests.fullSuite

    /// Every y_ file of JSONTestSuite as AnyJSON. Skipped (with a note) without ../shared/JSONTestSuite.
    @Test func jsonTestSuite_yFiles_decodeAlike() throws {
        guard FileManager.default.fileExists(atPath: Self.suiteDirectory.path) else {
            print("CodableDifferentialTests: \(Self.suiteDirectory.path) is absent; JSONTestSuite comparison skipped")
            return
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.suiteDirectory.path).filter { $0.hasPrefix("y_") }.sorted()
        #expect(names.count > 90)
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: Self.suiteDirectory.appendingPathComponent(name)))
            let (f, m) = bothDecoders(AnyJSON.self, bytes)
            #expect(f == m, "\(name)")
        }
    }

    // MARK: Shapes

    struct Inner: Codable, Equatable {
        var id: Int
        var label: String?
    }

    struct Record: Codable, Equatable {
        var id: Int
        var name: String
        var score: Double
        var flag: Bool
        var count: UInt8?
        var tags: [String]
        var inner: Inner?
        var table: [String: Int]
        var byNumber: [Int: String]?
        var small: Int16
    }

    struct SnakeRecord: Codable, Equatable {
        var userId: Int
        var displayName: String?
        var httpURL: String?
        var nestedThing: [String: Int]
    }

    /// A random value for one field, mostly of the expected type, sometimes not.
    static func randomValue(_ expected: String, _ g: inout SeededGenerator) -> String {
        if expected == "goodInt" { return ["0", "-7", "42", "1.0", "1e2", "3E0"].randomElement(using: &g)! }
        let roll = Int.random(in: 0..<100, using: &g)
        if roll < 2 { return "null" }
        if roll < 4 { return ["\"x\"", "true", "12", "1.5", "[]", "{}", "-0", "1e400", "1e-400"].randomElement(using: &g)! }
        switch expected {
        case "int" where roll < 80: return "\(Int.random(in: -1000...1000, using: &g))"
        case "int":
            return ["0", "-7", "42", "1.0", "1e2", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
                    "12.5", "3E0", "100000000000000000000", "9007199254740993.5", "\(Int.random(in: -1000...1000, using: &g))"]
                .randomElement(using: &g)!
        case "uint8" where roll < 70: return "\(Int.random(in: 0...255, using: &g))"
        case "int16" where roll < 70: return "\(Int.random(in: -32768...32767, using: &g))"
        case "uint8": return ["0", "255", "256", "-1", "7.0", "\(Int.random(in: 0...300, using: &g))"].randomElement(using: &g)!
        case "int16": return ["32767", "32768", "-32768", "-32769", "2e4", "\(Int.random(in: -40000...40000, using: &g))"].randomElement(using: &g)!
        case "double":
            return ["0.1", "-2.5e-3", "1e308", "1.7976931348623157e308", "5e-324", "123456789012345678901234567890", "0e10",
                    "\(Double.random(in: -1e6...1e6, using: &g))"].randomElement(using: &g)!
        case "bool": return Bool.random(using: &g) ? "true" : "false"
        case "string":
            return ["\"plain\"", "\"esc\\n\\\"q\\\" \\u00e9 \\ud83d\\ude80\"", "\"\"", "\"caf\u{e9} \u{1F600}\"", "\"a/b\""].randomElement(using: &g)!
        case "strings":
            let n = Int.random(in: 0..<4, using: &g)
            return "[" + (0..<n).map { _ in randomValue("string", &g) }.joined(separator: ",") + "]"
        case "inner":
            var members: [String] = []
            if Int.random(in: 0..<10, using: &g) > 0 { members.append("\"id\":\(randomValue("int", &g))") }
            if Bool.random(using: &g) { members.append("\"label\":\(randomValue("string", &g))") }
            if Bool.random(using: &g) { members.append("\"extra\":[1,{\"a\":null}]") }
            members.shuffle(using: &g)
            return "{" + members.joined(separator: ",") + "}"
        // Dictionaries: at most one bad member, since JSONDecoder reads them in hash order.
        case "table":
            let n = Int.random(in: 0..<4, using: &g)
            let prefix = roll < 50 ? "k" : ""   // numeric keys: their coding key has an intValue
            return "{" + (0..<n).map { "\"\(prefix)\($0)\":\(randomValue($0 == n - 1 ? "int" : "goodInt", &g))" }.joined(separator: ",") + "}"
        case "byNumber":
            let n = Int.random(in: 0..<3, using: &g)
            return "{" + (0..<n).map { k in
                let key = k == n - 1 && roll > 90 ? "\"x\"" : "\"\(k - 1)\""
                return "\(key):\"v\(k)\""
            }.joined(separator: ",") + "}"
        default: return "null"
        }
    }

    static func randomObject(_ fields: [(String, String)], _ g: inout SeededGenerator) -> String {
        var members: [String] = []
        for (key, kind) in fields {
            let roll = Int.random(in: 0..<100, using: &g)
            if roll < 2 { continue }   // absent
            members.append("\"\(key)\":\(randomValue(kind, &g))")
            if roll > 98 { members.append("\"\(key)\":\(randomValue(kind, &g))") }   // duplicate key
        }
        if Bool.random(using: &g) { members.append("\"unmapped\":{\"deep\":[1,2,{\"x\":\"y\"}]}") }
        members.shuffle(using: &g)
        return "{" + members.joined(separator: ", ") + "}"
    }

    static let recordFields = [("id", "int"), ("name", "string"), ("score", "double"), ("flag", "bool"), ("count", "uint8"),
                               ("tags", "strings"), ("inner", "inner"), ("table", "table"), ("byNumber", "byNumber"), ("small", "int16")]

    @Test func randomRecords_decodeAlike() {
        var g = SeededGenerator(seed: 15)
        var values = 0
        for n in 0..<3000 {
            let count = Int.random(in: 1..<3, using: &g)
            let json = "[" + (0..<count).map { _ in Self.randomObject(Self.recordFields, &g) }.joined(separator: ",") + "]"
            let (f, m) = bothDecoders([Record].self, Array(json.utf8))
            #expect(f == m, "document \(n): \(json)")
            if case .value = f { values += 1 }
            let (fa, ma) = bothDecoders(AnyJSON.self, Array(json.utf8))
            #expect(fa == ma, "document \(n) as AnyJSON: \(json)")
        }
        // Both kinds of outcome occur.
        #expect(values > 100 && values < 2900, "\(values) of 3000 decoded")
    }

    @Test func randomSnakeCaseRecords_decodeAlike() {
        var g = SeededGenerator(seed: 1515)
        let fields = [("user_id", "int"), ("display_name", "string"), ("http_u_r_l", "string"), ("nested_thing", "table"),
                      ("_leading_", "int"), ("userId", "int")]
        for n in 0..<1000 {
            let json = Array(Self.randomObject(fields, &g).utf8)
            let (f, m) = bothDecoders(SnakeRecord.self, json) { $0.keyDecodingStrategy = .convertFromSnakeCase; $1.keyDecodingStrategy = .convertFromSnakeCase }
            #expect(f == m, "document \(n): \(String(decoding: json, as: UTF8.self))")
        }
    }

    // MARK: Chosen cases

    struct Numbers: Codable, Equatable {
        var i: Int?
        var u: UInt?
        var i8: Int8?
        var f: Float?
        var d: Double?
        var dec: Decimal?
        var i64: Int64?
        var a64: [Int64]?
    }

    @Test(arguments: [
        "{\"i64\":-9223372036854775808}", "{\"i64\":9223372036854775808}", "{\"i64\":2.0}", "{\"i64\":2.5}", "{\"i64\":\"3\"}",
        "{\"a64\":[1,-2,9223372036854775807]}", "{\"a64\":[1,1e3,null]}", "{\"a64\":[1,9223372036854775808]}", "{\"a64\":[1,2.5]}",
        "{\"i\":1.0}", "{\"i\":1.5}", "{\"i\":1e2}", "{\"i\":9223372036854775808}", "{\"u\":-1}", "{\"u\":18446744073709551615}",
        "{\"u\":18446744073709551616}", "{\"i8\":128}", "{\"i8\":-128}", "{\"f\":3.4e39}", "{\"f\":1e-50}", "{\"d\":1e400}",
        "{\"d\":-1e-400}", "{\"d\":0e400}", "{\"d\":123456789012345678901234567890}", "{\"dec\":12.345}", "{\"dec\":\"1\"}",
        "{\"i\":null}", "{\"i\":\"1\"}", "{\"d\":true}", "{\"i\":1,\"i\":2}", "{\"i\":-0}", "{\"u\":-0.0}",
        "{\"i\":9007199254740993.5}", "{\"i\":1e19}", "[]", "null", "1", "", "{", "{\"i\":1} x", "\u{FEFF}{}",
    ])
    func numbers_decodeAlike(_ json: String) {
        let (f, m) = bothDecoders(Numbers.self, Array(json.utf8))
        #expect(f == m)
    }

    struct Required: Codable, Equatable {
        var a: Int
        var b: [Bool]
        var c: Inner
    }

    @Test(arguments: [
        "{\"a\":1,\"b\":[true],\"c\":{\"id\":1}}", "{\"b\":[true],\"c\":{\"id\":1}}", "{\"a\":1,\"b\":[true,null],\"c\":{\"id\":1}}",
        "{\"a\":1,\"b\":[true,1],\"c\":{\"id\":1}}", "{\"a\":1,\"b\":null,\"c\":{\"id\":1}}", "{\"a\":1,\"b\":{},\"c\":{\"id\":1}}",
        "{\"a\":1,\"b\":[],\"c\":null}", "{\"a\":1,\"b\":[],\"c\":{}}", "{\"a\":1,\"b\":[],\"c\":{\"id\":\"1\"}}",
        "{\"a\":1,\"b\":[],\"c\":[]}", "{\"a\":null,\"b\":[],\"c\":{\"id\":1}}", "{\"a\":1,\"b\":[false],\"c\":{\"id\":1,\"label\":7}}",
    ])
    func structure_decodeAlike(_ json: String) {
        let (f, m) = bothDecoders(Required.self, Array(json.utf8))
        #expect(f == m)
    }

    struct Special: Codable, Equatable {
        var url: URL?
        var date: Date?
        var data: Data?
    }

    @Test func strategies_decodeAlike() {
        let documents = [
            "{\"url\":\"https://example.com/a?b=c\",\"date\":1700000000.5,\"data\":\"aGVsbG8=\"}",
            "{\"url\":\"\",\"date\":\"x\"}", "{\"url\":\"http://[bad\"}", "{\"data\":\"not base64!\"}", "{\"data\":[104,105]}",
            "{\"date\":\"2024-01-31T12:34:56Z\"}", "{\"date\":\"2024-02-30T12:34:56Z\"}", "{\"date\":1700000000123}", "{\"date\":null}",
        ]
        let dates: [JSONDecoder.DateDecodingStrategy] = [.deferredToDate, .secondsSince1970, .millisecondsSince1970, .iso8601,
                                                          .custom { try Date(timeIntervalSince1970: $0.singleValueContainer().decode(Double.self) * 2) }]
        let datas: [JSONDecoder.DataDecodingStrategy] = [.base64, .deferredToData, .custom { _ in Data([1]) }]
        for json in documents {
            for (k, date) in dates.enumerated() {
                for data in datas {
                    let (f, m) = bothDecoders(Special.self, Array(json.utf8)) {
                        $0.dateDecodingStrategy = date; $1.dateDecodingStrategy = .init(date)
                        $0.dataDecodingStrategy = data; $1.dataDecodingStrategy = data
                    }
                    #expect(f == m, "\(json), date strategy \(k)")
                }
            }
        }
    }

    @Test func nonConformingFloats_decodeAlike() {
        for json in ["[\"inf\",\"-inf\",\"nan\",1.5]", "[\"Infinity\"]", "[\"in\\u0066\"]", "[\"nan\"]"] {
            let strategy = JSONDecoder.NonConformingFloatDecodingStrategy.convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            let (f, m) = bothDecoders([Float].self, Array(json.utf8)) { $0.nonConformingFloatDecodingStrategy = strategy; $1.nonConformingFloatDecodingStrategy = strategy }
            // NaN is not equal to itself: compare descriptions.
            #expect(f.description == m.description, "\(json)")
        }
    }

    @Test func customKeyStrategy_seesPathAndKeepsDictionaries() {
        struct Box: Codable, Equatable { var aB: Int; var map: [String: Int] }
        let json = Array("{\"A_B\":1,\"MAP\":{\"X_Y\":2}}".utf8)
        let strategy = JSONDecoder.KeyDecodingStrategy.custom { path in
            PathKey(stringValue: path.last!.stringValue == "A_B" ? "aB" : path.last!.stringValue.lowercased())
        }
        let (f, m) = bothDecoders(Box.self, json) { $0.keyDecodingStrategy = strategy; $1.keyDecodingStrategy = strategy }
        #expect(f == m)
        #expect(m == .value(Box(aB: 1, map: ["X_Y": 2])))
    }

    @Test func userInfo_reachesInit() throws {
        struct Reads: Decodable { var seen: String
            init(from decoder: any Decoder) throws { seen = decoder.userInfo[CodingUserInfoKey(rawValue: "k")!] as? String ?? "none" }
        }
        let decoder = MagmaDecoder()
        decoder.userInfo[CodingUserInfoKey(rawValue: "k")!] = "v"
        #expect(try decoder.decode(Reads.self, from: Array("{}".utf8)).seen == "v")
    }

    /// superDecoder, nested containers and unkeyed decodeIfPresent, hand-written.
    struct Handwritten: Decodable, Equatable {
        var values: [Int?]
        var sup: Int?
        var nested: String
        var missingSuper: Bool

        enum Keys: String, CodingKey { case list, deep, inner, other }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            var list = try c.nestedUnkeyedContainer(forKey: .list)
            values = []
            while !list.isAtEnd { values.append(try list.decodeIfPresent(Int.self)) }
            _ = try list.decodeIfPresent(Int.self)
            sup = try c.superDecoder(forKey: .deep).singleValueContainer().decode(Int?.self)
            let inner = try c.nestedContainer(keyedBy: Keys.self, forKey: .inner)
            nested = try inner.decode(String.self, forKey: .other)
            missingSuper = try c.superDecoder(forKey: .other).singleValueContainer().decodeNil()
        }
    }

    @Test(arguments: [
        "{\"list\":[1,null,3],\"deep\":5,\"inner\":{\"other\":\"x\"}}", "{\"list\":[1,\"a\"],\"deep\":5,\"inner\":{\"other\":\"x\"}}",
        "{\"list\":[],\"inner\":{\"other\":\"x\"}}", "{\"list\":[],\"deep\":5,\"inner\":{}}", "{\"list\":{},\"deep\":5,\"inner\":{}}",
        "{\"list\":[],\"deep\":\"s\",\"inner\":{\"other\":1}}",
    ])
    func handwrittenInits_decodeAlike(_ json: String) {
        let (f, m) = bothDecoders(Handwritten.self, Array(json.utf8))
        #expect(f == m)
    }
}

@Suite struct MagmaDecoderErrorTests {
    struct Target: Decodable { var a: Int }

    /// Array indices in the error's JSON path, at every depth and through a keyed value.
    @Test func indexPaths_renderAsBrackets() throws {
        for (json, path) in [("[[1],[2,\"x\"]]", "$[1][1]"), ("[{\"a\":1},{\"a\":[]}]", "$[1].a")] {
            do {
                if path.hasSuffix(".a") { _ = try MagmaDecoder().decode([Target].self, from: Array(json.utf8)) } else {
                    _ = try MagmaDecoder().decode([[Int]].self, from: Array(json.utf8))
                }
                Issue.record("decoded \(json)")
            } catch DecodingError.typeMismatch(_, let context) {
                #expect((context.underlyingError as? JSONError)?.path == path)
            }
        }
    }

    /// JSONDecoder's text in the description; the place in the underlying error.
    @Test func typeMismatch_underlyingErrorSaysLineColumnAndOffset() throws {
        let json = Array("{\n  \"a\": \"x\"\n}".utf8)
        do {
            _ = try MagmaDecoder().decode(Target.self, from: json)
            Issue.record("decoded")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["a"])
            #expect(context.debugDescription == "Expected to decode Int but found a string instead.")
            let underlying = try #require(context.underlyingError as? JSONError)
            #expect(underlying.code == .typeMismatch)
            #expect(underlying.path == "$.a")
            #expect(underlying.line == 2 && underlying.column == 8 && underlying.offset == 9)
        }
    }

    @Test func invalidJSON_isDataCorruptedWithMagmasError() throws {
        let json = Array("{\"a\": 1,\n ]".utf8)
        do {
            _ = try MagmaDecoder().decode(Target.self, from: json)
            Issue.record("decoded")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.isEmpty)
            #expect(context.debugDescription == "The given data was not valid JSON.")
            let underlying = try #require(context.underlyingError as? JSONError)
            #expect(underlying.code == .syntax)
            #expect(underlying.line == 2)
        }
    }

    /// Stricter than JSONDecoder, and says so: a lone surrogate escape in a string never decoded.
    @Test func loneSurrogate_isRejectedWithReason() throws {
        let json = Array("{\"a\": 1, \"b\": \"\\ud800\"}".utf8)
        #expect(throws: Never.self) { try JSONDecoder().decode(Target.self, from: Data(json)) }
        do {
            _ = try MagmaDecoder().decode(Target.self, from: json)
            Issue.record("decoded")
        } catch DecodingError.dataCorrupted(let context) {
            #expect((context.underlyingError as? JSONError)?.code == .invalidUnicode)
        }
    }

    /// A decoder kept by `init(from:)` still reads its value after `decode` returned.
    @Test func escapedDecoder_readsAfterReturn() throws {
        final class Keeps: Decodable {
            let decoder: any Decoder
            init(from decoder: any Decoder) throws { self.decoder = decoder }
        }
        var bytes = Array("[\"kept\"]".utf8)
        let kept = try MagmaDecoder().decode(Keeps.self, from: bytes)
        bytes.replaceSubrange(0..<bytes.count, with: Array(repeating: UInt8(ascii: " "), count: bytes.count))
        var c = try kept.decoder.unkeyedContainer()
        #expect(try c.decode(String.self) == "kept")
    }
}

@Suite struct CodableArrayDifferentialTests {
    struct Arrays: Codable, Equatable {
        var d: [Double]?
        var i: [Int]?
        var s: [String]?
        var nested: [[Double]]?
    }

    /// The concrete element loops give JSONDecoder's values and errors.
    @Test(arguments: [
        "{\"d\":[1,2.5,-0,1e2],\"i\":[1,2,3],\"s\":[\"a\",\"\\u00e9\"],\"nested\":[[1],[],[2,3]]}",
        "{\"d\":[1,null]}", "{\"d\":[1,\"x\"]}", "{\"d\":[1e400]}", "{\"i\":[1,2.5]}", "{\"i\":[9223372036854775808]}",
        "{\"s\":[\"a\",1]}", "{\"s\":[null]}", "{\"nested\":[[1],[null]]}", "{\"nested\":[1]}", "{\"d\":{}}", "{\"i\":\"x\"}",
    ])
    func arrays_decodeAlike(_ json: String) {
        let (f, m) = bothDecoders(Arrays.self, Array(json.utf8))
        #expect(f == m)
    }
}
