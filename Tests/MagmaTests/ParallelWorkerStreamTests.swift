import Foundation
import Synchronization
import Testing
@testable import Magma

/// `forEachRecordInParallel(…makeState:_:)`: NDJSON decoded on several threads, each record given
/// to `body` on the thread that decoded it, with that thread's state.
@Suite struct ParallelWorkerStreamTests {
    typealias Line = ParallelStreamTests.Line

    /// The input, from its path or through a pipe.
    enum Source: CaseIterable { case path, pipe }

    /// Runs the workers' form over `data` and returns the ids `body` saw (sorted: batches come in
    /// no set order), the skipped errors, the error thrown, and how many states came back.
    static func run(_ data: Data, from source: Source, policy: RecordDecoder<Line>.ErrorPolicy, windowBytes: Int,
                    concurrency: Int, progress: ProgressHandle? = nil)
        -> (ids: [Int], skipped: [JSONError], error: JSONError?, states: Int) {
        let seen = Mutex<[Int]>([])
        func collect(_ body: () throws -> (states: [[Int]], skipped: SkippedRecords)) -> (ids: [Int], skipped: [JSONError], error: JSONError?, states: Int) {
            do {
                let (states, skipped) = try body()
                return (states.flatMap { $0 }.sorted(), Array(skipped), nil, states.count)
            } catch {
                return (seen.withLock { $0 }.sorted(), [], error as? JSONError, 0)
            }
        }
        // What `body` saw is also kept outside the states, for the runs that throw.
        let body: @Sendable (inout [Int], Line) -> Void = { ids, line in
            ids.append(line.id)
            seen.withLock { $0.append(line.id) }
        }
        switch source {
        case .path:
            let url = try! ParallelStreamTests.temporaryFile(data)
            defer { try? FileManager.default.removeItem(at: url) }
            return collect {
                try JSONAdapter.forEachRecordInParallel(Line.self, from: .file(url.path), errorPolicy: policy, progress: progress,
                                                        windowBytes: windowBytes, concurrency: concurrency, makeState: { [] }, body)
            }
        case .pipe:
            let pipe = Pipe.feeding(data)
            return collect {
                try JSONAdapter.forEachRecordInParallel(Line.self, from: pipe.fileHandleForReading, errorPolicy: policy, progress: progress,
                                                        windowBytes: windowBytes, concurrency: concurrency, makeState: { [] }, body)
            }
        }
    }

    /// The batch size follows the window (a quarter of it per thread, 4 KiB at least): small
    /// windows cut the input into many batches at every kind of place.
    static let windows = [8 << 10, 40 << 10, 8 << 20]

    @Test(arguments: Source.allCases, [1, 3])
    func skipPolicy_givesEveryRecordOnce_andPlacesErrorsInTheDocument(source: Source, concurrency: Int) throws {
        let data = ParallelStreamTests.document(12_000, bad: [5, 4_444, 9_001, 12_100])
        let expected = ParallelStreamTests.sequential(data)
        #expect(expected.skipped.count == 4)
        for window in Self.windows {
            let progress = ProgressHandle()
            let result = Self.run(data, from: source, policy: .skip, windowBytes: window, concurrency: concurrency, progress: progress)
            #expect(result.error == nil)
            #expect(result.ids == expected.ids.sorted(), "window \(window)")
            #expect(result.states == concurrency)
            #expect(result.skipped.map(StreamOutcome.summary) == expected.skipped.map(StreamOutcome.summary), "window \(window)")
            let final = progress.current
            #expect(final.bytes == data.count && final.records == expected.ids.count && final.skipped == 4, "window \(window)")
        }
    }

    /// With `.stop`, `body` is given exactly the records before the first bad line (in input
    /// order), though batches after it decode meanwhile; the error is the sequential decoder's.
    @Test(arguments: Source.allCases, [2, 3])
    func stopPolicy_givesExactlyTheRecordsBeforeTheFirstBadLine(source: Source, concurrency: Int) throws {
        for bad in [[1], [3_001, 3_002], [6_500, 11_000], [11_999]] {
            let data = ParallelStreamTests.document(12_000, bad: Set(bad))
            let expected = ParallelStreamTests.sequential(data, policy: .stop)
            let expectedError = try #require(expected.error)
            for window in Self.windows {
                let progress = ProgressHandle()
                let result = Self.run(data, from: source, policy: .stop, windowBytes: window, concurrency: concurrency, progress: progress)
                #expect(result.error.map(StreamOutcome.summary) == StreamOutcome.summary(expectedError), "bad \(bad), window \(window)")
                #expect(result.ids == expected.ids.sorted(), "bad \(bad), window \(window)")
                #expect(progress.current.records == expected.ids.count)
            }
        }
    }

    /// The issue's case with a macro model: a bad line far into many batches is placed in the
    /// whole document, skipped or thrown.
    @Test func errorOnLine100001_reportsThatLineAndItsDocumentOffset() throws {
        let lines = (1...120_000).map { $0 == 100_001 ? "{\"id\": true}" : "{\"id\": \($0)}" }
        let data = Data((lines.joined(separator: "\n") + "\n").utf8)
        let offset = lines[..<100_000].reduce(0) { $0 + $1.utf8.count + 1 } + "{\"id\": ".utf8.count
        let url = try ParallelStreamTests.temporaryFile(data)
        defer { try? FileManager.default.removeItem(at: url) }
        let (counts, skipped) = try JSONAdapter.forEachRecordInParallel(
            FileRow.self, from: .file(url.path), errorPolicy: .skip, windowBytes: 256 << 10, concurrency: 2, makeState: { (rows: 0, sum: 0) }
        ) { state, row in
            state.rows += 1
            state.sum += row.id
        }
        #expect(counts.reduce(0) { $0 + $1.rows } == 119_999)
        #expect(counts.reduce(0) { $0 + $1.sum } == 120_000 * 120_001 / 2 - 100_001)
        #expect(skipped.map(\.line) == [100_001] && skipped.map(\.offset) == [offset])
        #expect(skipped.map(\.recordIndex) == [100_000] && skipped.map(\.column) == [8])
        let error = #expect(throws: JSONError.self) {
            try JSONAdapter.forEachRecordInParallel(FileRow.self, from: .file(url.path), windowBytes: 256 << 10, concurrency: 2,
                                                    makeState: { 0 }) { count, _ in count += 1 }
        }
        #expect(error?.line == 100_001 && error?.offset == offset && error?.code == .typeMismatch)
    }

    /// What `body` throws comes out as it was thrown, and no batch is begun after it: the other
    /// threads end the batch they are in.
    @Test func bodyError_isRethrownAsItIs_andStopsTheStream() throws {
        let data = ParallelStreamTests.document(20_000)
        let url = try ParallelStreamTests.temporaryFile(data)
        defer { try? FileManager.default.removeItem(at: url) }
        let seen = Atomic<Int>(0), seenAtThrow = Atomic<Int>(0)
        let error = #expect(throws: JSONError.self) {
            try JSONAdapter.forEachRecordInParallel(Line.self, from: .file(url.path), windowBytes: 16 << 10, concurrency: 2,
                                                    makeState: { 0 }) { _, line in
                let count = seen.add(1, ordering: .relaxed).newValue
                if line.id == 1000 {
                    seenAtThrow.store(count, ordering: .relaxed)
                    throw JSONError(.validationFailed, "the caller's")
                }
            }
        }
        #expect(error?.message == "the caller's" && error?.offset == nil && error?.line == nil)
        // Batches of 4 KiB hold about 130 lines: after the throw, the other thread ends the batch
        // it is in, and stops. (Counted from the throw: before it, a thread that a loaded machine
        // holds back lets the other run ahead any number of batches.)
        let after = seen.load(ordering: .relaxed) - seenAtThrow.load(ordering: .relaxed)
        #expect(seenAtThrow.load(ordering: .relaxed) > 0 && after < 300, "\(after) records after the throw")
    }

    /// A slow `body`: the bytes read and not yet given to `body` (a worker's batch, and those
    /// parked) never pass the window, from a pipe or a file.
    @Test(arguments: Source.allCases)
    func window_boundsTheBytesReadAheadOfBody(source: Source) throws {
        let data = ParallelStreamTests.document(20_000)
        let url = try ParallelStreamTests.temporaryFile(data)
        defer { try? FileManager.default.removeItem(at: url) }
        let window = 48 << 10
        for policy in [RecordDecoder<Line>.ErrorPolicy.stop, .skip] {
            let pipe = source == .pipe ? Pipe.feeding(data) : Pipe()
            let descriptor = source == .path ? open(url.path, O_RDONLY) : pipe.fileHandleForReading.fileDescriptor
            defer { if source == .path { close(descriptor) } }
            let stream = ParallelRecordStream<Line>(descriptor: descriptor, options: .init(), errorPolicy: policy, progress: nil,
                                                  ordered: false, windowBytes: window, concurrency: 3, batchBytes: 4096)
            #expect((stream.file != nil) == (source == .path))
            let run = ParallelWorkerRun(stream: stream, makeState: { 0 }) { count, _ in
                count += 1
                if count % 300 == 0 { Thread.sleep(forTimeInterval: 0.002) }
            }
            let (counts, _) = try run.run()
            #expect(counts.reduce(0, +) == ParallelStreamTests.sequential(data).ids.count)
            #expect(stream.peakInFlight <= window)
            #expect(stream.peakInFlight >= 4096)
        }
    }

    /// A file read by ranges gives the records and errors of the sequential decoder, in order
    /// (the calling thread's form), whatever the range size: a range may begin or end on a
    /// newline, inside a line, or hold no line start at all. A handle already read into begins there.
    @Test func fileRanges_equalTheSequentialDecoder_atEveryRangeSize() throws {
        let data = ParallelStreamTests.document(2_000, bad: [3, 777, 1_500])
        let url = try ParallelStreamTests.temporaryFile(data)
        defer { try? FileManager.default.removeItem(at: url) }
        let skipTo = data.firstIndex(of: 0x0A)! + 1
        for offset in [0, skipTo] {
            let expected = ParallelStreamTests.sequential(data[offset...])
            for batchBytes in [1, 2, 7, 64, 333, 4096, 1 << 20] {
                let descriptor = open(url.path, O_RDONLY)
                defer { close(descriptor) }
                lseek(descriptor, off_t(offset), SEEK_SET)
                let stream = ParallelRecordStream<Line>(descriptor: descriptor, options: .init(), errorPolicy: .skip, progress: nil,
                                                      ordered: true, windowBytes: 64 << 10, concurrency: 3, batchBytes: batchBytes)
                #expect(stream.file?.base == offset && stream.file?.size == data.count - offset)
                var ids: [Int] = []
                let skipped = try stream.run { ids.append($0.id) }
                #expect(ids == expected.ids, "offset \(offset), ranges of \(batchBytes)")
                #expect(skipped.map(StreamOutcome.summary) == expected.skipped.map(StreamOutcome.summary), "offset \(offset), ranges of \(batchBytes)")
                #expect(lseek(descriptor, 0, SEEK_CUR) == data.count, "left at its end")
            }
        }
    }

    /// Empty input, blank lines only, a last line without its newline, a line longer than the window.
    @Test func edges() throws {
        let long = "{\"id\": 2, \"text\": \"\(String(repeating: "z", count: 100_000))\"}"
        for (text, ids) in [("", [Int]()), ("\n\n", []), ("{\"id\": 1}\n{\"id\": 2}", [1, 2]), ("{\"id\": 1}\n\(long)\n{\"id\": 3}\n", [1, 2, 3])] {
            for source in Source.allCases {
                let result = Self.run(Data(text.utf8), from: source, policy: .stop, windowBytes: 8 << 10, concurrency: 2)
                #expect(result.error == nil && result.ids == ids, "\(source) \(text.prefix(30).debugDescription)")
            }
        }
    }
}
