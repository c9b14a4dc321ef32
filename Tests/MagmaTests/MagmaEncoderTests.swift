// MagmaEncoder against Foundation's JSONEncoder (issue 15): with `.sortedKeys` the bytes are
// identical; without it, the same members (JSONEncoder's order changes from run to run).
import Foundation
import Testing
@testable import Magma

@Suite struct MagmaEncoderTests {
    struct Leaf: Codable, Equatable {
        var name: String
        var ratio: Float
        var when: Date
        var blob: Data
        var link: URL?
        var amount: Decimal
    }

    struct Model: Codable, Equatable {
        var id: Int64
        var userName: String
        var score: Double
        var small: UInt8
        var flags: [Bool]
        var maybe: Int?
        var nothing: String?
        var leaves: [Leaf]
        var byName: [String: Int]
        var byNumber: [Int: String]
        var grid: [[Double]]
        var empty: [Int]
        var emptyObject: [String: Int]
    }

    static let strings = ["", "plain", "a/b", "quote \" back \\ slash", "ctl \u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}", "caf\u{e9} \u{1F600}",
                          "\u{2028}\u{2029}", "</script>"]
    static let doubles: [Double] = [0, -0.0, 1, -1, 0.1, 1.5, 1e15, 1e16, 123456789012345.0, 1e-7, 5e-324, 1.7976931348623157e308, 1e21, 3.14159, -2.5e-3, 100]
    static let floats: [Float] = [0, 0.1, 1.5, 3.4e38, 1e-45, 16777216, -7]

    static func model(_ g: inout SeededGenerator) -> Model {
        func pick<T>(_ a: [T]) -> T { a.randomElement(using: &g)! }
        let leaves = (0..<Int.random(in: 0..<3, using: &g)).map { _ in
            Leaf(name: pick(strings), ratio: pick(floats), when: Date(timeIntervalSince1970: Double(Int.random(in: 0..<2_000_000_000, using: &g)) + pick([0, 0.5, 0.123])),
                 blob: Data((0..<Int.random(in: 0..<7, using: &g)).map { UInt8($0 * 37 & 255) }),
                 link: Bool.random(using: &g) ? URL(string: "https://example.com/x?q=\(Int.random(in: 0..<9, using: &g))") : nil,
                 amount: Decimal(string: pick(["0", "12.5", "-3", "123456789.000001"]))!)
        }
        return Model(id: Int64.random(in: .min ... .max, using: &g), userName: pick(strings), score: pick(doubles),
                     small: UInt8.random(in: 0...255, using: &g), flags: (0..<Int.random(in: 0..<3, using: &g)).map { _ in Bool.random(using: &g) },
                     maybe: Bool.random(using: &g) ? Int.random(in: -5...5, using: &g) : nil, nothing: nil, leaves: leaves,
                     byName: Dictionary(uniqueKeysWithValues: (0..<Int.random(in: 0..<4, using: &g)).map { ("k\($0)\(pick(strings))", $0) }),
                     byNumber: [1: pick(strings), -20: "x"], grid: [[pick(doubles), pick(doubles)], []], empty: [], emptyObject: [:])
    }

    static func bothEncoders<T: Encodable>(_ value: T, _ configure: (JSONEncoder) -> Void) -> (foundation: String, magma: String) {
        let foundation = JSONEncoder()
        configure(foundation)
        let magma = MagmaEncoder(foundation)
        func run(_ body: () throws -> Data) -> String {
            do { return String(decoding: try body(), as: UTF8.self) } catch { return "error: " + DecodeOutcome<Int>.describeEncoding(error) }
        }
        return (run { try foundation.encode(value) }, run { try magma.encode(value) })
    }

    static let formattings: [JSONEncoder.OutputFormatting] = [[.sortedKeys], [.sortedKeys, .prettyPrinted], [.sortedKeys, .withoutEscapingSlashes],
                                                              [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]]

    @Test func randomModels_sortedKeys_byteIdentical() {
        var g = SeededGenerator(seed: 15)
        let dates: [JSONEncoder.DateEncodingStrategy] = [.deferredToDate, .secondsSince1970, .millisecondsSince1970, .iso8601]
        let keys: [JSONEncoder.KeyEncodingStrategy] = [.useDefaultKeys, .convertToSnakeCase]
        for n in 0..<300 {
            let value = Self.model(&g)
            let formatting = Self.formattings[n % Self.formattings.count]
            let date = dates[n / 4 % dates.count]
            let key = keys[n / 16 % keys.count]
            let (f, m) = Self.bothEncoders([value]) { $0.outputFormatting = formatting; $0.dateEncodingStrategy = date; $0.keyEncodingStrategy = key }
            #expect(f == m, "model \(n)")
        }
    }

    @Test func withoutSortedKeys_sameMembers() throws {
        var g = SeededGenerator(seed: 1515)
        for _ in 0..<50 {
            let value = Self.model(&g)
            let (f, m) = Self.bothEncoders(value) { _ in }
            let a = try JSONSerialization.jsonObject(with: Data(f.utf8)) as? NSDictionary
            let b = try JSONSerialization.jsonObject(with: Data(m.utf8)) as? NSDictionary
            #expect(a != nil && a == b)
        }
    }

    @Test func scalarsAndStrategies_byteIdentical() {
        let inf = JSONEncoder.NonConformingFloatEncodingStrategy.convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        let cases: [(String, (JSONEncoder) -> Void, any Encodable)] = [
            ("doubles", { _ in }, Self.doubles), ("floats", { _ in }, Self.floats), ("strings", { _ in }, Self.strings),
            ("top-level string", { _ in }, "a/b"), ("top-level nil", { _ in }, Int?.none), ("infinity", { _ in }, [1.0, .infinity]),
            ("nan in key", { _ in }, ["k": Float.nan]), ("infinity as string", { $0.nonConformingFloatEncodingStrategy = inf }, [Double.infinity, -.infinity, 2]),
            ("data deferred", { $0.dataEncodingStrategy = .deferredToData }, [Data([1, 2, 3])]),
            ("data custom", { $0.dataEncodingStrategy = .custom { d, e in var c = e.singleValueContainer(); try c.encode(d.count) } }, ["d": Data([1])]),
            ("data custom empty", { $0.dataEncodingStrategy = .custom { _, _ in } }, ["d": Data([1])]),
            ("date custom", { $0.dateEncodingStrategy = .custom { d, e in var c = e.unkeyedContainer(); try c.encode(d.timeIntervalSince1970) } }, [Date(timeIntervalSince1970: 5)]),
            ("date formatted", { let f = DateFormatter(); f.dateFormat = "yyyy"; f.timeZone = TimeZone(secondsFromGMT: 0); $0.dateEncodingStrategy = .formatted(f) }, [Date(timeIntervalSince1970: 0)]),
            ("custom keys", { $0.keyEncodingStrategy = .custom { path in PathKey(stringValue: path.map(\.stringValue).joined(separator: "/")) } },
             ["outer": ["inner": 1]]),
            ("snake", { $0.keyEncodingStrategy = .convertToSnakeCase }, Snake(myURLValue: 1, simple: 2, aBC: 3)),
            ("empty pretty", { $0.outputFormatting = [.prettyPrinted, .sortedKeys] }, Empties()),
            ("nested containers", { $0.outputFormatting = [.sortedKeys] }, Nested()),
        ]
        for (name, configure, value) in cases {
            let (f, m) = Self.bothEncoders(value) { $0.outputFormatting.insert(.sortedKeys); configure($0) }
            #expect(f == m, "\(name)")
        }
    }

    struct Snake: Codable { var myURLValue: Int; var simple: Int; var aBC: Int }
    struct Empties: Codable { var a: [Int] = []; var o: [String: Int] = [:]; var n: [[Int]] = [[]] }

    /// Nested containers, superEncoder and an error deep inside: the same bytes and coding paths.
    struct Nested: Encodable {
        enum K: String, CodingKey { case a, b, c }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: K.self)
            var inner = c.nestedContainer(keyedBy: K.self, forKey: .a)
            try inner.encode(1, forKey: .b)
            var list = inner.nestedUnkeyedContainer(forKey: .c)
            try list.encode("x")
            try list.encode(Float(2.5))
            try Int(7).encode(to: c.superEncoder(forKey: .b))
            try "s".encode(to: c.superEncoder())
        }
    }

    struct BadFloat: Encodable {
        enum K: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: K.self)
            var inner = c.nestedContainer(keyedBy: K.self, forKey: .a)
            var list = inner.nestedUnkeyedContainer(forKey: .b)
            try list.encode(1.0)
            try list.encode(Double.nan)
        }
    }

    /// Throws its encoder's coding path.
    struct Probe: Encodable {
        func encode(to encoder: any Encoder) throws {
            throw EncodingError.invalidValue(0, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "probe"))
        }
    }

    struct ProbeInNested: Encodable {
        enum K: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: K.self)
            var inner = c.nestedContainer(keyedBy: K.self, forKey: .a)
            var list = inner.nestedUnkeyedContainer(forKey: .b)
            try list.encode(1)
            try list.encode([Probe()])
        }
    }

    @Test func errorPaths_match() {
        for value in [BadFloat() as any Encodable, ProbeInNested(), ["x": [Probe()]], [[1: Probe()]]] {
            let (f, m) = Self.bothEncoders(value) { _ in }
            #expect(f.hasPrefix("error: invalidValue"))
            #expect(f == m)
        }
    }
}

extension DecodeOutcome {
    static func describeEncoding(_ error: any Error) -> String {
        guard case .invalidValue(let value, let c) = error as? EncodingError else { return "other: \(error)" }
        return "invalidValue(\(value)) at " + c.codingPath.map { k in k.intValue.map { "[\($0)|\(k.stringValue)]" } ?? ".\(k.stringValue)" }.joined()
    }
}
