// One shared round-trip and bad-input check run against every built-in transformer (as Mantle's
// MTLTransformerErrorExamples), then closures, one-way transformers, inversion, chaining, the
// registry, and transformers at work inside mappings.
import Foundation
import Testing
@testable import Magma

/// One transformer under the shared check, erased over its output type.
struct TransformerCase: Sendable, CustomTestStringConvertible {
    let name: String
    /// JSON values that must decode, and re-encode to an equal JSON value.
    let good: [JSONValue]
    /// JSON values that must be rejected, with the code of the error.
    let bad: [(JSONValue, JSONError.Code)]
    let isReversible: Bool
    /// `transform` then `reverseTransform`.
    let roundTrip: @Sendable (JSONValue) throws -> JSONValue
    /// Whether the value decoded from the re-encoded JSON equals the value decoded first.
    let valueSurvives: @Sendable (JSONValue) throws -> Bool
    /// Decodes the value's JSON text, whole and in every chunk size; returns the runs that
    /// disagree with `transform` on the JSONValue.
    let textDisagreements: @Sendable (JSONValue) throws -> [String]
    /// The error code of `transform`, or nil if it succeeded or threw something else.
    let forwardErrorCode: @Sendable (JSONValue) -> JSONError.Code?
    /// The error codes of decoding the value's JSON text, whole and in every chunk size.
    let textErrorCodes: @Sendable (JSONValue) -> [JSONError.Code?]

    var testDescription: String { name }

    init<V: Equatable & Sendable>(_ name: String, _ transformer: Transformer<JSONValue, V>, good: [JSONValue],
                       bad: [(JSONValue, JSONError.Code)] = []) {
        self.name = name
        self.good = good
        self.bad = bad
        isReversible = transformer.isReversible
        roundTrip = { try transformer.reverseTransform(try transformer.transform($0)) }
        valueSurvives = { json in
            let value = try transformer.transform(json)
            return try transformer.transform(try transformer.reverseTransform(value)) == value
        }
        textDisagreements = { json in
            let expected = try transformer.transform(json)
            let text = Array(render(json).utf8)
            var disagreements: [String] = []
            let whole = try JSONAdapter.value(from: Data(text), transformer)
            if whole != expected { disagreements.append("whole: \(whole) != \(expected)") }
            for size in chunkSizes {
                let chunked = try JSONAdapter.value(from: .chunks(chunks(text, size)), transformer)
                if chunked != expected { disagreements.append("chunk size \(size): \(chunked) != \(expected)") }
            }
            return disagreements
        }
        forwardErrorCode = { json in
            do {
                _ = try transformer.transform(json)
                return nil
            } catch {
                return (error as? JSONError)?.code
            }
        }
        textErrorCodes = { json in
            let text = Array(render(json).utf8)
            var codes: [JSONError.Code?] = []
            do {
                _ = try JSONAdapter.value(from: Data(text), transformer)
                codes.append(nil)
            } catch {
                codes.append((error as? JSONError)?.code)
            }
            for size in chunkSizes {
                do {
                    _ = try JSONAdapter.value(from: .chunks(chunks(text, size)), transformer)
                    codes.append(nil)
                } catch {
                    codes.append((error as? JSONError)?.code)
                }
            }
            return codes
        }
    }
}

/// JSON text for a value (object keys sorted, so the text is deterministic).
private func render(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let n): return n.text
    case .string(let s): return quoted(s)
    case .array(let elements): return "[" + elements.map(render).joined(separator: ",") + "]"
    case .object(let members):
        return "{" + members.keys.sorted().map { quoted($0) + ":" + render(members[$0]!) }.joined(separator: ",") + "}"
    }
}

private func quoted(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\r": out += "\\r"
        case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

/// Equal JSON, with numbers compared exactly where both are Decimals (JSONNumber's own == goes
/// through Double beyond Int64; see PropertyTypeTests.jsonValue_distinctNumbersAreNotEqual).
private func sameJSON(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.number(let x), .number(let y)):
        if let dx = x.decimalValue, let dy = y.decimalValue, !dx.isNaN, !dy.isNaN, dx != dy { return false }
        return x == y
    case (.array(let xs), .array(let ys)):
        return xs.count == ys.count && zip(xs, ys).allSatisfy(sameJSON)
    case (.object(let xs), .object(let ys)):
        return xs.count == ys.count && xs.allSatisfy { key, x in ys[key].map { sameJSON(x, $0) } ?? false }
    default:
        return a == b
    }
}

private func n(_ text: String) -> JSONValue { .number(JSONNumber(text)!) }
private func s(_ text: String) -> JSONValue { .string(text) }

@Suite struct TransformerTests {

    // MARK: The shared check

    @Test(arguments: TransformerTests.builtIns)
    func builtIn_roundTripsGoodValuesAndRejectsBadOnes(_ c: TransformerCase) throws {
        #expect(!c.good.isEmpty)
        #expect(c.isReversible, "\(c.name) is reversible")
        for json in c.good {
            let back = try c.roundTrip(json)
            #expect(sameJSON(back, json), "\(c.name): \(render(json)) re-encodes as \(render(back))")
            #expect(try c.valueSurvives(json), "\(c.name): \(render(json)) decodes to another value after re-encoding")
            let disagreements = try c.textDisagreements(json)
            #expect(disagreements.isEmpty, "\(c.name): \(render(json)) from text: \(disagreements)")
        }
        for (json, code) in c.bad {
            #expect(c.forwardErrorCode(json) == code, "\(c.name): \(render(json))")
            let codes = c.textErrorCodes(json)
            #expect(codes.allSatisfy { $0 == code }, "\(c.name): \(render(json)) from text gave \(codes)")
        }
    }

    static let builtIns: [TransformerCase] = [
        TransformerCase(".string", .string,
                        good: [s(""), s("hello"), s("日本語 🚀 é"), s("quote \" backslash \\ newline \n tab \t nul \u{0} bell \u{7}")],
                        bad: [(n("1"), .typeMismatch), (.bool(true), .typeMismatch), (.null, .nullValue), (.array([]), .typeMismatch),
                              (.object([:]), .typeMismatch)]),
        TransformerCase(".bool", .bool,
                        good: [.bool(true), .bool(false)],
                        bad: [(n("1"), .typeMismatch), (s("true"), .typeMismatch), (.null, .nullValue), (.array([.bool(true)]), .typeMismatch)]),
        TransformerCase(".integer as Int", Transformer<JSONValue, Int>.integer,
                        good: [n("0"), n("-1"), n("1347"), n("9223372036854775807"), n("-9223372036854775808"), n("1e2"), n("1.0")],
                        bad: [(n("1.5"), .numberOutOfRange), (n("9223372036854775808"), .numberOutOfRange), (n("1e19"), .numberOutOfRange),
                              (s("1"), .typeMismatch), (.bool(true), .typeMismatch), (.null, .nullValue)]),
        TransformerCase(".integer as Int8", Transformer<JSONValue, Int8>.integer,
                        good: [n("-128"), n("127"), n("0")],
                        bad: [(n("128"), .numberOutOfRange), (n("-129"), .numberOutOfRange), (n("0.5"), .numberOutOfRange)]),
        TransformerCase(".integer as Int16", Transformer<JSONValue, Int16>.integer,
                        good: [n("-32768"), n("32767")],
                        bad: [(n("32768"), .numberOutOfRange), (n("-32769"), .numberOutOfRange)]),
        TransformerCase(".integer as Int32", Transformer<JSONValue, Int32>.integer,
                        good: [n("-2147483648"), n("2147483647")],
                        bad: [(n("2147483648"), .numberOutOfRange), (s("2147483647"), .typeMismatch)]),
        TransformerCase(".integer as Int64", Transformer<JSONValue, Int64>.integer,
                        good: [n("-9223372036854775808"), n("9223372036854775807"), n("42")],
                        bad: [(n("-9223372036854775809"), .numberOutOfRange)]),
        TransformerCase(".integer as UInt8", Transformer<JSONValue, UInt8>.integer,
                        good: [n("0"), n("255")],
                        bad: [(n("256"), .numberOutOfRange), (n("-1"), .numberOutOfRange)]),
        TransformerCase(".integer as UInt16", Transformer<JSONValue, UInt16>.integer,
                        good: [n("65535")],
                        bad: [(n("65536"), .numberOutOfRange)]),
        TransformerCase(".integer as UInt32", Transformer<JSONValue, UInt32>.integer,
                        good: [n("4294967295")],
                        bad: [(n("4294967296"), .numberOutOfRange), (n("-1"), .numberOutOfRange)]),
        TransformerCase(".integer as UInt", Transformer<JSONValue, UInt>.integer,
                        good: [n("18446744073709551615"), n("0")],
                        bad: [(n("18446744073709551616"), .numberOutOfRange)]),
        TransformerCase(".integer as UInt64", Transformer<JSONValue, UInt64>.integer,
                        good: [n("18446744073709551615"), n("9223372036854775808"), n("0")],
                        bad: [(n("18446744073709551616"), .numberOutOfRange), (n("-1"), .numberOutOfRange), (.null, .nullValue)]),
        TransformerCase(".double", .double,
                        good: [n("0.1"), n("-0"), n("2.5"), n("1e-300"), n("1.7976931348623157e308"), n("5e-324"), n("123456789"),
                               n("0.30000000000000004"), n("-65.61361699999998")],
                        bad: [(n("1e400"), .numberOutOfRange), (n("-1e400"), .numberOutOfRange), (s("1.5"), .typeMismatch),
                              (.bool(false), .typeMismatch), (.null, .nullValue)]),
        TransformerCase(".float", .float,
                        good: [n("0.1"), n("3.4028235e38"), n("1e-45"), n("-2.5"), n("16777216")],
                        bad: [(n("1e39"), .numberOutOfRange), (n("3.5e38"), .numberOutOfRange), (s("0.1"), .typeMismatch)]),
        TransformerCase(".decimal", .decimal,
                        good: [n("0.1"), n("123456789012345678901234567890.12345"), n("-5"), n("0"), n("19.99"), n("1e-5"),
                               n("12345678901234567890123456789012345678")],
                        bad: [(n("1e400"), .numberOutOfRange), (s("0.1"), .typeMismatch), (.null, .nullValue)]),
        TransformerCase(".url", .url,
                        good: [s("https://example.com/a?b=c#d"), s("mailto:octocat@github.com"), s("relative/path"),
                               s("https://example.com/a%20b"), s("file:///tmp/x.json")],
                        bad: [(s(""), .invalidValue), (s("http://exa mple.com"), .invalidValue), (s("http://[::1"), .invalidValue),
                              (n("1"), .typeMismatch), (.null, .nullValue)]),
        TransformerCase(".uuid", .uuid,
                        good: [s("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), s("00000000-0000-0000-0000-000000000000")],
                        bad: [(s("E621E1F8"), .invalidValue), (s(""), .invalidValue), (s("E621E1F8-C36C-495A-93FC-0C247A3E6E5G"), .invalidValue),
                              (n("5"), .typeMismatch)]),
        TransformerCase(".base64", .base64,
                        good: [s(""), s("SGVsbG8sIFdvcmxkIQ=="), s("AAEC/f7/"), s("YQ==")],
                        bad: [(s("SGVsbG8"), .invalidValue), (s("@@@@"), .invalidValue), (n("3"), .typeMismatch), (.array([]), .typeMismatch)]),
        TransformerCase(".iso8601", .iso8601,
                        good: [s("2024-01-31T12:34:56Z"), s("1970-01-01T00:00:00Z"), s("1969-07-20T20:17:40Z"), s("2038-01-19T03:14:08Z")],
                        bad: [(s("2024-13-01T00:00:00Z"), .invalidValue), (s("yesterday"), .invalidValue), (s(""), .invalidValue),
                              (n("1706704496"), .typeMismatch), (.null, .nullValue)]),
        TransformerCase(".iso8601(fractionalSeconds: true)", .iso8601(fractionalSeconds: true),
                        good: [s("2024-01-31T12:34:56.789Z"), s("2024-01-31T12:34:56.000Z"), s("1970-01-01T00:00:00.001Z"),
                               s("1999-12-31T23:59:59.999Z")],
                        bad: [(s("2024-01-31T12:34:56.789"), .invalidValue), (n("0"), .typeMismatch)]),
        TransformerCase(".date(format: yyyy-MM-dd'T'HH:mm:ss'Z')", .date(format: "yyyy-MM-dd'T'HH:mm:ss'Z'"),
                        good: [s("2011-04-22T13:33:48Z"), s("2000-02-29T00:00:00Z")],
                        bad: [(s("2011-04-22 13:33:48"), .invalidValue), (n("1303479228"), .typeMismatch)]),
        TransformerCase(".date(format: yyyy-MM-dd)", .date(format: "yyyy-MM-dd"),
                        good: [s("2024-01-31"), s("2024-02-29"), s("1900-01-01")],
                        bad: [(s("2023-02-29"), .invalidValue), (s("31/01/2024"), .invalidValue), (.bool(true), .typeMismatch)]),
        TransformerCase(".date(format: dd/MM/yyyy HH:mm, Europe/Paris)",
                        .date(format: "dd/MM/yyyy HH:mm", timeZone: TimeZone(identifier: "Europe/Paris")!),
                        good: [s("31/01/2024 13:34"), s("01/07/2024 09:00")],
                        bad: [(s("31/02/2024 13:34"), .invalidValue), (s("2024-01-31"), .invalidValue)]),
        TransformerCase(".date(format: EEE, dd MMM yyyy HH:mm:ss Z)", .date(format: "EEE, dd MMM yyyy HH:mm:ss Z"),
                        good: [s("Wed, 31 Jan 2024 12:34:56 +0000"), s("Fri, 22 Apr 2011 13:33:48 +0000")],
                        bad: [(s("Wed, 31 Foo 2024 12:34:56 +0000"), .invalidValue)]),
        TransformerCase(".epochSeconds", .epochSeconds,
                        good: [n("0"), n("1706704496"), n("1706704496.5"), n("-86400")],
                        bad: [(s("1706704496"), .typeMismatch), (n("1e400"), .numberOutOfRange), (.null, .nullValue)]),
        TransformerCase(".epochMilliseconds", .epochMilliseconds,
                        good: [n("1706704496789"), n("0"), n("1303479228000"), n("-86400000")],
                        bad: [(s("1706704496789"), .typeMismatch), (.bool(true), .typeMismatch)]),
        TransformerCase(".rawValue (String)", .rawValue(TransformerTests.Color.self),
                        good: [s("red"), s("BLUE")],
                        bad: [(s("purple"), .invalidValue), (s("blue"), .invalidValue), (n("1"), .typeMismatch), (.null, .nullValue)]),
        TransformerCase(".rawValue (Int)", .rawValue(TransformerTests.Priority.self),
                        good: [n("1"), n("3")],
                        bad: [(n("2"), .invalidValue), (n("1.5"), .numberOutOfRange), (s("1"), .typeMismatch)]),
        TransformerCase(".valueMapping", .valueMapping([s("open"): TransformerTests.State.open, s("closed"): .closed, n("0"): .unknown]),
                        good: [s("open"), s("closed"), n("0")],
                        bad: [(s("merged"), .invalidValue), (n("1"), .invalidValue), (.null, .invalidValue)]),
        TransformerCase(".valueMapping with defaults", .valueMapping([s("yes"): true, s("no"): false], default: false, reverseDefault: s("no")),
                        good: [s("yes"), s("no")]),
        TransformerCase(".optional(.integer)", .optional(Transformer<JSONValue, Int>.integer),
                        good: [.null, n("5"), n("-1")],
                        bad: [(s("5"), .typeMismatch), (n("1.5"), .numberOutOfRange)]),
        TransformerCase(".optional(.url)", .optional(.url),
                        good: [.null, s("https://example.com")],
                        bad: [(s(""), .invalidValue)]),
        TransformerCase(".array(.integer)", .array(Transformer<JSONValue, Int>.integer),
                        good: [.array([]), .array([n("1"), n("2"), n("3")])],
                        bad: [(.array([n("1"), s("x")]), .typeMismatch), (n("1"), .typeMismatch), (.array([.null]), .nullValue),
                              (.null, .nullValue), (.object([:]), .typeMismatch)]),
        TransformerCase(".array(.array(.double))", .array(.array(.double)),
                        good: [.array([.array([n("1.5")]), .array([])])],
                        bad: [(.array([.array([n("1e400")])]), .numberOutOfRange), (.array([n("1")]), .typeMismatch)]),
        TransformerCase(".dictionary(.string)", .dictionary(.string),
                        good: [.object([:]), .object(["a": s("b"), "日本": s("語"), "": s("")])],
                        bad: [(.object(["a": n("1")]), .typeMismatch), (.array([]), .typeMismatch), (.null, .nullValue)]),
        TransformerCase(".dictionary(.model)", .dictionary(.model(TransformerTests.Point.self)),
                        good: [.object(["p": .object(["x": n("1"), "y": n("2"), "meta": .object(["name": s("p")])])])],
                        bad: [(.object(["p": n("1")]), .typeMismatch)]),
        TransformerCase(".model", .model(TransformerTests.Point.self),
                        good: [.object(["x": n("1"), "y": n("-2"), "meta": .object(["name": s("origin")])]),
                               .object(["x": n("0"), "y": n("0"), "meta": .object(["name": s("")]), "tag": s("t")])],
                        bad: [(.object(["x": s("1")]), .typeMismatch), (n("3"), .typeMismatch), (.null, .nullValue),
                              (.object(["meta": s("x")]), .notAnObject), (.array([]), .typeMismatch)]),
        TransformerCase(".json", .json,
                        good: [.null, .bool(true), n("1.50"), s("s"), .array([]), .object([:]),
                               .object(["a": .array([n("1"), .null, .object(["b": s("\u{1F680}")])]), "c": n("-0")])]),
        TransformerCase("closure (hex)", TransformerTests.hex,
                        good: [s("ff"), s("0"), s("7fffffff")],
                        bad: [(s("zz"), .invalidValue), (n("255"), .typeMismatch), (.null, .typeMismatch)]),
        TransformerCase(".double chained with cents", Transformer.double.chained(TransformerTests.cents),
                        good: [n("12.34"), n("0"), n("19.99"), n("1e3")],
                        bad: [(s("12.34"), .typeMismatch), (n("1e400"), .numberOutOfRange), (.null, .nullValue)]),
    ]

    // MARK: Built-ins beyond the shared check

    @Test func uuid_acceptsLowercaseAndWritesUppercase() throws {
        let id = try Transformer<JSONValue, UUID>.uuid.transform(s("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"))
        #expect(id.uuidString == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(try Transformer<JSONValue, UUID>.uuid.reverseTransform(id) == s("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
    }

    @Test func dates_decodeToTheRightInstant() throws {
        #expect(try Transformer.iso8601.transform(s("2024-01-31T14:34:56+02:00")) == Date(timeIntervalSince1970: 1_706_704_496))
        #expect(try Transformer.iso8601.reverseTransform(Date(timeIntervalSince1970: 1_706_704_496)) == s("2024-01-31T12:34:56Z"))
        #expect(try Transformer.iso8601.reverseTransform(Date(timeIntervalSince1970: 1_706_704_496.789)) == s("2024-01-31T12:34:56.789Z"))
        #expect(try Transformer.iso8601(fractionalSeconds: true).reverseTransform(Date(timeIntervalSince1970: 1_706_704_496.25))
                == s("2024-01-31T12:34:56.250Z"))
        let paris = Transformer.date(format: "dd/MM/yyyy HH:mm", timeZone: TimeZone(identifier: "Europe/Paris")!)
        #expect(try paris.transform(s("31/01/2024 13:34")) == Date(timeIntervalSince1970: 1_706_704_440), "UTC+1 in winter")
        #expect(try paris.transform(s("01/07/2024 09:00")) == Date(timeIntervalSince1970: 1_719_817_200), "UTC+2 in summer")
        #expect(try paris.reverseTransform(Date(timeIntervalSince1970: 1_706_704_440)) == s("31/01/2024 13:34"))
        #expect(try Transformer.date(format: "yyyy-MM-dd").transform(s("2024-01-31")) == Date(timeIntervalSince1970: 1_706_659_200))
        #expect(try Transformer.date(format: "EEE, dd MMM yyyy HH:mm:ss Z").transform(s("Wed, 31 Jan 2024 13:34:56 +0100"))
                == Date(timeIntervalSince1970: 1_706_704_496), "a zone field in the text wins over the transformer's zone")
        #expect(try Transformer.epochSeconds.transform(n("1706704496.5")) == Date(timeIntervalSince1970: 1_706_704_496.5))
        #expect(try Transformer.epochMilliseconds.transform(n("1706704496789")).timeIntervalSince1970 == 1_706_704_496.789)
        #expect(try Transformer.epochMilliseconds.reverseTransform(Date(timeIntervalSince1970: 1_706_704_496.789)) == n("1706704496789"))
    }

    @Test func epoch_reEncodesTheNumberItRead() throws {
        // Date keeps its time since 2001 as a Double, so a date near 1970 read from whole
        // milliseconds is a few tenths of a nanosecond off: writing it back must not expose that.
        for text in ["1", "-1", "123", "999", "86399999"] {
            let back = try Transformer.epochMilliseconds.reverseTransform(try Transformer.epochMilliseconds.transform(n(text)))
            #expect(back == n(text), "\(text) ms re-encodes as \(render(back))")
        }
        for text in ["0.1", "-0.1", "1.001"] {
            let back = try Transformer.epochSeconds.reverseTransform(try Transformer.epochSeconds.transform(n(text)))
            #expect(back == n(text), "\(text) s re-encodes as \(render(back))")
        }
    }

    @Test func numbers_encodeInTheirShortestExactForm() throws {
        #expect(try Transformer<JSONValue, Double>.double.reverseTransform(0.1).numberText == "0.1")
        #expect(try Transformer<JSONValue, Double>.double.reverseTransform(100).numberText == "100")
        #expect(try Transformer<JSONValue, Float>.float.reverseTransform(0.1).numberText == "0.1")
        #expect(try Transformer<JSONValue, UInt64>.integer.reverseTransform(.max).numberText == "18446744073709551615")
        #expect(try Transformer<JSONValue, Decimal>.decimal.reverseTransform(Decimal(string: "0.3")!).numberText == "0.3")
    }

    @Test func numbers_nonFiniteValuesAreNotEncodable() {
        for value in [Double.infinity, -.infinity, .nan] {
            #expect(errorCode { try Transformer<JSONValue, Double>.double.reverseTransform(value) } == .notEncodable)
        }
        #expect(errorCode { try Transformer<JSONValue, Float>.float.reverseTransform(.infinity) } == .notEncodable)
        #expect(errorCode { try Transformer<JSONValue, Decimal>.decimal.reverseTransform(.nan) } == .notEncodable)
    }

    @Test func valueMapping_defaultsApplyBothWays() throws {
        let t = Transformer<JSONValue, Int>.valueMapping([s("one"): 1, s("two"): 2], default: 0, reverseDefault: s("other"))
        #expect(try t.transform(s("two")) == 2)
        #expect(try t.transform(s("three")) == 0, "an unmapped JSON value gives the default")
        #expect(try t.transform(.null) == 0)
        #expect(try t.reverseTransform(1) == s("one"))
        #expect(try t.reverseTransform(99) == s("other"), "an unmapped value gives the reverse default")
        let strict = Transformer<JSONValue, Int>.valueMapping([s("one"): 1])
        #expect(errorCode { try strict.reverseTransform(2) } == .notEncodable)
        #expect(errorCode { try strict.transform(s("two")) } == .invalidValue)
        let mapped = try decodeEverywhere(Ticket.self, #"{"state": "closed", "flag": "maybe"}"#)
        #expect(mapped.state == .closed)
        #expect(mapped.flag == false, "a default applies inside a mapping too")
        #expect(failureEverywhere(Ticket.self, #"{"state": "merged"}"#)?.code == .invalidValue)
    }

    @Test func valueMapping_matchesNumbersByValue() throws {
        let t = Transformer<JSONValue, String>.valueMapping([n("1"): "one", n("2.5"): "two and a half"])
        #expect(try t.transform(n("1.0")) == "one")
        #expect(try t.transform(n("1e0")) == "one")
        #expect(try t.transform(n("25e-1")) == "two and a half")
    }

    // MARK: Closures

    @Test func closure_transformsBothWaysAndPropagatesItsErrors() throws {
        let t = Transformer<String, Int>(forward: { text in
            guard let v = Int(text) else { throw Rejected(value: text) }
            return v
        }, reverse: { String($0) })
        #expect(t.isReversible)
        #expect(try t.transform("42") == 42)
        #expect(try t.reverseTransform(-7) == "-7")
        #expect((thrown { try t.transform("x") } as? Rejected)?.value == "x")
    }

    @Test func closure_inAMappingReceivesWholeValuesFromTokens() throws {
        let json = #"{"hex": "ff", "size": {"w": 3, "h": 4}, "pair": [1, 2]}"#
        let m = try decodeEverywhere(Shapes.self, json)
        #expect(m.hex == 255)
        #expect(m.area == 12)
        #expect(m.pairSum == 3)
        let error = failureEverywhere(Shapes.self, #"{"hex": "zz"}"#)
        #expect(error?.code == .invalidValue)
        #expect(error?.path == "$.hex")
        #expect(error?.property == "Shapes.hex")
    }

    // MARK: One-way

    @Test func oneWay_reverseThrowsNotEncodable() throws {
        let t = Transformer<JSONValue, Int>(forward: { json in
            guard case .string(let text) = json else { throw JSONError(.typeMismatch, "expected a string") }
            return text.count
        })
        #expect(!t.isReversible)
        #expect(try t.transform(s("four")) == 4)
        #expect(errorCode { try t.reverseTransform(4) } == .notEncodable)
        // Wrappers of a one-way transformer are one-way too.
        #expect(!Transformer.optional(t).isReversible)
        #expect(!Transformer.array(t).isReversible)
        #expect(!Transformer.dictionary(t).isReversible)
        #expect(errorCode { try Transformer.array(t).reverseTransform([1]) } == .notEncodable)
        let oneWaySecond = Transformer<Int, Int>(forward: { $0 * 2 })
        #expect(!Transformer<JSONValue, Int>.integer.chained(oneWaySecond).isReversible)
        #expect(errorCode { try Transformer<JSONValue, Int>.integer.chained(oneWaySecond).reverseTransform(2) } == .notEncodable)
        #expect(!t.chained(Transformer<Int, Int>(forward: { $0 }, reverse: { $0 })).isReversible)
        // A one-way transformer still decodes inside a mapping.
        #expect(try decodeEverywhere(Shapes.self, #"{"length": "hello"}"#).length == 5)
    }

    // MARK: Inversion

    @Test func inverted_swapsDirections() throws {
        let forward = Transformer<JSONValue, Int>.integer
        let inverse = forward.inverted
        #expect(inverse.isReversible)
        #expect(try inverse.transform(42) == n("42"))
        #expect(try inverse.reverseTransform(n("42")) == 42)
        #expect(errorCode { try inverse.reverseTransform(s("42")) } == .typeMismatch)
        #expect(errorCode { try inverse.reverseTransform(n("1.5")) } == .numberOutOfRange)
        let twice = inverse.inverted
        #expect(try twice.transform(n("7")) == 7)
        #expect(try twice.reverseTransform(7) == n("7"))

        let date = Transformer<JSONValue, Date>.iso8601.inverted
        #expect(try date.transform(Date(timeIntervalSince1970: 0)) == s("1970-01-01T00:00:00Z"))
        #expect(try date.reverseTransform(s("1970-01-01T00:00:00Z")) == Date(timeIntervalSince1970: 0))

        let parse = Transformer<String, Int>(forward: { Int($0)! }, reverse: { String($0) })
        #expect(try parse.inverted.transform(12) == "12")
        #expect(try parse.inverted.reverseTransform("12") == 12)
    }

    @Test func inverted_oneWayHasNoForward() throws {
        let oneWay = Transformer<String, Int>(forward: { $0.count })
        let inverse = oneWay.inverted
        #expect(inverse.isReversible, "its reverse is the original forward")
        #expect(try inverse.reverseTransform("abc") == 3)
        #expect(errorCode { try inverse.transform(3) } == .notEncodable)
    }

    // MARK: Chaining

    @Test func chained_fastJSONTransformerThenSwiftSide() throws {
        let t = Transformer.double.chained(TransformerTests.cents)
        #expect(t.isReversible)
        #expect(try t.transform(n("12.34")) == 1234)
        #expect(try t.transform(n("0.015")) == 2, "rounded, not truncated")
        #expect(try t.reverseTransform(1999) == n("19.99"))
        #expect(errorCode { try t.transform(s("1")) } == .typeMismatch)
    }

    @Test func chained_threeTransformers() throws {
        let trimmed = Transformer<String, String>(forward: { $0.trimmingCharacters(in: .whitespaces) }, reverse: { $0 })
        let parsed = Transformer<String, Int>(forward: { text in
            guard let v = Int(text) else { throw Rejected(value: text) }
            return v
        }, reverse: { String($0) })
        let celsius = Transformer<Int, Temperature>(forward: { Temperature(celsius: $0) }, reverse: { $0.celsius })
        let t = Transformer.string.chained(trimmed).chained(parsed).chained(celsius)
        #expect(t.isReversible)
        #expect(try t.transform(s("  21 ")) == Temperature(celsius: 21))
        #expect(try t.reverseTransform(Temperature(celsius: -4)) == s("-4"))
        #expect((thrown { try t.transform(s("warm")) } as? Rejected)?.value == "warm")
        #expect(errorCode { try t.transform(n("21")) } == .typeMismatch)

        // Three Swift-side closures, no JSON involved: the reverse runs them backwards.
        let half = Transformer<Double, Double>(forward: { $0 / 2 }, reverse: { $0 * 2 })
        let asText = Transformer<Double, String>(forward: { String($0) }, reverse: { Double($0)! })
        let all = parsed.chained(Transformer<Int, Double>(forward: { Double($0) }, reverse: { Int($0) })).chained(half).chained(asText)
        #expect(try all.transform("5") == "2.5")
        #expect(try all.reverseTransform("2.5") == "5")
    }

    @Test func chained_inAMappingDecodesFromTokens() throws {
        let json = #"{"price": 12.34, "discount": null, "items": [{"price": 0.99}, {"price": 1e1}], "temperature": " 21 "}"#
        let order = try decodeEverywhere(Order.self, json)
        #expect(order.priceInCents == 1234)
        #expect(order.discountInCents == nil)
        #expect(order.items.map(\.priceInCents) == [99, 1000])
        #expect(order.temperature == Temperature(celsius: 21))
        let withDiscount = try decodeEverywhere(Order.self, #"{"discount": 0.5}"#)
        #expect(withDiscount.discountInCents == 50)
        #expect(withDiscount.priceInCents == -1, "absent keeps the default")

        let wrongType = failureEverywhere(Order.self, #"{"items": [{"price": 1}, {"price": "1"}]}"#)
        #expect(wrongType?.code == .typeMismatch)
        #expect(wrongType?.path == "$.items[1].price")
        #expect(wrongType?.property == "LineItem.priceInCents")
    }

    // MARK: Registry

    @Test func registry_registersAndLooksUpByNameAndType() throws {
        let registry = TransformerRegistry()
        #expect(registry.transformer(named: "epoch", for: Date.self) == nil)
        registry.register(Transformer.epochSeconds, named: "epoch")
        registry.register(Transformer.double.chained(TransformerTests.cents), named: "cents")
        let epoch = try #require(registry.transformer(named: "epoch", for: Date.self))
        #expect(try epoch.transform(n("86400")) == Date(timeIntervalSince1970: 86_400))
        #expect(try registry.transformer(named: "cents", for: Int.self)?.transform(n("1.5")) == 150)
        #expect(registry.transformer(named: "epoch", for: Int.self) == nil, "the name exists, but not for Int")
        #expect(registry.transformer(named: "cents", for: Date.self) == nil)
        #expect(registry.transformer(named: "Epoch", for: Date.self) == nil, "names are exact")
        registry.register(Transformer.epochMilliseconds, named: "epoch")
        #expect(try registry.transformer(named: "epoch", for: Date.self)?.transform(n("86400")) == Date(timeIntervalSince1970: 86.4),
                "registering a name again replaces the transformer")
    }

    @Test func registry_namedTransformerInAMapping() throws {
        let e = try decodeEverywhere(Named.self, #"{"at": 86400, "price": 2.5, "shared": 1000}"#)
        #expect(e.at == Date(timeIntervalSince1970: 86_400))
        #expect(e.priceInCents == 250)
        #expect(e.shared == Date(timeIntervalSince1970: 1))
        #expect(failureEverywhere(Named.self, #"{"at": "x"}"#)?.code == .typeMismatch)
    }

    @Test func registry_namedTransformerOnAnOptionalProperty() throws {
        // An explicit Transformer<JSONValue, Date> maps a `Date?` property (null -> nil); a named
        // one registered for Date should do the same.
        try MaybeNamed.jsonMapping.validate()
        let m = try JSONAdapter.model(MaybeNamed.self, from: #"{"at": 60, "gone": null}"#)
        #expect(m.at == Date(timeIntervalSince1970: 60))
        #expect(m.gone == nil)
    }

    @Test func registry_unknownNameFailsValidation() {
        let registry = TransformerRegistry()
        registry.register(Transformer<JSONValue, Int>.integer, named: "int")
        let unknown = JSONMapping<Named> { Map(\.at, "at", transformerNamed: "no-such-transformer", registry: registry) }
        let unknownError = thrown { try unknown.validate() } as? JSONError
        #expect(unknownError?.code == .invalidMapping)
        #expect(unknownError?.message.contains("no-such-transformer") == true, "names the transformer: \(unknownError?.message ?? "")")
        let wrongType = JSONMapping<Named> { Map(\.at, "at", transformerNamed: "int", registry: registry) }
        #expect(errorCode { try wrongType.validate() } == .invalidMapping)
        let fine = JSONMapping<Named> { Map(\.priceInCents, "p", transformerNamed: "int", registry: registry) }
        #expect(throws: Never.self) { try fine.validate() }
        // A model whose mapping names an unknown transformer cannot decode anything.
        #expect(failureEverywhere(Misnamed.self, #"{"at": 1}"#)?.code == .invalidMapping)
        #expect(failureEverywhere(Misnamed.self, #"{}"#)?.code == .invalidMapping)
    }

    // MARK: Transformers on optional properties

    @Test func optionalProperty_explicitTransformerHandlesNullAndAbsence() throws {
        let json = #"{"day": "2024-01-31", "stamp": "31/01/2024 13:34", "color": "BLUE", "tags": ["a"]}"#
        let o = try decodeEverywhere(Schedule.self, json)
        #expect(o.day == Date(timeIntervalSince1970: 1_706_659_200))
        #expect(o.stamp == Date(timeIntervalSince1970: 1_706_704_440))
        #expect(o.color == .blue)
        #expect(o.tags == ["a"])
        let nulls = try decodeEverywhere(Schedule.self, #"{"day": null, "stamp": null, "color": null, "tags": null}"#)
        #expect(nulls.day == nil && nulls.stamp == nil && nulls.color == nil && nulls.tags == nil)
        let absent = try decodeEverywhere(Schedule.self, "{}")
        #expect(absent.day == nil)
        #expect(absent.stamp == Date(timeIntervalSince1970: 1), "absent keeps the default")
        let bad = failureEverywhere(Schedule.self, #"{"day": "31/01/2024"}"#)
        #expect(bad?.code == .invalidValue)
        #expect(bad?.path == "$.day")
        #expect(bad?.message.contains("yyyy-MM-dd") == true, "names the expected form: \(bad?.message ?? "")")
        #expect(failureEverywhere(Schedule.self, #"{"day": 20240131}"#)?.code == .typeMismatch)
    }

    // MARK: Errors inside models

    @Test func modelError_fromBuiltInTransformerReportsPathPropertyAndOffset() throws {
        let json = #"{"name": "launch", "events": [{"when": "2024-01-31T12:34:56Z"}, {"when": "not a date"}]}"#
        let error = try #require(failureEverywhere(Timeline.self, json))
        #expect(error.code == .invalidValue)
        #expect(error.path == "$.events[1].when")
        #expect(error.property == "Event.when")
        let offset = try #require(json.utf8.firstRange(of: #""not a date""#.utf8)).lowerBound
        #expect(error.offset == json.utf8.distance(from: json.utf8.startIndex, to: offset), "the offending value's first byte")
        #expect(error.line == 1)
        #expect(error.message.contains("not a date"))
        #expect(error.description.contains("$.events[1].when") && error.description.contains("Event.when"))
    }

    @Test func modelError_fromClosureKeepsTheUnderlyingError() throws {
        let json = "{\n  \"events\": [\n    {\"when\": \"2024-01-31T12:34:56Z\", \"weight\": \"heavy\"}\n  ]\n}"
        let error = try #require(failureEverywhere(Timeline.self, json))
        #expect(error.code == .invalidValue, "an error that is not a JSONError is reported as invalidValue")
        #expect(error.path == "$.events[0].weight")
        #expect(error.property == "Event.weight")
        #expect((error.underlying as? Rejected)?.value == "heavy", "the transformer's own error is kept")
        #expect(error.line == 3)
    }

    @Test func modelError_fromChainedSwiftSideKeepsPathAndUnderlyingError() throws {
        let error = try #require(failureEverywhere(Order.self, #"{"items": [{"price": 1}, {"price": -2}]}"#))
        #expect(error.code == .invalidValue)
        #expect(error.path == "$.items[1].price")
        #expect(error.property == "LineItem.priceInCents")
        #expect((error.underlying as? Rejected)?.value == "-2.0")
    }

    @Test func modelError_fromJSONErrorInClosureKeepsItsCode() throws {
        let error = try #require(failureEverywhere(Shapes.self, #"{"size": {"w": 1}}"#))
        #expect(error.code == .missingKey)
        #expect(error.path == "$.size")
        #expect(error.property == "Shapes.area")
        let scalar = try #require(failureEverywhere(Shapes.self, #"{"hex": "zz"}"#))
        #expect(scalar.property == "Shapes.hex", "on a scalar value it is named")
    }
}

// MARK: - Fixtures

extension TransformerTests {
    /// The error closure transformers in these tests throw.
    struct Rejected: Error, Equatable {
        let value: String
    }

    enum Color: String { case red, green, blue = "BLUE" }
    enum Priority: Int { case low = 1, high = 3 }
    enum State: Equatable { case open, closed, unknown }

    struct Temperature: Equatable { var celsius: Int }

    /// Hexadecimal integers written as JSON strings, from closures.
    static let hex = Transformer<JSONValue, Int>(forward: { json in
        guard case .string(let text) = json else { throw JSONError(.typeMismatch, "expected a hex string, found \(json)") }
        guard let v = Int(text, radix: 16) else { throw JSONError(.invalidValue, "\"\(text)\" is not hexadecimal") }
        return v
    }, reverse: { .string(String($0, radix: 16)) })

    /// Dollars (Double) to whole cents; negative amounts are rejected with a non-JSONError.
    static let cents = Transformer<Double, Int>(forward: { dollars in
        guard dollars >= 0 else { throw Rejected(value: "\(dollars)") }
        return Int((dollars * 100).rounded())
    }, reverse: { Double($0) / 100 })

    @JSONModel struct Point: Equatable {
        var x = 0
        var y = 0
        @Key("meta.name") var name = ""
        var tag: String?
    }

    @JSONModel struct Ticket: Equatable {
        @Transform(.valueMapping([.string("open"): State.open, .string("closed"): .closed])) var state = State.unknown
        @Transform(.valueMapping([.string("yes"): true], default: false)) var flag = true
    }

    @JSONModel struct Shapes: Equatable {
        @Transform(TransformerTests.hex) var hex = 0
        @Key("size") @Transform(Shapes.area) var area = 0
        static let area = Transformer<JSONValue, Int>(forward: { json in
            guard case .object(let o) = json, case .number(let w)? = o["w"], case .number(let h)? = o["h"],
                  let width = w.int64Value, let height = h.int64Value else {
                throw JSONError(.missingKey, "a size needs w and h")
            }
            return Int(width * height)
        }, reverse: { .object(["w": .number(JSONNumber($0)), "h": .number(1)]) })
        @Key("pair") @Transform(Shapes.pairSum) var pairSum = 0
        static let pairSum = Transformer<JSONValue, Int>(forward: { json in
            guard case .array(let elements) = json else { throw JSONError(.typeMismatch, "expected an array") }
            return elements.reduce(0) { sum, e in
                if case .number(let v) = e { return sum + Int(v.int64Value ?? 0) }
                return sum
            }
        })
        @Transform(Shapes.length) var length = 0
        static let length = Transformer<JSONValue, Int>(forward: { json in
            guard case .string(let text) = json else { throw JSONError(.typeMismatch, "expected a string") }
            return text.count
        })
    }

    @JSONModel struct LineItem: Equatable {
        @Key("price") @Transform(Transformer.double.chained(TransformerTests.cents)) var priceInCents = 0
    }

    @JSONModel struct Order: Equatable {
        @Key("price") @Transform(Transformer.double.chained(TransformerTests.cents)) var priceInCents = -1
        @Key("discount") @Transform(Transformer.double.chained(TransformerTests.cents)) var discountInCents: Int? = -1
        var items: [LineItem] = []
        @Transform(Order.temperature) var temperature = Temperature(celsius: -273)
        static let temperature = Transformer.string
            .chained(Transformer<String, String>(forward: { $0.trimmingCharacters(in: .whitespaces) }, reverse: { $0 }))
            .chained(Transformer<String, Int>(forward: { text in
                guard let v = Int(text) else { throw Rejected(value: text) }
                return v
            }, reverse: { String($0) }))
            .chained(Transformer<Int, Temperature>(forward: { Temperature(celsius: $0) }, reverse: { $0.celsius }))
    }

    /// Transformers registered before the mapping that names them is built.
    static let registry: TransformerRegistry = {
        let registry = TransformerRegistry()
        registry.register(Transformer.epochSeconds, named: "epoch")
        registry.register(Transformer.double.chained(TransformerTests.cents), named: "cents")
        TransformerRegistry.shared.register(Transformer.epochMilliseconds, named: "TransformerTests.epochMilliseconds")
        return registry
    }()

    struct Named: JSONModel, Equatable {
        var at = Date(timeIntervalSince1970: -1)
        var priceInCents = 0
        var shared = Date(timeIntervalSince1970: -1)
        static let jsonMapping: JSONMapping<Named> = {
            let registry = TransformerTests.registry
            return JSONMapping<Named> {
                Map(\.at, "at", transformerNamed: "epoch", registry: registry)
                Map(\.priceInCents, "price", transformerNamed: "cents", registry: registry)
                Map(\.shared, "shared", transformerNamed: "TransformerTests.epochMilliseconds")
            }
        }()
    }

    struct MaybeNamed: JSONModel, Equatable {
        var at: Date?
        var gone: Date? = Date(timeIntervalSince1970: 1)
        static let jsonMapping = JSONMapping<MaybeNamed> {
            Map(\.at, "at", transformerNamed: "epoch", registry: TransformerTests.registry)
            Map(\.gone, "gone", transformerNamed: "epoch", registry: TransformerTests.registry)
        }
    }

    struct Misnamed: JSONModel, Equatable {
        var at = Date(timeIntervalSince1970: 0)
        static let jsonMapping = JSONMapping<Misnamed> {
            Map(\.at, "at", transformerNamed: "TransformerTests.never-registered")
        }
    }

    @JSONModel struct Schedule: Equatable {
        @Transform(.date(format: "yyyy-MM-dd")) var day: Date?
        @Transform(.date(format: "dd/MM/yyyy HH:mm", timeZone: TimeZone(identifier: "Europe/Paris")!)) var stamp: Date? = Date(timeIntervalSince1970: 1)
        @Transform(.rawValue(Color.self)) var color: Color?
        @Transform(.array(.string)) var tags: [String]?
    }

    @JSONModel struct Event: Equatable {
        var when = Date(timeIntervalSince1970: 0)
        @Transform(Event.weight) var weight = 0
        static let weight = Transformer.string.chained(Transformer<String, Int>(forward: { text in
            guard let v = Int(text) else { throw Rejected(value: text) }
            return v
        }, reverse: { String($0) }))
    }

    @JSONModel struct Timeline: Equatable {
        var name = ""
        var events: [Event] = []
    }
}

/// The code of the JSONError `body` throws; nil if it throws nothing or another error.
private func errorCode(_ body: () throws -> Any) -> JSONError.Code? {
    (thrown(body) as? JSONError)?.code
}

/// The error `body` throws, if any.
private func thrown(_ body: () throws -> Any) -> (any Error)? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

private extension JSONValue {
    /// The text of a number value; nil for anything else.
    var numberText: String? {
        if case .number(let n) = self { return n.text }
        return nil
    }
}
