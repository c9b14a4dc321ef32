// The record streams' `Codable` forms (issue 30): NDJSONWriter of `Encodable` values, each line
// JSONEncoder's bytes; and `forEachRecordInParallel` of `Decodable` records, the model form's
// threads, window and error placing.
import Foundation
import Testing
@testable import Magma

@Suite struct EncodableNDJSONWriterTests {
    struct Event: Codable, Equatable {
        var id: Int
        var name: String
        var when: Date
        var tags: [String: Int]
        var score: Double?
    }

    static func events(_ count: Int) -> [Event] {
        (0..<count).map { k in
            Event(id: k, name: "event \(k) \u{e9}/\"", when: Date(timeIntervalSince1970: Double(k) * 1_000.5),
                  tags: ["b\(k % 3)": k, "a": -k], score: k % 4 == 0 ? nil : Double(k) / 3)
        }
    }

    /// Each line is what JSONEncoder gives the value (configured alike, pretty printing left out),
    /// then a newline, whatever the buffer size.
    @Test(arguments: [16, 1 << 16])
    func lines_areJSONEncodersBytes(bufferSize: Int) throws {
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        foundation.dateEncodingStrategy = .iso8601
        foundation.keyEncodingStrategy = .convertToSnakeCase
        let encoder = MagmaEncoder(foundation)
        encoder.outputFormatting.insert(.prettyPrinted)
        var output = Data(), flushes = 0
        let writer = NDJSONWriter<Event>(encoder: encoder, bufferSize: bufferSize) { output.append(contentsOf: $0); flushes += 1 }
        let events = Self.events(50)
        for event in events { try writer.write(event) }
        try writer.flush()
        let expected = try events.reduce(into: Data()) { $0 += try foundation.encode($1) + Data("\n".utf8) }
        #expect(output == expected)
        #expect(writer.recordsWritten == 50)
        #expect(bufferSize > 100 ? flushes == 1 : flushes > 40)
        #expect(encoder.outputFormatting.contains(.prettyPrinted), "the caller's encoder is left as it was")
    }

    /// A value that cannot be encoded throws JSONEncoder's error and writes nothing of itself.
    @Test func failingValue_writesNothing() throws {
        var output = Data()
        let writer = NDJSONWriter<[Double]>(encoder: MagmaEncoder()) { output.append(contentsOf: $0) }
        try writer.write([1, 2])
        let error = #expect(throws: EncodingError.self) { try writer.write([3, .nan]) }
        #expect(error.map { CoderError($0) } == CoderOutcome<Data> { try JSONEncoder().encode([3, Double.nan]) }.error)
        try writer.write([4])
        try writer.flush()
        #expect(String(decoding: output, as: UTF8.self) == "[1,2]\n[4]\n")
        #expect(writer.recordsWritten == 2)
    }

    /// Through a file handle, read back line by line as the values written.
    @Test func fileHandle_linesReadBack() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ndjson-\(UUID()).ndjson")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: url) }
        let events = Self.events(20)
        do {
            let handle = try FileHandle(forWritingTo: url)
            let writer = NDJSONWriter<Event>(fileHandle: handle, encoder: MagmaEncoder())
            for event in events { try writer.write(event) }
            try writer.flush()
            try handle.close()
        }
        var read: [Event] = []
        try JSONAdapter.forEachRecord(Event.self, from: .file(url.path), layout: .ndjson, decoder: MagmaDecoder()) { read.append($0) }
        #expect(read == events)
    }
}

@Suite struct DecodableParallelStreamTests {
    struct Row: Decodable, Equatable, Sendable {
        let id: Int
        let text: String?
    }

    static func sequential(_ data: Data, policy: RecordDecoder<Row>.ErrorPolicy) -> (ids: [Int], skipped: [JSONError], error: JSONError?) {
        var ids: [Int] = []
        do {
            let skipped = try JSONAdapter.forEachRecord(Row.self, from: data, layout: .ndjson, decoder: MagmaDecoder(), errorPolicy: policy) {
                ids.append($0.id)
            }
            return (ids, Array(skipped), nil)
        } catch {
            return (ids, [], error as? JSONError)
        }
    }

    /// Every record, in order (or not), and the bad lines placed in the whole document as the
    /// sequential stream places them.
    @Test(arguments: [true, false])
    func skipPolicy_asTheSequentialStream(ordered: Bool) throws {
        let data = ParallelStreamTests.document(20_000, bad: [5, 7_777, 15_001, 20_100])
        let expected = Self.sequential(data, policy: .skip)
        #expect(expected.skipped.count == 4 && expected.ids.count > 19_000)
        let url = try ParallelStreamTests.temporaryFile(data)
        defer { try? FileManager.default.removeItem(at: url) }
        let progress = ProgressHandle()
        var ids: [Int] = []
        // Each skip, with the records delivered before it (ordered, those before it in the input).
        var skips: [(error: JSONError, after: Int)] = []
        let skipped = try JSONAdapter.forEachRecordInParallel(Row.self, from: .file(url.path), decoder: MagmaDecoder(), errorPolicy: .skip,
                                                              progress: progress, ordered: ordered, windowBytes: 64 << 10, concurrency: 3,
                                                              onSkip: { skips.append(($0, ids.count)) }) {
            ids.append($0.id)
        }
        #expect(ordered ? ids == expected.ids : ids.sorted() == expected.ids)
        #expect(skipped.map(StreamOutcome.summary) == expected.skipped.map(StreamOutcome.summary))
        #expect(skips.map { StreamOutcome.summary($0.error) } == expected.skipped.map(StreamOutcome.summary))
        if ordered {
            // The records before a skip: its record index, less the skips before it.
            let before = expected.skipped.enumerated().map { index, error in error.recordIndex! - index }
            #expect(skips.map(\.after) == before)
        }
        #expect(progress.current.records == expected.ids.count && progress.current.skipped == 4)
    }

    /// From a pipe, stopping: the records before the first bad line, then its error.
    @Test func stopPolicy_fromAPipe_asTheSequentialStream() throws {
        let data = ParallelStreamTests.document(20_000, bad: [9_000, 15_000])
        let expected = Self.sequential(data, policy: .stop)
        let expectedError = try #require(expected.error)
        let pipe = Pipe.feeding(data)
        var ids: [Int] = []
        let error = #expect(throws: JSONError.self) {
            try JSONAdapter.forEachRecordInParallel(Row.self, from: pipe.fileHandleForReading, decoder: MagmaDecoder(),
                                                    windowBytes: 32 << 10, concurrency: 3) { ids.append($0.id) }
        }
        #expect(error.map(StreamOutcome.summary) == StreamOutcome.summary(expectedError))
        #expect(ids == expected.ids)
    }

    /// The decoder's strategies read every record; the bytes read never run past the window.
    @Test func decoderStrategies_andTheWindow() throws {
        struct Snake: Decodable, Sendable { let rowId: Int; let rowText: String }
        let lines = (0..<5_000).map { "{\"row_id\": \($0), \"row_text\": \"\(String(repeating: "z", count: $0 % 60))\"}" }
        let data = Data((lines.joined(separator: "\n") + "\n").utf8)
        let url = try ParallelStreamTests.temporaryFile(data)
        defer { try? FileManager.default.removeItem(at: url) }
        let decoder = MagmaDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let descriptor = open(url.path, O_RDONLY)
        defer { close(descriptor) }
        let window = 32 << 10
        let stream = ParallelRecordStream<Snake>(descriptor: descriptor, codec: DecodableRecordCodec<Snake>(decoder), options: decoder.options,
                                               errorPolicy: .stop, progress: nil, ordered: true, windowBytes: window, concurrency: 2,
                                               batchBytes: 4096)
        var next = 0
        _ = try stream.run { row in
            #expect(row.rowId == next && row.rowText.count == next % 60)
            next += 1
        }
        #expect(next == 5_000)
        #expect(stream.peakInFlight <= window)
    }
}
