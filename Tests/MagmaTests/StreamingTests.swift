import Foundation
import Testing
@testable import Magma

@Suite struct StreamingTests {
    @JSONModel struct Event: Equatable {
        @Required var id = 0
        var name = ""
        var tags: [String] = []
    }

    /// Feeds `input` in chunks of `size` (0: whole) and collects the records and skipped errors.
    private func stream(_ input: String, _ layout: RecordDecoder<Event>.Layout, size: Int,
                        policy: RecordDecoder<Event>.ErrorPolicy = .skip) throws -> ([Event], [JSONError]) {
        var records: [Event] = []
        let decoder = RecordDecoder(Event.self, layout: layout, errorPolicy: policy) { records.append($0) }
        for chunk in chunks(Array(input.utf8), size) { try decoder.feed(chunk) }
        try decoder.finish()
        #expect(decoder.progress.records == records.count)
        #expect(decoder.progress.skipped == decoder.skipped.count)
        #expect(decoder.progress.bytes == input.utf8.count)
        return (records, Array(decoder.skipped))
    }

    @Test(arguments: chunkSizes)
    func ndjson_blankLinesCRLFAndNoFinalNewline(size: Int) throws {
        // Blank lines short and long (a long one is scanned 16 bytes a step), with tabs and CRs.
        let long = String(repeating: " \t \r", count: 11)
        let input = "{\"id\": 1, \"name\": \"a\"}\r\n\n  \n\(long)\n{\"id\": 2, \"tags\": [\"x\"]}\n\(long)\r\n{\"id\": 3}"
        let (records, errors) = try stream(input, .ndjson, size: size)
        #expect(records == [Event(id: 1, name: "a"), Event(id: 2, tags: ["x"]), Event(id: 3)])
        #expect(errors.isEmpty)
    }

    @Test(arguments: chunkSizes)
    func ndjson_badLinesAreSkippedAndReported(size: Int) throws {
        let input = "{\"id\": 1}\n{\"id\": 2, \"name\": \n{\"id\": \"three\"}\n[1]\n{\"name\": \"no id\"}\n{\"id\": 6}\n"
        let (records, errors) = try stream(input, .ndjson, size: size)
        #expect(records.map(\.id) == [1, 6])
        #expect(errors.map(\.recordIndex) == [1, 2, 3, 4])
        #expect(errors.map(\.line) == [2, 3, 4, 5])
        #expect(errors.map(\.code) == [.unexpectedEnd, .typeMismatch, .typeMismatch, .missingKey])
        #expect(errors[1].offset == 36, "the absolute offset of \"three\"")
        #expect(errors[1].column == 8)
        #expect(errors[1].path == "$.id")
    }

    @Test func ndjson_stopPolicy_throwsAfterDeliveringEarlierRecords() throws {
        var records: [Event] = []
        let decoder = RecordDecoder(Event.self, layout: .ndjson) { records.append($0) }
        #expect(throws: JSONError.self) {
            try decoder.feed(Data("{\"id\": 1}\n{\"id\": 2}\n{\"id\": x}\n{\"id\": 4}\n".utf8))
        }
        #expect(records.map(\.id) == [1, 2])
    }

    @Test(arguments: chunkSizes)
    func array_badRecordsAreSkipped_othersDelivered(size: Int) throws {
        let input = #"[{"id": 1, "tags": ["a"]}, {"id": 2, "tags": [1, [2, {"x": 3}]], "name": "n"}, 7,"#
            + #" {"name": "missing id", "tags": []}, {"id": {"deep": [1]}}, {"id": 6, "name": "last"}]"#
        let (records, errors) = try stream(input, .array, size: size)
        #expect(records == [Event(id: 1, tags: ["a"]), Event(id: 6, name: "last")])
        #expect(errors.map(\.recordIndex) == [1, 2, 3, 4])
        #expect(errors.map(\.code) == [.typeMismatch, .typeMismatch, .missingKey, .typeMismatch])
        #expect(errors[0].path == "$[1].tags[0]")
        #expect(errors[0].offset == 46)
        #expect(errors.allSatisfy { $0.offset != nil })
    }

    @Test(arguments: chunkSizes)
    func array_syntaxError_endsTheStreamAfterEarlierRecords(size: Int) throws {
        var records: [Event] = []
        let decoder = RecordDecoder(Event.self, layout: .array, errorPolicy: .skip) { records.append($0) }
        let input = Array(#"[{"id": 1}, {"id": 2}, {"id": 3 "x"}, {"id": 4}]"#.utf8)
        do {
            for chunk in chunks(input, size) { try decoder.feed(chunk) }
            try decoder.finish()
            Issue.record("expected a syntax error")
        } catch let error as JSONError {
            #expect(error.code == .syntax)
            #expect((30...35).contains(error.offset ?? -1), "inside the bad record: \(error.offset ?? -1)")
            #expect(error.line == 1)
        }
        #expect(records.map(\.id) == [1, 2])
    }

    @Test func array_stopPolicy_stopsAtTheFirstBadRecord() throws {
        var records: [Event] = []
        do {
            try JSONAdapter.forEachRecord(Event.self, from: Data(#"[{"id": 1}, {"id": "x"}, {"id": 3}]"#.utf8), layout: .array) {
                records.append($0)
            }
            Issue.record("expected an error")
        } catch let error as JSONError {
            #expect(error.code == .typeMismatch)
            #expect(error.path == "$[1].id")
        }
        #expect(records.map(\.id) == [1])
    }

    @Test func handlerError_stopsTheStreamAsThrown() throws {
        struct Full: Error {}
        var seen = 0
        #expect(throws: Full.self) {
            try JSONAdapter.forEachRecord(Event.self, from: Data("{\"id\": 1}\n{\"id\": 2}\n{\"id\": 3}\n".utf8), layout: .ndjson,
                                          errorPolicy: .skip) { _ in
                seen += 1
                if seen == 2 { throw Full() }
            }
        }
        #expect(seen == 2)
    }

    @Test func array_notAnArray_isATypeMismatch() throws {
        #expect(throws: JSONError.self) {
            try JSONAdapter.forEachRecord(Event.self, from: Data(#"{"id": 1}"#.utf8), layout: .array) { _ in }
        }
    }

    @Test func manyRecords_deliveredInOrderWithSkipsCounted() throws {
        var lines: [String] = []
        for i in 0..<2000 { lines.append(i % 100 == 99 ? "{\"id\": \(i), \"name\": [\(i)]}" : "{\"id\": \(i)}") }
        let input = lines.joined(separator: "\n")
        for layout in [RecordDecoder<Event>.Layout.ndjson, .array] {
            let text = layout == .array ? "[" + lines.joined(separator: ",") + "]" : input
            let (records, errors) = try stream(text, layout, size: 4096)
            #expect(records.count == 1980)
            #expect(records.map(\.id) == (0..<2000).filter { $0 % 100 != 99 })
            #expect(errors.map(\.recordIndex) == (0..<2000).filter { $0 % 100 == 99 })
        }
    }
}
