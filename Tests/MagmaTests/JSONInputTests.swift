import Foundation
import Testing
@testable import Magma

@JSONModel struct InputRow: Equatable {
    let id: Int
    var title: String = ""
}

struct InputPlain: Decodable, Equatable {
    let id: Int
}

/// One input type for every entry point: each kind of source (bytes, a string, memory the caller
/// owns, a file by URL and by path, a file handle, a pipe, chunks) gives the same models, records
/// and errors as the same bytes in one `Data`.
struct JSONInputTests {
    /// Calls `body` with `text` as every kind of input, each named.
    func forEveryInput(_ text: String, _ body: (String, JSONInput) throws -> Void) throws {
        let bytes = Array(text.utf8)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("magma-input-\(UUID().uuidString).json")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        try body("Data", Data(bytes).jsonInput)
        try body("[UInt8]", bytes.jsonInput)
        try body("String", text.jsonInput)
        try bytes.withUnsafeBytes { try body("UnsafeRawBufferPointer", $0.jsonInput) }
        try body("URL", url.jsonInput)
        try body(".file", .file(url.path))
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        try body("FileHandle", handle.jsonInput)
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        Thread {
            writer.write(Data(bytes))
            try? writer.close()
        }.start()
        try body("a pipe", pipe.fileHandleForReading.jsonInput)
        for size in [1, 7] { try body("chunks of \(size)", .chunks(chunks(bytes, size))) }
    }

    static let array = #"[{"id": 1, "title": "a"}, {"id": 2, "title": "b"}]"#
    static let rows = [InputRow(id: 1, title: "a"), InputRow(id: 2, title: "b")]

    @Test func everyDocumentEntryPointReadsEveryInput() throws {
        let tree = try JSONAdapter.value(from: Data(Self.array.utf8), .json)
        try forEveryInput(Self.array) { name, input throws in
            #expect(try JSONAdapter.models(InputRow.self, from: input) == Self.rows, "\(name)")
        }
        // A handle is read from where it stands: each input is read once.
        try forEveryInput(Self.array) { name, input throws in
            #expect(try JSONAdapter.value(from: input, .json) == tree, "\(name)")
        }
        try forEveryInput(Self.array) { name, input throws in
            let (rows, error) = JSONAdapter.modelsUntilError(InputRow.self, from: input)
            #expect(rows == Self.rows && error == nil, "\(name)")
        }
        try forEveryInput(#"{"id": 3, "title": "c"}"#) { name, input throws in
            #expect(try JSONAdapter.model(InputRow.self, from: input) == InputRow(id: 3, title: "c"), "\(name)")
        }
        try forEveryInput(#"{"title": "changed"}"#) { name, input throws in
            var row = InputRow(id: 9, title: "old")
            try JSONAdapter.update(&row, from: input)
            #expect(row == InputRow(id: 9, title: "changed"), "\(name)")
        }
        try forEveryInput(#"{"x": {"id": 4}}"#) { name, input throws in
            #expect(try JSONAdapter.value(from: input, .dictionary(.model(InputRow.self))) == ["x": InputRow(id: 4)], "\(name)")
        }
        try forEveryInput("[0.5, 1, 2e3]") { name, input throws in
            #expect(try JSONAdapter.value(from: input, .array(.double)) == [0.5, 1, 2000], "\(name)")
        }
    }

    /// A bad document fails with the same code and place from every input, and the models read
    /// before it are kept from every input.
    @Test func aBadDocumentFailsAlikeFromEveryInput() throws {
        let text = "[{\"id\": 1, \"title\": \"a\"},\n {\"id\": true}]"
        guard let reference = thrownJSONError("Data", { _ = try JSONAdapter.models(InputRow.self, from: Data(text.utf8)) }) else { return }
        #expect(reference.code == .typeMismatch && reference.line == 2)
        try forEveryInput(text) { name, input throws in
            let error = thrownJSONError(name) { _ = try JSONAdapter.models(InputRow.self, from: input) }
            #expect(error?.code == reference.code && error?.offset == reference.offset, "\(name)")
            #expect(error?.line == reference.line && error?.column == reference.column && error?.path == reference.path, "\(name)")
        }
        try forEveryInput(text) { name, input throws in
            let (rows, error) = JSONAdapter.modelsUntilError(InputRow.self, from: input)
            #expect(rows == [InputRow(id: 1, title: "a")] && error?.offset == reference.offset, "\(name)")
        }
    }

    @Test func recordsFromEveryInput() throws {
        let lines = "{\"id\": 1}\n{\"id\": \"bad\"}\n{\"id\": 3}\n"
        let badValue = 17  // `"bad"`, in the second line
        try forEveryInput(lines) { name, input throws in
            var ids: [Int] = []
            let skipped = try JSONAdapter.forEachRecord(InputRow.self, from: input, layout: .ndjson, errorPolicy: .skip) { ids.append($0.id) }
            #expect(ids == [1, 3] && skipped.count == 1 && skipped.first?.offset == badValue, "\(name)")
        }
        try forEveryInput(lines) { name, input throws in
            var ids: [Int] = []
            let skipped = try JSONAdapter.forEachRecord(InputPlain.self, from: input, layout: .ndjson, decoder: MagmaDecoder(),
                                                        errorPolicy: .skip) { ids.append($0.id) }
            #expect(ids == [1, 3] && skipped.count == 1, "\(name)")
        }
        try forEveryInput(#"{"total": 2, "items": [{"id": 1}, {"id": 2}]}"#) { name, input throws in
            var ids: [Int] = []
            let page = Envelope(InputPage.self)
            try JSONAdapter.forEachRecord(InputRow.self, from: input, layout: .array(at: "items", envelope: page)) { ids.append($0.id) }
            #expect(ids == [1, 2] && page.model?.total == 2, "\(name)")
        }
        try forEveryInput(#"{"total": 2, "items": [{"id": 1}, {"id": 2}]}"#) { name, input throws in
            // A Decodable record's stream takes an envelope model too.
            var ids: [Int] = []
            let page = Envelope(InputPage.self)
            try JSONAdapter.forEachRecord(InputPlain.self, from: input, layout: .array(at: "items", envelope: page),
                                          decoder: MagmaDecoder()) { ids.append($0.id) }
            #expect(ids == [1, 2] && page.model?.total == 2, "\(name)")
        }
        try forEveryInput("[{\"id\": 5}, {\"id\": 6}]") { name, input throws in
            var ids: [Int] = []
            try RecordDecoder(InputRow.self, layout: .array) { ids.append($0.id) }.read(from: input)
            #expect(ids == [5, 6], "\(name)")
        }
    }

    /// The parallel NDJSON streams read every input too (bytes in memory by ranges, chunks through
    /// a pipe), and place their skips as the sequential stream does.
    @Test func parallelRecordsFromEveryInput() throws {
        let lines = (1...3000).map { $0 == 7 || $0 == 2500 ? "{\"id\": true}" : "{\"id\": \($0)}" }.joined(separator: "\n") + "\n"
        var expected: [Int] = []
        let reference = try JSONAdapter.forEachRecord(InputRow.self, from: lines, layout: .ndjson, errorPolicy: .skip) { expected.append($0.id) }
        let places = reference.map { "\($0.offset ?? -1) \($0.line ?? -1) \($0.recordIndex ?? -1)" }
        #expect(expected.count == 2998 && places.count == 2)
        try forEveryInput(lines) { name, input throws in
            var ids: [Int] = []
            let skipped = try JSONAdapter.forEachRecordInParallel(InputRow.self, from: input, errorPolicy: .skip, windowBytes: 16 << 10,
                                                                  concurrency: 2) { ids.append($0.id) }
            #expect(ids == expected, "\(name)")
            #expect(skipped.map { "\($0.offset ?? -1) \($0.line ?? -1) \($0.recordIndex ?? -1)" } == places, "\(name)")
        }
        try forEveryInput(lines) { name, input throws in
            let (sums, skipped) = try JSONAdapter.forEachRecordInParallel(InputRow.self, from: input, errorPolicy: .skip, windowBytes: 16 << 10,
                                                                          concurrency: 2, makeState: { 0 }) { sum, row in sum += row.id }
            #expect(sums.reduce(0, +) == expected.reduce(0, +) && skipped.count == 2, "\(name)")
        }
        try forEveryInput(lines) { name, input throws in
            var ids: [Int] = []
            let skipped = try JSONAdapter.forEachRecordInParallel(InputPlain.self, from: input, decoder: MagmaDecoder(), errorPolicy: .skip,
                                                                  windowBytes: 16 << 10, concurrency: 2) { ids.append($0.id) }
            #expect(ids == expected && skipped.count == 2, "\(name)")
        }
        try forEveryInput(lines) { name, input throws in
            let (rows, skipped) = try JSONAdapter.modelsInParallel(InputRow.self, from: input, layout: .ndjson, options: .init(), errorPolicy: .skip,
                                                                   concurrency: 2, minimumBatchBytes: 1 << 12)
            #expect(rows.map(\.id) == expected, "\(name)")
            #expect(skipped.map { "\($0.offset ?? -1) \($0.line ?? -1) \($0.recordIndex ?? -1)" } == places, "\(name)")
        }
        try forEveryInput(lines) { name, input throws in
            let (rows, skipped) = try JSONAdapter.modelsInParallel(InputPlain.self, from: input, layout: .ndjson, decoder: MagmaDecoder(), errorPolicy: .skip)
            #expect(rows.map(\.id) == expected && skipped.count == 2, "\(name)")
        }
    }

    /// A byte-range split reads any input whole-text (a file mapped), and gives what the same
    /// split of the bytes gives.
    @Test func aSplitOfEveryInput() throws {
        let lines = (1...200).map { $0 == 150 ? "{\"id\": []}" : "{\"id\": \($0)}" }.joined(separator: "\n") + "\n"
        let ranges = [0..<700, 700..<1400, 1400..<lines.utf8.count]
        var expected: [Int] = []
        var offsets: [Int?] = []
        for range in ranges {
            offsets += try JSONAdapter.forEachRecord(InputRow.self, from: Data(lines.utf8), byteRange: range, errorPolicy: .skip) {
                expected.append($0.id)
            }.map(\.offset)
        }
        #expect(expected == Array(1...200).filter { $0 != 150 } && offsets.count == 1)
        for range in ranges.reversed() {
            try forEveryInput(lines) { name, input throws in
                var ids: [Int] = []
                let skipped = try JSONAdapter.forEachRecord(InputPlain.self, from: input, byteRange: range, decoder: MagmaDecoder(),
                                                            errorPolicy: .skip) { ids.append($0.id) }
                var partIDs: [Int] = []
                let part = try JSONAdapter.forEachRecord(InputRow.self, from: Data(lines.utf8), byteRange: range, errorPolicy: .skip) {
                    partIDs.append($0.id)
                }
                #expect(skipped.map(\.offset) == part.map(\.offset), "\(name) \(range)")
                #expect(ids == partIDs && !ids.isEmpty, "\(name) \(range)")
            }
        }
    }

    /// The types that are inputs as they are, passed straight to the entry points.
    @Test func inputsPassedAsTheyAre() throws {
        let bytes = Array(#"  {"id": 1, "title": "x"}"#.utf8)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("magma-direct-\(UUID().uuidString).json")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let row = InputRow(id: 1, title: "x")
        #expect(try JSONAdapter.model(InputRow.self, from: url) == row)
        #expect(try bytes.withUnsafeBytes { try JSONAdapter.model(InputRow.self, from: $0) } == row)
        #expect(try JSONAdapter.model(InputRow.self, from: bytes) == row)
        // A handle is read from where it stands, and stays open.
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        try handle.seek(toOffset: 2)
        #expect(try JSONAdapter.model(InputRow.self, from: handle) == row)
        try handle.seek(toOffset: 0)
        #expect(try JSONAdapter.model(InputRow.self, from: handle) == row)
    }

    /// An empty input is an error from every source, and holds no records.
    @Test func anEmptyInputFromEverySource() throws {
        try forEveryInput("") { name, input throws in
            let error = thrownJSONError(name) { _ = try JSONAdapter.model(InputRow.self, from: input) }
            #expect(error?.code == .unexpectedEnd, "\(name)")
        }
        try forEveryInput("") { name, input throws in
            var count = 0
            try JSONAdapter.forEachRecordInParallel(InputRow.self, from: input, concurrency: 2) { _ in count += 1 }
            #expect(count == 0, "\(name)")
        }
    }

    /// Nothing is fetched: a URL that is not a file's is an I/O error naming it, from a document,
    /// a record stream and a parallel stream (where it reaches the stream through its pipe).
    @Test func aURLThatIsNotAFilesIsAnIOError() {
        let url = URL(string: "https://example.com/issues.json")!
        for (name, read) in [
            ("model", { _ = try JSONAdapter.model(InputRow.self, from: url) }),
            ("records", { try JSONAdapter.forEachRecord(InputRow.self, from: url, layout: .ndjson) { _ in } }),
            ("parallel", { try JSONAdapter.forEachRecordInParallel(InputRow.self, from: url) { _ in } }),
        ] as [(String, () throws -> Void)] {
            let error = thrownJSONError(name, read)
            #expect(error?.code == .io && error?.message.contains("https://example.com/issues.json") == true, "\(name)")
        }
    }

    @Test func aDirectoryIsAnIOErrorNamingIt() {
        let path = FileManager.default.temporaryDirectory.path
        let records = thrownJSONError("records") { try JSONAdapter.forEachRecord(InputRow.self, from: .file(path), layout: .ndjson) { _ in } }
        #expect(records?.code == .io && records?.message.contains(path) == true)
        let document = thrownJSONError("model") { _ = try JSONAdapter.model(InputRow.self, from: .file(path)) }
        #expect(document?.code == .io && document?.message.contains(path) == true)
    }

    /// A parallel stream that stops at its first bad line stops pulling chunks: most are never read.
    @Test func aParallelStreamOfChunksThatStopsPullsNoMore() throws {
        let pulled = PulledChunks()
        let error = thrownJSONError("chunks") {
            try JSONAdapter.forEachRecordInParallel(InputRow.self, from: .chunks(CountedChunks(pulled: pulled)), windowBytes: 64 << 10,
                                                    concurrency: 2) { _ in }
        }
        #expect(error?.code == .typeMismatch && error?.line == 1)
        #expect(pulled.count < CountedChunks.total / 2, "pulled \(pulled.count) of \(CountedChunks.total)")
    }

    @Test func aMissingFileIsAnIOErrorNamingIt() {
        let path = "/nonexistent/magma-input.json"
        let document = thrownJSONError("model") { _ = try JSONAdapter.model(InputRow.self, from: .file(path)) }
        #expect(document?.code == .io && document?.message.contains(path) == true)
        let records = thrownJSONError("records") { try JSONAdapter.forEachRecord(InputRow.self, from: .file(path), layout: .ndjson) { _ in } }
        #expect(records?.code == .io && records?.message.contains(path) == true)
    }

    /// The spellings from before `JSONInput` forward to the new entry points (deprecated for one
    /// release; this test is marked deprecated so that calling them does not warn).
    @available(*, deprecated)
    @Test func theOldSpellingsForward() async throws {
        let bytes = Array(Self.array.utf8)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("magma-old-\(UUID().uuidString).json")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var report = DecodingReport()
        #expect(try JSONAdapter.models(InputRow.self, fromChunks: chunks(bytes, 3)) == Self.rows)
        #expect(try JSONAdapter.models(InputRow.self, fromChunks: chunks(bytes, 3), report: &report) == Self.rows)
        #expect(try JSONAdapter.models(InputRow.self, contentsOf: url) == Self.rows)
        #expect(try JSONAdapter.value(fromChunks: chunks(bytes, 3), .json) == JSONAdapter.value(from: bytes, .json))
        let object = Array(#"{"id": 7}"#.utf8)
        #expect(try JSONAdapter.model(InputRow.self, fromChunks: chunks(object, 2)) == InputRow(id: 7))
        #expect(try JSONAdapter.model(InputRow.self, fromChunks: chunks(object, 2), report: &report) == InputRow(id: 7))
        // The report goes through: each read defaults one invalid status.
        var defaults = DecodingReport()
        let order = #"{"id": 1, "tags": [], "status": "x"}"#
        #expect(try JSONAdapter.model(Order33.self, from: order, report: &defaults).status == .open)
        #expect(try JSONAdapter.models(Order33.self, from: "[\(order)]", report: &defaults).count == 1)
        #expect(try JSONAdapter.modelsInParallel(Order33.self, ndjson: order + "\n", report: &defaults).models.count == 1)
        #expect(defaults.defaultedCount == 3)
        try Data(object).write(to: url)
        #expect(try JSONAdapter.model(InputRow.self, contentsOf: url) == InputRow(id: 7))
        try Data(bytes).write(to: url)
        #expect(try JSONAdapter.modelsByKey(InputRow.self, fromChunks: [Array(#"{"k": {"id": 1}}"#.utf8)]) == ["k": InputRow(id: 1)])
        #expect(try JSONAdapter.values(Int.self, fromChunks: [Array("[1,".utf8), Array("2]".utf8)]) == [1, 2])
        #expect(try JSONAdapter.modelsByKey(InputRow.self, from: #"{"k": {"id": 1}}"#) == ["k": InputRow(id: 1)])
        #expect(try JSONAdapter.values(Int.self, from: "[1, 2]") == [1, 2])
        var row = InputRow(id: 1)
        try JSONAdapter.update(&row, fromChunks: [Array(#"{"title": "t"}"#.utf8)])
        #expect(row == InputRow(id: 1, title: "t"))
        var ids: [Int] = []
        try JSONAdapter.forEachRecord(InputRow.self, in: Data(bytes), layout: .array) { ids.append($0.id) }
        try JSONAdapter.forEachRecord(InputRow.self, atPath: url.path, layout: .array) { ids.append($0.id) }
        try JSONAdapter.forEachRecord(InputPlain.self, in: Data(bytes), layout: .array, decoder: MagmaDecoder()) { ids.append($0.id) }
        try JSONAdapter.forEachRecord(InputPlain.self, atPath: url.path, layout: .array, decoder: MagmaDecoder()) { ids.append($0.id) }
        for try await row in JSONAdapter.records(InputRow.self, atPath: url.path, layout: .array) { ids.append(row.id) }
        for try await row in JSONAdapter.records(InputPlain.self, atPath: url.path, layout: .array, decoder: MagmaDecoder()) { ids.append(row.id) }
        let handle = try FileHandle(forReadingFrom: url)
        for try await row in JSONAdapter.records(InputRow.self, from: handle, layout: .array) { ids.append(row.id) }
        var parallel: [Int] = []
        let ndjson = url.deletingPathExtension().appendingPathExtension("ndjson")
        try Data("{\"id\": 1}\n{\"id\": 2}\n".utf8).write(to: ndjson)
        defer { try? FileManager.default.removeItem(at: ndjson) }
        try JSONAdapter.forEachRecordInParallel(InputRow.self, atPath: ndjson.path) { parallel.append($0.id) }
        try JSONAdapter.forEachRecordInParallel(InputPlain.self, atPath: ndjson.path, decoder: MagmaDecoder()) { parallel.append($0.id) }
        let (states, _) = try JSONAdapter.forEachRecordInParallel(InputRow.self, atPath: ndjson.path, concurrency: 1,
                                                                  makeState: { [Int]() }) { $0.append($1.id) }
        #expect(parallel + states.flatMap { $0 } == [1, 2, 1, 2, 1, 2])
        var split: [Int] = []
        try JSONAdapter.forEachRecord(InputRow.self, in: Data("{\"id\": 1}\n{\"id\": 2}\n".utf8), byteRange: 0..<5) { split.append($0.id) }
        try JSONAdapter.forEachRecord(InputPlain.self, in: Data("{\"id\": 1}\n{\"id\": 2}\n".utf8), byteRange: 5..<20,
                                      decoder: MagmaDecoder()) { split.append($0.id) }
        #expect(split == [1, 2])
        let other = try FileHandle(forReadingFrom: url)
        for try await row in JSONAdapter.records(InputPlain.self, from: other, layout: .array, decoder: MagmaDecoder()) { ids.append(row.id) }
        let envelope = Data(#"{"total": 2, "items": [{"id": 1}, {"id": 2}]}"#.utf8)
        let (page, _) = try JSONAdapter.forEachRecord(InputRow.self, in: envelope, at: "items", envelope: InputPage.self) { ids.append($0.id) }
        #expect(page.total == 2)
        let decoder = RecordDecoder(InputRow.self, at: "items", envelope: InputPage.self) { ids.append($0.id) }
        try decoder.read(from: envelope)
        #expect(decoder.envelope(InputPage.self)?.total == 2)
        let pieces = AsyncStream<Data> { $0.yield(envelope); $0.finish() }
        let stream = JSONAdapter.records(InputRow.self, from: pieces, at: "items", envelope: InputPage.self)
        for try await row in stream { ids.append(row.id) }
        #expect(stream.envelope(InputPage.self)?.total == 2)
        #expect(ids == Array(repeating: [1, 2], count: 11).flatMap { $0 })
    }
}

@JSONModel struct InputPage {
    var total = 0
}

/// How many chunks a `CountedChunks` gave.
final class PulledChunks: @unchecked Sendable {
    private let lock = NSLock()
    private var pulled = 0
    var count: Int { lock.withLock { pulled } }
    func add() { lock.withLock { pulled += 1 } }
}

/// A bad NDJSON line, then `total` chunks of good lines (64 KiB each), counting those pulled.
struct CountedChunks: Sequence, Sendable {
    static let total = 400
    static let good = Array(repeating: Array("{\"id\": 1}\n".utf8), count: 64 << 10 / 10).flatMap { $0 }
    let pulled: PulledChunks

    func makeIterator() -> AnyIterator<[UInt8]> {
        var index = -1
        return AnyIterator {
            index += 1
            guard index <= Self.total else { return nil }
            if index > 0 { pulled.add() }
            return index == 0 ? Array("{\"id\": false}\n".utf8) : Self.good
        }
    }
}
