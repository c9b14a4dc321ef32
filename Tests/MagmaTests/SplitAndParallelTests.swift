import Foundation
import Synchronization
import Testing
@testable import Magma

@Suite struct SplitAndParallelTests {
    @JSONModel struct Line: Equatable, Sendable {
        var id = 0
        var text = ""
    }

    /// NDJSON with lines of varied length, blank lines and CRLF.
    private func document(_ count: Int) -> Data {
        var g = SeededGenerator(seed: 42)
        var text = ""
        for i in 0..<count {
            text += "{\"id\": \(i), \"text\": \"\(String(repeating: "x", count: Int.random(in: 0...40, using: &g)))\"}"
            text += i % 7 == 3 ? "\r\n" : "\n"
            if i % 11 == 5 { text += "\n" }
        }
        return Data(text.utf8)
    }

    @Test func randomSplitSets_visitEveryRecordExactlyOnce() throws {
        let data = document(400)
        var g = SeededGenerator(seed: 7)
        for _ in 0..<60 {
            // Cut points anywhere, including inside lines, on newlines and at both ends.
            var cuts = Set<Int>([0, data.count])
            for _ in 0..<Int.random(in: 1...12, using: &g) { cuts.insert(Int.random(in: 0...data.count, using: &g)) }
            let sorted = cuts.sorted()
            var ids: [Int] = []
            for (a, b) in zip(sorted, sorted.dropFirst()) {
                try JSONAdapter.forEachRecord(Line.self, from: data, byteRange: a..<b) { ids.append($0.id) }
            }
            #expect(ids == Array(0..<400), "cuts \(sorted)")
        }
    }

    @Test func splitStartingExactlyOnALine_ownsThatLine() throws {
        let data = Data("{\"id\": 0}\n{\"id\": 1}\n{\"id\": 2}\n".utf8)
        var first: [Int] = [], second: [Int] = []
        try JSONAdapter.forEachRecord(Line.self, from: data, byteRange: 0..<10) { first.append($0.id) }
        try JSONAdapter.forEachRecord(Line.self, from: data, byteRange: 10..<data.count) { second.append($0.id) }
        #expect(first == [0])
        #expect(second == [1, 2])
    }

    /// A bad line on line 100,001 of a document cut into splits: a split reports its byte offset
    /// in the whole document (and its column), and no line, which a split cannot know; the
    /// parallel decoder, which adds up the lines of the splits before, reports the line too.
    @Test func errorOnLine100001_splitsGiveTheDocumentOffset_parallelTheLineToo() throws {
        let lines = (1...120_000).map { $0 == 100_001 ? "{\"id\": true}" : "{\"id\": \($0)}" }
        let data = Data((lines.joined(separator: "\n") + "\n").utf8)
        let offset = lines[..<100_000].reduce(0) { $0 + $1.utf8.count + 1 } + "{\"id\": ".utf8.count
        var skipped: [JSONError] = []
        var count = 0
        for split in 0..<8 {
            let range = data.count * split / 8..<data.count * (split + 1) / 8
            skipped += try JSONAdapter.forEachRecord(Line.self, from: data, byteRange: range, errorPolicy: .skip) { _ in count += 1 }
            if range.contains(offset) {
                let error = #expect(throws: JSONError.self) {
                    try JSONAdapter.forEachRecord(Line.self, from: data, byteRange: range) { _ in }
                }
                #expect(error?.offset == offset && error?.line == nil && error?.recordIndex == nil && error?.column == 8)
            }
        }
        #expect(count == 119_999)
        #expect(skipped.map(\.offset) == [offset])
        #expect(skipped.map(\.line) == [nil])
        #expect(skipped.map(\.column) == [8])
        let parallel = try JSONAdapter.modelsInParallel(Line.self, from: data, layout: .ndjson, errorPolicy: .skip)
        #expect(parallel.skipped.map(\.line) == [100_001])
        #expect(parallel.skipped.map(\.offset) == [offset])
    }

    /// A split counts its own bytes (its first line to the end of its last), records and skips
    /// in the handle it is given: the splits that tile a document add up to the whole.
    @Test(arguments: [1, 3, 8, 50])
    func split_countsItsProgress(splits: Int) throws {
        struct Plain: Decodable { let id: Int }
        var text = String(decoding: document(400), as: UTF8.self)
        text += "{\"id\": \"bad\"}\n{\"id\": 400}\n{\"id\": tru}\n"
        let data = Data(text.utf8)
        var totals = [(bytes: 0, records: 0, skipped: 0), (bytes: 0, records: 0, skipped: 0)]
        for split in 0..<splits {
            let range = data.count * split / splits..<data.count * (split + 1) / splits
            let model = ProgressHandle(), decodable = ProgressHandle()
            var count = 0
            let skipped = try JSONAdapter.forEachRecord(Line.self, from: data, byteRange: range, errorPolicy: .skip, progress: model) { _ in
                count += 1
            }
            try JSONAdapter.forEachRecord(Plain.self, from: data, byteRange: range, decoder: MagmaDecoder(), errorPolicy: .skip,
                                          progress: decodable) { _ in }
            #expect(model.current.records == count && model.current.skipped == skipped.count)
            for (i, handle) in [model, decodable].enumerated() {
                let now = handle.current
                totals[i] = (totals[i].bytes + now.bytes, totals[i].records + now.records, totals[i].skipped + now.skipped)
            }
        }
        for total in totals {
            #expect(total.bytes == data.count && total.records == 401 && total.skipped == 2, "\(splits) splits")
        }
    }

    /// A `Decodable` split places its errors as a model split does: the byte offset in the whole
    /// document, no line; an error its body throws comes out as thrown.
    @Test func decodableSplit_placesErrorsInTheDocument() throws {
        struct Plain: Decodable { let id: Int }
        let lines = (1...3_000).map { $0 == 2_001 ? "{\"id\": true}" : "{\"id\": \($0)}" }
        let data = Data((lines.joined(separator: "\n") + "\n").utf8)
        let offset = lines[..<2_000].reduce(0) { $0 + $1.utf8.count + 1 } + "{\"id\": ".utf8.count
        let half = data.count / 2..<data.count
        let skipped = try JSONAdapter.forEachRecord(Plain.self, from: data, byteRange: half, decoder: MagmaDecoder(), errorPolicy: .skip) { _ in }
        #expect(skipped.map(\.offset) == [offset] && skipped.map(\.line) == [nil] && skipped.map(\.recordIndex) == [nil])
        let thrown = #expect(throws: JSONError.self) {
            try JSONAdapter.forEachRecord(Plain.self, from: data, byteRange: half, decoder: MagmaDecoder()) { _ in }
        }
        #expect(thrown?.offset == offset && thrown?.line == nil)
        let mine = #expect(throws: JSONError.self) {
            try JSONAdapter.forEachRecord(Plain.self, from: data, byteRange: half, decoder: MagmaDecoder()) { _ in throw JSONError(.io, "mine") }
        }
        #expect(mine?.offset == nil && mine?.message == "mine")
    }

    /// An error the body throws leaves a split as it was thrown, even a `JSONError`.
    @Test func split_bodyErrorIsNotPlaced() {
        let data = Data("{\"id\": 0}\n{\"id\": 1}\n".utf8)
        let error = #expect(throws: JSONError.self) {
            try JSONAdapter.forEachRecord(Line.self, from: data, byteRange: 5..<data.count) { _ in throw JSONError(.io, "mine") }
        }
        #expect(error?.offset == nil && error?.message == "mine")
    }

    @Test func parallel_equalsSequential_inOrder() throws {
        let data = document(5000)
        var sequential: [Line] = []
        try JSONAdapter.forEachRecord(Line.self, from: data, layout: .ndjson) { sequential.append($0) }
        let (parallel, skipped) = try JSONAdapter.modelsInParallel(Line.self, from: data, layout: .ndjson, options: .init(), errorPolicy: .stop,
                                                                   concurrency: 4, minimumBatchBytes: 1000)
        #expect(parallel == sequential)
        #expect(parallel.count == 5000)
        #expect(skipped.isEmpty)
    }

    /// `concurrency` bounds the threads that decode at once, on a machine with more cores too: a
    /// job that leaves cores to other work gets no more than it asked for.
    @Test func parallel_decodesOnAtMostConcurrencyThreads() throws {
        let data = document(5000)
        for concurrency in [1, 2] {
            decodingThreads.withLock { $0.removeAll() }
            let (parallel, _) = try JSONAdapter.modelsInParallel(ThreadNoted.self, from: data, layout: .ndjson, options: .init(), errorPolicy: .stop,
                                                                 concurrency: concurrency, minimumBatchBytes: 1000)
            #expect(parallel.count == 5000)
            let threads = decodingThreads.withLock { $0.count }
            #expect(threads >= 1 && threads <= concurrency, "concurrency \(concurrency): \(threads) threads decoded")
        }
    }

    /// The parallel decode counts into a progress handle: every byte, record and skip, once.
    @Test func parallel_countsItsProgress() throws {
        var text = ""
        for i in 0..<3000 { text += i == 1234 ? "{\"id\": \"bad\"}\n" : "{\"id\": \(i)}\n" }
        let data = Data(text.utf8)
        let progress = ProgressHandle()
        let (models, skipped) = try JSONAdapter.modelsInParallel(Line.self, from: data, layout: .ndjson, options: .init(), errorPolicy: .skip,
                                                                 progress: progress, concurrency: 3, minimumBatchBytes: 1000)
        let counted = progress.current
        #expect(models.count == 2999 && skipped.count == 1)
        #expect(counted.bytes == data.count && counted.records == 2999 && counted.skipped == 1 && counted.seconds > 0)
        struct Row: Decodable, Sendable { let id: Int }
        let decodable = ProgressHandle()
        _ = try JSONAdapter.modelsInParallel(Row.self, from: data, layout: .ndjson, decoder: MagmaDecoder(), errorPolicy: .skip, progress: decodable)
        #expect(decodable.current.bytes == data.count && decodable.current.records == 2999 && decodable.current.skipped == 1)
    }

    @Test func parallel_skipsBadLinesAndStopsAtTheFirstInOrder() throws {
        var text = ""
        for i in 0..<3000 { text += i == 1234 || i == 2500 ? "{\"id\": \"bad\"}\n" : "{\"id\": \(i)}\n" }
        let data = Data(text.utf8)
        let (models, skipped) = try JSONAdapter.modelsInParallel(Line.self, from: data, layout: .ndjson, options: .init(), errorPolicy: .skip,
                                                                 concurrency: 3, minimumBatchBytes: 1000)
        #expect(models.count == 2998)
        #expect(skipped.count == 2)
        #expect(models.map(\.id) == (0..<3000).filter { $0 != 1234 && $0 != 2500 })
        let firstBad = try #require(text.range(of: "\"bad\"")).lowerBound.utf16Offset(in: text)
        #expect(skipped.first?.offset == firstBad)
        do {
            _ = try JSONAdapter.modelsInParallel(Line.self, from: data, layout: .ndjson, options: .init(), errorPolicy: .stop, concurrency: 3,
                                                 minimumBatchBytes: 1000)
            Issue.record("expected an error")
        } catch let error as JSONError {
            #expect(error.code == .typeMismatch)
            #expect(error.offset == firstBad, "the first bad line in input order")
        }
    }

    /// A bad line found by the parallel decoder is placed in the whole document exactly as the
    /// sequential decoder places it: line, column, byte offset and record index (blank lines
    /// and CRLF in earlier batches included), skipped or thrown.
    @Test func parallel_errorsArePlacedAsTheSequentialDecoderPlacesThem() throws {
        var text = String(decoding: document(2000), as: UTF8.self)
        for bad in ["{\"id\": \"bad\"}", "{\"id\": 1} x", "  {\"id\": tru}"] {
            let at = text.index(text.startIndex, offsetBy: text.utf8.count * 2 / 3)
            let lineStart = text[..<at].lastIndex(of: "\n").map { text.index(after: $0) } ?? at
            text.insert(contentsOf: bad + "\n", at: lineStart)
        }
        let data = Data(text.utf8)
        let summary = { (e: JSONError) in StreamOutcome.summary(e) }
        let sequential = try JSONAdapter.forEachRecord(Line.self, from: data, layout: .ndjson, errorPolicy: .skip) { _ in }
        #expect(sequential.count == 3)
        #expect(sequential.allSatisfy { $0.line != nil && $0.recordIndex != nil && $0.offset != nil })
        let (_, skipped) = try JSONAdapter.modelsInParallel(Line.self, from: data, layout: .ndjson, options: .init(), errorPolicy: .skip,
                                                            concurrency: 4, minimumBatchBytes: 500)
        #expect(skipped.map(summary) == sequential.map(summary))
        do {
            _ = try JSONAdapter.modelsInParallel(Line.self, from: data, layout: .ndjson, options: .init(), errorPolicy: .stop, concurrency: 4,
                                                 minimumBatchBytes: 500)
            Issue.record("expected an error")
        } catch let error as JSONError {
            #expect(summary(error) == sequential.first.map(summary))
        }
    }

    /// An array or concatenated values decoded in parallel give what the sequential decoder
    /// gives: the same records in order, and the same errors (code, path, offset, line, column,
    /// record index), skipped or thrown. Records on one line or on many, strings holding `}, {`,
    /// bad records anywhere, and the text that stops the cutting (a missing comma, a trailing
    /// comma, text after the array) wherever it falls. Both parallel forms: `modelsInParallel`
    /// (the stream over bytes in memory, collected) and the stream (batches cut in turns as they are read), ordered and
    /// handled on the workers.
    @Test(arguments: [RecordDecoder<Line>.Layout.array, .concatenated])
    func parallelRecords_equalSequential(layout: RecordDecoder<Line>.Layout) throws {
        let array = layout == .array
        var g = SeededGenerator(seed: 11)
        let separators = array ? [",", ", ", ",\n", "\n, ", ",\r\n  "] : [" ", "\n", "\r\n  ", "\t"]
        var wholeRounds = 0, streamedInMany = 0
        for round in 0..<60 {
            var text = array ? (round % 2 == 0 ? "[" : " [\n") : ""
            for i in 0..<Int.random(in: 1...400, using: &g) {
                if i > 0 { text += separators[round % 3 == 0 ? 0 : Int.random(in: 0..<separators.count, using: &g)] }
                switch Int.random(in: 0..<50, using: &g) {
                case 0: text += "{\"id\": \"bad\"}"
                // A syntax error ends the stream, skipping or not: in a quarter of the rounds.
                case 1 where round % 4 == 1: text += "{\"id\": \(i), \"text\": tru}"
                case 2: text += "[\(i)]"
                case 3: text += "7"
                default: text += "{\"id\": \(i), \"text\": \"}, {\\\"\(String(repeating: "y", count: Int.random(in: 0...30, using: &g)))\"}"
                }
            }
            text += array ? (round % 2 == 0 ? "]" : "\n]\n") : "\n"
            if round % 10 == 9 {
                // Something that is not a separator, somewhere after the first third.
                let flaws = array ? ["} {", "},]", "]x"] : ["}x{"]
                let at = text.utf8.count / 3 + Int.random(in: 0...(text.utf8.count / 2), using: &g)
                if let brace = text.utf8.indices.first(where: { text.utf8.distance(from: text.utf8.startIndex, to: $0) >= at && text.utf8[$0] == UInt8(ascii: "}") }) {
                    text.replaceSubrange(brace...brace, with: flaws[round % flaws.count])
                }
            }
            let data = Data(text.utf8)
            for policy in [RecordDecoder<Line>.ErrorPolicy.skip, .stop] {
                var sequential: [Line] = [], sequentialSkipped: [String] = [], sequentialError: String?
                do {
                    sequentialSkipped = try JSONAdapter.forEachRecord(Line.self, from: data, layout: layout, errorPolicy: policy) {
                        sequential.append($0)
                    }.map(StreamOutcome.summary)
                } catch let error as JSONError { sequentialError = StreamOutcome.summary(error) }
                // The records and the skips, interleaved as they come.
                var sequentialLog: [String] = []
                _ = try? RecordDecoder(Line.self, layout: layout, errorPolicy: policy, onSkip: { sequentialLog.append(StreamOutcome.summary($0)) }) {
                    sequentialLog.append("record \($0.id)")
                }.read(from: data)
                for concurrency in [1, 3] {
                    do {
                        let (models, skipped) = try JSONAdapter.modelsInParallel(Line.self, from: data, layout: layout, options: .init(),
                                                                                errorPolicy: policy, concurrency: concurrency,
                                                                                minimumBatchBytes: 300)
                        #expect(sequentialError == nil, "round \(round) \(policy): \(sequentialError ?? "")")
                        #expect(models == sequential, "round \(round) \(policy)")
                        #expect(skipped.map(StreamOutcome.summary) == sequentialSkipped, "round \(round) \(policy)")
                        wholeRounds += 1
                    } catch let error as JSONError {
                        #expect(StreamOutcome.summary(error) == sequentialError, "round \(round) \(policy)")
                    }
                    let streamed = streamedInBatches(data, layout: layout, policy: policy, concurrency: concurrency)
                    #expect(streamed.ordered.error == sequentialError, "round \(round) \(policy) stream")
                    #expect(streamed.ordered.models == sequential, "round \(round) \(policy) stream")
                    #expect(streamed.ordered.skipped == sequentialSkipped, "round \(round) \(policy) stream")
                    #expect(streamed.ordered.log == sequentialLog, "round \(round) \(policy) stream: records and onSkip")
                    #expect(streamed.unordered.error == sequentialError, "round \(round) \(policy) unordered")
                    #expect(streamed.unordered.log == sequentialLog.filter { !$0.hasPrefix("record ") }, "round \(round) \(policy) unordered onSkip")
                    if sequentialError == nil {
                        #expect(streamed.unordered.models.sorted { $0.id < $1.id } == sequential.sorted { $0.id < $1.id }, "round \(round) \(policy) unordered")
                    }
                    #expect(streamed.onWorkers.error == sequentialError, "round \(round) \(policy) workers")
                    if sequentialError == nil {
                        #expect(streamed.onWorkers.models == sequential.sorted { $0.id < $1.id }, "round \(round) \(policy) workers")
                    }
                    #expect(streamed.onWorkers.skipped == sequentialSkipped, "round \(round) \(policy) workers")
                    // What ends the stream early may end it in its first batch; else it is read in many.
                    let endsEarly = policy == .stop || sequentialError != nil || round % 10 == 9
                    #expect(streamed.batches > 1 || data.count < 600 || endsEarly, "round \(round): \(streamed.batches) batches")
                    if streamed.batches > 3 { streamedInMany += 1 }
                }
            }
        }
        // Most rounds are read to their end, every record compared.
        #expect(wholeRounds > 60)
        #expect(streamedInMany > 60)
    }

    typealias Streamed = (models: [Line], skipped: [String], error: String?, log: [String])


    /// `data` read by the parallel stream in batches of about 300 bytes: delivered in order, and
    /// handled on the workers (their records sorted by id); and how many batches it was read in.
    func streamedInBatches(_ data: Data, layout: RecordDecoder<Line>.Layout, policy: RecordDecoder<Line>.ErrorPolicy,
                           concurrency: Int) -> (ordered: Streamed, unordered: Streamed, onWorkers: Streamed, batches: Int) {
        data.withUnsafeBytes { memory in
            func stream(ordered: Bool = true) -> ParallelRecordStream<Line> {
                ParallelRecordStream<Line>(descriptor: -1, memory: memory, layout: layout, options: .init(), errorPolicy: policy, progress: nil,
                                         ordered: ordered, windowBytes: 1200, concurrency: concurrency, batchBytes: 300)
            }
            var ordered: Streamed = ([], [], nil, [])
            let first = stream()
            do {
                ordered.skipped = try first.run(onSkip: { ordered.log.append(StreamOutcome.summary($0)) }) {
                    ordered.models.append($0)
                    ordered.log.append("record \($0.id)")
                }.map(StreamOutcome.summary)
            } catch let error as JSONError { ordered.error = StreamOutcome.summary(error) } catch { ordered.error = "\(error)" }
            // Unordered, the skips alone (in input order) go to the log.
            var unordered: Streamed = ([], [], nil, [])
            do {
                unordered.skipped = try stream(ordered: false).run(onSkip: { unordered.log.append(StreamOutcome.summary($0)) }) {
                    unordered.models.append($0)
                }.map(StreamOutcome.summary)
            } catch let error as JSONError { unordered.error = StreamOutcome.summary(error) } catch { unordered.error = "\(error)" }
            var onWorkers: Streamed = ([], [], nil, [])
            do {
                let (states, skipped) = try ParallelWorkerRun(stream: stream(), makeState: { [Line]() }) { $0.append($1) }.run()
                onWorkers.models = states.flatMap { $0 }.sorted { $0.id < $1.id }
                onWorkers.skipped = skipped.map(StreamOutcome.summary)
            } catch let error as JSONError { onWorkers.error = StreamOutcome.summary(error) } catch { onWorkers.error = "\(error)" }
            return (ordered, unordered, onWorkers, first.emitted)
        }
    }

    /// An array in memory is decoded in many batches (not read whole by one decoder) and joined
    /// in order; with comments allowed (a comment may hide a bracket or a comma) it is read whole.
    @Test func parallelArray_isReadInBatches() throws {
        let text = Array(("[" + (0..<2000).map { "{\"id\": \($0)}" }.joined(separator: ",") + "]").utf8)
        try text.withUnsafeBytes { data in
            let stream = ParallelRecordStream<Line>(descriptor: -1, memory: data, layout: .array, options: .init(), errorPolicy: .stop,
                                                    progress: nil, ordered: true, windowBytes: .max / 2, concurrency: 2, batchBytes: 1000)
            let (models, skipped) = try stream.collect()
            #expect(models.map(\.id) == Array(0..<2000) && skipped.isEmpty)
            #expect(stream.emitted > 8, "\(stream.emitted) batches")
        }
        var commented = DecodingOptions()
        commented.allowComments = true
        let hidden = Data(("[" + (0..<2000).map { "{\"id\": \($0)} /* ], {\"id\": -1} */" }.joined(separator: ",") + "]").utf8)
        let (models, _) = try JSONAdapter.modelsInParallel(Line.self, from: hidden, layout: .array, options: commented, errorPolicy: .stop,
                                                           concurrency: 2, minimumBatchBytes: 1000)
        #expect(models.map(\.id) == Array(0..<2000))
    }

    /// A record longer than a batch is read over several reads, its scan going on where the last
    /// read ended: strings holding brackets, quotes and escapes, and nesting, across every read.
    @Test(arguments: [RecordDecoder<Line>.Layout.array, .concatenated])
    func recordsLongerThanABatch_areCutWhole(layout: RecordDecoder<Line>.Layout) throws {
        let record = { (i: Int) in
            "{\"id\": \(i), \"pad\": [\"x]}\\\"{[\", {\"a\": \"\(String(repeating: "]}[{", count: 20 + i % 7))\"}, [[1], {}]]}"
        }
        let array = layout == .array
        let text = Array(((array ? "[" : "") + (0..<40).map(record).joined(separator: array ? ", " : "\n") + (array ? "]" : "")).utf8)
        try text.withUnsafeBytes { data in
            let stream = ParallelRecordStream<Line>(descriptor: -1, memory: data, layout: layout, options: .init(), errorPolicy: .stop,
                                                    progress: nil, ordered: true, windowBytes: .max / 2, concurrency: 2, batchBytes: 16)
            let (models, skipped) = try stream.collect()
            #expect(models.map(\.id) == Array(0..<40) && skipped.isEmpty)
        }
    }

    @Test func asyncRecords_pullChunksAsNeeded() async throws {
        let data = document(300)
        let pieces = chunks(Array(data), 37)
        let stream = AsyncStream<[UInt8]> { continuation in
            for piece in pieces { continuation.yield(piece) }
            continuation.finish()
        }
        var ids: [Int] = []
        for try await line in JSONAdapter.records(Line.self, from: stream, layout: .ndjson) { ids.append(line.id) }
        #expect(ids == Array(0..<300))

        let array = "[" + (0..<50).map { "{\"id\": \($0)}" }.joined(separator: ",") + "]"
        let arrayStream = AsyncStream<[UInt8]> { continuation in
            for piece in chunks(Array(array.utf8), 5) { continuation.yield(piece) }
            continuation.finish()
        }
        var count = 0
        for try await _ in JSONAdapter.records(Line.self, from: arrayStream, layout: .array) { count += 1 }
        #expect(count == 50)
    }

    @Test func fileHandle_pipe() throws {
        let pipe = Pipe()
        let data = document(2000)
        let writer = Thread {
            pipe.fileHandleForWriting.write(data)
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        var ids: [Int] = []
        try JSONAdapter.forEachRecord(Line.self, from: pipe.fileHandleForReading, layout: .ndjson) { ids.append($0.id) }
        #expect(ids == Array(0..<2000))
        #if os(Linux)
        // The reader asked for a 1 MiB pipe buffer (F_GETPIPE_SZ is 1032), where the system allows it.
        let limit = (try? String(contentsOfFile: "/proc/sys/fs/pipe-max-size", encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
        if limit >= 1 << 20 { #expect(fcntl(pipe.fileHandleForReading.fileDescriptor, 1032) >= 1 << 20) }
        #endif
    }
}

/// The threads `ThreadNoted` models were decoded on (only `parallel_decodesOnAtMostConcurrencyThreads` decodes them).
private let decodingThreads = Mutex<Set<UInt>>([])

@JSONModel struct ThreadNoted: Sendable {
    var id = 0
    mutating func didDecode() throws { decodingThreads.withLock { _ = $0.insert(UInt(pthread_self())) } }
}
