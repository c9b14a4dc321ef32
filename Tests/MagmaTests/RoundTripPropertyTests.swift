import Foundation
import Testing
@testable import Magma

/// decode(encode(m)) == m for models decoded from generated JSON: every built-in transformer,
/// every key-path shape (dotted, escaped dots, array indices with gaps, an index of an index, a
/// key and a path through it, several keys into one property, one key into several), in a
/// `@JSONModel` and in its `Map`-declared twin, with every set of encoding options. The JSON is
/// made at random (seeded: a failure names its run and reproduces) from what each transformer
/// reads: dates with 0 to 9 fraction digits and any offset, epochs with fractions, numbers at
/// their edges. Encoding twice gives the same bytes, and what an index path reads is written
/// back as an array.
@Suite struct RoundTripPropertyTests {
    /// One property's key path and the JSON values its transformer reads.
    struct Field: Sendable {
        let path: [String]
        let make: @Sendable (inout SeededGenerator) -> JSONValue
        init(_ keyPath: String, _ make: @escaping @Sendable (inout SeededGenerator) -> JSONValue) {
            self.init(components: keyPath.split(separator: ".").map(String.init), make)
        }
        /// A key path whose keys hold dots.
        init(components: [String], _ make: @escaping @Sendable (inout SeededGenerator) -> JSONValue) {
            path = components
            self.make = make
        }
    }

    @JSONModel
    struct Child: Equatable {
        var name = ""
        var score: Double?
        var tags: [String] = []
    }

    @JSONModel
    struct Transformers: Equatable {
        enum Kind: String { case open, closed, draft }
        enum Level: Int { case low = 1, mid = 5, high = 9 }
        var text = ""
        var int = 0
        var i8: Int8 = 0
        var i16: Int16 = 0
        var i32: Int32 = 0
        var i64: Int64 = 0
        var uint: UInt = 0
        var u8: UInt8 = 0
        var u16: UInt16 = 0
        var u32: UInt32 = 0
        var u64: UInt64 = 0
        var double = 0.0
        var float: Float = 0
        var decimal: Decimal = 0
        var flag = false
        var url: URL?
        var uuid: UUID?
        var data: Data?
        var date: Date?
        @Transform(.iso8601(fractionalSeconds: true)) var millis: Date?
        @Transform(.date(format: "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX")) var patterned: Date?
        @Transform(.date(format: "EEE, dd MMM yyyy HH:mm:ss Z")) var rfc822: Date?
        @Transform(.date(format: "yyyy-MM-dd")) var day: Date?
        @Transform(.epochSeconds) var epoch: Date?
        @Transform(.epochMilliseconds) var epochMillis: Date?
        var kind = Kind.open
        var level: Level?
        @Transform(.valueMapping([.string("one"): 1, .string("two"): 2, .null: 0], default: -1, reverseDefault: .string("other"))) var mapped = 0
        @Transform(.formattedNumber(style: .decimal, locale: Locale(identifier: "en_US"))) var formatted = 0.0
        var number: JSONNumber?
        var any: JSONValue = .null
        var texts: [String] = []
        var grid: [[Double]] = []
        var counts: [String: Int] = [:]
        var child: Child?
        var children: [Child] = []
        var byName: [String: Child] = [:]
        var kinds: [Kind] = []
        @Transform(RoundTripPropertyTests.reversed) var custom = ""
        @Transform(RoundTripPropertyTests.chained) var chained = 0
        @Transform(RoundTripPropertyTests.inverted) var inverted = ""
    }

    /// A closure transformer: the string reversed, both ways.
    static let reversed = Transformer<JSONValue, String>(forward: { value in
        guard case .string(let s) = value else { throw JSONError(.typeMismatch, "not a string") }
        return String(s.reversed())
    }, reverse: { .string(String($0.reversed())) })
    /// A built-in transformer followed by a Swift-side one: the number's digits as an `Int`.
    static let chained = Transformer<JSONValue, String>.string.chained(Transformer<String, Int>(
        forward: { guard let n = Int($0) else { throw JSONError(.invalidValue, "not digits") }; return n },
        reverse: { String($0) }))
    /// A transformer written from JSON to Swift, inverted: JSON strings upper-cased into the property.
    static let inverted = Transformer<String, JSONValue>(
        forward: { .string($0.lowercased()) },
        reverse: { value in
            guard case .string(let s) = value else { throw JSONError(.typeMismatch, "not a string") }
            return s.uppercased()
        }).inverted

    @JSONModel
    struct Paths: Equatable {
        var plain = 0
        @Key("user.login") var login: String?
        @Key("a.b.c.d") var deep: Int?
        @Key(#"dotted\.key"#) var dotted: String?
        @Key(#"x.y\.z"#) var dottedInside: Bool?
        @Key("labels.0.name") var firstLabel: String?
        @Key("labels.0.color") var firstColor: String?
        @Key("labels.2.name") var thirdLabel: String?
        @Key("tags.0") var firstTag: String?
        @Key("tags.1") var secondTag: Int?
        @Key("grid.1.0") var cell: Double?
        @Key("grid.1.2") var cellAfterGap: Double?
        @Key("deep.0.items.1.id") var nestedIndex: Int?
        var owner: Child?
        @Key("owner.name") var ownerName: String?
        @Key("first", "last") @Transform(RoundTripPropertyTests.fullName) var fullName = ""
        @Key("count") var count = 0
        @Key("count") var countAgain = 0
    }

    /// The same mapping declared with `Map`.
    struct MappedPaths: JSONModel, Equatable {
        var plain = 0
        var login: String?
        var firstLabel: String?
        var thirdLabel: String?
        var firstTag: String?
        var cell: Double?
        var nestedIndex: Int?
        var owner: Child?
        var ownerName: String?
        var fullName = ""
        var count = 0
        var countAgain = 0
        static let jsonMapping = JSONMapping<MappedPaths> {
            Map(\.plain, "plain")
            Map(\.login, "user.login")
            Map(\.firstLabel, "labels.0.name")
            Map(\.thirdLabel, "labels.2.name")
            Map(\.firstTag, "tags.0")
            Map(\.cell, "grid.1.0")
            Map(\.nestedIndex, "deep.0.items.1.id")
            Map(\.owner, "owner")
            Map(\.ownerName, "owner.name")
            Map(\.fullName, ["first", "last"], RoundTripPropertyTests.fullName)
            Map(\.count, "count")
            Map(\.countAgain, "count")
        }
    }

    /// Two keys into one property, `first|last`; a key that is absent or not a string reads as "".
    static let fullName = Transformer<[String: JSONValue], String>(forward: { values in
        [values["first"], values["last"]].map { value -> String in
            if case .string(let s)? = value { return s }
            return ""
        }.joined(separator: "|")
    }, reverse: { name in
        guard !name.isEmpty else { return [:] }
        let parts = name.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        return ["first": .string(parts[0]), "last": .string(parts.count > 1 ? parts[1] : "")]
    })

    // MARK: What each transformer reads

    static func string(_ g: inout SeededGenerator) -> JSONValue {
        let pieces = ["a", "Zé", "\"", "\\", "/", "\n", "\u{1}", "😀", " ", "x y", "\u{7F}", "\u{2028}"]
        return .string((0..<Int.random(in: 0...6, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined())
    }
    static func integer<T: FixedWidthInteger & SendableMetatype>(_: T.Type) -> @Sendable (inout SeededGenerator) -> JSONValue {
        { g in
            let edges: [T] = [T.min, T.max, 0, T.min / 2, T.max / 3]
            return .number(JSONNumber(Bool.random(using: &g) ? edges.randomElement(using: &g)! : T.random(in: T.min...T.max, using: &g)))
        }
    }
    static func double(_ g: inout SeededGenerator) -> JSONValue {
        switch Int.random(in: 0..<4, using: &g) {
        case 0: return .number(JSONNumber(Double(bitPattern: UInt64.random(in: 0..<0x7FF0_0000_0000_0000, using: &g)) * (Bool.random(using: &g) ? 1 : -1)))
        case 1: return .number(JSONNumber([0.1, -0.0, Double.leastNonzeroMagnitude, 1.7976931348623157e308, 1e21, 123456.789].randomElement(using: &g)!))
        case 2: return .number(JSONNumber(unchecked: "\(Int.random(in: -99999...99999, using: &g))e\(Int.random(in: -30...30, using: &g))"))
        default: return .number(JSONNumber(Double.random(in: -1e6...1e6, using: &g)))
        }
    }
    static func float(_ g: inout SeededGenerator) -> JSONValue {
        .number(JSONNumber(unchecked: "\(Float.random(in: -1e6...1e6, using: &g))"))
    }
    static func decimal(_ g: inout SeededGenerator) -> JSONValue {
        let digits = (0..<Int.random(in: 1...30, using: &g)).map { _ in String(Int.random(in: 0...9, using: &g)) }.joined()
        let point = Int.random(in: 0...digits.count, using: &g)
        let text = (Bool.random(using: &g) ? "-" : "") + (point == 0 ? digits : "\(digits.prefix(point)).\(digits.dropFirst(point).isEmpty ? "0" : String(digits.dropFirst(point)))")
        return .number(JSONNumber(unchecked: text.hasPrefix("-0") || text.hasPrefix("0") ? "1" + text.filter { $0 != "-" } : text))
    }
    static func isoDate(_ g: inout SeededGenerator) -> JSONValue {
        let seconds = Int.random(in: -2_000_000_000...4_000_000_000, using: &g)
        var text = formatted(seconds, "yyyy-MM-dd'T'HH:mm:ss")
        let digits = Int.random(in: 0...9, using: &g)
        if digits > 0 { text += "." + (0..<digits).map { _ in String(Int.random(in: 0...9, using: &g)) }.joined() }
        return .string(text + ["Z", "+05:30", "-08:00", "+0100", "z"].randomElement(using: &g)!)
    }
    static func millisDate(_ g: inout SeededGenerator) -> JSONValue {
        .string(formatted(Int.random(in: 0...4_000_000_000, using: &g), "yyyy-MM-dd'T'HH:mm:ss") + String(format: ".%03d", Int.random(in: 0...999, using: &g)) + "+02:00")
    }
    static func rfc822(_ g: inout SeededGenerator) -> JSONValue {
        .string(formatted(Int.random(in: 0...4_000_000_000, using: &g), "EEE, dd MMM yyyy HH:mm:ss") + " +0000")
    }
    static func day(_ g: inout SeededGenerator) -> JSONValue {
        .string(formatted(86400 * Int.random(in: -20000...40000, using: &g), "yyyy-MM-dd"))
    }
    static func epoch(_ g: inout SeededGenerator) -> JSONValue {
        Bool.random(using: &g) ? .number(JSONNumber(Int.random(in: -4_000_000_000...4_000_000_000, using: &g)))
            : .number(JSONNumber(Double.random(in: -4e9...4e9, using: &g)))
    }
    static func epochMillis(_ g: inout SeededGenerator) -> JSONValue {
        Bool.random(using: &g) ? .number(JSONNumber(Int.random(in: -4_000_000_000_000...4_000_000_000_000, using: &g)))
            : .number(JSONNumber(Double.random(in: -4e12...4e12, using: &g)))
    }
    static func formatted(_ seconds: Int, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
    static func anyJSON(_ g: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0..<(depth > 2 ? 4 : 6), using: &g) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &g))
        case 2: return double(&g)
        case 3: return string(&g)
        case 4: return .array((0..<Int.random(in: 0...3, using: &g)).map { _ in anyJSON(&g, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &g) {
                if case .string(let key) = string(&g) { members[key] = anyJSON(&g, depth: depth + 1) }
            }
            return .object(members)
        }
    }
    static func child(_ g: inout SeededGenerator) -> JSONValue {
        var members: [String: JSONValue] = ["name": string(&g)]
        if Bool.random(using: &g) { members["score"] = Bool.random(using: &g) ? .null : double(&g) }
        if Bool.random(using: &g) { members["tags"] = .array((0..<Int.random(in: 0...3, using: &g)).map { _ in string(&g) }) }
        return .object(members)
    }
    static func array(_ element: @escaping @Sendable (inout SeededGenerator) -> JSONValue) -> @Sendable (inout SeededGenerator) -> JSONValue {
        { g in .array((0..<Int.random(in: 0...4, using: &g)).map { _ in element(&g) }) }
    }
    static func dictionary(_ value: @escaping @Sendable (inout SeededGenerator) -> JSONValue) -> @Sendable (inout SeededGenerator) -> JSONValue {
        { g in
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &g) {
                if case .string(let key) = string(&g) { members[key] = value(&g) }
            }
            return .object(members)
        }
    }
    static func optional(_ value: @escaping @Sendable (inout SeededGenerator) -> JSONValue) -> @Sendable (inout SeededGenerator) -> JSONValue {
        { g in Int.random(in: 0..<5, using: &g) == 0 ? .null : value(&g) }
    }
    static func oneOf(_ values: [JSONValue]) -> @Sendable (inout SeededGenerator) -> JSONValue { { g in values.randomElement(using: &g)! } }

    static let transformerFields: [Field] = [
        Field("text", string), Field("int", integer(Int.self)), Field("i8", integer(Int8.self)), Field("i16", integer(Int16.self)),
        Field("i32", integer(Int32.self)), Field("i64", integer(Int64.self)), Field("uint", integer(UInt.self)),
        Field("u8", integer(UInt8.self)), Field("u16", integer(UInt16.self)), Field("u32", integer(UInt32.self)),
        Field("u64", integer(UInt64.self)), Field("double", double), Field("float", float), Field("decimal", decimal),
        Field("flag", { .bool(Bool.random(using: &$0)) }),
        Field("url", optional { g in .string(["https://example.com/a?b=c#d", "mailto:x@y.z", "file:///tmp/x%20y", "http://h:8080/"].randomElement(using: &g)! + String(Int.random(in: 0...9, using: &g))) }),
        Field("uuid", optional { g in .string(UUID(uuid: (UInt8.random(in: 0...255, using: &g), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, UInt8.random(in: 0...255, using: &g))).uuidString) }),
        Field("data", optional { g in .string(Data((0..<Int.random(in: 0...9, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) }).base64EncodedString()) }),
        Field("date", optional(isoDate)), Field("millis", optional(isoDate)), Field("patterned", optional(millisDate)),
        Field("rfc822", optional(rfc822)), Field("day", optional(day)), Field("epoch", optional(epoch)),
        Field("epochMillis", optional(epochMillis)),
        Field("kind", oneOf(["open", "closed", "draft"].map(JSONValue.string))),
        Field("level", oneOf([.null, .number(1), .number(5), .number(9)])),
        Field("mapped", oneOf([.string("one"), .string("two"), .null, .string("three"), .number(4)])),
        Field("formatted", { g in .string(["0", "12,345.678", "1.23456", "-0.5", "1,000,000.125", "3.14159265358979"].randomElement(using: &g)!) }),
        Field("number", optional(double)), Field("any", { anyJSON(&$0) }), Field("texts", array(string)),
        Field("grid", array(array(double))), Field("counts", dictionary(integer(Int.self))), Field("child", optional(child)),
        Field("children", array(child)), Field("byName", dictionary(child)),
        Field("kinds", array(oneOf(["open", "closed", "draft"].map(JSONValue.string)))),
        Field("custom", string), Field("chained", { g in .string(String(Int.random(in: 0...99999, using: &g))) }),
        Field("inverted", { g in .string(["abc", "X y", "ÉTÉ"].randomElement(using: &g)!) }),
    ]

    static let pathFields: [Field] = [
        Field("plain", integer(Int.self)), Field("user.login", optional(string)), Field("a.b.c.d", optional(integer(Int.self))),
        Field("labels.0.name", optional(string)), Field("labels.0.color", optional(string)), Field("labels.2.name", optional(string)),
        Field("tags.0", optional(string)), Field("tags.1", optional(integer(Int.self))), Field("grid.1.0", optional(double)),
        Field("grid.1.2", optional(double)), Field("deep.0.items.1.id", optional(integer(Int.self))),
        Field("owner", optional(child)), Field("first", string), Field("last", string), Field("count", integer(Int.self)),
    ]

    /// Puts `value` at `path` in `root`, making objects, and arrays where a component is an
    /// index (other elements null).
    static func set(_ value: JSONValue, at path: ArraySlice<String>, in root: inout JSONValue) {
        guard let key = path.first else { root = value; return }
        if let index = PlanNode.arrayIndex(key) {
            var elements: [JSONValue] = []
            if case .array(let existing) = root { elements = existing }
            while elements.count <= index { elements.append(.null) }
            set(value, at: path.dropFirst(), in: &elements[index])
            root = .array(elements)
        } else {
            var members: [String: JSONValue] = [:]
            if case .object(let existing) = root { members = existing }
            var child = members[key] ?? .null
            set(value, at: path.dropFirst(), in: &child)
            members[key] = child
            root = .object(members)
        }
    }

    /// The value at `path` of a JSON document, or nil.
    static func value(at path: ArraySlice<String>, in value: Any) -> Any? {
        guard let key = path.first else { return value }
        if let array = value as? [Any], let index = Int(key), index < array.count { return Self.value(at: path.dropFirst(), in: array[index]) }
        if let object = value as? [String: Any], let member = object[key] { return Self.value(at: path.dropFirst(), in: member) }
        return nil
    }

    static func check<M: JSONObjectModel & Equatable>(_: M.Type, _ fields: [Field], seed: UInt64, runs: Int) throws {
        var g = SeededGenerator(seed: seed)
        for run in 0..<runs {
            var document = JSONValue.object([:])
            for field in fields where Int.random(in: 0..<4, using: &g) != 0 {
                set(field.make(&g), at: field.path[...], in: &document)
            }
            let text = document.description
            let model = try JSONAdapter.model(M.self, from: text)
            for options in RoundTripTests.optionSets {
                let written = try JSONAdapter.json(from: model, options: options)
                let back = try JSONAdapter.model(M.self, from: written)
                #expect(back == model, "\(M.self), seed \(seed) run \(run), \(options):\n\(text)\n-> \(String(decoding: written, as: UTF8.self))")
                if options.sortedKeys {   // dictionaries' members come in their own order otherwise
                    #expect(try JSONAdapter.json(from: back, options: options) == written, "\(M.self) run \(run): written twice differs")
                }
                // An index component of a key path is an array in what is written, as in what was read.
                let parsed = try JSONSerialization.jsonObject(with: written, options: [.fragmentsAllowed])
                for field in fields {
                    for (i, component) in field.path.enumerated() where i > 0 && PlanNode.arrayIndex(component) != nil {
                        if let container = value(at: field.path[..<i], in: parsed) {
                            #expect(container is [Any], "\(M.self) run \(run): \(field.path[..<i].joined(separator: ".")) written as \(type(of: container))")
                        }
                    }
                }
            }
            // The model as a JSONValue (a model transformer's reverse) reads back as the model too.
            let value = try objectModelCodec(M.self).encode(model)
            #expect(try JSONAdapter.model(M.self, from: value.description) == model, "\(M.self) run \(run): JSONValue \(value)")
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func everyTransformer_roundTrips(seed: UInt64) throws {
        try Self.check(Transformers.self, Self.transformerFields, seed: seed, runs: 150)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func everyKeyPathShape_roundTrips(seed: UInt64) throws {
        let dotted = [Field(components: ["dotted.key"], Self.optional(Self.string)),
                      Field(components: ["x", "y.z"], Self.optional { .bool(Bool.random(using: &$0)) })]
        try Self.check(Paths.self, Self.pathFields + dotted, seed: seed, runs: 200)
        try Self.check(MappedPaths.self, Self.pathFields, seed: seed, runs: 200)
    }

    // MARK: The cases that lost data, spelled out

    @JSONModel
    struct Stamp: Equatable {
        var at: Date
        @Transform(.iso8601(fractionalSeconds: true)) var withMillis: Date?
        @Key("labels.0.name") var firstLabel: String?
        @Key("labels.2.name") var thirdLabel: String?
        @Key("tags.1") var secondTag: String?
    }

    @Test func fractionalSeconds_areWrittenBack() throws {
        let json = #"{"at": "2026-11-28T17:49:06.123Z", "withMillis": "2026-11-28T17:49:06Z"}"#
        let stamp = try JSONAdapter.model(Stamp.self, from: json)
        let written = String(decoding: try JSONAdapter.json(from: stamp), as: UTF8.self)
        #expect(written == #"{"at":"2026-11-28T17:49:06.123Z","withMillis":"2026-11-28T17:49:06.000Z"}"#)
        // Nine digits, and an offset, read back as the same Date.
        let fine = try JSONAdapter.model(Stamp.self, from: #"{"at": "2026-11-28T23:19:06.123456789+05:30"}"#)
        #expect(try JSONAdapter.model(Stamp.self, from: try JSONAdapter.json(from: fine)) == fine)
        #expect(String(decoding: try JSONAdapter.json(from: fine), as: UTF8.self).hasPrefix(#"{"at":"2026-11-28T17:49:06.123456"#))
    }

    @Test func indexKeyPaths_areWrittenAsArrays() throws {
        let read = try JSONAdapter.model(Stamp.self, from: #"{"at": "2026-01-01T00:00:00Z", "labels": [{"name": "a"}, {"name": "b"}, {"name": "c"}], "tags": ["x", "y"]}"#)
        #expect(String(decoding: try JSONAdapter.json(from: read), as: UTF8.self)
                == #"{"at":"2026-01-01T00:00:00Z","labels":[{"name":"a"},null,{"name":"c"}],"tags":[null,"y"]}"#)
        // Elements after the last value are not written; an array with no value is left out.
        var some = read
        some.thirdLabel = nil
        some.secondTag = nil
        #expect(String(decoding: try JSONAdapter.json(from: some), as: UTF8.self) == #"{"at":"2026-01-01T00:00:00Z","labels":[{"name":"a"}]}"#)
        some.firstLabel = nil
        #expect(String(decoding: try JSONAdapter.json(from: some), as: UTF8.self) == #"{"at":"2026-01-01T00:00:00Z"}"#)
        var nulls = EncodingOptions()
        nulls.nilProperties = .writeNull
        let written = String(decoding: try JSONAdapter.json(from: some, options: nulls), as: UTF8.self)
        // Nil written as null: inside an element's object as in any rebuilt object; a nil element is
        // null, and nulls after the last element with a value are not written.
        #expect(written == #"{"at":"2026-01-01T00:00:00Z","withMillis":null,"labels":[{"name":null},null,{"name":null}]}"#)
        #expect(try objectModelCodec(Stamp.self).encode(read) == JSONValue.object([
            "at": .string("2026-01-01T00:00:00Z"),
            "labels": .array([.object(["name": .string("a")]), .null, .object(["name": .string("c")])]),
            "tags": .array([.null, .string("y")])]))
    }

    struct Mixed: JSONModel {
        var first: String?
        var count = 0
        static let jsonMapping = JSONMapping<Mixed> {
            Map(\.first, "items.0.name")
            Map(\.count, "items.count")
        }
    }

    @Test func keyPathReadAsArrayAndObject_isAnErrorWhenTheMappingIsBuilt() throws {
        let error = thrownJSONError("a mapping that reads items both ways") { _ = try JSONAdapter.model(Mixed.self, from: "{}") }
        #expect(error?.code == .invalidMapping)
        #expect(error?.message == #"key path "items" is read as an array ("items.0") and as an object ("items.count"): it could not be written back as both"#)
    }
}
