import Foundation
import Testing
@testable import Magma

/// Limits and promises that hold in every layout and error policy (issue 19): `maxDepth` inside a
/// record being skipped, one value per NDJSON line in every NDJSON entry point, and an error's
/// path and record index that agree. Every case runs whole, in every chunk size and split in two
/// at every offset (`streamOutcomeEverywhere`).
@Suite struct RecordStreamLimitTests {
    typealias Outcome = StreamOutcome

    static func options(maxDepth: Int = 512, reader: DecodingOptions.Reader = .automatic) -> DecodingOptions {
        var options = DecodingOptions()
        options.maxDepth = maxDepth
        options.reader = reader
        return options
    }

    // MARK: Blanks after an array

    /// Blanks after a top-level array's `]` are not held, however many end the input (here past a
    /// record limit that held blanks would pass); text after blanks is placed as a stream without
    /// the limit places it, and blanks past the limit before text still stop the stream there.
    @Test(arguments: [RecordDecoder<StreamEvent>.ErrorPolicy.skip, .stop])
    func blanksAfterAnArray_areNotHeld(policy: RecordDecoder<StreamEvent>.ErrorPolicy) {
        var small = DecodingOptions()
        small.maxRecordLength = 64
        let array = #"[{"id":1},{"id":2}]"#, blanks = String(repeating: " \n\t\r", count: 40)
        let ended = streamOutcomeEverywhere(array + blanks, .array, policy: policy, options: small)
        #expect(ended.records.map(\.id) == [1, 2] && ended.error == nil, "\(ended)")
        #expect(ended.mostHeld < 16, "\(ended.mostHeld) bytes held")
        let text = array + "\r\n \n  \t x"
        let placed = streamOutcomeEverywhere(text, .array, policy: policy, options: small)
        let unlimited = streamOutcomeEverywhere(text, .array, policy: policy, options: DecodingOptions())
        #expect(placed.description == unlimited.description, "\(placed)\nwithout the limit: \(unlimited)")
        #expect(placed.error?.offset == text.utf8.count - 1 && placed.error?.line == 3 && placed.error?.column == 5, "\(placed)")
        let tooMany = streamOutcomeEverywhere(array + blanks + "x", .array, policy: policy, options: small)
        #expect(tooMany.error?.code == .sizeLimitExceeded && tooMany.error?.offset == array.utf8.count - 1, "\(tooMany)")
    }

    /// Blanks inside a string of an envelope's rest (raw tab, CR and newline: each an error there)
    /// are read as given in every chunk split: the envelope's rest is held exactly, not with
    /// stand-in blanks, whose order and kind would change the error or let the string through.
    @Test(arguments: [RecordDecoder<StreamEvent>.ErrorPolicy.skip, .stop])
    func blanksInsideAnEnvelopeString_areReadAsGiven(policy: RecordDecoder<StreamEvent>.ErrorPolicy) {
        for inside in ["\t", "\r\n ", " \n", "\t\t\n\t"] {
            let text = #"{"items":[{"id":1}],"n":"a"# + inside + #"b"}"#
            let outcome = streamOutcomeEverywhere(text, .array(at: "items"), policy: policy, options: DecodingOptions())
            let firstBad = Array(text.utf8).firstIndex { $0 == 9 || $0 == 10 || $0 == 13 }!
            #expect(outcome.records.map(\.id) == [1] && outcome.error?.offset == firstBad, "\(inside.debugDescription): \(outcome)")
        }
    }

    // MARK: maxDepth inside a skipped record

    /// A record that fails (an array where an object is expected) is skipped, but brackets too
    /// deep inside it stop the stream at the first one, in every layout that skips by counting,
    /// with either reader.
    @Test(arguments: [("[{\"id\":1},[[[[[]]]]],{\"id\":3}]", RecordDecoder<StreamEvent>.Layout.array, 3, 12),
                      ("{\"id\":1} [[[[[]]]]] {\"id\":3}", .concatenated, 3, 12),
                      ("{\"items\":[{\"id\":1},[[[[[]]]]],{\"id\":3}]}", .array(at: "items"), 4, 21)])
    func tooDeepInsideASkippedRecord_stopsAtTheFirstBracketTooDeep(input: String, layout: RecordDecoder<StreamEvent>.Layout,
                                                                   maxDepth: Int, offset: Int) {
        for reader in [DecodingOptions.Reader.automatic, .yajl] {
            let outcome = streamOutcomeEverywhere(input, layout, policy: .skip, options: Self.options(maxDepth: maxDepth, reader: reader))
            #expect(outcome.records.map(\.id) == [1], "\(reader): \(outcome)")
            #expect(outcome.skipped.map(\.code) == [.typeMismatch], "\(reader): \(outcome)")
            #expect(outcome.error?.code == .depthLimitExceeded, "\(reader): \(outcome)")
            #expect(outcome.error?.offset == offset, "\(reader): \(outcome)")
            #expect(outcome.error?.recordIndex == 1, "\(reader): \(outcome)")
            let stopped = streamOutcomeEverywhere(input, layout, policy: .stop, options: Self.options(maxDepth: maxDepth, reader: reader))
            #expect(stopped.error?.code == .typeMismatch, "\(reader): \(stopped)")
        }
    }

    /// Too deep inside a mapped value of a record stops a stream that skips bad records too: the
    /// rest of the record could not be read past in bounded memory. With either reader.
    @Test(arguments: [DecodingOptions.Reader.automatic, .yajl])
    func tooDeepInsideAMappedValue_stopsASkippingStream(reader: DecodingOptions.Reader) {
        let input = #"[{"id":1},{"id":2,"tags":[[[[]]]]},{"id":3}]"#
        let outcome = streamOutcomeEverywhere(input, .array, policy: .skip, options: Self.options(maxDepth: 3, reader: reader))
        #expect(outcome.records.map(\.id) == [1], "\(outcome)")
        #expect(outcome.skipped.isEmpty, "\(outcome)")
        #expect(outcome.error?.code == .depthLimitExceeded, "\(outcome)")
        #expect(outcome.error?.offset == 26, "\(outcome)")
        #expect(outcome.error?.recordIndex == 1, "\(outcome)")
    }

    /// An NDJSON line too deep loses that line only: each line has a parse of its own, and the
    /// rest of a failed line is read past, not parsed.
    @Test func tooDeepNDJSONLine_losesThatLineOnly() {
        let input = "{\"id\":1}\n{\"id\":2,\"x\":[[[[]]]]}\n{\"id\":3}\n"
        let outcome = streamOutcomeEverywhere(input, .ndjson, policy: .skip, options: Self.options(maxDepth: 3))
        #expect(outcome.records.map(\.id) == [1, 3], "\(outcome)")
        #expect(outcome.skipped.map(\.code) == [.depthLimitExceeded], "\(outcome)")
        #expect(outcome.skipped.map(\.line) == [2], "\(outcome)")
    }

    /// An endless run of `[` after a record that is skipped stops once it passes the limit: long
    /// before the input ends, holding next to nothing.
    @Test(arguments: [RecordDecoder<StreamEvent>.Layout.array, .concatenated])
    func endlessBracketsInASkippedRecord_stopAtTheLimit(layout: RecordDecoder<StreamEvent>.Layout) {
        let head = Array((layout == .array ? "[{\"id\":1}," : "{\"id\":1} ").utf8)
        let chunk = [UInt8](repeating: UInt8(ascii: "["), count: 4096)
        var fed = 0
        let outcome = streamOutcome([head], layout, policy: .skip, options: Self.options(maxDepth: 512)) {
            fed += 1
            return fed <= 1024 ? chunk : nil  // up to 4 MiB
        }
        #expect(outcome.error?.code == .depthLimitExceeded, "\(outcome)")
        #expect(outcome.error?.offset == head.count + (layout == .array ? 511 : 512), "\(outcome)")
        #expect(fed <= 2, "fed \(fed) chunks of brackets")
        #expect(outcome.mostHeld < 8192)
    }

    // MARK: One value per NDJSON line

    static let trailingContent = [#"{"id":2}{"id":5}"#, #"{"id":2} {"id":5}"#, #"{"id":2} 5"#, #"{"id":2}]"#,
                                  #"{"id":2} "x""#, #"{"id":2} x"#, #"{"id":2}, "#]

    /// A line with anything after its value is an error and delivers nothing: with `.skip` only
    /// the error, with `.stop` the error and no record of that line.
    @Test(arguments: trailingContent)
    func lineWithTrailingContent_isAnErrorAndDeliversNothing(line: String) {
        let input = "{\"id\":1}\n" + line + "\n{\"id\":3}\n"
        let skipped = streamOutcomeEverywhere(input, .ndjson, policy: .skip, options: .init())
        #expect(skipped.records.map(\.id) == [1, 3], "\(skipped)")
        #expect(skipped.skipped.map(\.code) == [.syntax], "\(skipped)")
        #expect(skipped.skipped.map(\.line) == [2], "\(skipped)")
        #expect(skipped.skipped.map(\.recordIndex) == [1], "\(skipped)")
        let stopped = streamOutcomeEverywhere(input, .ndjson, policy: .stop, options: .init())
        #expect(stopped.records.map(\.id) == [1], "\(stopped)")
        #expect(stopped.error.map(Outcome.summary) == skipped.skipped.first.map(Outcome.summary), "\(stopped)")
        // The last line, without a newline.
        let last = streamOutcomeEverywhere("{\"id\":1}\n" + line, .ndjson, policy: .stop, options: .init())
        #expect(last.records.map(\.id) == [1], "\(last)")
        #expect(last.error?.code == .syntax, "\(last)")
    }

    /// Every NDJSON entry point agrees: `forEachRecord`, `records` (async), a byte-range split and
    /// the parallel decoder deliver no record from a line with trailing content.
    @Test func lineWithTrailingContent_everyEntryPointAgrees() async throws {
        let lines = (0..<40).map { $0 == 17 ? "{\"id\":17}{\"id\":99}" : "{\"id\":\($0)}" }
        let data = Data((lines.joined(separator: "\n") + "\n").utf8)
        let expected = (0..<40).filter { $0 != 17 }
        var seen: [Int] = []
        let skipped = try JSONAdapter.forEachRecord(StreamEvent.self, from: data, layout: .ndjson, errorPolicy: .skip) { seen.append($0.id) }
        #expect(seen == expected)
        #expect(skipped.map(\.line) == [18])
        seen = []
        _ = try JSONAdapter.forEachRecord(StreamEvent.self, from: data, byteRange: 0..<data.count, errorPolicy: .skip) { seen.append($0.id) }
        #expect(seen == expected)
        let pieces = chunks(Array(data), 7)
        let stream = AsyncStream<[UInt8]> { continuation in
            for piece in pieces { continuation.yield(piece) }
            continuation.finish()
        }
        var async: [Int] = []
        for try await record in JSONAdapter.records(StreamEvent.self, from: stream, layout: .ndjson, errorPolicy: .skip) {
            async.append(record.id)
        }
        #expect(async == expected)
        let parallel = try JSONAdapter.modelsInParallel(StreamEvent.self, from: data, layout: .ndjson, options: .init(), errorPolicy: .skip,
                                                        concurrency: 4, minimumBatchBytes: 16)
        #expect(parallel.models.map(\.id) == expected)
        #expect(parallel.skipped.count == 1)
        #expect(throws: JSONError.self) {
            _ = try JSONAdapter.modelsInParallel(StreamEvent.self, from: data, layout: .ndjson, options: .init(), errorPolicy: .stop,
                                                 concurrency: 4, minimumBatchBytes: 16)
        }
    }

    /// A record is counted in the progress once delivered: a line that fails counts nothing.
    @Test func progress_countsOnlyDeliveredRecords() throws {
        var delivered = 0
        let decoder = RecordDecoder(StreamEvent.self, layout: .ndjson, errorPolicy: .skip) { _ in delivered += 1 }
        try decoder.feed(Array("{\"id\":1}\n{\"id\":2}{\"id\":3}\n".utf8))
        try decoder.finish()
        #expect(delivered == 1)
        #expect(decoder.progress.records == 1)
        #expect(decoder.progress.skipped == 1)
    }

    /// A chunk whose `feed` threw after records from it were delivered counts in `progress.bytes`:
    /// it was handed to the decoder.
    @Test(arguments: [RecordDecoder<StreamEvent>.Layout.array, .ndjson, .concatenated])
    func progress_countsTheChunkThatThrew(layout: RecordDecoder<StreamEvent>.Layout) throws {
        let input = layout == .array ? "[{\"id\":1},{\"id\":\"x\"}]" : "{\"id\":1}\n{\"id\":\"x\"}\n"
        var delivered = 0
        let decoder = RecordDecoder(StreamEvent.self, layout: layout, errorPolicy: .stop) { _ in delivered += 1 }
        try decoder.feed(Array("  ".utf8))
        #expect(throws: JSONError.self) { try decoder.feed(Array(input.utf8)) }
        #expect(delivered == 1)
        #expect(decoder.progress.bytes == 2 + input.utf8.count)
    }

    // MARK: Path and record index agree

    /// The input ends inside a record being skipped: the error names that record, at the path
    /// the skip reported.
    @Test func endInsideASkippedRecord_namesThatRecord() {
        let outcome = streamOutcomeEverywhere("[{\"id\":1},[[[", .array, policy: .skip, options: .init())
        #expect(outcome.skipped.map(\.path) == ["$[1]"], "\(outcome)")
        #expect(outcome.skipped.map(\.recordIndex) == [1], "\(outcome)")
        #expect(outcome.error?.code == .unexpectedEnd, "\(outcome)")
        #expect(outcome.error?.path == "$[1]", "\(outcome)")
        #expect(outcome.error?.recordIndex == 1, "\(outcome)")
        let concatenated = streamOutcomeEverywhere("{\"id\":1} [[[", .concatenated, policy: .skip, options: .init())
        #expect(concatenated.error?.recordIndex == 1, "\(concatenated)")
    }

    /// The input ends inside a key: the path is the object's, not the key before it.
    @Test func endInsideAKey_pathIsTheObjects() {
        let line = streamOutcomeEverywhere("{\"id\":1}\n{\"tags\":[],\"sco", .ndjson, policy: .skip, options: .init())
        #expect(line.skipped.map(\.code) == [.unexpectedEnd], "\(line)")
        #expect(line.skipped.map(\.path) == ["$"], "\(line)")
        let array = streamOutcomeEverywhere("[{\"id\":1,\"tags\":[],\"sco", .array, policy: .stop, options: .init())
        #expect(array.error?.code == .unexpectedEnd, "\(array)")
        #expect(array.error?.path == "$[0]", "\(array)")
        #expect(array.error?.property == nil, "\(array)")
        // Inside a value, the key is the one being read.
        let value = streamOutcomeEverywhere("[{\"id\":1,\"name\":\"ab", .array, policy: .stop, options: .init())
        #expect(value.error?.path == "$[0].name", "\(value)")
    }

    /// The line and column of an error in the text around the records (a stream not as the
    /// layout wants, an envelope before or after its records' array) are those of its offset, whole
    /// and in every chunking: the held text is read after the stream has passed its lines.
    @Test(arguments: [("{\n\"a\": x}", RecordDecoder<StreamEvent>.Layout.array, JSONError.Code.typeMismatch, 0),
                      ("\n\n{\"a\": 1,\n\"b\": x}", .array, .typeMismatch, 2),
                      ("{\"a\": 1,\n\"b\": x}", .array(at: "items"), .syntax, 14),
                      ("\n{\"a\": [1,\n2], \"b\": [\n3]}\n", .array(at: "items"), .missingKey, 24),
                      ("{\"a\": \"\\u00e9\",\n \"items\": [\n{\"id\": 1}],\n\"b\": x}", .array(at: "items"), .syntax, 45),
                      ("\n[{\"id\": 1},\n{\"id\": 2}\n]\n,", .array, .syntax, 25)])
    func errorAroundTheRecords_isPlacedAtItsLine(input: String, layout: RecordDecoder<StreamEvent>.Layout,
                                                 code: JSONError.Code, offset: Int) {
        let outcome = streamOutcomeEverywhere(input, layout, policy: .skip, options: .init())
        #expect(outcome.error?.code == code, "\(outcome)")
        #expect(outcome.error?.offset == offset, "\(outcome)")
        let before = Array(input.utf8).prefix(offset)
        let lineStart = (before.lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
        #expect(outcome.error?.line == before.count { $0 == UInt8(ascii: "\n") } + 1, "\(outcome)")
        #expect(outcome.error?.column == offset - lineStart + 1, "\(outcome)")
    }

    // MARK: maxRecordLength is a record's

    /// A small record limit, and a size cap that makes held bytes be checked from the first few.
    static func recordLimit(_ limit: Int) -> DecodingOptions {
        var options = DecodingOptions()
        options.maxRecordLength = limit
        options.maxTokenLength = 30
        return options
    }

    static let twenty = (1...20).map { "{\"id\":\($0)}" }
    static let layoutsOfTwenty: [(String, RecordDecoder<StreamEvent>.Layout)] = [
        ("[" + twenty.joined(separator: ",") + "]", .array),
        ("{\"total\":20,\"items\":[" + twenty.joined(separator: ", ") + "],\"more\":false}", .array(at: "items")),
        (twenty.joined(separator: "\n") + "\n", .ndjson),
        (twenty.joined(separator: " "), .concatenated),
    ]

    /// The limit bounds each record, not the stream: a stream many times longer than it, every
    /// record within it, is read whole (one buffer, as `forEachRecord(from:)` reads it) and in
    /// every chunking.
    @Test(arguments: layoutsOfTwenty)
    func streamLongerThanTheLimit_readsEveryRecord(input: String, layout: RecordDecoder<StreamEvent>.Layout) {
        let outcome = streamOutcomeEverywhere(input, layout, policy: .stop, options: Self.recordLimit(40))
        #expect(outcome.records.map(\.id) == Array(1...20), "\(outcome)")
        #expect(outcome.error == nil, "\(outcome)")
    }

    /// A record over the limit is reported at its first byte; `.skip` reads past it to the next.
    @Test(arguments: [("[{\"id\":1},{\"id\":2,\"name\":\"\(String(repeating: "x", count: 20))\"},{\"id\":3}]", RecordDecoder<StreamEvent>.Layout.array, 10),
                      ("{\"id\":1}\n{\"id\":2,\"name\":\"\(String(repeating: "x", count: 20))\"}\n{\"id\":3}\n", .ndjson, 9),
                      ("{\"id\":1} {\"id\":2,\"name\":\"\(String(repeating: "x", count: 20))\"} {\"id\":3}", .concatenated, 9)])
    func recordOverTheLimit_isReportedAtItsFirstByte(input: String, layout: RecordDecoder<StreamEvent>.Layout, offset: Int) {
        let skipped = streamOutcomeEverywhere(input, layout, policy: .skip, options: Self.recordLimit(30))
        #expect(skipped.records.map(\.id) == [1, 3], "\(skipped)")
        #expect(skipped.skipped.map(\.code) == [.sizeLimitExceeded], "\(skipped)")
        #expect(skipped.skipped.map(\.offset) == [offset], "\(skipped)")
        #expect(skipped.skipped.map(\.recordIndex) == [1], "\(skipped)")
        let stopped = streamOutcomeEverywhere(input, layout, policy: .stop, options: Self.recordLimit(30))
        #expect(stopped.records.map(\.id) == [1], "\(stopped)")
        #expect(stopped.error?.code == .sizeLimitExceeded, "\(stopped)")
        #expect(stopped.error?.offset == offset, "\(stopped)")
        #expect(stopped.error?.message == "a \(layout == .ndjson ? "line" : "record") longer than the limit of 30 bytes", "\(stopped)")
    }

    /// A record over the limit with an error within its first `maxRecordLength` bytes reports
    /// that error, as the same record held to there in pieces does (before, read whole it
    /// reported the limit); an error past them leaves the limit's. Whole and in every chunking.
    @Test(arguments: [(RecordDecoder<StreamEvent>.Layout.array, "[{\"id\":1},", ",{\"id\":3}]"),
                      (.ndjson, "{\"id\":1}\n", "\n{\"id\":3}\n"),
                      (.concatenated, "{\"id\":1} ", " {\"id\":3}")])
    func recordOverTheLimit_reportsAnErrorWithinTheLimitFirst(layout: RecordDecoder<StreamEvent>.Layout, before: String, after: String) {
        var options = Self.recordLimit(30)
        options.maxTokenLength = 10  // held bytes checked from the 12th
        let start = before.utf8.count
        let early = #"{"id":2,"a":1,"b":x,"c":3,"d":4,"e":5}"#
        let outcome = streamOutcomeEverywhere(before + early + after, layout, policy: .skip, options: options)
        let errors = layout == .ndjson ? outcome.skipped : outcome.error.map { [$0] } ?? []
        #expect(outcome.records.map(\.id) == (layout == .ndjson ? [1, 3] : [1]), "\(outcome)")
        #expect(errors.map(\.code) == [.syntax], "\(outcome)")
        #expect(errors.map(\.offset) == [start + 18], "\(outcome)")
        let late = #"{"id":2,"a":1,"b":2,"c":3,"d":4,"e":x}"#
        let limited = streamOutcomeEverywhere(before + late + after, layout, policy: .skip, options: options)
        #expect(limited.records.map(\.id) == [1, 3], "\(limited)")
        #expect(limited.skipped.map(\.code) == [.sizeLimitExceeded], "\(limited)")
        #expect(limited.skipped.map(\.offset) == [start], "\(limited)")
    }

    /// The input ends inside a record over the limit: a last line with no newline, held too few
    /// bytes to be checked before the end, is reported as any other (before, it was read); an
    /// unfinished element is skipped, and the end names that record, not the next.
    @Test(arguments: [("{\"id\":1}\n{\"id\":2,\"name\":\"\(String(repeating: "x", count: 13))\"}", RecordDecoder<StreamEvent>.Layout.ndjson, 9, nil),
                      ("[{\"id\":1},{\"id\":2,\"name\":\"\(String(repeating: "x", count: 30))", .array, 10, "$[1]")])
    func endInsideARecordOverTheLimit_reportsAndNamesThatRecord(input: String, layout: RecordDecoder<StreamEvent>.Layout,
                                                                offset: Int, endPath: String?) {
        let outcome = streamOutcomeEverywhere(input, layout, policy: .skip, options: Self.recordLimit(30))
        #expect(outcome.records.map(\.id) == [1], "\(outcome)")
        #expect(outcome.skipped.map(\.code) == [.sizeLimitExceeded], "\(outcome)")
        #expect(outcome.skipped.map(\.offset) == [offset], "\(outcome)")
        #expect(outcome.skipped.map(\.recordIndex) == [1], "\(outcome)")
        #expect(outcome.error?.code == endPath.map { _ in .unexpectedEnd }, "\(outcome)")
        #expect(outcome.error?.recordIndex == endPath.map { _ in 1 }, "\(outcome)")
        #expect(outcome.error?.path == endPath, "\(outcome)")
    }

    /// An NDJSON line's leading blanks are not part of its record: a short value after many of
    /// them is read, whole and in every chunking (before, read whole the blanks counted against
    /// the limit; fed in pieces of blanks only, they did not).
    @Test func lineAfterLeadingBlanks_isMeasuredFromItsValue() {
        let input = "{\"id\":1}\n" + String(repeating: " ", count: 40) + "{\"id\":2}\n"
        let outcome = streamOutcomeEverywhere(input, .ndjson, policy: .stop, options: Self.recordLimit(30))
        #expect(outcome.records.map(\.id) == [1, 2], "\(outcome)")
        #expect(outcome.error == nil, "\(outcome)")
    }

    /// An envelope's fields before its records' array count as a record: longer than the limit,
    /// they end the stream at the envelope's first byte, whichever policy.
    @Test func envelopeLongerThanTheLimitBeforeItsRecords_endsTheStream() {
        let input = "{\"name\":\"\(String(repeating: "x", count: 25))\",\"other\":[1,2,3],\"items\":[{\"id\":1}]}"
        for policy in [RecordDecoder<StreamEvent>.ErrorPolicy.stop, .skip] {
            let outcome = streamOutcomeEverywhere(input, .array(at: "items"), policy: policy, options: Self.recordLimit(40))
            #expect(outcome.records.isEmpty, "\(outcome)")
            #expect(outcome.error?.code == .sizeLimitExceeded, "\(outcome)")
            #expect(outcome.error?.offset == 0, "\(outcome)")
        }
        // Within the limit, the same envelope's records are read.
        let within = streamOutcomeEverywhere(input, .array(at: "items"), policy: .stop, options: Self.recordLimit(80))
        #expect(within.records.map(\.id) == [1], "\(within)")
    }

    /// Text around the records with no records' array in it, or after the array, is a record for
    /// the limit too: longer than it, the stream ends at its first byte, whole and in every
    /// chunking (before, whole buffers under 4 KiB were read for their own error instead).
    @Test func textAroundTheRecordsLongerThanTheLimit_endsTheStreamAtItsStart() {
        let ones = Array(repeating: "1", count: 40).joined(separator: ",")
        let notAnArray = "{\"a\": [\(ones)]}"
        let whole = streamOutcomeEverywhere(notAnArray, .array, policy: .skip, options: Self.recordLimit(64))
        #expect(whole.error?.code == .sizeLimitExceeded, "\(whole)")
        #expect(whole.error?.offset == 0, "\(whole)")
        let after = "{\"items\": [{\"id\": 1}], \"rest\": [\(ones)]}"
        let suffix = streamOutcomeEverywhere(after, .array(at: "items"), policy: .skip, options: Self.recordLimit(64))
        #expect(suffix.records.map(\.id) == [1], "\(suffix)")
        #expect(suffix.error?.code == .sizeLimitExceeded, "\(suffix)")
        #expect(suffix.error?.offset == 20, "\(suffix)")
    }
}
