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
    static let doubles: [Double] = [0, -0.0, 1, -1, 0.1, 1.5, 1e15, 1e16, 123456789012345.0, 1e-7, .leastNonzeroMagnitude, 1.7976931348623157e308, 1e21, 3.14159, -2.5e-3, 100]
    static let floats: [Float] = [0, 0.1, 1.5, 3.4e38, .leastNonzeroMagnitude, 16777216, -7]

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

    /// `.iso8601` dates, which Magma prints for whole seconds from 1900 to 2100: JSONEncoder's
    /// bytes inside that range, at its edges and outside it (fractions, earlier, later).
    @Test func iso8601Dates_byteIdentical() {
        var seconds: [Double] = [0, -1, 1, 951_782_400, 951_868_799, 1_709_164_800, -2_208_988_800, -2_208_988_801, 4_102_444_799, 4_102_444_800,
                                 -62_135_596_800, 253_402_300_799, 0.5, -0.5, 1e9 + 0.9996, 1e9 + 0.0004, 1e12, -1e12]
        var g = SeededGenerator(seed: 8601)
        for _ in 0..<2000 { seconds.append(Double(Int64.random(in: -2_208_988_800..<4_102_444_800, using: &g))) }
        for _ in 0..<200 { seconds.append(Double.random(in: -3e9..<5e9, using: &g)) }
        let dates = seconds.map { Date(timeIntervalSince1970: $0) }
        let (f, m) = Self.bothEncoders(dates) { $0.dateEncodingStrategy = .iso8601 }
        #expect(f == m)
    }

    /// Every byte escaping treats apart (each control byte, `"`, `\`, `/`, DEL, non-ASCII, U+2028
    /// and U+2029), alone, in runs, and between clean runs that put it at every offset of the
    /// writer's eight-byte steps and of its last, partial step: JSONEncoder's bytes, in values
    /// and in keys, with and without `.withoutEscapingSlashes`.
    @Test func escapes_byteIdenticalAtEveryOffset() {
        let specials = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) } + ["\"", "\\", "/", "\u{7F}", "\u{e9}", "\u{20AC}", "\u{1F600}", "\u{2028}", "\u{2029}"]
        var strings: [String] = []
        for special in specials {
            for before in 0...17 {
                for after in [0, 1, 6, 7, 8, 9, 16] {
                    strings.append(String(repeating: "x", count: before) + special + String(repeating: "y", count: after))
                }
            }
            for run in 1...17 { strings.append(String(repeating: special, count: run)) }
        }
        strings += ["https://api.github.com/repos/o/r/issues/1", "a/b\"c\\d\ne\u{1}f/", "//\"\"\\\\\n\n\u{1F}\u{1F}", #"C:\temp\new"#]
        var g = SeededGenerator(seed: 2028)
        for _ in 0..<300 {
            strings.append((0..<Int.random(in: 1...40, using: &g)).map { _ in specials.randomElement(using: &g)! + (Bool.random(using: &g) ? "ab" : "") }.joined())
        }
        let keyed = Dictionary(strings.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        for formatting: JSONEncoder.OutputFormatting in [[.sortedKeys], [.sortedKeys, .withoutEscapingSlashes]] {
            let (f, m) = Self.bothEncoders(strings) { $0.outputFormatting = formatting }
            #expect(f == m, "values, \(formatting)")
            let (fk, mk) = Self.bothEncoders(keyed) { $0.outputFormatting = formatting }
            #expect(fk == mk, "keys, \(formatting)")
        }
    }
}

extension DecodeOutcome {
    static func describeEncoding(_ error: any Error) -> String {
        guard case .invalidValue(let value, let c) = error as? EncodingError else { return "other: \(error)" }
        return "invalidValue(\(value)) at " + c.codingPath.map { k in k.intValue.map { "[\($0)|\(k.stringValue)]" } ?? ".\(k.stringValue)" }.joined()
    }
}

/// MagmaEncoder's streaming path (StreamEncoder) against its tree (TreeEncoder, JSONEncoder's
/// semantics): the same bytes in every formatting, and the tree where the stream cannot go.
@Suite struct StreamEncoderTests {
    static let allFormattings: [JSONEncoder.OutputFormatting] = [[], [.prettyPrinted], [.withoutEscapingSlashes], [.sortedKeys],
                                                                 [.sortedKeys, .prettyPrinted], [.prettyPrinted, .withoutEscapingSlashes],
                                                                 [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]]

    /// The stream's bytes (nil when it gave up) and the tree's, for `value`.
    static func streamAndTree<T: Encodable>(_ value: T, _ configure: (MagmaEncoder) -> Void) -> (stream: String?, tree: String) {
        let encoder = MagmaEncoder()
        configure(encoder)
        let settings = EncoderSettings(encoder)
        func text(_ body: () throws -> Data?) -> String? {
            do { return try body().map { String(decoding: $0, as: UTF8.self) } } catch { return "error: " + DecodeOutcome<Int>.describeEncoding(error) }
        }
        return (text { try StreamEncoder.encode(value, settings: settings, formatting: encoder.outputFormatting) },
                text { try encoder.treeEncode(value, settings: settings, formatting: encoder.outputFormatting) }!)
    }

    @Test func randomModels_streamEqualsTree_everyFormatting() {
        var g = SeededGenerator(seed: 915)
        let dates: [MagmaEncoder.DateEncodingStrategy] = [.deferredToDate, .secondsSince1970, .millisecondsSince1970, .iso8601]
        let keys: [JSONEncoder.KeyEncodingStrategy] = [.useDefaultKeys, .convertToSnakeCase]
        for n in 0..<280 {
            let value = MagmaEncoderTests.model(&g)
            let (s, t) = Self.streamAndTree([value, value]) { e in
                e.outputFormatting = Self.allFormattings[n % Self.allFormattings.count]
                e.dateEncodingStrategy = dates[n / 7 % dates.count]
                e.keyEncodingStrategy = keys[n / 28 % keys.count]
                // Under a key strategy, dictionaries are copied first: members come in a new order each time.
                if n / 28 % keys.count == 1 { e.outputFormatting.insert(.sortedKeys) }
            }
            #expect(s == t, "model \(n)")
        }
    }

    /// Encodes `a` twice (a scalar, then an object), `b`, and `c` twice (an object, then a scalar).
    struct Repeated: Encodable {
        enum K: String, CodingKey { case a, b, c, zz = "a/", q = "a\"" }
        struct Inner: Encodable { var x = 1; var y = [2, 3] }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: K.self)
            try c.encode(1, forKey: .zz)
            try c.encode(1, forKey: .a)
            try c.encode(Inner(), forKey: .c)
            try c.encode("b", forKey: .b)
            try c.encode(Inner(), forKey: .a)
            try c.encode(2, forKey: .q)
            try c.encode(3, forKey: .c)
        }
    }

    @Test func keyWrittenTwice_firstPlaceLastValue() {
        for formatting in Self.allFormattings {
            let (s, t) = Self.streamAndTree(["k": [Repeated(), Repeated()]]) { $0.outputFormatting = formatting }
            #expect(s != nil && s == t, "\(formatting)")
            if formatting.contains(.sortedKeys) {
                let (f, m) = MagmaEncoderTests.bothEncoders(Repeated()) { $0.outputFormatting = formatting }
                #expect(f == m)
            }
        }
        let (s, _) = Self.streamAndTree(Repeated()) { _ in }
        #expect(s == #"{"a\/":1,"a":{"x":1,"y":[2,3]},"c":3,"b":"b","a\"":2}"#)
    }

    /// A nested container written to after its parent moved on.
    struct Reopened: Encodable {
        enum K: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: K.self)
            var inner = c.nestedContainer(keyedBy: K.self, forKey: .a)
            try inner.encode(1, forKey: .a)
            try c.encode(2, forKey: .b)
            try inner.encode(3, forKey: .b)
        }
    }

    /// A nested container asked for twice at one key: JSONEncoder merges them.
    struct Merged: Encodable {
        enum K: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: K.self)
            var first = c.nestedContainer(keyedBy: K.self, forKey: .a)
            try first.encode(1, forKey: .a)
            var second = c.nestedContainer(keyedBy: K.self, forKey: .a)
            try second.encode(2, forKey: .b)
        }
    }

    struct Deep: Encodable {
        let depth: Int
        func encode(to encoder: any Encoder) throws {
            var c = encoder.unkeyedContainer()
            if depth > 0 { try c.encode(Deep(depth: depth - 1)) }
        }
    }

    @Test func whatTheStreamCannotTake_givesTheTreesBytes() {
        let cases: [(String, any Encodable)] = [("reopened", Reopened()), ("merged", Merged()), ("super", MagmaEncoderTests.Nested()),
                                                ("deep", Deep(depth: 600)), ("in array", [Reopened(), Reopened()])]
        // A key strategy that is not idempotent: a tree's keys converted twice would show.
        let suffixed = JSONEncoder.KeyEncodingStrategy.custom { PathKey(stringValue: $0.last!.stringValue + "_k") }
        for (name, value) in cases {
            let (s, _) = Self.streamAndTree(value) { $0.outputFormatting = [.sortedKeys] }
            #expect(s == nil, "\(name)")
            for formatting in MagmaEncoderTests.formattings {
                for keys in [JSONEncoder.KeyEncodingStrategy.useDefaultKeys, suffixed] {
                    let (f, m) = MagmaEncoderTests.bothEncoders(value) { $0.outputFormatting = formatting; $0.keyEncodingStrategy = keys }
                    // Too deep: both throw, JSONEncoder with the top-level value (TreeEncoder's own difference).
                    #expect(name == "deep" ? f.hasPrefix("error: invalidValue") && m.hasPrefix("error: invalidValue") : f == m, "\(name) \(formatting)")
                }
            }
        }
    }

    /// A dictionary written through a single-value container, then a keyed container asked for.
    struct Amended: Encodable {
        enum K: String, CodingKey { case a }
        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            try single.encode(["a": "b", "other": "foo"])
            var keyed = encoder.container(keyedBy: K.self)
            try keyed.encode("c", forKey: .a)
        }
    }

    /// Once the stream has given up, a container it could not open writes nothing more: its
    /// frame (-1) was the id the abandoned state awaited, so the write went on, into the frame
    /// below the stack (a crash now and then, with some Dictionary orders).
    @Test func abandonedStream_writesNothingMore() throws {
        let buffers = StreamBuffers(formatting: [.sortedKeys])
        let output = try StreamEncoder.encode(Amended(), settings: EncoderSettings(MagmaEncoder()), buffers: buffers)
        #expect(output == nil)
        #expect(buffers.state.pointee.writer.count == #"{"a":"b","other":"foo"}"#.utf8.count)
        let (f, m) = MagmaEncoderTests.bothEncoders(Amended()) { $0.outputFormatting = [.sortedKeys] }
        #expect(f == m)
    }

    /// Throws after writing a member, into a container that catches the error.
    struct HalfWritten: Encodable {
        enum K: String, CodingKey { case a, b }
        struct Fails: Encodable {
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: K.self)
                try c.encode([1, 2], forKey: .a)
                var list = c.nestedUnkeyedContainer(forKey: .b)
                try list.encode(Double.nan)
            }
        }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: K.self)
            try? c.encode(Fails(), forKey: .a)
            try? c.encode(Double.infinity, forKey: .a)
            try c.encode(1, forKey: .b)
            var list = c.nestedUnkeyedContainer(forKey: .a)
            try? list.encode(Fails())
            try list.encode(2)
        }
    }

    @Test func caughtErrors_leaveNoHalfMember() {
        for formatting in Self.allFormattings {
            let (s, t) = Self.streamAndTree([HalfWritten()]) { $0.outputFormatting = formatting }
            #expect(s != nil && s == t, "\(formatting): \(s ?? "nil") vs \(t)")
        }
        let (f, m) = MagmaEncoderTests.bothEncoders(HalfWritten()) { $0.outputFormatting = [.sortedKeys] }
        #expect(f == m)
    }

    @JSONModel struct MacroIssue: Codable, Equatable {
        let id: Int
        let title: String
        var labels: [String]?
        var closedAt: Date?
    }

    @Test func macroModel_streamsAsJSONEncoderWrites() {
        var issues: [MacroIssue] = []
        for n in 0..<5 {
            let labels: [String]? = n % 2 == 0 ? ["x", "y"] : nil
            let closed: Date? = n % 3 == 0 ? Date(timeIntervalSince1970: Double(n) * 1e8) : nil
            issues.append(MacroIssue(id: n, title: "t/\(n)", labels: labels, closedAt: closed))
        }
        for formatting in MagmaEncoderTests.formattings {
            let (s, t) = Self.streamAndTree(issues) { $0.outputFormatting = formatting; $0.dateEncodingStrategy = .iso8601 }
            #expect(s != nil && s == t)
            let (f, m) = MagmaEncoderTests.bothEncoders(issues) { $0.outputFormatting = formatting; $0.dateEncodingStrategy = .iso8601 }
            #expect(f == m)
        }
    }

    /// Keeps the encoder it was given past its encode.
    final class Kept: @unchecked Sendable { var encoder: (any Encoder)? }
    struct Keeps: Encodable {
        let box: Kept
        func encode(to encoder: any Encoder) throws {
            box.encoder = encoder
            var c = encoder.singleValueContainer()
            try c.encode(1)
        }
    }

    /// One MagmaEncoder, many encodes: the stream's buffers go from one encode to the next
    /// (emptied: every output is JSONEncoder's, after a throw, a fallback to the tree and a change
    /// of formatting too), but not while an `encode(to:)` keeps an encoder of the last one.
    @Test func oneEncoder_reusesItsBuffers_bytesUnchanged() throws {
        let magma = MagmaEncoder(), foundation = JSONEncoder()
        var g = SeededGenerator(seed: 1515)
        let values: [any Encodable] = [MagmaEncoderTests.model(&g), Double.nan, [HalfWritten()], Reopened(), MagmaEncoderTests.model(&g),
                                       [MacroIssue(id: 1, title: "a/b", labels: ["x"], closedAt: nil)], "s", MagmaEncoderTests.model(&g)]
        func text(_ body: () throws -> Data) -> String {
            do { return String(decoding: try body(), as: UTF8.self) } catch { return "error: " + DecodeOutcome<Int>.describeEncoding(error) }
        }
        for formatting: JSONEncoder.OutputFormatting in [[.sortedKeys], [.sortedKeys, .prettyPrinted], [.sortedKeys, .withoutEscapingSlashes]] {
            magma.outputFormatting = formatting
            foundation.outputFormatting = formatting
            for (n, value) in values.enumerated() {
                #expect(text { try magma.encode(value) } == text { try foundation.encode(value) }, "\(formatting) #\(n)")
            }
        }
        _ = try magma.encode(1)
        // Weak: a strong reference here would keep the encoder from taking them back.
        weak let kept = magma.spare
        _ = try magma.encode(MagmaEncoderTests.model(&g))
        #expect(kept != nil && magma.spare === kept)
        let box = Kept()
        #expect(String(decoding: try magma.encode(Keeps(box: box)), as: UTF8.self) == "1")
        #expect(box.encoder != nil && magma.spare == nil)
        #expect(String(decoding: try magma.encode([2]), as: UTF8.self) == "[2]")
        #expect(magma.spare != nil && magma.spare !== kept)
    }

    /// An output of a megabyte or more becomes the `Data` without a copy: the writer's buffer is
    /// handed over, the bytes are JSONEncoder's (members sorted in place in the buffer, which is
    /// a mapping from `mappedFrom` on), and the encoder keeps its (now small) buffers.
    @Test func largeOutput_handedOver_buffersKept() throws {
        let magma = MagmaEncoder(), foundation = JSONEncoder()
        magma.outputFormatting = [.sortedKeys]
        foundation.outputFormatting = [.sortedKeys]
        let issues = (0..<18000).map { MacroIssue(id: $0, title: String(repeating: "a/b \"q\" ", count: 20), labels: ["x", "y/z"], closedAt: nil) }
        let data = try magma.encode(issues)
        #expect(data.count >= JSONWriter.mappedFrom)
        #expect(data == (try foundation.encode(issues)))
        #expect(magma.spare != nil && magma.spare!.state.pointee.writer.capacity < 1 << 16)
        #expect(String(decoding: try magma.encode([2]), as: UTF8.self) == "[2]")
    }

    /// `takeData` gives a large output the writer's own buffer (no copy) and a small one a copy,
    /// the writer emptied either way.
    @Test func takeData_largeOutputIsTheWritersBuffer() {
        var w = JSONWriter(options: EncodingOptions())
        w.string("small")
        let smallBase = w.base, smallCapacity = w.capacity
        #expect(String(decoding: w.takeData(), as: UTF8.self) == "\"small\"")
        #expect(w.count == 0 && w.base == smallBase && w.capacity == smallCapacity)
        while w.count < JSONWriter.handOverSize { w.string("ab\n") }
        let base = UnsafeRawPointer(w.base), count = w.count
        let data = w.takeData()
        #expect(data.count == count)
        // A sanitizer's `realloc` (AddressSanitizer's, ThreadSanitizer's) moves every block it shrinks.
        if Sanitizer.current == nil { #expect(data.withUnsafeBytes { $0.baseAddress } == base) }
        #expect(data.prefix(8) == Data(#""ab\n""a"#.utf8))
        #expect(w.count == 0 && w.capacity == 4096)
        w.bool(true)
        #expect(String(decoding: w.takeData(), as: UTF8.self) == "true")
    }

    /// A buffer asked for or grown past `mappedFrom` is a mapping (capacity in 2 MB units), keeps its
    /// bytes as it moves to one and grows in it (three times here), and is handed over whole;
    /// a writer dropped while mapped frees it, and the next output starts small again.
    @Test func takeData_mappedBufferKeepsItsBytes() {
        do {
            var dropped = JSONWriter(options: EncodingOptions())
            while dropped.count <= JSONWriter.mappedFrom { dropped.string("dropped") }
            #expect(dropped.isMapped && dropped.capacity % (2 << 20) == 0)
            let asked = JSONWriter(options: EncodingOptions(), capacity: JSONWriter.mappedFrom + 1)
            #expect(asked.isMapped && asked.capacity > JSONWriter.mappedFrom && asked.capacity % (2 << 20) == 0)
        }
        var w = JSONWriter(options: EncodingOptions())
        var expected = Data()
        var n: Int64 = 0, mappedAsSaid = true
        w.beginArray()
        expected.append(UInt8(ascii: "["))
        while w.count < 3 * JSONWriter.mappedFrom {
            if n > 0 { expected.append(UInt8(ascii: ",")) }
            w.element()
            w.int64(n)
            expected.append(contentsOf: String(n).utf8)
            mappedAsSaid = mappedAsSaid && w.isMapped == (w.capacity >= JSONWriter.mappedFrom)
            n += 1
        }
        w.endArray()
        expected.append(UInt8(ascii: "]"))
        let base = UnsafeRawPointer(w.base)
        #expect(mappedAsSaid && w.isMapped)
        let data = w.takeData()
        #expect(data.withUnsafeBytes { $0.baseAddress } == base)
        #expect(data == expected)
        #expect(w.capacity == 4096 && !w.isMapped)
        w.int64(7)
        #expect(String(decoding: w.takeData(), as: UTF8.self) == "7")
    }

    /// Keys whose escapes sort them otherwise than their text: sorted as JSONEncoder sorts them.
    @Test func escapedKeys_sortByTheirText() {
        let keys = ["a\"", "a#", "a/", "a0", "a\\", "a]", "a\n", "a\u{1}", "a", "", "\u{e9}", "z"]
        let value = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        for formatting in MagmaEncoderTests.formattings {
            let (f, m) = MagmaEncoderTests.bothEncoders(value) { $0.outputFormatting = formatting }
            #expect(f == m, "\(formatting)")
            let (s, t) = Self.streamAndTree(value) { $0.outputFormatting = formatting }
            #expect(s != nil && s == t)
        }
    }
}
