import Foundation
import Testing
@testable import Magma

/// A macro model with an unmapped key `x` around it in the fixtures.
@JSONModel struct SkipProbe: Equatable {
    let id: Int
    var name: String?
}

/// The first element of an array, read through a key path.
@JSONModel struct FirstLabel: Equatable {
    @Key("labels.0.name") let first: String?
}

/// Unmapped values passed over by the scanner, checked but not handed to the builder: every model
/// and every error is the one reading them gives (the scanner handing them over, yajl reading
/// them all), whatever the chunking.
@Suite struct SkipInPlaceTests {
    static func options(inPlace: Bool, _ change: (inout DecodingOptions) -> Void = { _ in }) -> DecodingOptions {
        var options = DecodingOptions()
        options.skipsUnmappedInPlace = inPlace
        change(&options)
        return options
    }

    /// The events the builder received for `json` decoded whole into `M` by the scanner.
    static func events<M: JSONObjectModel>(_ type: M.Type, _ json: String, options: DecodingOptions) throws -> Int {
        var count = 0
        let bytes = Array(json.utf8)
        _ = try objectModelCodec(M.self).withBuilder(options: options) { builder in
            try bytes.withUnsafeBytes { try builder.pointee.scanDocument($0) }
            count = builder.pointee.eventCount
        }
        return count
    }

    @Test func unmappedValues_arePassedOverUnread() throws {
        let json = #"{"id": 7, "x": {"deep": [1, 2, {"k": "v"}], "more": null}, "y": [[], [true]], "name": "a"}"#
        // Read: {, id, 7, x, {…13 events…}, y, [ [ ] [ true ] ], name, "a", } = 28 events.
        #expect(try Self.events(SkipProbe.self, json, options: Self.options(inPlace: false)) == 28)
        // Passed over: the scanner checks the values of x and y and hands over only their keys:
        // {, id, 7, x, y, name, "a", } = 8 events.
        #expect(try Self.events(SkipProbe.self, json, options: Self.options(inPlace: true)) == 8)
        #expect(try JSONAdapter.model(SkipProbe.self, from: json) == SkipProbe(id: 7, name: "a"))
        // Scalars too: {, x, y, z, id, 1, w, name, "a", } = 10 events, not 14.
        let scalars = #"{"x": "a long unmapped string", "y": -12.5e3, "z": true, "id": 1, "w": null, "name": "a"}"#
        #expect(try Self.events(SkipProbe.self, scalars, options: Self.options(inPlace: false)) == 14)
        #expect(try Self.events(SkipProbe.self, scalars, options: Self.options(inPlace: true)) == 10)
        #expect(try JSONAdapter.model(SkipProbe.self, from: scalars) == SkipProbe(id: 1, name: "a"))
    }

    /// An array element no key path reads is read and dropped (the builder counts its events),
    /// whichever reader: the same model.
    @Test func unmappedElements_decodeAlike() throws {
        let json = #"{"labels": [{"name": "a"}, {"name": "b", "x": [1, 2]}, {"name": "c"}]}"#
        #expect(try Self.events(FirstLabel.self, json, options: Self.options(inPlace: true)) == 22)
        #expect(try JSONAdapter.model(FirstLabel.self, from: json) == FirstLabel(first: "a"))
        var yajl = DecodingOptions()
        yajl.reader = .yajl
        #expect(try JSONAdapter.model(FirstLabel.self, from: json, options: yajl) == FirstLabel(first: "a"))
    }

    /// Values of the unmapped key `x` (and, for a few, of the whole text) that decode.
    static let valid: [String] = [
        #"{"id": 1, "x": {}, "name": "a"}"#,
        #"{"id": 1, "x": [], "name": "a"}"#,
        #"{"x": {"a": [1, -2.5e+3, 0, -0, 0.5E-7, true, false, null, "s\n\u00e9\ud83d\ude00\/\"\\"], "b": {"c": {}}}, "id": 1}"#,
        "{ \"id\" :\t1 ,\r\n \"x\" : [ 1 ,\n { \"k\" : \"v\" } , [ ] ] , \"name\" : \"a\" }",
        #"{"id": 1, "x": ["héllo wörld 😀", {"ключ": "значение"}], "name": "ü"}"#,
        #"{"id": 1, "x": ["0123456789abcdef\"0123456789abcdef\\0123456789abcdef\u0041bcdef0123456789"], "name": "a"}"#,
        #"{"id": 1, "x": [[[[[[[[1]]]]]]], {"a": {"b": {"c": [{}]}}}]}"#,
        // Unmapped scalars, alone and in runs that end at a mapped key, a key with escapes, `}`.
        #"{"x": "a long unmapped string value", "id": 1, "y": 123456, "z": false, "name": "a", "w": null}"#,
        #"{"id": 1, "x": "s\u00e9\"\\", "y": [1], "z": {"a": 1}, "name": "a"}"#,
        #"{"x": 1, "\u0069d": 1, "y": "s", "name": "a"}"#,
        #"{"x": 1, "\u0079": 2, "id": 1}"#,
        "{\"x\" :\t\"v\" ,\r\n \"y\" : 0.5 , \"id\" : 1 }",
        #"{"id": 1, "x": -0, "y": 0e5, "z": 1E+2, "name": "ü", "é": "ключ"}"#,
    ]

    /// Fixtures with an error in or right after the unmapped value.
    static let invalid: [String] = [
        #"{"id": 1, "x": {"a": 1,}, "name": "a"}"#,
        #"{"id": 1, "x": [1,], "name": "a"}"#,
        #"{"id": 1, "x": [,1], "name": "a"}"#,
        #"{"id": 1, "x": {"a" 1}, "name": "a"}"#,
        #"{"id": 1, "x": {a: 1}, "name": "a"}"#,
        #"{"id": 1, "x": {"a": 1 "b": 2}, "name": "a"}"#,
        #"{"id": 1, "x": [1 2], "name": "a"}"#,
        #"{"id": 1, "x": [01], "name": "a"}"#,
        #"{"id": 1, "x": [1.], "name": "a"}"#,
        #"{"id": 1, "x": [-], "name": "a"}"#,
        #"{"id": 1, "x": [1e], "name": "a"}"#,
        #"{"id": 1, "x": [.5], "name": "a"}"#,
        #"{"id": 1, "x": [+1], "name": "a"}"#,
        #"{"id": 1, "x": [tru], "name": "a"}"#,
        #"{"id": 1, "x": [truex], "name": "a"}"#,
        #"{"id": 1, "x": [True], "name": "a"}"#,
        #"{"id": 1, "x": [nul], "name": "a"}"#,
        "{\"id\": 1, \"x\": [\"a\u{01}b\"], \"name\": \"a\"}",
        "{\"id\": 1, \"x\": [\"a\tb\"], \"name\": \"a\"}",
        #"{"id": 1, "x": ["\q"], "name": "a"}"#,
        #"{"id": 1, "x": ["\u12G4"], "name": "a"}"#,
        #"{"id": 1, "x": ["\ud800"], "name": "a"}"#,
        #"{"id": 1, "x": ["\udc00"], "name": "a"}"#,
        #"{"id": 1, "x": ["\ud800\u0041"], "name": "a"}"#,
        #"{"id": 1, "x": {"\ud800": 1}, "name": "a"}"#,
        "{\"id\": 1, \"x\": [1,\u{0C}2], \"name\": \"a\"}",
        "{\"id\": 1, \"x\": [1,\u{0B}2], \"name\": \"a\"}",
        #"{"id": 1, "x": [1]], "name": "a"}"#,
        #"{"id": 1, "x": [1]} "#,
        #"{"id": 1, "x": {"a": [1, 2"#,
        #"{"id": 1, "x": [/* c */ 1], "name": "a"}"#,
        #"{"id": 1, "x": [1] "name": "a"}"#,
        #"{"id": "one", "x": [1], "name": "a"}"#,
        // In an unmapped scalar, or right after one, of a run.
        #"{"id": 1, "x": "a\qb", "name": "a"}"#,
        #"{"id": 1, "x": "\ud800", "name": "a"}"#,
        "{\"id\": 1, \"x\": \"a\u{01}b\", \"name\": \"a\"}",
        #"{"id": 1, "x": 01, "name": "a"}"#,
        #"{"id": 1, "x": 1.e3, "name": "a"}"#,
        #"{"id": 1, "x": tru, "name": "a"}"#,
        #"{"id": 1, "x": nulll, "name": "a"}"#,
        #"{"id": 1, "x": "a" "y": 2, "name": "a"}"#,
        #"{"id": 1, "x": 1, "y": , "name": "a"}"#,
        #"{"id": 1, "x": 1,, "name": "a"}"#,
        #"{"id": 1, "x": 1, "y" 2, "name": "a"}"#,
        #"{"id": 1, "x": 1, y: 2, "name": "a"}"#,
        #"{"id": 1, "x": 1, "y": 2,}"#,
        #"{"id": 1, "x": 1, "y": 2]"#,
        #"{"id": 1, "x": 1, "y": 2"#,
        #"{"id": 1, "x": 12"#,
        #"{"id": 1, "x": "s"#,
        #"{"id": 1, "x": 1, "y": "a"} 2"#,
        "{\"id\": 1, \"x\": 1,\u{0C} \"y\": 2}",
        #"{"id": 1, "x": /* c */ 1, "name": "a"}"#,
    ]

    /// What a decode gave, for comparison: the model or everything an error says.
    static func outcome<M: JSONObjectModel & Equatable>(_ type: M.Type, _ json: String, options: DecodingOptions) -> String {
        // yajl, reading every byte, gives what the scanner gives.
        var yajl = options
        yajl.reader = .yajl
        let viaYajl = Result { try JSONAdapter.model(type, from: Data(json.utf8), options: yajl) }
        let scanned = Result { try JSONAdapter.model(type, from: Data(json.utf8), options: options) }
        switch (viaYajl, scanned) {
        case (.success(let a), .success(let b)): #expect(a == b, "\(json)")
        case (.failure(let a as JSONError), .failure(let b as JSONError)):
            #expect(StreamOutcome.summary(a) == StreamOutcome.summary(b), "\(json)")
        default: Issue.record("\(json): yajl \(viaYajl), scanner \(scanned)")
        }
        do {
            return "\(try decodeEverywhere(type, json, options: options))"
        } catch let error as JSONError {
            // Every chunking fails the same way (failureEverywhere checks it against the whole buffer).
            let error = failureEverywhere(type, json, options: options) ?? error
            return StreamOutcome.summary(error)
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: valid + invalid)
    func inPlace_agreesWithCounting(_ json: String) {
        let inPlace = Self.outcome(SkipProbe.self, json, options: Self.options(inPlace: true))
        #expect(inPlace == Self.outcome(SkipProbe.self, json, options: Self.options(inPlace: false)), "\(json)")
    }

    @Test func validFixtures_decode() throws {
        for json in Self.valid { #expect(try JSONAdapter.model(SkipProbe.self, from: json).id == 1, "\(json)") }
    }

    @Test(arguments: [
        // The depth limit, reached inside the skipped value and just not.
        ("depth", #"{"id": 1, "x": [[[[1]]]], "name": "a"}"#),
        ("depth", #"{"id": 1, "x": [[[1]]], "name": "a"}"#),
        ("depth", #"{"id": 1, "x": {"a": {"b": [{}]}}, "name": "a"}"#),
        // The size cap on strings, keys and numbers inside it, just over and at the cap.
        ("cap", #"{"id": 1, "x": ["123456789"], "name": "a"}"#),
        ("cap", #"{"id": 1, "x": ["12345678"], "name": "a"}"#),
        ("cap", #"{"id": 1, "x": [123456789], "name": "a"}"#),
        ("cap", #"{"id": 1, "x": [12345678], "name": "a"}"#),
        ("cap", #"{"id": 1, "x": {"123456789": 1}, "name": "a"}"#),
        ("cap", #"{"id": 1, "x": ["\u0041\u0041"], "name": "a"}"#),
        ("comments", #"{"id": 1, "x": [/* c */ 1, // d"# + "\n" + #"2], "name": "a"}"#),
        ("comments", "{\"id\": 1, \"x\": [1,\u{0C}2], \"name\": \"a\"}"),
        ("replace", #"{"id": 1, "x": ["\ud800", {"\udc00": 1}], "name": "a"}"#),
        ("replace", #"{"id": 1, "x": ["\ud800\ud800"], "name": "a"}"#),
        // The same for unmapped scalars and runs of them.
        ("cap", #"{"id": 1, "x": "123456789", "name": "a"}"#),
        ("cap", #"{"id": 1, "x": "12345678", "y": 123456789, "name": "a"}"#),
        ("cap", #"{"id": 1, "x": 1, "123456789": 2, "name": "a"}"#),
        ("depth", #"{"id": 1, "x": 1, "y": [[[1]]], "name": "a"}"#),
        ("depth", #"{"id": 1, "x": 1, "y": [[1]], "name": "a"}"#),
        ("maxDepth1", #"{"id": 1, "x": "s", "y": [], "name": "a"}"#),
        ("maxDepth1", #"{"id": 1, "x": "s", "name": "a"}"#),
        ("comments", #"{"id": 1, "x": 1, /* c */ "y": 2, "name": "a"}"#),
        ("replace", #"{"id": 1, "x": "\ud800", "y": 1, "name": "a"}"#),
        ("duplicates", #"{"id": 1, "x": "a", "x": "b", "name": "a"}"#),
        ("duplicates", #"{"id": 1, "x": "a", "y": "b", "name": "a"}"#),
        ("unknown", #"{"id": 1, "x": "a", "name": "a"}"#),
    ])
    func limitsAndOptions_agreeWithCounting(_ option: String, _ json: String) {
        let change: (inout DecodingOptions) -> Void = { options in
            switch option {
            case "depth": options.maxDepth = 4
            case "cap": options.maxTokenLength = 8
            case "maxDepth1": options.maxDepth = 1
            case "comments": options.allowComments = true
            case "duplicates": options.duplicateKeys = .reject
            case "unknown": options.unknownKeys = .reject
            default: options.invalidSurrogateEscapes = .replace
            }
        }
        let inPlace = Self.outcome(SkipProbe.self, json, options: Self.options(inPlace: true, change))
        #expect(inPlace == Self.outcome(SkipProbe.self, json, options: Self.options(inPlace: false, change)), "\(json)")
    }

    /// The string scan takes 16 bytes a step: a quote, backslash, control character, multi-byte
    /// or invalid UTF-8 byte at every position of the first steps, in an unmapped string.
    @Test func everyBytePositionOfAStep_agreesWithCounting() {
        let specials: [[UInt8]] = [[0x5C, 0x22], [0x5C, 0x6E], [0x01], [0xC3, 0xA9], [0xE2, 0x82], [0xFF], [0x22]]
        for length in [0, 1, 15, 16, 17, 31, 32, 33, 40] {
            for position in 0...length {
                for special in specials {
                    var text = Array(repeating: UInt8(ascii: "a"), count: length)
                    text.insert(contentsOf: special, at: position)
                    let input = Array(#"{"id": 1, "x": ""#.utf8) + text + Array(#"", "name": "a"}"#.utf8)
                    let counted = Result { try JSONAdapter.model(SkipProbe.self, from: Data(input), options: Self.options(inPlace: false)) }
                    switch counted {
                    case .success(let model):
                        let inPlace = try? JSONAdapter.model(SkipProbe.self, from: Data(input), options: Self.options(inPlace: true))
                        #expect(inPlace == model, "\(length) \(position) \(special)")
                    case .failure:
                        let inPlace = failureEverywhere(SkipProbe.self, input, options: Self.options(inPlace: true))
                        let counted = failureEverywhere(SkipProbe.self, input, options: Self.options(inPlace: false))
                        #expect(inPlace.map(StreamOutcome.summary) == counted.map(StreamOutcome.summary), "\(length) \(position) \(special)")
                    }
                }
            }
        }
    }

    @Test func invalidUTF8InsideTheSkippedValue_failsAsWhenCounted() {
        for bad in [[0xC0, 0xAF] /* an overlong `/` */, [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] as [[UInt8]] {
            var input = Array(#"{"id": 1, "x": {"k": ["ab"#.utf8)
            input += bad
            input += Array(#""]}, "name": "a"}"#.utf8)
            let inPlace = failureEverywhere(SkipProbe.self, input, options: Self.options(inPlace: true))
            let counted = failureEverywhere(SkipProbe.self, input, options: Self.options(inPlace: false))
            #expect(inPlace.map(StreamOutcome.summary) == counted.map(StreamOutcome.summary), "\(bad)")
            #expect(inPlace?.code == .invalidUnicode)
        }
    }

    /// NDJSON that skips bad records: an error inside a skipped value (a syntax error, a lone
    /// surrogate) loses its line, reported as when yajl counts the value.
    @Test func recordsWithBadSkippedValues_areSkippedAsWhenCounted() {
        let input = #"{"id": 1, "extra": {"a": [1, 2]}}"# + "\n" + #"{"id": 2, "extra": {"a": [1,]}}"# + "\n"
            + #"{"id": 3, "extra": ["\ud800"]}"# + "\n" + #"{"id": 4, "extra": []}"# + "\n"
        let inPlace = streamOutcomeEverywhere(input, .ndjson, policy: .skip, options: Self.options(inPlace: true))
        let counted = streamOutcomeEverywhere(input, .ndjson, policy: .skip, options: Self.options(inPlace: false))
        #expect(inPlace.description == counted.description)
        #expect(inPlace.records.map(\.id) == [1, 4])
    }
}
