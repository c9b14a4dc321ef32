import Foundation
import Testing
import Magma

/// A stream with many bad records keeps the errors of the first `keptSkippedErrors` of them and
/// counts every one by code, in every streaming form: memory does not grow with the bad records.
@Suite struct SkippedRecordsTests {
    @JSONModel struct Row: Equatable, Sendable {
        @Required var id = 0
    }

    struct PlainRow: Decodable, Sendable { let id: Int }

    /// 6,000 lines: every third is good; the others are bad, in turn a type mismatch and a syntax
    /// error (2,000 of each).
    static let lines: [String] = (1...6_000).map { line in
        switch line % 3 {
        case 0: "{\"id\": \(line)}"
        case 1: "{\"id\": \"\(line)\"}"
        default: "{\"id\": \(line), oops}"
        }
    }
    static let ndjson = Data(lines.joined(separator: "\n").utf8)
    static let badLines = (1...6_000).filter { $0 % 3 != 0 }
    static let expectedCounts: [JSONError.Code: Int] = [.typeMismatch: 2_000, .syntax: 2_000]

    /// The first `limit` bad lines kept, in order, and every one counted.
    static func check(_ skipped: SkippedRecords, limit: Int = 100, lines: Bool = true, _ form: String,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(skipped.count == limit, "\(form): \(skipped.count) errors kept", sourceLocation: sourceLocation)
        #expect(skipped.total == badLines.count && skipped.unlisted == badLines.count - limit, "\(form)", sourceLocation: sourceLocation)
        #expect(skipped.counts == expectedCounts, "\(form): \(skipped.counts)", sourceLocation: sourceLocation)
        if lines {
            #expect(skipped.map(\.line) == badLines.prefix(limit).map { $0 }, "\(form)", sourceLocation: sourceLocation)
        }
        let offsets = skipped.compactMap(\.offset)
        #expect(offsets.count == skipped.count && offsets == offsets.sorted(), "\(form): in input order", sourceLocation: sourceLocation)
    }

    @Test func recordDecoder_keepsTheFirstErrors_andCountsEveryOne() throws {
        var rows = 0
        let decoder = RecordDecoder(Row.self, layout: .ndjson, errorPolicy: .skip) { _ in rows += 1 }
        for chunk in chunks(Array(Self.ndjson), 4096) { try decoder.feed(chunk) }
        try decoder.finish()
        #expect(rows == 2_000 && decoder.progress.skipped == Self.badLines.count)
        Self.check(decoder.skipped, "RecordDecoder")
    }

    @Test func theLimit_isAnOption() throws {
        var options = DecodingOptions()
        options.keptSkippedErrors = 7
        Self.check(try JSONAdapter.forEachRecord(Row.self, from: Self.ndjson, layout: .ndjson, options: options, errorPolicy: .skip) { _ in },
                   limit: 7, "limit 7")
        options.keptSkippedErrors = 0
        Self.check(try JSONAdapter.forEachRecord(Row.self, from: Self.ndjson, layout: .ndjson, options: options, errorPolicy: .skip) { _ in },
                   limit: 0, "limit 0")
    }

    @Test func everySequentialForm_isBounded() throws {
        Self.check(try JSONAdapter.forEachRecord(Row.self, from: Self.ndjson, layout: .ndjson, errorPolicy: .skip) { _ in }, "data")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("skipped-\(UUID()).ndjson")
        try Self.ndjson.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        Self.check(try JSONAdapter.forEachRecord(Row.self, from: .file(url.path), layout: .ndjson, errorPolicy: .skip) { _ in }, "path")
        Self.check(try JSONAdapter.forEachRecord(Row.self, from: try FileHandle(forReadingFrom: url), layout: .ndjson,
                                                 errorPolicy: .skip) { _ in }, "handle")
        Self.check(try JSONAdapter.forEachRecord(PlainRow.self, from: Self.ndjson, layout: .ndjson, decoder: MagmaDecoder(),
                                                 errorPolicy: .skip) { _ in }, "Decodable, data")
        Self.check(try JSONAdapter.forEachRecord(PlainRow.self, from: .file(url.path), layout: .ndjson, decoder: MagmaDecoder(),
                                                 errorPolicy: .skip) { _ in }, "Decodable, path")
    }

    /// An array and an envelope: the records that fail to map are skipped (a syntax error would
    /// end the array), so the input holds only type mismatches.
    @Test func arraysAndEnvelopes_areBounded() throws {
        let items = (0..<1_000).map { $0 % 4 == 0 ? "{\"id\": \($0)}" : "{\"id\": \"x\"}" }.joined(separator: ",")
        let array = try JSONAdapter.forEachRecord(Row.self, from: Data("[\(items)]".utf8), layout: .array, errorPolicy: .skip) { _ in }
        #expect(array.count == 100 && array.total == 750 && array.counts == [.typeMismatch: 750])
        #expect(array.map(\.recordIndex) == (0..<1_000).filter { $0 % 4 != 0 }.prefix(100).map { $0 })
        struct Page: JSONModel {
            var total = 0
            static let jsonMapping = JSONMapping<Page> { Map(\.total, "total") }
        }
        let page = Envelope(Page.self)
        let skipped = try JSONAdapter.forEachRecord(Row.self, from: Data("{\"total\": 9, \"items\": [\(items)]}".utf8),
                                                    layout: .array(at: "items", envelope: page), errorPolicy: .skip) { _ in }
        #expect(page.model?.total == 9 && skipped.count == 100 && skipped.total == 750)
    }

    @Test func splits_addUpToTheWhole() throws {
        var all = SkippedRecords()
        let size = Self.ndjson.count
        for k in 0..<5 {
            let range = size * k / 5..<size * (k + 1) / 5
            all.append(contentsOf: try JSONAdapter.forEachRecord(Row.self, from: Self.ndjson, byteRange: range, errorPolicy: .skip) { _ in })
        }
        // A split does not know its lines: offsets only.
        Self.check(all, lines: false, "splits")
        let whole = try JSONAdapter.forEachRecord(Row.self, from: Self.ndjson, layout: .ndjson, errorPolicy: .skip) { _ in }
        #expect(all.map(\.offset) == whole.map(\.offset))
    }

    @Test func everyParallelForm_isBounded() throws {
        Self.check(try JSONAdapter.modelsInParallel(Row.self, from: Self.ndjson, layout: .ndjson, errorPolicy: .skip, concurrency: 3).skipped,
                   "modelsInParallel")
        Self.check(try JSONAdapter.modelsInParallel(PlainRow.self, from: Self.ndjson, layout: .ndjson, decoder: MagmaDecoder(), errorPolicy: .skip,
                                                    concurrency: 3).skipped, "modelsInParallel, Decodable")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("skipped-\(UUID()).ndjson")
        try Self.ndjson.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        Self.check(try JSONAdapter.forEachRecordInParallel(Row.self, from: .file(url.path), errorPolicy: .skip, windowBytes: 1 << 14,
                                                           concurrency: 3) { _ in }, "forEachRecordInParallel")
        Self.check(try JSONAdapter.forEachRecordInParallel(Row.self, from: Pipe.feeding(Self.ndjson).fileHandleForReading,
                                                           errorPolicy: .skip, windowBytes: 1 << 14, concurrency: 3) { _ in },
                   "forEachRecordInParallel, pipe")
        Self.check(try JSONAdapter.forEachRecordInParallel(Row.self, from: .file(url.path), errorPolicy: .skip, windowBytes: 1 << 14,
                                                           concurrency: 3, makeState: { 0 }) { count, _ in count += 1 }.skipped,
                   "forEachRecordInParallel, workers")
    }

    @Test func append_keepsTheFirst_andAddsTheCounts() {
        var first = SkippedRecords(limit: 3)
        for i in 0..<2 { first.append(JSONError(.syntax, "s\(i)")) }
        var later = SkippedRecords(limit: 3)
        for i in 0..<4 { later.append(JSONError(i < 2 ? .typeMismatch : .missingKey, "l\(i)")) }
        first.append(contentsOf: later)
        #expect(first.map(\.message) == ["s0", "s1", "l0"])
        #expect(first.total == 6 && first.unlisted == 3)
        #expect(first.counts == [.syntax: 2, .typeMismatch: 2, .missingKey: 2])
    }
}
