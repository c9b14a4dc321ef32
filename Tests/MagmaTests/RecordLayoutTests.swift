import Foundation
import Testing
@testable import Magma

/// Concatenated values and arrays at a key path in an envelope, over every chunk size and input kind.
@Suite struct RecordLayoutTests {
    @JSONModel struct Event: Equatable {
        @Required var id = 0
        var name = ""
    }

    @JSONModel struct Page: Equatable {
        @Required var total = 0
        var next: String?
        @Key("data.cursor") var cursor = ""
    }

    /// `Page`'s twin declared with `Map`: envelopes of both kinds.
    struct MappedPage: JSONModel, Equatable {
        var total = 0
        var cursor = ""
        static let jsonMapping = JSONMapping<MappedPage> {
            Map(\.total, "total", required: true)
            Map(\.cursor, "data.cursor")
        }
    }

    struct Outcome {
        var records: [Event] = []
        var skipped: [JSONError] = []
        var error: JSONError?
        var page: Page?
    }

    /// Feeds `input` in chunks of `size` (0: whole); collects records, skips, the error and the envelope.
    private func stream(_ input: String, _ layout: RecordDecoder<Event>.Layout, size: Int,
                        policy: RecordDecoder<Event>.ErrorPolicy = .skip, envelope: Bool = false,
                        options: DecodingOptions = .init()) -> Outcome {
        var outcome = Outcome()
        var records: [Event] = []
        let page = Envelope(Page.self)
        var layout = layout
        if envelope, case .nested(let keyPath) = layout.kind { layout = .array(at: keyPath, envelope: page) }
        let decoder = RecordDecoder(Event.self, layout: layout, options: options, errorPolicy: policy) { records.append($0) }
        do {
            for chunk in chunks(Array(input.utf8), size) { try decoder.feed(chunk) }
            try decoder.finish()
        } catch let error as JSONError {
            outcome.error = error
        } catch {
            Issue.record("not a JSONError: \(error)")
        }
        #expect(decoder.progress.records == records.count)
        #expect(decoder.progress.skipped == decoder.skipped.count)
        outcome.records = records
        outcome.skipped = Array(decoder.skipped)
        // The layout's envelope has it once the stream has finished; a stream that failed leaves none.
        outcome.page = page.model
        if outcome.error != nil { #expect(outcome.page == nil) }
        return outcome
    }

    // MARK: Lines before the records

    /// Newlines before the records' array (or inside its envelope, before the array) count in the
    /// place of an error in a record, whether they arrive in the piece that opens the array (a
    /// whole buffer held them before the array was found) or before it.
    @Test(arguments: chunkSizes)
    func linesBeforeTheArray_countInARecordsErrorPlace(size: Int) throws {
        let cases: [(String, RecordDecoder<Event>.Layout, Bool)] = [
            ("\n[:1]", .array, false),
            ("\n\n [{\"id\": 1},\n {\"id\": []}]", .array, false),
            ("\n{\"total\": 1,\n \"items\": [{\"id\": 1}, {\"id\": \"x\"}]}", .array(at: "items"), true),
        ]
        for (input, layout, envelope) in cases {
            let outcome = stream(input, layout, size: size, policy: .stop, envelope: envelope)
            let error = try #require(outcome.error, "\(input)")
            let before = Array(input.utf8.prefix(try #require(error.offset)))
            let lineStart = (before.lastIndex(of: 0x0A) ?? -1) + 1
            #expect(error.line == before.count(where: { $0 == 0x0A }) + 1, "\(input): \(error)")
            #expect(error.column == before.count - lineStart + 1, "\(input): \(error)")
        }
    }

    // MARK: Concatenated values

    @Test(arguments: chunkSizes)
    func concatenated_anyWhitespaceOrNone(size: Int) {
        let input = "{\"id\": 1}{\"id\": 2, \"name\": \"b\"} {\"id\": 3}\n\n\t{\"id\": 4}\r\n  {\"id\":5}"
        let outcome = stream(input, .concatenated, size: size)
        #expect(outcome.error == nil)
        #expect(outcome.records == [Event(id: 1), Event(id: 2, name: "b"), Event(id: 3), Event(id: 4), Event(id: 5)])
    }

    @Test(arguments: ["", "   ", "\n\r\n\t "])
    func concatenated_emptyInput_hasNoRecords(input: String) {
        let outcome = stream(input, .concatenated, size: 1)
        #expect(outcome.error == nil)
        #expect(outcome.records.isEmpty)
    }

    /// With comments allowed, an input of only comments and whitespace (form feed and vertical
    /// tab are whitespace there, as yajl has them) is no record either; a comment left open, or a
    /// form feed without comments allowed, is still an error.
    @Test(arguments: chunkSizes)
    func concatenated_onlyCommentsAndWhitespace_hasNoRecords(size: Int) {
        var lenient = DecodingOptions()
        lenient.allowComments = true
        for input in ["/* nothing */\n", "// none\n", "\u{0C}", " \u{0B}/* a */ // b\n\t\u{0C}"] {
            let outcome = stream(input, .concatenated, size: size, options: lenient)
            #expect(outcome.error == nil, "\(Array(input.utf8)): \(String(describing: outcome.error))")
            #expect(outcome.records.isEmpty)
        }
        let around = stream("/* a */ {\"id\": 1} // b\n", .concatenated, size: size, options: lenient)
        #expect(around.error == nil)
        #expect(around.records.map(\.id) == [1])
        let open = stream(" /* open", .concatenated, size: size, options: lenient)
        #expect(open.error?.code == .unexpectedEnd)
        // A first value whose only event comes from the bytes held back until the end.
        let number = stream(" /* a */ 7 ", .concatenated, size: size, options: lenient)
        #expect(number.error == nil)
        #expect(number.skipped.map(\.recordIndex) == [0])
        for input in ["\u{0C}", "  \u{0B} "] {
            let strict = stream(input, .concatenated, size: size)
            #expect(strict.error?.code == .syntax)
            #expect(strict.error?.offset == input.utf8.firstIndex { $0 == 0x0C || $0 == 0x0B }.map { input.utf8.distance(from: input.utf8.startIndex, to: $0) })
        }
    }

    /// With comments allowed, a skipped NDJSON line whose quote is never closed leaves the next
    /// lines as they are: their comments and form feeds are blanked in any chunks, as whole (the
    /// blanking went on as if inside a string, so a line over the first size check failed on its
    /// form feed in pieces and was read whole).
    @Test(arguments: chunkSizes)
    func ndjson_commentsAfterALineWithAnUnclosedQuote(size: Int) {
        var lenient = DecodingOptions()
        lenient.allowComments = true
        lenient.maxTokenLength = 16  // a held line is checked from 18 bytes on
        let input = "{\"id\": \"one}\n  \u{0C}" + String(repeating: " ", count: 40) + "{\"id\": 2} // two\n{\"id\": 3}\n"
        let outcome = stream(input, .ndjson, size: size, options: lenient)
        #expect(outcome.error == nil, "\(String(describing: outcome.error))")
        #expect(outcome.records.map(\.id) == [2, 3])
        #expect(outcome.skipped.map(\.recordIndex) == [0])
    }

    @Test(arguments: chunkSizes)
    func concatenated_badRecordsAreSkippedAndReported(size: Int) {
        let input = #"{"id": 1} {"id": "two"} 7 {"name": "no id"} {"id": {"deep": [1, {}]}, "name": "x"} {"id": 6}"#
        let outcome = stream(input, .concatenated, size: size)
        #expect(outcome.error == nil)
        #expect(outcome.records.map(\.id) == [1, 6])
        #expect(outcome.skipped.map(\.recordIndex) == [1, 2, 3, 4])
        #expect(outcome.skipped.map(\.code) == [.typeMismatch, .typeMismatch, .missingKey, .typeMismatch])
        #expect(outcome.skipped[0].offset == 17, "the offset of \"two\"")
        #expect(outcome.skipped[0].path == "$.id")
    }

    /// The reliability checks hold between and inside concatenated values too: form feed is not
    /// whitespace, and a bad surrogate escape is not turned into other text.
    @Test(arguments: chunkSizes)
    func concatenated_strictWhitespaceAndText(size: Int) {
        let formFeed = stream("{\"id\": 1}\u{0C}{\"id\": 2}", .concatenated, size: size)
        #expect(formFeed.records.map(\.id) == [1])
        #expect(formFeed.error?.code == .syntax)
        #expect(formFeed.error?.offset == 9)
        let surrogate = stream(#"{"id": 1} {"id": 2, "name": "\uD800"} {"id": 3}"#, .concatenated, size: size)
        #expect(surrogate.records.map(\.id) == [1, 3])
        #expect(surrogate.skipped.map(\.recordIndex) == [1])
        #expect(surrogate.records.allSatisfy { !$0.name.contains("?") })
    }

    @Test(arguments: chunkSizes)
    func concatenated_syntaxError_endsTheStreamAfterEarlierRecords(size: Int) {
        let input = #"{"id": 1} {"id": 2}{"id": 3 "x"} {"id": 4}"#
        let outcome = stream(input, .concatenated, size: size)
        #expect(outcome.records.map(\.id) == [1, 2])
        #expect(outcome.error?.code == .syntax)
        #expect(outcome.error?.recordIndex == 2)
        #expect((27...30).contains(outcome.error?.offset ?? -1), "inside the bad record: \(outcome.error?.offset ?? -1)")
        #expect(outcome.error?.line == 1)
    }

    @Test(arguments: chunkSizes)
    func concatenated_stopPolicy_stopsAtTheFirstBadRecordWithItsIndex(size: Int) {
        let outcome = stream("{\"id\": 1}\n{\"id\": 2}\n{\"id\": []}\n{\"id\": 4}", .concatenated, size: size, policy: .stop)
        #expect(outcome.records.map(\.id) == [1, 2])
        #expect(outcome.error?.code == .typeMismatch)
        #expect(outcome.error?.recordIndex == 2)
        #expect(outcome.error?.line == 3)
    }

    @Test func concatenated_truncatedRecord_isUnexpectedEnd() {
        let outcome = stream(#"{"id": 1} {"id": 2"#, .concatenated, size: 0)
        #expect(outcome.records.map(\.id) == [1])
        #expect(outcome.error?.code == .unexpectedEnd)
        #expect(outcome.error?.recordIndex == 1)
    }

    /// A token that fails its check inside a value being skipped (an unmapped key's, or the rest
    /// of a record already skipped) skips its record once, and the containers it stood in are
    /// still counted: the records after it decode.
    @Test func errorInsideASkippedValue_skipsItsRecordOnce() {
        var options = DecodingOptions()
        options.maxTokenLength = 16
        let long = String(repeating: "x", count: 40)
        for bad in [#"{"id": 2, "junk": [{"a": "\#(long)"}, 1]}"#, #"{"id": 2, "name": [{"a": "\#(long)"}, "\#(long)"]}"#] {
            for layout in [RecordDecoder<Event>.Layout.array, .concatenated] {
                let input = layout == .array ? "[{\"id\": 1}, \(bad), {\"id\": 3}]" : "{\"id\": 1} \(bad) {\"id\": 3}"
                let outcome = stream(input, layout, size: 0, options: options)
                #expect(outcome.error == nil, "\(input)")
                #expect(outcome.records.map(\.id) == [1, 3], "\(input)")
                #expect(outcome.skipped.map(\.recordIndex) == [1], "\(input)")
            }
        }
    }

    /// A skipped record's error is located as the same error is when it stops the stream: offset,
    /// line and column, however the input is chunked.
    @Test(arguments: chunkSizes)
    func skippedRecordError_hasTheLineAndColumnOfAStoppingOne(size: Int) {
        for layout in [RecordDecoder<Event>.Layout.array, .concatenated, .array(at: "items")] {
            let (first, second) = ("{\"id\": 1}", "{\"id\": 2,\n   \"name\": 3}")
            let input = layout == .array ? "[\(first),\n  \(second)]" : layout == .concatenated ? "\(first)\n  \(second)"
                : "{\"items\": [\(first),\n  \(second)]}"
            let skipped = stream(input, layout, size: size).skipped.first
            let stopped = stream(input, layout, size: size, policy: .stop).error
            #expect(skipped?.code == .typeMismatch, "\(input)")
            #expect(skipped?.line == 3, "\(input)")
            #expect(skipped?.offset == stopped?.offset && skipped?.line == stopped?.line && skipped?.column == stopped?.column,
                    "\(input): \(String(describing: skipped)) / \(String(describing: stopped))")
        }
    }

    // MARK: Arrays in an envelope

    @Test(arguments: chunkSizes)
    func envelope_fieldsBeforeAndAfterTheArray(size: Int) {
        let input = #"{"total": 3, "items": [{"id": 1}, {"id": 2, "name": "b"}, {"id": 3}], "next": "n", "extra": [1, {"a": 2}]}"#
        let outcome = stream(input, .array(at: "items"), size: size, envelope: true)
        #expect(outcome.error == nil)
        #expect(outcome.records == [Event(id: 1), Event(id: 2, name: "b"), Event(id: 3)])
        #expect(outcome.page == Page(total: 3, next: "n"))
    }

    @Test(arguments: chunkSizes)
    func envelope_dottedKeyPath_besideMappedSiblings(size: Int) {
        let input = #"{"data": {"cursor": "c1", "items": [{"id": 1}, {"id": 2}], "more": {"items": [9]}}, "total": 2,"#
            + #" "items": "not these"}"#
        let outcome = stream(input, .array(at: "data.items"), size: size, envelope: true)
        #expect(outcome.error == nil)
        #expect(outcome.records.map(\.id) == [1, 2])
        #expect(outcome.page == Page(total: 2, cursor: "c1"))
    }

    /// An input that ends inside the envelope after its records (in a key's or a value's string
    /// never closed, or between two tokens) is the envelope's unexpected end, in every chunking:
    /// the last part was read as if more were to come, and failed a precondition (a fuzz finding,
    /// with invalid UTF-8 in the key: Fuzz/regressions-records).
    @Test(arguments: chunkSizes)
    func envelope_endingAfterTheRecords_isUnexpectedEnd(size: Int) {
        for tail in [#","af:1}"#, ",\"af\u{E9}:1}", #", "next": "n"#, #", "next": "n""#, #", "next": "#, ", ", ""] {
            let input = #"{"total": 2, "items": [{"id": 1}, {"id": 2}]"# + tail
            let outcome = stream(input, .array(at: "items"), size: size, envelope: true)
            #expect(outcome.records.map(\.id) == [1, 2])
            #expect(outcome.error?.code == .unexpectedEnd, "\(tail): \(String(describing: outcome.error))")
            #expect(outcome.error?.offset == input.utf8.count)
        }
    }

    @Test(arguments: chunkSizes)
    func envelope_withoutEnvelopeModel_streamsTheRecords(size: Int) {
        let outcome = stream(#"{"meta": {"x": 1}, "results": [{"id": 7}, {"id": 8}]}"#, .array(at: "results"), size: size)
        #expect(outcome.error == nil)
        #expect(outcome.records.map(\.id) == [7, 8])
        #expect(outcome.page == nil)
    }

    @Test(arguments: chunkSizes)
    func envelope_badRecordsAreSkippedWithIndexAndOffset(size: Int) {
        let input = #"{"total": 4, "items": [{"id": 1}, {"id": "x"}, {"name": "no id"}, {"id": 4}]}"#
        let outcome = stream(input, .array(at: "items"), size: size, envelope: true)
        #expect(outcome.error == nil)
        #expect(outcome.records.map(\.id) == [1, 4])
        #expect(outcome.skipped.map(\.recordIndex) == [1, 2])
        #expect(outcome.skipped.map(\.code) == [.typeMismatch, .missingKey])
        #expect(outcome.skipped[0].offset == 41, "the offset of \"x\"")
        #expect(outcome.skipped[0].path == "$.items[1].id")
        #expect(outcome.page?.total == 4)
    }

    @Test(arguments: chunkSizes)
    func envelope_stopPolicy_givesTheRecordIndex(size: Int) {
        let input = #"{"total": 4, "items": [{"id": 1}, {"id": 2}, {"id": true}, {"id": 4}]}"#
        let outcome = stream(input, .array(at: "items"), size: size, policy: .stop, envelope: true)
        #expect(outcome.records.map(\.id) == [1, 2])
        #expect(outcome.error?.code == .typeMismatch)
        #expect(outcome.error?.recordIndex == 2)
        #expect(outcome.error?.offset == 52, "the offset of true")
    }

    @Test(arguments: chunkSizes)
    func envelope_syntaxErrorInTheArray_endsTheStream(size: Int) {
        let input = #"{"total": 4, "items": [{"id": 1}, {"id": 2} {"id": 3}]}"#
        let outcome = stream(input, .array(at: "items"), size: size, envelope: true)
        #expect(outcome.records.map(\.id) == [1, 2])
        #expect(outcome.error?.code == .syntax)
        #expect(outcome.error?.recordIndex == 2)
        #expect(outcome.page == nil)
    }

    @Test(arguments: chunkSizes)
    func envelope_missingKeyPath_isAClearError(size: Int) {
        for input in [#"{"total": 1, "itemz": [{"id": 1}]}"#, #"{"total": 1, "data": null}"#, #"{"total": 1, "data": {}}"#] {
            let outcome = stream(input, .array(at: "data.items"), size: size, envelope: true)
            #expect(outcome.records.isEmpty)
            #expect(outcome.error?.code == .missingKey, "\(input)")
            #expect(outcome.error?.message.contains("data.items") == true)
        }
    }

    @Test(arguments: chunkSizes)
    func envelope_keyPathToANonArray_isATypeMismatch(size: Int) {
        let outcome = stream(#"{"total": 1, "items": {"id": 1}}"#, .array(at: "items"), size: size, envelope: true)
        #expect(outcome.error?.code == .typeMismatch)
        #expect(outcome.error?.path == "$.items")
        let through = stream(#"{"total": 1, "data": "text"}"#, .array(at: "data.items"), size: size, envelope: true)
        #expect(through.error?.code == .notAnObject)
    }

    @Test func envelope_topLevelArray_isATypeMismatch() {
        let outcome = stream(#"[{"id": 1}]"#, .array(at: "items"), size: 0, envelope: true)
        #expect(outcome.error?.code == .typeMismatch)
        #expect(outcome.records.isEmpty)
    }

    @Test(arguments: chunkSizes)
    func envelope_badEnvelopeField_stopsEvenWhenSkipping(size: Int) {
        let outcome = stream(#"{"items": [{"id": 1}], "total": "three"}"#, .array(at: "items"), size: size, envelope: true)
        #expect(outcome.records.map(\.id) == [1])
        #expect(outcome.error?.code == .typeMismatch)
        #expect(outcome.error?.path == "$.total")
        #expect(outcome.error?.recordIndex == nil)
        let missing = stream(#"{"items": [{"id": 1}]}"#, .array(at: "items"), size: size, envelope: true)
        #expect(missing.error?.code == .missingKey, "total is required")
    }

    @Test func envelope_keyPathTheEnvelopeMaps_isAnInvalidMapping() {
        for keyPath in ["total", "data.cursor", "total.items", "", "data..items"] {
            let outcome = stream(#"{"total": 1}"#, .array(at: keyPath), size: 0, envelope: true)
            #expect(outcome.error?.code == .invalidMapping, "\(keyPath)")
        }
    }

    /// An envelope whose mapping declares another type's properties (as for a model, see
    /// ClassModelTests) fails before anything is written through that plan.
    @Test func envelope_mappingOfAnotherType_isAnInvalidMappingBeforeAnyRecord() {
        var records: [Event] = []
        let wrong = Envelope(ClassModelTests.Wrong.self)
        let decoder = RecordDecoder(Event.self, layout: .array(at: "items", envelope: wrong)) { records.append($0) }
        let fed = #expect(throws: JSONError.self) { try decoder.feed(Array(#"{"y": 1, "items": [{"id": 1}]}"#.utf8)) }
        #expect(fed?.code == .invalidMapping)
        let finished = #expect(throws: JSONError.self) { try decoder.finish() }
        #expect(finished?.code == .invalidMapping)
        #expect(records.isEmpty)
        #expect(wrong.model == nil)
    }

    @Test(arguments: chunkSizes)
    func envelope_mapModel_andMacroModel_readTheSameFields(size: Int) throws {
        let input = #"{"data": {"items": [{"id": 1}, {"id": 2}], "cursor": "c"}, "total": 2}"#
        var ids: [Int] = []
        let page = Envelope(MappedPage.self)
        let mapped = RecordDecoder(Event.self, layout: .array(at: "data.items", envelope: page)) { ids.append($0.id) }
        for chunk in chunks(Array(input.utf8), size) { try mapped.feed(chunk) }
        try mapped.finish()
        #expect(page.model == MappedPage(total: 2, cursor: "c") && ids == [1, 2])
        let outcome = stream(input, .array(at: "data.items"), size: size, envelope: true)
        #expect(outcome.page == Page(total: 2, cursor: "c") && outcome.records.map(\.id) == [1, 2])
    }

    /// A macro envelope is built from its draft when its object ends: its hooks run then.
    @JSONModel struct CheckedPage {
        let total: Int
        func validate() throws { if total < 0 { throw JSONError(.invalidValue, "negative total") } }
    }

    @Test func envelope_macroModel_hooksRunWhenItEnds() throws {
        let page = Envelope(CheckedPage.self)
        try JSONAdapter.forEachRecord(Event.self, from: Data(#"{"items": [{"id": 1}], "total": 1}"#.utf8),
                                      layout: .array(at: "items", envelope: page)) { _ in }
        #expect(page.model?.total == 1)
        let error = #expect(throws: JSONError.self) {
            try JSONAdapter.forEachRecord(Event.self, from: Data(#"{"items": [], "total": -1}"#.utf8),
                                          layout: .array(at: "items", envelope: page)) { _ in }
        }
        #expect(error?.code == .invalidValue)
        #expect(page.model == nil, "a stream that failed leaves no envelope")
        let missing = #expect(throws: JSONError.self) {
            try JSONAdapter.forEachRecord(Event.self, from: Data(#"{"items": []}"#.utf8),
                                          layout: .array(at: "items", envelope: Envelope(CheckedPage.self))) { _ in }
        }
        #expect(missing?.code == .missingKey && missing?.property == "CheckedPage.total")
    }

    @Test func envelope_recordsStreamBeforeTheInputEnds() throws {
        var seen: [Int] = []
        let page = Envelope(Page.self)
        let decoder = RecordDecoder(Event.self, layout: .array(at: "items", envelope: page)) { seen.append($0.id) }
        try decoder.feed(Data(#"{"total": 9, "items": [{"id": 1}, {"id": 2}, "#.utf8))
        #expect(seen == [1, 2], "records are delivered as they complete")
        #expect(page.model == nil, "the envelope is complete only at its end")
        try decoder.feed(Data(#"{"id": 3}], "next": "z"}"#.utf8))
        try decoder.finish()
        #expect(seen == [1, 2, 3])
        #expect(page.model == Page(total: 9, next: "z"))
        #expect(RecordDecoder<Event>.Layout.array(at: "items", envelope: page) == .array(at: "items", envelope: page))
        #expect(RecordDecoder<Event>.Layout.array(at: "items", envelope: page) != .array(at: "items"))
    }

    @Test func envelope_fromDataFileHandleAndAsyncSequence() async throws {
        let body = (0..<500).map { "{\"id\": \($0)}" }.joined(separator: ",")
        let input = Data((#"{"total": 500, "data": {"cursor": "end", "items": ["# + body + "]}}").utf8)
        let expected = Page(total: 500, cursor: "end")

        var ids: [Int] = []
        let page = Envelope(Page.self)
        let skipped = try JSONAdapter.forEachRecord(Event.self, from: input, layout: .array(at: "data.items", envelope: page)) {
            ids.append($0.id)
        }
        #expect(ids == Array(0..<500) && page.model == expected && skipped.isEmpty)

        let pipe = Pipe()
        let writer = Thread {
            pipe.fileHandleForWriting.write(input)
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        ids = []
        let piped = Envelope(Page.self)
        try JSONAdapter.forEachRecord(Event.self, from: pipe.fileHandleForReading, layout: .array(at: "data.items", envelope: piped)) {
            ids.append($0.id)
        }
        #expect(ids == Array(0..<500) && piped.model == expected)

        let pieces = chunks(Array(input), 97)
        let chunkStream = AsyncStream<[UInt8]> { continuation in
            for piece in pieces { continuation.yield(piece) }
            continuation.finish()
        }
        let streamed = Envelope(Page.self)
        let records = JSONAdapter.records(Event.self, from: chunkStream, layout: .array(at: "data.items", envelope: streamed))
        ids = []
        for try await event in records { ids.append(event.id) }
        #expect(ids == Array(0..<500))
        #expect(streamed.model == expected)
    }

    @Test func concatenated_fromFileHandleAndAsyncSequence() async throws {
        let input = Data((0..<300).map { "{\"id\": \($0)}" + ($0 % 3 == 0 ? "" : " ") }.joined().utf8)
        let pipe = Pipe()
        let writer = Thread {
            pipe.fileHandleForWriting.write(input)
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        var ids: [Int] = []
        try JSONAdapter.forEachRecord(Event.self, from: pipe.fileHandleForReading, layout: .concatenated) { ids.append($0.id) }
        #expect(ids == Array(0..<300))

        let chunkStream = AsyncStream<[UInt8]> { continuation in
            for piece in chunks(Array(input), 13) { continuation.yield(piece) }
            continuation.finish()
        }
        ids = []
        for try await event in JSONAdapter.records(Event.self, from: chunkStream, layout: .concatenated) { ids.append(event.id) }
        #expect(ids == Array(0..<300))
    }
}
