import Foundation
import Testing
@testable import Magma

/// A model with unmapped values of every kind around and inside its mapped ones.
@JSONModel struct ScannedIssue: Equatable {
    let id: Int
    var title: String?
    @Key("user.login") let login: String?
    var labels: [String] = []
    var score: Double = 0
    var open: Bool = false
}

/// Hooks that count their runs: a document is read once, whatever reads it.
@JSONModel struct CountedChild {
    nonisolated(unsafe) static var runs = 0
    let id: Int
    mutating func didDecode() throws { CountedChild.runs += 1 }
}

@JSONModel struct CountedParent {
    let child: CountedChild
    let deep: JSONValue
}

/// The two readers, the scanner (whole values) and yajl (`reader: .yajl`, and every document fed
/// in pieces), give the same values and the same errors (code, message, offset, line, column,
/// path) on the same bytes; the scanner reads every value itself, never handing one over to yajl.
@Suite(.serialized) struct ReaderAgreementTests {
    enum Outcome<V: Equatable>: Equatable {
        case success(V)
        case failure(String)
    }

    static var yajl: DecodingOptions {
        var options = DecodingOptions()
        options.reader = .yajl
        return options
    }

    /// What `transformer` reads from `bytes` with `options`: the value, or the error's summary.
    static func outcome<V: Equatable>(_ transformer: Transformer<JSONValue, V>, _ bytes: [UInt8], _ options: DecodingOptions) -> Outcome<V> {
        do {
            return .success(try JSONAdapter.value(from: Data(bytes), transformer, options: options))
        } catch let error as JSONError {
            return .failure(StreamOutcome.summary(error))
        } catch {
            return .failure("\(error)")
        }
    }

    /// Both readers, whole, and the chunked reading, agree on `bytes`; returns the scanner's outcome.
    @discardableResult
    static func agree<V: Equatable>(_ transformer: Transformer<JSONValue, V>, _ bytes: [UInt8], options: DecodingOptions = .init(),
                                    _ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> Outcome<V> {
        let scanned = outcome(transformer, bytes, options)
        var viaYajl = options
        viaYajl.reader = .yajl
        #expect(outcome(transformer, bytes, viaYajl) == scanned, "\(name): yajl", sourceLocation: sourceLocation)
        for size in [1, 7] {
            let chunked: Outcome<V>
            do {
                chunked = .success(try JSONAdapter.value(from: .chunks(chunks(bytes, size)), transformer, options: options))
            } catch let error as JSONError {
                chunked = .failure(StreamOutcome.summary(error))
            } catch {
                chunked = .failure("\(error)")
            }
            #expect(chunked == scanned, "\(name): chunks of \(size)", sourceLocation: sourceLocation)
        }
        return scanned
    }

    static let documents: [String] = [
        #"{}"#, #"[]"#, #" [ ] "#, "\t{\r\n\"a\" :\n1 }\n", #""text""#, "true", "false", "null", "42", "-0.5e3",
        #"{"a":[1,-2,3.5,-0.0,1e10,2E-3,0,-0]}"#,
        #"{"esc":"a\"b\\c\/d\b\f\n\r\t","u":"\u00e9\u20ac\ud83d\ude00","raw":"é€😀"}"#,
        #"{"nested":{"deep":[[[{"x":[]}]]]},"k":"v"}"#,
        #"[{"id":1},{"id":2,"more":[true,false,null]}]"#,
        #"{"\u0041key":"key with an escape","":"empty key"}"#,
        #"{"a":1,"a":2}"#,
        #"[123456789012345678901234567890, 0.1e-400, -1.5E+300]"#,
        // Errors of every kind: each reader reports it, at the same byte.
        "", "   ", #"{"a":1,}"#, #"[1 2]"#, #"{"a" 1}"#, "[1]x", "[1] [2]", "[\"\u{01}\"]", #"["\ud800"]"#, #"["\x"]"#,
        "[01]", "[1.]", "[-]", "[tru]", "[\u{0C}1]", #"{"a":1}/**/"#, "\u{FEFF}[1]", #"{"a":"#, #"["abc"#, "[1,",
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
    ]

    @Test func documents_readAlike() {
        for json in Self.documents { Self.agree(.json, Array(json.utf8), json.debugDescription) }
        var capped = DecodingOptions()
        capped.maxTokenLength = 3
        for json in [#"["abcd"]"#, #"[12345]"#, #"{"abcd":1}"#, #"["abc"]"#] { Self.agree(.json, Array(json.utf8), options: capped, json) }
        // A fault in a string past the cap is the cap's (a reader fed in pieces meets the cap first);
        // one within the cap is its own.
        for (json, code) in [(#"["abcd\x"]"#, "sizeLimitExceeded"), (#"{"ab\u12G4":1}"#, "sizeLimitExceeded"),
                             (#"["ab\ud83d\u12"#, "sizeLimitExceeded"), (#"["a\x"]"#, "syntax")] {
            let read = Self.agree(.json, Array(json.utf8), options: capped, json)
            guard case .failure(let summary) = read else { Issue.record("\(json) was read"); continue }
            #expect(summary.hasPrefix(code + " "), "\(json): \(summary)")
        }
        // Invalid UTF-8 in a string, in a key.
        Self.agree(.json, [0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D], "invalid UTF-8 in a string")
        Self.agree(.json, [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D], "invalid UTF-8 in a key")
    }

    /// Strings with escapes (decoded by the scanner as it checks them, by yajl on its own): the
    /// readers agree on random texts of plain runs of every length, text above ASCII and every kind
    /// of escape, in values and keys, and Foundation reads the same text; one fault each (a lone
    /// surrogate, a bad escape, a control character, invalid UTF-8) is the same error, and so is
    /// the size cap.
    @Test func escapedStrings_readAlike() throws {
        var random = SeededGenerator(seed: 31)
        let pieces: [[UInt8]] = [
            Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\/"#.utf8), Array(#"\b"#.utf8), Array(#"\f"#.utf8), Array(#"\n"#.utf8),
            Array(#"\r"#.utf8), Array(#"\t"#.utf8), Array(#"\u0041"#.utf8), Array(#"\u00e9"#.utf8), Array(#"\u20AC"#.utf8),
            Array(#"\ud83d\ude00"#.utf8), Array(#"\u0000"#.utf8), Array("é€😀".utf8),
        ]
        let faults: [[UInt8]] = [Array(#"\ud800"#.utf8), Array(#"\udc00x"#.utf8), Array(#"\ud800\u0041"#.utf8), Array(#"\x"#.utf8),
                                 Array(#"\u12G4"#.utf8), [0x01], [0xC3, 0x28], [0xED, 0xA0, 0x80]]
        for round in 0..<400 {
            var parts: [[UInt8]] = []
            for k in 0..<Int.random(in: 1...6, using: &random) {
                parts.append(Array(repeating: UInt8(ascii: "a") + UInt8(k), count: Int.random(in: 0...40, using: &random)))
                parts.append(pieces.randomElement(using: &random)!)
            }
            // The fault between two parts, never inside an escape.
            let fault = round % 4 == 3 ? faults.randomElement(using: &random)! : []
            if !fault.isEmpty { parts.insert(fault, at: Int.random(in: 0...parts.count, using: &random)) }
            let text = parts.flatMap { $0 }
            let json = Array(#"[""#.utf8) + text + Array(#"",{""#.utf8) + text + Array(#"":1}]"#.utf8)
            let read = Self.agree(.json, json, "round \(round)")
            if fault.isEmpty {
                let expected = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [Any])
                let string = try #require(expected[0] as? String)
                #expect(read == .success(.array([.string(string), .object([string: .number(1)])])), "round \(round)")
            } else if case .success = read {
                Issue.record("round \(round): \(String(decoding: json, as: UTF8.self)) was read")
            }
            // The size cap just under the text's length.
            var capped = DecodingOptions()
            capped.maxTokenLength = text.count - 1
            Self.agree(.json, json, options: capped, "round \(round), cap \(text.count - 1)")
        }
    }

    /// Runs of blanks of every length and mix (read 16 bytes a step past the first two), before,
    /// between and after tokens; a form feed anywhere in a run is an error at its own byte.
    @Test func blankRuns_readAlike_andStopAtTheFirstOtherByte() throws {
        let mix: [UInt8] = Array(" \t\r\n".utf8)
        for length in [0, 1, 2, 3, 15, 16, 17, 18, 31, 33, 64, 100] {
            let run = (0..<length).map { mix[($0 * 7 + length) % 4] }
            let bytes = run + Array("{".utf8) + run + Array(#""a""#.utf8) + run + Array(":".utf8) + run
                + Array("[1,".utf8) + run + Array("2]".utf8) + run + Array("}".utf8) + run
            let read = Self.agree(.json, bytes, "blank run of \(length)")
            #expect(read == .success(.object(["a": .array([.number(1), .number(2)])])), "blank run of \(length)")
            for at in Set([0, 1, 2, length / 2, length - 1].filter { $0 >= 0 && $0 < length }) {
                var fed = run
                fed[at] = 0x0C
                let bytes = Array("[".utf8) + fed + Array("1]".utf8)
                Self.agree(.json, bytes, "form feed at \(at) of \(length)")
                let error = #expect(throws: JSONError.self) { try JSONAdapter.value(from: Data(bytes), .json) }
                #expect(error?.offset == 1 + at, "form feed at \(at) of \(length)")
            }
        }
    }

    /// Every file of JSONTestSuite (the committed subset, and the full suite when it is beside
    /// the package): the readers agree, and n_ files are never accepted.
    @Test func jsonTestSuite_readAlike() throws {
        let files = ConformanceTests.files(in: ConformanceTests.committedSuite)
            + (ConformanceTests.fullSuiteAvailable ? ConformanceTests.files(in: ConformanceTests.fullSuite) : [])
        #expect(files.count > 0)
        for file in files {
            let scanned = Self.agree(.json, file.bytes, file.name)
            if file.name.hasPrefix("n_"), case .success = scanned { Issue.record("\(file.name) was accepted") }
            if file.name.hasPrefix("y_"), case .failure(let error) = scanned { Issue.record("\(file.name): \(error)") }
        }
    }

    @Test func models_unmappedValuesPassedOver() throws {
        let json = #"""
        {"x":{"a":[1,{"b":"\u00e9"}],"c":null},"id":7,"title":"T\"q","user":{"id":1,"login":"ann","z":[[]]},
         "labels":["a","b"],"skip":"é","score":-2.5e1,"open":true,"tail":[{"k":{}}]}
        """#
        let bytes = Array(json.utf8)
        let expected = ScannedIssue(id: 7, title: "T\"q", login: "ann", labels: ["a", "b"], score: -25, open: true)
        #expect(try JSONAdapter.model(ScannedIssue.self, from: Data(bytes)) == expected)
        #expect(try JSONAdapter.model(ScannedIssue.self, from: Data(bytes), options: Self.yajl) == expected)
        #expect(try JSONAdapter.model(ScannedIssue.self, from: .chunks(bytes.map { [$0] })) == expected)
    }

    /// A model's errors (a type mismatch, a required key, a syntax error or a control character
    /// inside an unmapped value): the same from both readers, whole and in pieces.
    @Test func models_errorsAlike() throws {
        let cases = [#"{"id":"seven"}"#, #"{"title":"t"}"#, #"{"id":1,"x":{"a":[1,]}}"#, "{\"id\":1,\"x\":\"\u{01}\"}"]
        for json in cases {
            let bytes = Array(json.utf8)
            let whole = #expect(throws: JSONError.self) { try JSONAdapter.model(ScannedIssue.self, from: Data(bytes)) }
            let viaYajl = #expect(throws: JSONError.self) { try JSONAdapter.model(ScannedIssue.self, from: Data(bytes), options: Self.yajl) }
            let chunked = #expect(throws: JSONError.self) { try JSONAdapter.model(ScannedIssue.self, from: .chunks(bytes.map { [$0] })) }
            #expect(whole.map(StreamOutcome.summary) == viaYajl.map(StreamOutcome.summary), "\(json)")
            #expect(whole.map(StreamOutcome.summary) == chunked.map(StreamOutcome.summary), "\(json)")
        }
    }

    /// A document is read once: a nested model's hook runs once, however deep the rest of the
    /// document nests (past the scanner's 128 levels on the thread's stack) and whichever reader.
    @Test func hooks_runOncePerDocument() throws {
        let json = #"{"child":{"id":1},"deep":"# + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "}"
        for options in [DecodingOptions(), Self.yajl] {
            CountedChild.runs = 0
            _ = try JSONAdapter.model(CountedParent.self, from: json, options: options)
            #expect(CountedChild.runs == 1, "\(options.reader)")
        }
        CountedChild.runs = 0
        _ = try JSONAdapter.model(CountedParent.self, from: .chunks(chunks(Array(json.utf8), 64)))
        #expect(CountedChild.runs == 1, "in chunks")
    }

    /// MagmaDecoder's tape, read by the scanner: its errors are placed as a model's are.
    @Test func tape_errorsArePlaced() {
        for (json, path) in [(#"{"a":[1,{"b":tru}]}"#, "$.a[1].b"), (#"[1,2,]"#, "$[2]"), (#"{"a":1 "b":2}"#, "$.a"),
                             (#"{"a":{"b":[[1,2],[3,}]}}"#, "$.a.b[1][1]")] {
            let bytes = Array(json.utf8)
            let error = bytes.withUnsafeBytes { input -> JSONError? in
                do { _ = try Tape.parse(input, options: DecodingOptions()); return nil } catch { return error as? JSONError }
            }
            let model = #expect(throws: JSONError.self) { try JSONAdapter.value(from: Data(bytes), .json) }
            #expect(error?.path == path, "\(json): \(String(describing: error))")
            #expect(error?.offset == model?.offset && error?.code == model?.code && error?.line == model?.line, "\(json)")
        }
    }
}
