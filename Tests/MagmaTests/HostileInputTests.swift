// Issue 6's gaps in yajl, closed: form feed, strict UTF-8, surrogate escapes, size caps, depth,
// and errors that are the same wherever the chunks split. Every failing input is checked whole,
// in every chunk size of `chunkSizes`, and split in two at every byte offset.
import Foundation
import Testing
@testable import Magma

private func utf8(_ s: String) -> [UInt8] { Array(s.utf8) }

@Suite struct StrictUTF8Tests {
    /// Each with why it is not UTF-8.
    static let invalid: [([UInt8], String)] = [
        ([0xC0, 0x80], "overlong NUL"), ([0xC0, 0xAF], "overlong /"), ([0xC1, 0xBF], "overlong"),
        ([0xE0, 0x80, 0x80], "overlong 3-byte"), ([0xE0, 0x9F, 0xBF], "overlong 3-byte"),
        ([0xF0, 0x80, 0x80, 0x80], "overlong 4-byte"), ([0xF0, 0x8F, 0xBF, 0xBF], "overlong 4-byte"),
        ([0xED, 0xA0, 0x80], "encoded surrogate U+D800"), ([0xED, 0xBF, 0xBF], "encoded surrogate U+DFFF"),
        ([0xF4, 0x90, 0x80, 0x80], "U+110000"), ([0xF5, 0x80, 0x80, 0x80], "lead F5"), ([0xF6, 0x80, 0x80, 0x80], "lead F6"),
        ([0xF7, 0xBF, 0xBF, 0xBF], "lead F7"), ([0xF8, 0x88, 0x80, 0x80, 0x80], "5-byte form"), ([0xFF], "FF"),
        ([0x80], "lone continuation"), ([0xBF], "lone continuation"), ([0xC2], "truncated 2-byte"),
        ([0xE2, 0x82], "truncated 3-byte"), ([0xF0, 0x9F, 0x98], "truncated 4-byte"), ([0xC2, 0x41], "bad continuation"),
    ]
    /// The edges of each valid range.
    static let valid: [[UInt8]] = [
        [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF],
        [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
    ]

    @JSONModel struct Note: Equatable {
        var text = ""
        var tags: [String: Int] = [:]
    }

    @Test(arguments: invalid.indices)
    func invalidSequence_isRejectedAtItsFirstByte_everywhere(index: Int) throws {
        let (sequence, why) = Self.invalid[index]
        // Where the sequence can be, and the offset of its first byte: a string read straight from
        // the input, one after an escape (decoded by yajl), a mapped field, a key, a dictionary key,
        // a skipped subtree, and a long string (the word-at-a-time path).
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 40)
        let cases: [([UInt8], Int)] = [
            (utf8("[\"ab") + sequence + utf8("cd\"]"), 4),
            (utf8("[\"a\\n") + sequence + utf8("\"]"), 5),
            (utf8("[\"\\u00e9") + sequence + utf8("\"]"), 8),
            (utf8("{\"") + sequence + utf8("\": 1}"), 2),
            (utf8("[1, \"") + long + sequence + utf8("\"]"), 5 + 40),
        ]
        for (json, offset) in cases {
            let error = failureAnywhere(json, .json)
            #expect(error?.code == .invalidUnicode, "\(why): \(json)")
            #expect(error?.offset == offset, "\(why): \(json): \(String(describing: error))")
        }
        let modelCases: [([UInt8], Int, String)] = [
            (utf8("{\"text\": \"ab") + sequence + utf8("\"}"), 12, "$.text"),
            (utf8("{\"tags\": {\"") + sequence + utf8("\": 1}}"), 11, "$.tags"),
            (utf8("{\"other\": [{\"k\": \"") + sequence + utf8("\"}], \"text\": \"t\"}"), 18, "$.other"),
            (utf8("{\"ot") + sequence + utf8("her\": 1}"), 4, "$"),
        ]
        for (json, offset, path) in modelCases {
            let error = failureAnywhere(json, Note.jsonTransformer)
            #expect(error?.code == .invalidUnicode, "\(why): \(json)")
            #expect(error?.offset == offset, "\(why): \(json): \(String(describing: error))")
            if error?.code == .invalidUnicode, path != "$" { #expect(error?.path.hasPrefix(path) == true, "\(String(describing: error))") }
        }
    }

    @Test func validSequences_atTheEdgesOfEachRange_decode() throws {
        for sequence in Self.valid {
            let json = utf8("{\"text\": \"a") + sequence + utf8("b\", \"tags\": {\"") + sequence + utf8("\": 1}}")
            let note = try valueAnywhere(json, Note.jsonTransformer)
            let text = String(decoding: sequence, as: UTF8.self)
            #expect(note.text == "a" + text + "b")
            #expect(note.tags == [text: 1])
        }
    }

    @Test func everyCodePointsEncoding_decodes() throws {
        // Every scalar, a few hundred per string, through the word-at-a-time and sequence paths.
        var scalars = (0x20...0x10FFFF).compactMap { Unicode.Scalar($0) }.filter { $0 != "\"" && $0 != "\\" }
        scalars = stride(from: 0, to: scalars.count, by: 97).map { scalars[$0] }
        let text = String(String.UnicodeScalarView(scalars))
        let json = Array(("[\"" + text + "\"]").utf8)
        #expect(try JSONAdapter.value(from: Data(json), .json) == .array([.string(text)]))
        #expect(try JSONAdapter.value(from: .chunks(chunks(json, 7)), .json) == .array([.string(text)]))
    }

    /// The check of long text 32 bytes a step (AVX2, where the processor has it) against the
    /// sequence loop and Swift's decoder: text of every sequence length, at the range edges, with
    /// runs of ASCII, most of it broken in one or two bytes (a byte changed, dropped, or the text
    /// cut short).
    @Test func wideValidator_agreesWithTheSequenceLoop_andSwift() {
        var rng = SeededGenerator(seed: 32)
        let edges: [UInt32] = [0x7F, 0x80, 0x7FF, 0x800, 0xFFF, 0x1000, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x3FFFF, 0x40000, 0xFFFFF, 0x100000, 0x10FFFF]
        let odd: [UInt8] = [0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0x00, 0x41]
        for round in 0..<6_000 {
            var bytes: [UInt8] = []
            let target = Int.random(in: 0...200, using: &rng)
            while bytes.count < target {
                if Int.random(in: 0..<8, using: &rng) == 0 {
                    // A run of ASCII long enough to fill a block of 32 (the block check's ASCII path).
                    bytes += (0..<Int.random(in: 32...80, using: &rng)).map { _ in UInt8.random(in: 0x20...0x7E, using: &rng) }
                    continue
                }
                let value: UInt32
                switch Int.random(in: 0..<6, using: &rng) {
                case 0, 1: value = UInt32.random(in: 0x20...0x7E, using: &rng)
                case 2: value = UInt32.random(in: 0x80...0x7FF, using: &rng)
                case 3: value = UInt32.random(in: 0x800...0xFFFF, using: &rng)
                case 4: value = UInt32.random(in: 0x10000...0x10FFFF, using: &rng)
                default: value = edges[Int.random(in: 0..<edges.count, using: &rng)]
                }
                guard let scalar = Unicode.Scalar(value) else { continue }
                bytes += Array(String(Character(scalar)).utf8)
            }
            if round % 4 != 0, !bytes.isEmpty {
                for _ in 0..<Int.random(in: 1...2, using: &rng) {
                    let at = Int.random(in: 0..<bytes.count, using: &rng)
                    switch Int.random(in: 0..<4, using: &rng) {
                    case 0, 1: bytes[at] = odd[Int.random(in: 0..<odd.count, using: &rng)]
                    case 2: bytes.remove(at: at)
                    default: bytes.removeLast(Int.random(in: 0...min(3, bytes.count - 1), using: &rng))
                    }
                    if bytes.isEmpty { break }
                }
            }
            let swiftValid = String(validating: bytes, as: UTF8.self) != nil
            let (narrow, wide) = bytes.withUnsafeBytes { raw in
                let base = raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
                return (UTF8Validation.firstInvalidSlow(base, raw.count, from: 0, wide: false),
                        UTF8Validation.firstInvalidSlow(base, raw.count, from: 0, wide: hasAVX2))
            }
            #expect(narrow == wide, "round \(round): \(bytes)")
            #expect((wide < 0) == swiftValid, "round \(round): \(bytes)")
        }
    }

    @Test func validator_agreesWithSwiftsDecoder_onRandomBytes() {
        var rng = SeededGenerator(seed: 6)
        for _ in 0..<20_000 {
            let count = Int.random(in: 0..<24, using: &rng)
            let bytes = (0..<count).map { _ in
                Bool.random(using: &rng) ? UInt8.random(in: 0x80...0xFF, using: &rng) : UInt8.random(in: 0...0x7F, using: &rng)
            }
            let swiftValid = String(validating: bytes, as: UTF8.self) != nil
            let magma = bytes.withUnsafeBytes { UTF8Validation.firstInvalid($0) }
            #expect((magma < 0) == swiftValid, "\(bytes)")
            if magma >= 0 {
                // Everything before the reported byte is valid.
                #expect(String(validating: bytes[..<magma], as: UTF8.self) != nil, "\(bytes)")
            }
        }
    }
}

@Suite struct SurrogateEscapeTests {
    /// Bad escapes yajl rewrote into other text, and the offset of the offending backslash; and
    /// \u with fewer than four hex digits, yajl's own syntax error at the first non-hex byte
    /// (it rejects the whole string before the bad surrogate in it is seen).
    static let bad: [(String, JSONError.Code, Int)] = [
        (#"["\uD800"]"#, .invalidUnicode, 2), (#"["\uD800\uD800"]"#, .invalidUnicode, 2),
        (#"["\uD888\u1234"]"#, .invalidUnicode, 2), (#"["\uDC00"]"#, .invalidUnicode, 2),
        (#"["\uDFAA\uD834"]"#, .invalidUnicode, 2), (#"["ab\uDBFFcd"]"#, .invalidUnicode, 4),
        (#"["\uD800\n"]"#, .invalidUnicode, 2), (#"["\ud800abc"]"#, .invalidUnicode, 2),
        (#"["\uD83D\uDE00\uD800"]"#, .invalidUnicode, 14), (#"{"\uDFAA": 0}"#, .invalidUnicode, 2),
        (#"["\uD800\u"]"#, .syntax, 10),
    ]

    @Test(arguments: bad.indices)
    func badSurrogateEscape_isRejectedAtTheEscape_everywhere(index: Int) {
        let (json, code, offset) = Self.bad[index]
        let error = failureAnywhere(Array(json.utf8), .json)
        #expect(error?.code == code, "\(json): \(String(describing: error))")
        #expect(error?.offset == offset, "\(json): \(String(describing: error))")
    }

    @Test func badSurrogateEscape_becomesReplacementCharacter_whenAsked() throws {
        var options = DecodingOptions()
        options.invalidSurrogateEscapes = .replace
        let cases: [(String, String)] = [
            (#""\uD800""#, "\u{FFFD}"), (#""a\uD800b""#, "a\u{FFFD}b"), (#""\uD800\uD800""#, "\u{FFFD}\u{FFFD}"),
            (#""\uD888\u1234""#, "\u{FFFD}\u{1234}"), (#""\uDC00\uD83D\uDE00""#, "\u{FFFD}😀"), (#""\uD800\n?""#, "\u{FFFD}\n?"),
            (#""\\uD800\"\/\b\f\r\t\u0000\uDFFF""#, "\\uD800\"/\u{8}\u{C}\r\t\u{0}\u{FFFD}"),
            (#""\u00E9\u20AC\uD800""#, "\u{E9}\u{20AC}\u{FFFD}"),
        ]
        for (json, text) in cases {
            #expect(try valueAnywhere(Array(json.utf8), .string, options: options) == text, "\(json)")
        }
        var keyed = try valueAnywhere(Array(#"{"k\uDFAA": 1}"#.utf8), .json, options: options)
        #expect(keyed == .object(["k\u{FFFD}": .number(1)]))
        keyed = try valueAnywhere(Array(#"{"k\uD83D\uDE00": 1}"#.utf8), .json, options: options)
        #expect(keyed == .object(["k😀": .number(1)]))
    }

    /// A string yajl copied (it decoded escapes) is checked as written, found forward from the
    /// last string, key or number: after every kind of token, after comments that hold quotes
    /// (the search gives up at `/` and scans backwards), and where a bad escape must be found at
    /// the same offset in every split.
    @Test func copiedStrings_afterEveryKindOfToken_areCheckedAsWritten() throws {
        var options = DecodingOptions()
        options.allowComments = true
        let json = #"[true, "a\nb", null, {"k\t": "c\u00e9\"d", "n": 12, "e": [], "o": {}}, 12.5, "\uD83D\uDE00x", "#
            + #"/* "\uDC00" */ "q\\", // "\uD800""# + "\n" + #" "\/\uD83D\uDE00", false, [[["é\n"]]], "end"]"#
        let expected: JSONValue = .array([
            .bool(true), .string("a\nb"), .null,
            .object(["k\t": .string("c\u{E9}\"d"), "n": .number(JSONNumber(unchecked: "12")), "e": .array([]), "o": .object([:])]),
            .number(JSONNumber(unchecked: "12.5")), .string("😀x"), .string("q\\"), .string("/😀"), .bool(false),
            .array([.array([.array([.string("é\n")])])]), .string("end"),
        ])
        #expect(try valueAnywhere(Array(json.utf8), .json, options: options) == expected)
        for text in [#"[true, "ok\n", "x\uDC00"]"#, #"[null, {}, [], 1, "y\uD800\n"]"#, #"/* " */ ["\t\uDBFF"]"#,
                     #"{"k": 1, "j\n": "\uDC00"}"#] {
            let error = failureAnywhere(Array(text.utf8), .json, options: options)
            #expect(error?.code == .invalidUnicode, "\(text): \(String(describing: error))")
            // At the backslash of the bad escape, the last \u in each text.
            #expect(error?.offset == Array(text.utf8).lastIndex(of: UInt8(ascii: "u")).map { $0 - 1 }, "\(text): \(String(describing: error))")
        }
    }

    @Test func goodEscapesAndLookalikes_decodeAsWritten() throws {
        let cases: [(String, String)] = [
            (#""\uD83D\uDE00""#, "😀"), (#""\ud834\udd1e""#, "𝄞"), (#""\uDBFF\uDFFF""#, "\u{10FFFF}"), (#""?""#, "?"),
            (#""\u003F""#, "?"), (#""😀 and \u00e9""#, "😀 and é"), (#""\uFFFD""#, "\u{FFFD}"), (#""\uD7FF\uE000""#, "\u{D7FF}\u{E000}"),
            (#""a\\uD800""#, "a\\uD800"), (#""\\\uD83D\uDE00?""#, "\\😀?"),
        ]
        for (json, text) in cases {
            #expect(try valueAnywhere(Array(json.utf8), .string) == text, "\(json)")
        }
    }
}

@Suite struct WhitespaceTests {
    @Test func formFeedAndVerticalTab_areNotWhitespace_everywhere() {
        for (json, offset) in [("[\u{0C}]", 1), ("\u{0C}[]", 0), ("[]\u{0C}", 2), ("{\"a\":\u{0C}1}", 5), ("[1,\u{0B}2]", 3),
                               ("[1\u{0C}]", 2), ("[\"x\", tr\u{0C}ue]", 6)] {
            let error = failureAnywhere(Array(json.utf8), .json)
            #expect(error?.code == .syntax, "\(json.debugDescription)")
            #expect(error?.offset == offset, "\(json.debugDescription): \(String(describing: error))")
        }
        // Inside a literal it makes the literal misspelled: the error is at the literal's start.
        // Raw inside a string it is a control character (yajl's error); escaped it is text.
        #expect(failureAnywhere(Array("[\"a\u{0C}\"]".utf8), .json)?.code == .syntax)
        #expect((try? JSONAdapter.value(from: Data(#"["\f"]"#.utf8), .json)) == .array([.string("\u{0C}")]))
    }

    /// The search runs in 16 KiB blocks: the first of either byte is found in any block.
    @Test func formFeedAndVerticalTab_farIn_theFirstIsReported() throws {
        for (first, second) in [(UInt8(0x0B), UInt8(0x0C)), (0x0C, 0x0B)] {
            for at in [16_383, 16_384, 40_000] {
                var bytes = [UInt8(ascii: "[")] + Array(repeating: UInt8(ascii: " "), count: 60_000) + [UInt8(ascii: "]")]
                bytes[at] = first
                bytes[at + 20_000] = second
                do {
                    _ = try JSONAdapter.value(from: Data(bytes), .json)
                    Issue.record("accepted")
                } catch let error as JSONError {
                    #expect(error.code == .syntax)
                    #expect(error.offset == at)
                }
            }
        }
    }

    @Test func formFeed_isWhitespace_withComments() throws {
        var options = DecodingOptions()
        options.allowComments = true
        #expect(try valueAnywhere(Array("[\u{0C}1, /* \u{0C} */ 2]".utf8), .json, options: options) == .array([.number(1), .number(2)]))
    }
}

@Suite struct SizeCapTests {
    static func options(cap: Int) -> DecodingOptions {
        var options = DecodingOptions()
        options.maxTokenLength = cap
        return options
    }

    @Test func tokenAtTheCap_decodes_oneMore_failsAtItsStart_everywhere() throws {
        let options = Self.options(cap: 16)
        let sixteen = String(repeating: "x", count: 16)
        #expect(try valueAnywhere(Array("[\"\(sixteen)\", 1234567890123456]".utf8), .json, options: options)
                == .array([.string(sixteen), .number(JSONNumber("1234567890123456")!)]))
        let cases: [(String, Int)] = [
            ("[1, \"\(sixteen)y\"]", 4), ("{\"\(sixteen)y\": 1}", 1), ("[12345678901234567]", 1),
            ("[\"\\u0041\\u0041\\u0041\"]", 1),                      // 18 bytes as written, 3 decoded
            ("[\"\(sixteen)\\n\"]", 1), ("[true, \"é\(String(repeating: "x", count: 15))\"]", 7),
            ("{\"skip\": [\"\(sixteen)y\"]}", 10),
        ]
        for (json, offset) in cases {
            let error = failureAnywhere(Array(json.utf8), .json, options: options)
            #expect(error?.code == .sizeLimitExceeded, "\(json)")
            #expect(error?.offset == offset, "\(json): \(String(describing: error))")
        }
    }

    /// A string or number over the cap is the size error wherever it stands, before the syntax
    /// error it may also be (after a value, as trailing garbage, cut by the end of the input);
    /// a lexical error before the cap is yajl's syntax error. Whole and in chunks alike.
    @Test func capComesBeforeSyntaxErrorsInTheToken_everywhere() {
        let options = Self.options(cap: 16)
        let long = String(repeating: "x", count: 40)
        let digits = String(repeating: "2", count: 40)
        let cases: [(String, JSONError.Code, Int)] = [
            ("[1 \"\(long)\"]", .sizeLimitExceeded, 3), ("1 \"\(long)\"", .sizeLimitExceeded, 2),
            ("{\"a\": 1} \"\(long)", .sizeLimitExceeded, 9), ("[\"x\" 1\(digits)]", .sizeLimitExceeded, 5),
            ("{\"a\": 1, \(digits)}", .sizeLimitExceeded, 9), ("[\"\(long)", .sizeLimitExceeded, 1),
            ("[\"\(long)\u{01}\"]", .sizeLimitExceeded, 1), ("[1, \(digits)", .sizeLimitExceeded, 4),
            ("[\"xx\u{01}\(long)\"]", .syntax, 4), ("{\"a\" \"\(long)\"}", .sizeLimitExceeded, 5),
            ("{\"a\":\"x\" \"\(long)\"}", .sizeLimitExceeded, 9),
        ]
        for (json, code, offset) in cases {
            let error = failureAnywhere(Array(json.utf8), .json, options: options)
            #expect(error?.code == code, "\(json): \(String(describing: error))")
            #expect(error?.offset == offset, "\(json): \(String(describing: error))")
        }
    }

    /// An endless string fed in 64 KiB chunks fails once it passes the cap, holding O(cap) bytes,
    /// long before the input ends (here 1 GiB, read lazily: the test stops reading at the error).
    @Test func endlessString_failsAtTheCap_inBoundedMemory() throws {
        let cap = 1 << 20
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 64 * 1024)
        var chunksRead = 0
        var held = 0
        do {
            _ = try JSONValueCodec.shared.run(options: Self.options(cap: cap), chunked: true) { tokenizer in
                defer { held = tokenizer.mostHeld }
                try Array("[\"".utf8).withUnsafeBytes { try tokenizer.feed($0) }
                while chunksRead < 16 * 1024 {   // 1 GiB
                    chunksRead += 1
                    try chunk.withUnsafeBytes { try tokenizer.feed($0) }
                }
                try tokenizer.finish()
            }
            Issue.record("a 1 GiB string decoded under a 1 MiB cap")
        } catch let error as JSONError {
            #expect(error.code == .sizeLimitExceeded)
            #expect(error.offset == 1)
            #expect(error.path == "$[0]")
        }
        #expect(chunksRead * chunk.count < 3 * cap, "read \(chunksRead) chunks")
        #expect(held < 3 * cap, "held \(held) bytes")
    }

    /// Whitespace inside a record, 16 MiB of it in 64 KiB chunks (as a hostile or broken stream
    /// may send), after a value or after punctuation: the chunks that make no event are not held,
    /// and the record then decodes.
    @Test func endlessWhitespaceInsideAValue_isNotHeld() throws {
        let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 64 * 1024)
        for (head, tail) in [("[{\"id\": 2", "}]"), ("[\"a\"", ", \"b\"]"), ("{\"a\": true", "}"),
                             ("[\"a\",", "\"b\"]"), ("{\"a\":", "true}"), ("[", "1]"), ("{", "\"k\": 1}")] {
            var held = 0
            let value = try JSONValueCodec.shared.run(options: DecodingOptions(), chunked: true) { tokenizer in
                defer { held = tokenizer.mostHeld }
                try Array(head.utf8).withUnsafeBytes { try tokenizer.feed($0) }
                for _ in 0..<256 { try chunk.withUnsafeBytes { try tokenizer.feed($0) } }
                try Array(tail.utf8).withUnsafeBytes { try tokenizer.feed($0) }
                try tokenizer.finish()
            }
            #expect(value == (try JSONAdapter.value(from: Data((head + tail).utf8), .json)), "\(head)")
            #expect(held <= 3 * chunk.count + head.utf8.count, "\(head): held \(held) bytes")
        }
    }

    /// Errors after a run of whitespace that follows punctuation (which the Tokenizer keeps without
    /// the whitespace) are the whole buffer's, however the input is split: the pending token's kind
    /// (key or value), paths and offsets.
    @Test func errorsAfterWhitespaceAfterPunctuation_areTheWholeBuffers() {
        let space = String(repeating: " ", count: 700)
        let long = String(repeating: "x", count: 40)
        let inputs = [
            "{\"a\":\(space)\"\(long)\"}", "{\(space)\"\(long)\": 1}", "{\"a\": 1,\(space)\"\(long)\": 1}",
            "{\"a\":\(space)\(String(repeating: "7", count: 40))}", "[1,\(space)x]", "{\"a\": 1,\(space)\"b\" 2}",
            "[\(space)\"x\"\(space)\"y\"]", "[\(space)\"\(long)\"]",
        ]
        for input in inputs {
            let error = failureAnywhere(Array(input.utf8), .json, options: Self.options(cap: 16))
            #expect(error != nil, "\(input.prefix(12))")
        }
    }

    @Test func stringOverTheDefaultCap_fails_underARaisedCap_decodes() throws {
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 64 * 1024)
        let input = [Array("[\"".utf8)] + Array(repeating: chunk, count: 256) + [[UInt8(ascii: "a")], Array("\"]".utf8)]
        do {
            _ = try JSONAdapter.value(from: .chunks(input), .json)
            Issue.record("a string of 16 MiB + 1 decoded under the default cap")
        } catch let error as JSONError {
            #expect(error.code == .sizeLimitExceeded)
            #expect(error.offset == 1)
        }
        let decoded = try JSONAdapter.value(from: .chunks(input), .json, options: Self.options(cap: 32 << 20))
        guard case .array(let items) = decoded, case .string(let s) = items.first else {
            Issue.record("not an array of one string")
            return
        }
        #expect(s.utf8.count == 16 << 20 + 1)
    }

    @JSONModel struct Capped {
        @JSONModel struct Inner {
            var name = ""
        }
        var text = ""
        var count = 0
        var tags: [String: Int] = [:]
        var items: [String] = []
        var inner: Inner?
        @Key("user.login") var login = ""
    }

    /// A string, key or number over the cap names the property it is read for (for a key, the
    /// one its object is read for) whether the builder finds it in one whole buffer or the
    /// Tokenizer finds it growing across chunks: the same error every way, message and property
    /// included. (A key in a skipped subtree is named a string both ways: see
    /// `EventBuilder.tokenTooLong`.)
    @Test func overlongToken_namesTheSameProperty_everywhere() {
        let options = Self.options(cap: 8)
        let long = String(repeating: "x", count: 12)
        let digits = String(repeating: "7", count: 12)
        let cases: [(json: String, path: String, property: String?, named: String)] = [
            ("{\"text\": \"\(long)\"}", "$.text", "Capped.text", "string"),
            ("{\"count\": \(digits)}", "$.count", "Capped.count", "number"),
            ("{\"items\": [\"a\", \"\(long)\"]}", "$.items[1]", "Capped.items", "string"),
            ("{\"tags\": {\"a\": \(digits)}}", "$.tags.a", "Capped.tags", "number"),
            ("{\"tags\": {\"a\": 1, \"\(long)\": 2}}", "$.tags", "Capped.tags", "key"),
            ("{\"inner\": {\"name\": \"\(long)\"}}", "$.inner.name", "Inner.name", "string"),
            ("{\"inner\": {\"name\": \"a\", \"\(long)\": 1}}", "$.inner", "Capped.inner", "key"),
            ("{\"user\": {\"login\": \"\(long)\"}}", "$.user.login", "Capped.login", "string"),
            ("{\"user\": {\"\(long)\": 1}}", "$.user", nil, "key"),
            ("{\"text\": \"a\", \"\(long)\": 1}", "$", nil, "key"),
            ("{\"\(long)\": 1}", "$", nil, "key"),
            ("{\"skip\": [1, \"\(long)\"]}", "$.skip", nil, "string"),
            ("{\"skip\": {\"\(long)\": 1}}", "$.skip", nil, "key"),
            ("{\"skip\": {\"a\": 1, \"\(long)\": 2}}", "$.skip", nil, "key"),
        ]
        for (json, path, property, named) in cases {
            let error = failureAnywhere(Array(json.utf8), Capped.jsonTransformer, options: options)
            #expect(error?.code == .sizeLimitExceeded, "\(json): \(String(describing: error))")
            #expect(error?.path == path, "\(json): \(String(describing: error))")
            #expect(error?.property == property, "\(json): \(String(describing: error))")
            #expect(error?.message == "a \(named) longer than the limit of 8 bytes", "\(json): \(String(describing: error))")
        }
    }

    @Test func longWhitespaceBetweenTokens_isNotATokenOverTheCap() throws {
        let json = "[1," + String(repeating: " ", count: 5000) + "2]"
        #expect(try valueAnywhere(Array(json.utf8), .json, options: Self.options(cap: 100)) == .array([.number(1), .number(2)]))
        #expect(try JSONAdapter.value(from: .chunks(chunks(Array(json.utf8), 64)), .json, options: Self.options(cap: 100))
                == .array([.number(1), .number(2)]))
    }
}

@Suite struct DepthLimitTests {
    @Test func depth512_decodes_513_failsAtThe513thBracket_everywhere() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        _ = try valueAnywhere(Array(ok.utf8), .json)
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        var options = DecodingOptions()
        options.maxDepth = 512
        let error = failureAnywhere(Array(deep.utf8), .json, options: options)
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.offset == 512)
        let objects = String(repeating: "{\"a\":", count: 513) + "1" + String(repeating: "}", count: 513)
        let objectError = failureAnywhere(Array(objects.utf8), .json)
        #expect(objectError?.code == .depthLimitExceeded)
        #expect(objectError?.offset == 512 * 5, "the 513th {")
    }

    @Test func millionDeep_failsAtThe513thBracket_holdingLittle() throws {
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        do {
            _ = try JSONAdapter.value(from: Data(bytes), .json)
            Issue.record("decoded")
        } catch let error as JSONError {
            #expect(error.code == .depthLimitExceeded)
            #expect(error.offset == 512)
        }
        var held = 0
        do {
            _ = try JSONValueCodec.shared.run(options: DecodingOptions(), chunked: true) { tokenizer in
                defer { held = tokenizer.mostHeld }
                for piece in chunks(bytes, 65536) { try piece.withUnsafeBytes { try tokenizer.feed($0) } }
                try tokenizer.finish()
            }
        } catch let error as JSONError {
            #expect(error.code == .depthLimitExceeded)
            #expect(error.offset == 512)
        }
        #expect(held <= 1)
    }
}

@Suite struct ChunkBoundaryTests {
    @JSONModel struct Record: Equatable {
        var text = ""
        var escaped = ""
        var emoji = ""
        var flag = false
        var none: Int?
        var number = 0.0
        var big: Int64 = 0
        var list: [String] = []
    }

    /// Splits inside 2-, 3- and 4-byte UTF-8, inside \uXXXX and surrogate pairs, inside true,
    /// false, null and numbers, inside keys: the same model every way.
    @Test func everySplit_givesTheSameModel() throws {
        let json = #"{"text": "é€😀x", "escaped": "\u00e9\u20AC\"\\\/\n", "emoji": "\ud83d\ude00\uD834\uDD1E", "# +
            #""flag": true, "none": null, "number": -12.5e-3, "big": -9223372036854775808, "skip": [false, {"k": "ü"}], "# +
            #""list": ["\u0041", "", "ß"]}"#
        let record = try valueAnywhere(Array(json.utf8), Record.jsonTransformer)
        #expect(record == Record(text: "é€😀x", escaped: "é€\"\\/\n", emoji: "😀𝄞", flag: true, none: nil, number: -0.0125,
                                 big: .min, list: ["A", "", "ß"]))
    }

    /// Syntax errors inside tokens that span chunks: the offset of one whole buffer every way,
    /// and that offset is the first byte of the offending token (a parse error, a misspelled
    /// literal), or of the byte that breaks a token (a bad escape, a number without its digit).
    @Test func everySplit_givesTheSameError() {
        let cases: [(String, Int)] = [
            (#"{"":3"sp"}"#, 5), (#"[1, tru]"#, 4), (#"[1, "abc" "def"]"#, 10), (#"{"key" "value"}"#, 7), (#"[1.5e]"#, 5),
            (#"["abc\q"]"#, 6), (#"[-]"#, 2), (#"{"a": 1 "b": 2}"#, 8), (#"[truefalse]"#, 5), (#"[nul, 1]"#, 1),
            (#"["\u12G4"]"#, 6), (#"{"long key here" 1}"#, 17), (#"["x"] "y""#, 6), (#"{"a":1,}"#, 7), (#"[1,]"#, 3),
            (#"[0123]"#, 2), (#"{"a" : [1, 2, {"b": tru}]}"#, 20),
        ]
        for (json, offset) in cases {
            let error = failureAnywhere(Array(json.utf8), .json)
            #expect(error?.code == .syntax, "\(json): \(String(describing: error))")
            #expect(error?.offset == offset, "\(json): \(String(describing: error))")
        }
        // Trailing garbage that is a number is lexed only at the end (yajl waits for the byte
        // after it); it is still garbage, not the input ending too soon. So is a number the end
        // completes where a comma was due.
        let trailing = failureAnywhere(Array(#"[1, 2, 3] 4"#.utf8), .json)
        #expect(trailing?.offset == 10)
        #expect(trailing?.code == .syntax, "\(String(describing: trailing))")
        let missingComma = failureAnywhere(Array(#"[1, 2 3"#.utf8), .json)
        #expect(missingComma?.code == .syntax, "\(String(describing: missingComma))")
        #expect(failureAnywhere(Array(#"[1, 2."#.utf8), .json)?.code == .unexpectedEnd)
    }

    @Test func everySplit_givesTheSameModelError() {
        // Errors raised by the model layer, at every split.
        // At the start of the offending value.
        let cases: [(String, JSONError.Code, Int, String)] = [
            (#"{"text": 12}"#, .typeMismatch, 9, "$.text"), (#"{"big": 9223372036854775808}"#, .numberOutOfRange, 8, "$.big"),
            (#"{"list": ["a", 1]}"#, .typeMismatch, 15, "$.list[1]"), (#"{"flag": "yes"}"#, .typeMismatch, 9, "$.flag"),
        ]
        for (json, code, offset, path) in cases {
            let error = failureAnywhere(Array(json.utf8), Record.jsonTransformer)
            #expect(error?.code == code, "\(json): \(String(describing: error))")
            #expect(error?.offset == offset, "\(json): \(String(describing: error))")
            #expect(error?.path == path, "\(json): \(String(describing: error))")
        }
    }
}

@Suite struct HostileRecordTests {
    @JSONModel struct Item: Equatable {
        var name = ""
    }

    /// In a stream that skips bad records, a record with invalid text is skipped with its offset,
    /// and the records around it decode, however the input is chunked.
    @Test(arguments: chunkSizes)
    func badTextInOneRecord_skipsThatRecord(chunkSize: Int) throws {
        for layout in [RecordDecoder<Item>.Layout.array, .ndjson] {
            let bad: [UInt8] = utf8(#"{"name": "b"#) + [0xC0, 0xAF] + utf8(#""}"#)
            let surrogate = utf8(#"{"name": "\uD800"}"#)
            let good = { (n: String) in utf8("{\"name\": \"\(n)\"}") }
            let input: [UInt8] = layout == .array
                ? utf8("[") + good("a") + utf8(",") + bad + utf8(",") + surrogate + utf8(",") + good("c") + utf8("]")
                : good("a") + utf8("\n") + bad + utf8("\n") + surrogate + utf8("\n") + good("c") + utf8("\n")
            var names: [String] = []
            let decoder = RecordDecoder(Item.self, layout: layout, errorPolicy: .skip) { names.append($0.name) }
            for piece in chunks(input, chunkSize) { try decoder.feed(piece) }
            try decoder.finish()
            #expect(names == ["a", "c"], "\(layout), chunk size \(chunkSize)")
            let errors = decoder.skipped
            #expect(errors.map(\.code) == [.invalidUnicode, .invalidUnicode], "\(layout), chunk size \(chunkSize)")
            // The bad record's first invalid byte, and the backslash of the surrogate escape (the
            // only backslash in the input).
            let badStart = input.firstIndex(of: 0xC0)!
            let escapeStart = input.firstIndex(of: UInt8(ascii: "\\"))!
            #expect(errors.first?.offset == badStart, "\(layout), chunk size \(chunkSize): \(errors)")
            #expect(errors.last?.offset == escapeStart, "\(layout), chunk size \(chunkSize): \(errors)")
        }
    }
}
