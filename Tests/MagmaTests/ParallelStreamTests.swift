import Foundation
import Synchronization
import Testing
@testable import Magma

/// `forEachRecordInParallel`: NDJSON from a path, a file handle or standard input, decoded on
/// several threads, delivered in order (or not) through a bounded window.
@Suite struct ParallelStreamTests {
    @JSONModel struct Line: Equatable, Sendable {
        @Required var id = 0
        var text = ""
    }

    /// `count` lines of varied length with blank lines and CRLF; the 1-based lines in `bad` hold
    /// a type mismatch, a syntax error or trailing content in turn.
    static func document(_ count: Int, bad: Set<Int> = []) -> Data {
        var g = SeededGenerator(seed: 11)
        var text = ""
        var line = 0
        for i in 0..<count {
            line += 1
            if bad.contains(line) {
                text += ["{\"id\": \"bad\"}", "  {\"id\": tru}", "{\"id\": 1} x"][line % 3] + "\n"
                continue
            }
            text += "{\"id\": \(i), \"text\": \"\(String(repeating: "x", count: Int.random(in: 0...40, using: &g)))\"}"
            text += i % 7 == 3 ? "\r\n" : "\n"
            if i % 11 == 5 { text += "\n"; line += 1 }
        }
        return Data(text.utf8)
    }

    static func temporaryFile(_ data: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parallel-\(UUID()).ndjson")
        try data.write(to: url)
        return url
    }

    static func sequential(_ data: Data, policy: RecordDecoder<Line>.ErrorPolicy = .skip) -> (ids: [Int], skipped: [JSONError], error: JSONError?) {
        var ids: [Int] = []
        do {
            let skipped = try JSONAdapter.forEachRecord(Line.self, from: data, layout: .ndjson, errorPolicy: policy) { ids.append($0.id) }
            return (ids, Array(skipped), nil)
        } catch {
            return (ids, [], error as? JSONError)
        }
    }

    @Test(arguments: [true, false])
    func skipPolicy_deliversEveryRecord_andPlacesErrorsInTheDocument(ordered: Bool) throws {
        let data = Self.document(20_000, bad: [5, 7_777, 15_001, 20_100])
        let expected = Self.sequential(data)
        #expect(expected.skipped.count == 4)
        let url = try Self.temporaryFile(data)
        defer { try? FileManager.default.removeItem(at: url) }
        let progress = ProgressHandle()
        var ids: [Int] = []
        let skipped = try JSONAdapter.forEachRecordInParallel(Line.self, from: .file(url.path), errorPolicy: .skip, progress: progress,
                                                              ordered: ordered, windowBytes: 64 << 10, concurrency: 3) {
            ids.append($0.id)
        }
        #expect(ordered ? ids == expected.ids : ids.sorted() == expected.ids)
        #expect(skipped.map(StreamOutcome.summary) == expected.skipped.map(StreamOutcome.summary))
        let final = progress.current
        #expect(final.bytes == data.count && final.records == expected.ids.count && final.skipped == 4)
    }

    /// The issue's case: a bad line far into an input of many batches is reported with its line
    /// and its byte offset in the whole document (a macro model).
    @Test(arguments: [true, false])
    func errorOnLine100001_reportsThatLineAndItsDocumentOffset(ordered: Bool) throws {
        let lines = (1...120_000).map { $0 == 100_001 ? "{\"id\": true}" : "{\"id\": \($0)}" }
        let data = Data((lines.joined(separator: "\n") + "\n").utf8)
        let offset = lines[..<100_000].reduce(0) { $0 + $1.utf8.count + 1 } + "{\"id\": ".utf8.count
        let url = try Self.temporaryFile(data)
        defer { try? FileManager.default.removeItem(at: url) }
        var count = 0
        let skipped = try JSONAdapter.forEachRecordInParallel(FileRow.self, from: .file(url.path), errorPolicy: .skip, ordered: ordered,
                                                              windowBytes: 256 << 10, concurrency: 2) { _ in count += 1 }
        #expect(count == 119_999)
        #expect(skipped.map(\.line) == [100_001])
        #expect(skipped.map(\.offset) == [offset])
        #expect(skipped.map(\.recordIndex) == [100_000])
        #expect(skipped.map(\.column) == [8])
        // Stopping, the same error is thrown.
        let error = #expect(throws: JSONError.self) {
            try JSONAdapter.forEachRecordInParallel(FileRow.self, from: .file(url.path), ordered: ordered, windowBytes: 256 << 10,
                                                    concurrency: 2) { _ in }
        }
        #expect(error?.line == 100_001 && error?.offset == offset && error?.code == .typeMismatch)
    }

    /// With `.stop`, in order, the records before the first bad line are delivered, none after,
    /// and its error is thrown as the sequential decoder throws it.
    @Test(arguments: [true, false])
    func stopPolicy_stopsAsTheSequentialForm(ordered: Bool) throws {
        let data = Self.document(20_000, bad: [9_000, 15_000])
        let expected = Self.sequential(data, policy: .stop)
        let expectedError = try #require(expected.error)
        let pipe = Pipe.feeding(data)
        var ids: [Int] = []
        let error = #expect(throws: JSONError.self) {
            try JSONAdapter.forEachRecordInParallel(Line.self, from: pipe.fileHandleForReading, ordered: ordered,
                                                    windowBytes: 32 << 10, concurrency: 3) { ids.append($0.id) }
        }
        #expect(error.map(StreamOutcome.summary) == StreamOutcome.summary(expectedError))
        if ordered {
            #expect(ids == expected.ids)
        } else {
            #expect(Set(expected.ids).isSubset(of: Set(ids)), "every record before the bad line")
        }
    }

    /// A top-level array through the public forms, from a file, a pipe and bytes in memory, in a
    /// small window: the records and the skipped errors the sequential decoder gives, a bad record
    /// among them, the window bounding the bytes read ahead (the array is cut, not read whole).
    @Test func array_fromAFileAPipeAndMemory() throws {
        var text = "[\n"
        for i in 0..<6000 {
            text += i == 4321 ? "{\"id\": \"bad\"}" : "{\"id\": \(i), \"text\": \"a}, {[\\\"\(String(repeating: "z", count: i % 30))\"}"
            text += i == 5999 ? "\n]\n" : i % 3 == 0 ? ",\n" : ", "
        }
        let data = Data(text.utf8)
        var expected: [Line] = []
        let expectedSkipped = try JSONAdapter.forEachRecord(Line.self, from: data, layout: .array, errorPolicy: .skip) {
            expected.append($0)
        }.map(StreamOutcome.summary)
        #expect(expected.count == 5999 && expectedSkipped.count == 1)
        let url = try Self.temporaryFile(data)
        defer { try? FileManager.default.removeItem(at: url) }
        for input in [JSONInput.file(url.path), Pipe.feeding(data).fileHandleForReading.jsonInput, data.jsonInput] {
            var models: [Line] = []
            let progress = ProgressHandle()
            let skipped = try JSONAdapter.forEachRecordInParallel(Line.self, from: input, layout: .array, errorPolicy: .skip, progress: progress,
                                                                  windowBytes: 32 << 10, concurrency: 3) { models.append($0) }
            #expect(models == expected)
            #expect(skipped.map(StreamOutcome.summary) == expectedSkipped)
            #expect(progress.current.bytes == data.count && progress.current.records == 5999)
        }
        let (states, skipped) = try JSONAdapter.forEachRecordInParallel(Line.self, from: data, layout: .array, errorPolicy: .skip,
                                                                        windowBytes: 32 << 10, concurrency: 3,
                                                                        makeState: { [Int]() }) { $0.append($1.id) }
        #expect(states.flatMap { $0 }.sorted() == expected.map(\.id))
        #expect(skipped.map(StreamOutcome.summary) == expectedSkipped)
        struct Row: Decodable, Sendable, Equatable { let id: Int }
        var rows: [Row] = []
        try JSONAdapter.forEachRecordInParallel(Row.self, from: data, layout: .array, decoder: MagmaDecoder(), errorPolicy: .skip,
                                                windowBytes: 32 << 10) { rows.append($0) }
        #expect(rows.map(\.id) == expected.map(\.id))
    }

    /// The last batch of an array reads on to the end of the input (for what follows the `]`), but
    /// stops when the stream does: here the caller throws at a record of an earlier batch, while
    /// a writer goes on sending blanks after the `]` until the call has returned.
    @Test func arrayTail_endsWhenTheStreamStops() throws {
        struct Stop: Error {}
        _ = Pipe.feeding(Data())  // SIGPIPE ignored
        let pipe = Pipe()
        let returned = Atomic<Bool>(false)
        let writer = pipe.fileHandleForWriting
        Thread {
            let records = (0..<3000).map { "{\"id\": \($0)}" }.joined(separator: ",")
            try? writer.write(contentsOf: Data("[\(records)]".utf8))
            let blanks = Data(repeating: 0x20, count: 1 << 16)
            while !returned.load(ordering: .acquiring) { if (try? writer.write(contentsOf: blanks)) == nil { break } }
            try? writer.close()
        }.start()
        let progress = ProgressHandle()
        #expect(throws: Stop.self) {
            try JSONAdapter.forEachRecordInParallel(Line.self, from: pipe.fileHandleForReading, layout: .array, progress: progress,
                                                    windowBytes: 64 << 10, concurrency: 2) { line in
                // Late enough for the last batch to have begun reading what follows the `]`.
                if line.id == 0 { Thread.sleep(forTimeInterval: 0.05) }
                if line.id == 2000 { throw Stop() }
            }
        }
        returned.store(true, ordering: .releasing)
        // Not read on until the blanks pass the record limit (256 MiB) and end the stream.
        #expect(progress.current.bytes < 128 << 20)
    }

    /// With comments allowed the input is not cut at newlines (a block comment may run across
    /// them, holding what looks like records): the records are the sequential decoder's.
    @Test func comments_areNotCut() throws {
        var text = ""
        for i in 0..<3000 {
            let commented = String(repeating: "{\"id\": -1}\n", count: 40)
            text += i % 50 == 7 ? "/* \(commented) */ {\"id\": \(i)}\n" : "{\"id\": \(i)} // \(i)\n"
        }
        var options = DecodingOptions()
        options.allowComments = true
        let data = Data(text.utf8)
        let ids = (0..<3000).map { $0 }
        var parallel: [Int] = []
        try JSONAdapter.forEachRecordInParallel(Line.self, from: data, options: options, windowBytes: 16 << 10, concurrency: 3) {
            parallel.append($0.id)
        }
        #expect(parallel == ids)
        let (states, _) = try JSONAdapter.forEachRecordInParallel(Line.self, from: Pipe.feeding(data).fileHandleForReading,
                                                                  options: options, windowBytes: 16 << 10, concurrency: 3,
                                                                  makeState: { [Int]() }) { $0.append($1.id) }
        #expect(states.flatMap { $0 }.sorted() == ids)
        struct Row: Decodable, Sendable { let id: Int }
        let decoder = MagmaDecoder()
        decoder.options.allowComments = true
        var rows: [Int] = []
        try JSONAdapter.forEachRecordInParallel(Row.self, from: data, decoder: decoder, windowBytes: 16 << 10) { rows.append($0.id) }
        #expect(rows == ids)
    }

    /// A slow caller: the bytes read never run further ahead of the lines delivered than the
    /// window, yet do run ahead (the workers decode while the caller works).
    @Test(arguments: [true, false])
    func window_boundsTheBytesReadAheadOfDelivery(ordered: Bool) throws {
        let lines = (0..<20_000).map { "{\"id\": \($0), \"text\": \"\(String(repeating: "y", count: $0 % 50))\"}" }
        let data = Data((lines.joined(separator: "\n") + "\n").utf8)
        let url = try Self.temporaryFile(data)
        defer { try? FileManager.default.removeItem(at: url) }
        let descriptor = open(url.path, O_RDONLY)
        defer { close(descriptor) }
        let window = 48 << 10
        let progress = ProgressHandle()
        let stream = ParallelRecordStream<Line>(descriptor: descriptor, options: .init(), errorPolicy: .stop, progress: progress,
                                              ordered: ordered, windowBytes: window, concurrency: 2, batchBytes: 4096)
        var mostAhead = 0, count = 0, delivered = 0
        _ = try stream.run { line in
            count += 1
            if count % 500 == 0 { Thread.sleep(forTimeInterval: 0.002) }
            delivered += lines[line.id].utf8.count + 1
            mostAhead = max(mostAhead, progress.bytes.load(ordering: .relaxed) - delivered)
        }
        #expect(count == 20_000)
        #expect(stream.peakInFlight <= window)
        #expect(mostAhead <= window)
        #expect(mostAhead > window / 2, "the reader ran ahead of the caller")
    }

    /// What `body` throws comes out as it was thrown (a `JSONError` of the caller's is not placed
    /// as a record's), and the stream stops.
    @Test func bodyError_isRethrownAsItIs() throws {
        let url = try Self.temporaryFile(Self.document(5_000))
        defer { try? FileManager.default.removeItem(at: url) }
        var count = 0
        let error = #expect(throws: JSONError.self) {
            try JSONAdapter.forEachRecordInParallel(Line.self, from: .file(url.path), windowBytes: 16 << 10) { _ in
                count += 1
                if count == 1000 { throw JSONError(.validationFailed, "the caller's") }
            }
        }
        #expect(error?.message == "the caller's" && error?.offset == nil && error?.line == nil)
        #expect(count == 1000)
    }

    @Test func missingPath_throwsIO() {
        let error = #expect(throws: JSONError.self) {
            try JSONAdapter.forEachRecordInParallel(Line.self, from: .file("/nonexistent/magma.ndjson")) { _ in }
        }
        #expect(error?.code == .io)
    }

    /// Empty input, and a last line without its newline.
    @Test func edges() throws {
        for (text, ids) in [("", [Int]()), ("\n\n", []), ("{\"id\": 1}\n{\"id\": 2}", [1, 2])] {
            let url = try Self.temporaryFile(Data(text.utf8))
            defer { try? FileManager.default.removeItem(at: url) }
            var seen: [Int] = []
            try JSONAdapter.forEachRecordInParallel(Line.self, from: .file(url.path)) { seen.append($0.id) }
            #expect(seen == ids, "\(text.debugDescription)")
        }
    }

    /// A line longer than the window is read alone, whole, and decoded.
    @Test func lineLongerThanTheWindow() throws {
        let long = "{\"id\": 2, \"text\": \"\(String(repeating: "z", count: 100_000))\"}"
        let url = try Self.temporaryFile(Data("{\"id\": 1}\n\(long)\n{\"id\": 3}\n".utf8))
        defer { try? FileManager.default.removeItem(at: url) }
        var seen: [Int] = []
        try JSONAdapter.forEachRecordInParallel(Line.self, from: .file(url.path), windowBytes: 8 << 10) { seen.append($0.id) }
        #expect(seen == [1, 2, 3])
    }
}
