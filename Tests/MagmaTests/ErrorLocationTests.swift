import Foundation
import Testing
@testable import Magma

@Suite struct ErrorLocationTests {
    @Test func syntaxError_hasOffsetLineColumnAndYajlsMessage() throws {
        let json = "{\n  \"number\": 1,\n  \"title\": tru\n}"
        let error = failureEverywhere(GHIssue.self, json)
        #expect(error?.code == .syntax)
        #expect(error?.line == 3)
        #expect(error?.offset != nil)
        #expect(error?.column != nil)
        #expect(error?.message.isEmpty == false)
        #expect(error?.description.contains("line 3") == true)
    }

    @Test func truncatedInput_reportsTheTotalLength() throws {
        let json = #"{"number": 1, "title": "abc"#
        let error = failureEverywhere(GHIssue.self, json)
        #expect(error?.code == .unexpectedEnd)
        #expect(error?.offset == json.utf8.count)
    }

    @Test func emptyInput_isUnexpectedEnd() throws {
        #expect(throws: JSONError.self) { try JSONAdapter.model(GHIssue.self, from: "") }
        #expect(throws: JSONError.self) { try JSONAdapter.model(GHIssue.self, from: "   ") }
    }

    @Test func trailingGarbage_isASyntaxError() throws {
        #expect(failureEverywhere(GHIssue.self, #"{"number": 1} x"#)?.code == .syntax)
    }

    /// Each kind of syntax error points at the first byte of the offending token or character,
    /// with its line and column, whole and split every way (yajl points one past a stray byte and
    /// past a rejected token).
    @Test(arguments: [
        ("\u{FEFF}[1]", 0, 1, 1, "byte order mark"), (" \n\u{FEFF}[1]", 2, 2, 1, "byte order mark"), ("[\u{FEFF}]", 1, 1, 2, "invalid char"), ("[1]\u{0}", 3, 1, 4, "trailing garbage"), ("xyz!!", 0, 1, 1, "invalid char"),
        ("[1,\n  @]", 6, 2, 3, "invalid char"), ("[\n tru]", 3, 2, 2, "invalid string"), ("[1.x]", 3, 1, 4, "decimal point"),
        ("[1e+]", 4, 1, 5, "exponent"), ("[-x]", 2, 1, 3, "minus sign"), ("[\"a\\qb\"]", 4, 1, 5, "'\\'"),
        ("[\"a\\u12G4\"]", 7, 1, 8, "non-hex"), ("[\"ab\u{01}c\"]", 4, 1, 5, "inside string"),
        ("[1]\n x", 5, 2, 2, "trailing garbage"), ("[1] \"abc\"", 4, 1, 5, "trailing garbage"),
        ("[1 2]", 3, 1, 4, "array element"), ("{\"a\" 1}", 5, 1, 6, "colon"), ("{\"a\":1 \"bc\":2}", 7, 1, 8, "key and value"),
        ("[1,]", 3, 1, 4, "unallowed token"), ("{1:2}", 1, 1, 2, "object key"), ("[1}", 2, 1, 3, "array element"),
        ("[/* c */ 1]", 1, 1, 2, "comment"), ("[1,\u{0C}2]", 3, 1, 4, "form feed"),
        // A `/` after the value, comments not allowed: yajl unreads it (Fuzz/regressions/trailing-garbage-slash-*).
        ("\"\"/\":\"\"", 2, 1, 3, "trailing garbage"), ("[1] /", 4, 1, 5, "trailing garbage"),
        // Other garbage yajl reads whole, a `/` after it: the garbage's start (Fuzz/regressions/trailing-garbage-then-slash-*).
        ("7 i/\"kids\"1", 2, 1, 3, "trailing garbage"), ("false}/", 5, 1, 6, "trailing garbage"), ("{}}/", 2, 1, 3, "trailing garbage"),
        ("[[]]]/", 4, 1, 5, "trailing garbage"), ("{\"a\":[1]}]/", 9, 1, 10, "trailing garbage"), ("[[]] /", 5, 1, 6, "trailing garbage"),
        ("{\"a\":\"b\"}/", 9, 1, 10, "trailing garbage"),
    ])
    func syntaxError_pointsAtTheOffendingByte(json: String, offset: Int, line: Int, column: Int, message: String) {
        let error = failureAnywhere(Array(json.utf8), .json)
        #expect(error?.code == .syntax, "\(json.debugDescription): \(String(describing: error))")
        #expect(error?.offset == offset, "\(json.debugDescription): \(String(describing: error))")
        #expect(error?.line == line, "\(json.debugDescription): \(String(describing: error))")
        #expect(error?.column == column, "\(json.debugDescription): \(String(describing: error))")
        #expect(error?.message.contains(message) == true, "\(json.debugDescription): \(String(describing: error))")
    }

    /// An NDJSON line's error is placed in the whole input: its line, its column and its offset.
    /// With comments allowed, yajl passes over a vertical tab, a form feed or a comment that the
    /// grammar then finds wrong, reading on to later newlines: fed in pieces of any size, the error
    /// has the whole buffer's offset, line and column (the newlines past it were once counted).
    @Test(arguments: [
        "\n\n\n\n\n\n\u{0B}\n\n\n\u{00}\n]",
        "[1,\n\u{0C}\n\n\n2,\u{00}]",
        "/* comment \n\n */\n[1]\n\n x",
        "{\"a\":\n1, \u{0B}\n\n\n\"b\" 2}",
    ])
    func errorsBehindWhatYajlPassedOver_placeLikeTheWholeBuffer(_ json: String) throws {
        var options = DecodingOptions()
        options.allowComments = true
        let bytes = Array(json.utf8)
        let whole = try #require(#expect(throws: JSONError.self) { try JSONAdapter.value(from: Data(bytes), .json, options: options) })
        #expect(whole.line ?? 0 > 1, "\(json.debugDescription): an error after a newline")
        for size in [1, 2, 3, 4, 5, 7, 64] {
            let chunked = #expect(throws: JSONError.self) {
                try JSONAdapter.value(from: .chunks(chunks(bytes, size)), .json, options: options)
            }
            #expect(chunked?.offset == whole.offset && chunked?.line == whole.line && chunked?.column == whole.column,
                    "\(json.debugDescription) in chunks of \(size): \(String(describing: chunked)) / whole \(whole)")
        }
    }

    @Test func ndjsonLineError_pointsAtTheOffendingByte() {
        let skipped = streamOutcomeEverywhere("{\"id\":1}\n\n  xyz!!\n{\"id\":1}{\"id\":2}\n", .ndjson, policy: .skip, options: .init())
        #expect(skipped.skipped.map(\.line) == [3, 4], "\(skipped)")
        #expect(skipped.skipped.map(\.column) == [3, 9], "\(skipped)")
        #expect(skipped.skipped.map(\.offset) == [12, 26], "\(skipped)")
    }

    /// A path deeper than twelve levels shows its first and last six components with the depth
    /// between, and a key over 64 bytes is cut: an error's text stays short, however deep or wide
    /// the input.
    @Test func longPaths_areAbbreviated() {
        let deep = Array((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8)
        let error = failureAnywhere(deep, .json)
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.path == "$" + String(repeating: "[0]", count: 6) + "…(depth 511)…" + String(repeating: "[0]", count: 6))
        #expect((error?.description.utf8.count ?? .max) < 200, "\(String(describing: error))")
        let thirteen = Array((String(repeating: "[", count: 13) + "{\"a\":tru").utf8)
        #expect(failureAnywhere(thirteen, .json)?.path == "$" + String(repeating: "[0]", count: 6) + "…(depth 14)…"
            + String(repeating: "[0]", count: 5) + ".a")
        let twelve = Array((String(repeating: "[", count: 11) + "{\"a\":tru").utf8)
        #expect(failureAnywhere(twelve, .json)?.path == "$" + String(repeating: "[0]", count: 11) + ".a")
        let key = String(repeating: "k", count: 1000)
        let wide = failureAnywhere(Array("{\"\(key)\": 1}".utf8), .dictionary(.string))
        #expect(wide?.path == "$[\"" + String(repeating: "k", count: 64) + "…\"]")
        #expect((wide?.description.utf8.count ?? .max) < 300, "\(String(describing: wide))")
    }

    @Test func typeMismatchDeepInAnArray_hasTheFullPath() throws {
        let json = "[\n{\"number\": 1},\n{\"number\": 2, \"labels\": [{\"name\": \"a\"}, {\"name\": false}]}\n]"
        do {
            _ = try JSONAdapter.models(GHIssue.self, from: json)
            Issue.record("expected an error")
        } catch let error as JSONError {
            #expect(error.path == "$[1].labels[1].name")
            #expect(error.property == "GHLabel.name")
            #expect(error.line == 3)
            #expect(error.column == 50)
        }
    }

    @Test func transformerFailure_keepsTheUnderlyingError() throws {
        let error = failureEverywhere(GHIssue.self, #"{"number": 1, "updated_at": "yesterday"}"#)
        #expect(error?.code == .invalidValue)
        #expect(error?.property == "GHIssue.updatedAt")
        #expect(error?.path == "$.updated_at")
        #expect(error?.message.contains("yesterday") == true)
    }

    /// An error inside a value no property maps names the value's key, remembered as bytes (a
    /// masked load for a short key in the buffer, a byte loop for one yajl copied): every key
    /// length up to the abridged form, whole and in every chunking.
    @Test func errorInsideAnUnmappedValue_pathNamesItsKey() throws {
        for length in [1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 30] {
            let key = String((0..<length).map { Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
            let expected = length <= 16 ? key : String(key.prefix(8)) + "…" + String(key.suffix(8))
            for value in [#""bad \uDC00 escape""#, #"{"inner": [1, "\uD800"]}"#] {
                let error = failureEverywhere(GHIssue.self, #"{"number": 1, ""# + key + #"": "# + value + "}")
                #expect(error?.code == .invalidUnicode)
                // Abridged, the key is no identifier: `$["abcdefgh…jklmnopq"]`.
                #expect(error?.path.hasPrefix("$" + JSONPath.component(expected)) == true, "\(key): \(error?.path ?? "-")")
            }
        }
    }

    /// A key rejected before it reaches the builder (not UTF-8, a bad escape, over the size cap)
    /// is blamed on its object, not on the key before it: whole and in every chunking (the cap
    /// is then checked by the Tokenizer as the key grows).
    @Test func badKeyAfterAnother_pathIsTheObjects() {
        typealias Note = StrictUTF8Tests.Note
        var capped = DecodingOptions()
        capped.maxTokenLength = 8
        let long = Array("oooooooooooo".utf8)
        // (bytes, options, path, property)
        let cases: [([UInt8], DecodingOptions, String, String?)] = [
            (Array(#"{"text":"x","o"#.utf8) + [0xFF] + Array(#"":1}"#.utf8), .init(), "$", nil),
            (Array(#"{"text":"x","o\n"#.utf8) + [0xFF] + Array(#"":1}"#.utf8), .init(), "$", nil),
            (Array(#"{"text":"x","\uD800":1}"#.utf8), .init(), "$", nil),
            (Array(#"{"text":"x",""#.utf8) + long + Array(#"":1}"#.utf8), capped, "$", nil),
            (Array(#"{"text":"x", "tags":{"a":1,"b"#.utf8) + [0xFF] + Array(#"":2}}"#.utf8), .init(), "$.tags", "Note.tags"),
            (Array(#"{"text":"x", "tags":{"a":1,""#.utf8) + long + Array(#"":2}}"#.utf8), capped, "$.tags", "Note.tags"),
        ]
        for (json, options, path, property) in cases {
            let text = String(decoding: json, as: UTF8.self)
            let error = failureEverywhere(Note.self, json, options: options)
            #expect(error?.path == path, "\(text): \(String(describing: error))")
            #expect(error?.property == property, "\(text): \(String(describing: error))")
        }
    }

    /// The same for a top-level dictionary: its object is `$`, not the key before (`$.a`).
    @Test func badKeyOfATopLevelDictionary_pathIsDollar() {
        var capped = DecodingOptions()
        capped.maxTokenLength = 8
        let cases: [([UInt8], DecodingOptions)] = [
            (Array(#"{"a":1,"o"#.utf8) + [0xFF] + Array(#"":2}"#.utf8), .init()),
            (Array(#"{"a":1,"\uD800":2}"#.utf8), .init()),
            (Array(#"{"a":1,"oooooooooooo":2}"#.utf8), capped),
        ]
        for (json, options) in cases {
            let error = failureAnywhere(json, .dictionary(.json), options: options)
            #expect(error?.path == "$", "\(String(decoding: json, as: UTF8.self)): \(String(describing: error))")
        }
    }

    /// A negative size cap is read as 0 by the Tokenizer and the text checks alike: an empty
    /// string passes, one byte fails at the token's start, whole and in every chunking.
    @Test func negativeSizeCap_actsAsZero_everywhere() throws {
        var options = DecodingOptions()
        options.maxTokenLength = -1
        #expect(try valueAnywhere(Array(#"[""]"#.utf8), .json, options: options) == .array([.string("")]))
        let error = failureAnywhere(Array(#"["", "a"]"#.utf8), .json, options: options)
        #expect(error?.code == .sizeLimitExceeded)
        #expect(error?.offset == 5)
        #expect(error?.message.contains("limit of 0 bytes") == true, "\(String(describing: error))")
    }

    @Test func invalidUTF8_isRejected() throws {
        let bytes: [UInt8] = Array(#"{"number": 1, "title": ""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)
        #expect(throws: JSONError.self) { try JSONAdapter.model(GHIssue.self, from: bytes) }
    }

    @Test func fileInput_missingFile_isIOError() throws {
        do {
            _ = try JSONAdapter.model(GHIssue.self, from: URL(fileURLWithPath: "/nonexistent/magma.json"))
            Issue.record("expected an error")
        } catch let error as JSONError {
            #expect(error.code == .io)
        }
    }

    /// twitterescaped.json's shape (an array of statuses, their texts in `\u` escapes), status
    /// `broken`'s text with one byte broken (`\u` made `\q`).
    static func searchResults(statuses: Int, broken: Int) -> [UInt8] {
        let items = (0..<statuses).map { k in
            let escape = k == broken ? "\\q" : "\\u"
            return #"{"metadata":{"result_type":"recent"},"id":\#(505_874_924_095_815_700 + k),"text":"@aym0566x \#(escape)540d\u524d #\#(k)","user":{"id":\#(1_186_275_104 + k),"entities":{"description":{"urls":[]}}},"entities":{"hashtags":[],"user_mentions":[{"screen_name":"aym0566x","indices":[0,9]}]}}"#
        }
        return Array(#"{"statuses":[\#(items.joined(separator: ",\n"))],"search_metadata":{"count":\#(statuses)}}"#.utf8)
    }

    /// A syntax error in a string of an object in an array: the path names every open object's
    /// own key (it named the innermost key at every level: `$.text[49].text`), for MagmaDecoder
    /// (JSONDecoder's error, the path in its underlying error) and for a model.
    @Test func syntaxErrorInANestedString_pathNamesEveryLevel() throws {
        struct Search: Decodable, Equatable { struct Status: Decodable, Equatable { let id: Int; let text: String }; let statuses: [Status] }
        let bytes = Self.searchResults(statuses: 60, broken: 49)
        let broken = bytes.indices.first { bytes[$0...].starts(with: "\\q540d".utf8) }! + 1  // the `q`
        let foundation = CoderOutcome { try JSONDecoder().decode(Search.self, from: Data(bytes)) }
        do {
            _ = try MagmaDecoder().decode(Search.self, from: bytes)
            Issue.record("decoded")
        } catch {
            #expect(CoderError(error) == foundation.error)
            guard case DecodingError.dataCorrupted(let context) = error else { throw error }
            let underlying = try #require(context.underlyingError as? JSONError)
            #expect(underlying.path == "$.statuses[49].text")
            #expect(underlying.offset == broken)
        }
        #expect(failureEverywhere(GHStatusSearch.self, bytes)?.path == "$.statuses[49].text")
        #expect(try MagmaDecoder().decode(Search.self, from: Self.searchResults(statuses: 60, broken: -1)).statuses.count == 60)
    }

    @JSONModel struct GHStatusSearch: Equatable {
        @JSONModel struct Status: Equatable { let id: Int; let text: String }
        let statuses: [Status]
    }

    @Test func fileInput_decodes() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("magma-\(UUID()).json")
        try Fixtures.data("github_issue.json").write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try JSONAdapter.model(GHIssue.self, from: url).number == 1347)
    }
}

/// Inputs the fuzzer found (Fuzz/regressions): each must give an error, never a crash or a leak.
@Suite struct FuzzRegressionTests {
    @JSONModel struct Stamped: Equatable {
        var at: Date?
        @Transform(.date(format: "yyyy-MM-dd")) var day: Date?
    }

    @Test func isoDate_withVeryLongFraction_isInvalidNotACrash() throws {
        for digits in [10, 19, 20, 40, 400] {
            let json = "{\"at\": \"2024-01-31T12:34:56.\(String(repeating: "7", count: digits))Z\"}"
            #expect(failureEverywhere(Stamped.self, json)?.code == .invalidValue, "\(digits) digits")
        }
        #expect(try decodeEverywhere(Stamped.self, #"{"at": "2024-01-31T12:34:56.123456789Z"}"#).at != nil)
    }

    @Test func patternDate_withCharactersOutsideTheBMP_isInvalid() throws {
        #expect(failureEverywhere(Stamped.self, "{\"day\": \"2024-01-3\u{1F600}\"}")?.code == .invalidValue)
        #expect(try decodeEverywhere(Stamped.self, #"{"day": "2024-01-31"}"#).day != nil)
    }
}
