// Strings, booleans, doubles, floats, URLs, enums by raw value, dates through a built-in transformer,
// integers of every width and arrays (optional or not) are written with no generic `Slot<V>`:
// by a codec's typed write, compiled where the value's type is concrete, or as the array's one
// reference. Each decodes as the generic slot did, which still reads every token the typed path
// leaves (null, unknown raw values, out-of-range numbers).
import Foundation
import Testing
@testable import Magma

@Suite struct TypedWriteTests {
    enum Kind: String, Equatable { case bug, feature }
    enum Level: Int, Equatable { case low = 1, high = 2 }

    @JSONModel
    struct Ticket: Equatable {
        let kind: Kind
        var level: Level = .low
        let maybe: Kind?
        var kinds: [Kind] = []
        @Key("level_or_nil") var levelOrNil: Level?
        @Transform(.date(format: "yyyy-MM-dd")) let day: Date
        @Transform(.iso8601) var seen: Date?
        @Transform(.epochMilliseconds) var start = Date(timeIntervalSince1970: 0)
        let id: UInt64
        var small: UInt8 = 0
        var ints: [Int]?
        var names: [String]?
        var doubles: [Double]?
        var counts: [Int64] = [7]
        var bigs: [UInt32] = []
        var title = ""
        var open: Bool?
        var score: Double = 0
        var count: Int?
        var total: Int64 = 0
        var link: URL?
        var flags: [Bool] = []
        var ratio: Float = 0
        var ratios: [Float]?
    }

    /// The plan's target for each key of the model's draft.
    func targets<M: JSONDraftedModel>(_ type: M.Type) throws -> [String: ValueTarget] {
        let root = try M.Draft.cachedMapping.plan(for: M.Draft.self).root
        return Dictionary(uniqueKeysWithValues: root.names.indices.map { (root.names[$0], root.entries[$0].target.takeUnretainedValue()) })
    }

    @Test func eachProperty_isWrittenWithNoGenericSlot() throws {
        let targets = try targets(Ticket.self)
        for key in ["kind", "level", "maybe", "level_or_nil", "day", "seen", "start", "id", "small",
                    "title", "open", "score", "count", "total", "link", "ratio"] {
            #expect(targets[key] is TypedField, "\(key): \(String(describing: targets[key].map { type(of: $0) }))")
        }
        for key in ["kinds", "ints", "names", "doubles", "counts", "bigs", "flags", "ratios"] {
            #expect(targets[key] is ArrayField, "\(key): \(String(describing: targets[key].map { type(of: $0) }))")
        }
        let kinds = try #require(ArrayCodec(Transformer<JSONValue, Kind>.rawValue(Kind.self).codec).arrayOwner as? ArrayOwner<Kind>)
        #expect((kinds.elementTarget as? TypedField)?.form == .element)
        let bigs = ArrayCodec(UInt32.jsonTransformer.codec).arrayOwner as? ArrayOwner<UInt32>
        #expect((bigs?.elementTarget as? TypedField)?.form == .element)
        let flags = ArrayCodec(Bool.jsonTransformer.codec).arrayOwner as? ArrayOwner<Bool>
        #expect((flags?.elementTarget as? TypedField)?.form == .element)
        let ratios = ArrayCodec(Float.jsonTransformer.codec).arrayOwner as? ArrayOwner<Float>
        #expect((ratios?.elementTarget as? TypedField)?.form == .element)
    }

    /// What a codec's typed write stores for a token's bytes (as a `V?`), or nil when it leaves
    /// the token to the generic slot.
    func typedWrite<V>(_ codec: Codec<V>, _ token: TypedWrite.Token, _ bytes: [UInt8]) -> V? {
        guard let typed = codec.typedWrite, typed.token == token else { return nil }
        var stored: V?
        let took = bytes.withUnsafeBytes { bytes in
            withUnsafeMutablePointer(to: &stored) { typed.write(bytes, UnsafeMutableRawPointer($0), .optional) }
        }
        return took ? stored : nil
    }

    /// Each built-in scalar's fast path takes its values itself: one that always left them to the
    /// generic slot would decode the same models, only slower, so the decoding tests cannot tell.
    @Test func eachBuiltInTypedWrite_takesItsValues() {
        #expect(typedWrite(String.jsonTransformer.codec, .string, Array("té".utf8)) == "té")
        #expect(typedWrite(Bool.jsonTransformer.codec, .bool, [1]) == true)
        #expect(typedWrite(Bool.jsonTransformer.codec, .bool, [0]) == false)
        #expect(typedWrite(Double.jsonTransformer.codec, .number, Array("-2.5e-3".utf8)) == -0.0025)
        #expect(typedWrite(Float.jsonTransformer.codec, .number, Array("0.1".utf8)) == Float(0.1))
        #expect(typedWrite(Int.jsonTransformer.codec, .number, Array("-9223372036854775808".utf8)) == .min)
        #expect(typedWrite(Int64.jsonTransformer.codec, .number, Array("1e2".utf8)) == 100)
        #expect(typedWrite(URL.jsonTransformer.codec, .string, Array("https://example.com/a".utf8)) == URL(string: "https://example.com/a"))
        // What each leaves to the generic slot, which reports it.
        #expect(typedWrite(Double.jsonTransformer.codec, .number, Array("1e400".utf8)) == nil)
        #expect(typedWrite(Float.jsonTransformer.codec, .number, Array("1e39".utf8)) == nil)
        #expect(typedWrite(Int.jsonTransformer.codec, .number, Array("1.5".utf8)) == nil)
        #expect(typedWrite(URL.jsonTransformer.codec, .string, Array("http://[::1".utf8)) == nil)
    }

    static let full = #"""
    {"kind": "bug", "level": 2, "maybe": "feature", "kinds": ["feature", "bug"], "level_or_nil": 1,
     "day": "2024-02-29", "seen": "2024-01-31T12:34:56Z", "start": 1700000000123, "id": 18446744073709551615,
     "small": 255, "ints": [1, -2], "names": ["a", "é"], "doubles": [0.5, -1e3], "counts": [], "bigs": [4294967295],
     "title": "t\u00e9", "open": false, "score": 2.5e-3, "count": -9223372036854775808, "total": 9223372036854775807,
     "link": "https://example.com/a?b=1", "flags": [true, false, true], "ratio": 0.1, "ratios": [1.5, -2e-3]}
    """#

    @Test func everyTypedPath_decodesAsTheGenericSlot_inEveryChunking() throws {
        let ticket = try decodeEverywhere(Ticket.self, Self.full)
        let day = try Transformer<JSONValue, Date>.date(format: "yyyy-MM-dd").transform(.string("2024-02-29"))
        #expect(ticket == Ticket(
            kind: .bug, level: .high, maybe: .feature, kinds: [.feature, .bug], levelOrNil: .low, day: day,
            seen: try Transformer<JSONValue, Date>.iso8601.transform(.string("2024-01-31T12:34:56Z")),
            start: Date(timeIntervalSince1970: 1_700_000_000.123), id: .max, small: 255, ints: [1, -2], names: ["a", "é"],
            doubles: [0.5, -1000], counts: [], bigs: [.max], title: "té", open: false, score: 0.0025, count: .min,
            total: .max, link: URL(string: "https://example.com/a?b=1"), flags: [true, false, true], ratio: 0.1, ratios: [1.5, -2e-3]))
        let sparse = try decodeEverywhere(Ticket.self, #"{"kind": "feature", "maybe": null, "level_or_nil": null, "seen": null, "day": "2000-01-01", "id": 0, "ints": null}"#)
        #expect(sparse.level == .low && sparse.maybe == nil && sparse.levelOrNil == nil && sparse.seen == nil)
        #expect(sparse.ints == nil && sparse.names == nil && sparse.counts == [7] && sparse.start == Date(timeIntervalSince1970: 0))
        let nulls = try decodeEverywhere(Ticket.self, #"{"kind": "bug", "day": "2000-01-01", "id": 1, "open": true, "open": null, "count": 3, "count": null, "link": null}"#)
        #expect(nulls.open == nil && nulls.count == nil && nulls.link == nil && nulls.title == "" && nulls.flags == [])
    }

    /// An array read twice (duplicate keys are allowed by default) replaces, and releases, the first.
    @Test func arrayReadTwice_keepsTheLast() throws {
        let ticket = try decodeEverywhere(Ticket.self,
            #"{"kind": "bug", "day": "2000-01-01", "id": 1, "names": ["a", "b"], "names": ["c"], "counts": [1], "counts": [2, 3]}"#)
        #expect(ticket.names == ["c"] && ticket.counts == [2, 3])
    }

    @Test(arguments: [
        (#"{"kind": "task"}"#, JSONError.Code.invalidValue, "$.kind"),
        (#"{"kind": null}"#, .nullValue, "$.kind"),
        (#"{"kind": 1}"#, .typeMismatch, "$.kind"),
        (#"{"level": 3}"#, .invalidValue, "$.level"),
        (#"{"level": 1.5}"#, .numberOutOfRange, "$.level"),
        (#"{"kinds": ["bug", "task"]}"#, .invalidValue, "$.kinds[1]"),
        (#"{"day": "2024-02-30"}"#, .invalidValue, "$.day"),
        (#"{"start": "soon"}"#, .typeMismatch, "$.start"),
        (#"{"id": -1}"#, .numberOutOfRange, "$.id"),
        (#"{"small": 256}"#, .numberOutOfRange, "$.small"),
        (#"{"bigs": [1, 4294967296]}"#, .numberOutOfRange, "$.bigs[1]"),
        (#"{"ints": [1, "2"]}"#, .typeMismatch, "$.ints[1]"),
        (#"{"names": "a"}"#, .typeMismatch, "$.names"),
        (#"{"title": 1}"#, .typeMismatch, "$.title"),
        (#"{"open": "true"}"#, .typeMismatch, "$.open"),
        (#"{"flags": [true, 1]}"#, .typeMismatch, "$.flags[1]"),
        (#"{"score": 1e400}"#, .numberOutOfRange, "$.score"),
        (#"{"score": null}"#, .nullValue, "$.score"),
        (#"{"ratio": 1e39}"#, .numberOutOfRange, "$.ratio"),
        (#"{"ratios": [1, 1e-50]}"#, .numberOutOfRange, "$.ratios[1]"),
        (#"{"count": 9223372036854775808}"#, .numberOutOfRange, "$.count"),
        (#"{"total": 1.5}"#, .numberOutOfRange, "$.total"),
        (#"{"link": "http://[::1"}"#, .invalidValue, "$.link"),
    ])
    func valuesTheTypedPathLeaves_failAsBefore(json: String, code: JSONError.Code, path: String) {
        let error = failureEverywhere(Ticket.self, json)
        #expect(error?.code == code, "\(json): \(String(describing: error))")
        #expect(error?.path == path, "\(json): \(String(describing: error))")
    }
}
