import Foundation
import Synchronization
import Testing
@testable import Magma

@JSONModel struct ProgressRow: Equatable { let id: Int }

/// Progress read from another thread, through the `Sendable` handle (this target builds in Swift 6
/// language mode: the reads below compile only because the handle is `Sendable`).
@Suite struct ProgressHandleTests {
    /// 50 NDJSON lines; lines 11 and 21 (ids 10 and 20) are bad.
    static let input = Array(((0..<50).map { $0 == 10 || $0 == 20 ? "{\"id\": \"bad\"}" : "{\"id\": \($0)}" }
        .joined(separator: "\n") + "\n").utf8)

    final class Seen: Sendable { let value = Mutex<StreamProgress?>(nil) }

    /// A snapshot taken on a thread of its own, waited for.
    static func readOnAnotherThread(_ progress: ProgressHandle) -> StreamProgress? {
        let seen = Seen(), done = DispatchSemaphore(value: 0)
        Thread { seen.value.withLock { $0 = progress.current }; done.signal() }.start()
        done.wait()
        return seen.value.withLock { $0 }
    }

    @Test(arguments: chunkSizes)
    func recordDecoder_countsReadFromAnotherThreadWhileItRuns(size: Int) throws {
        let progress = ProgressHandle()
        var midway: StreamProgress?
        let decoder = RecordDecoder(ProgressRow.self, layout: .ndjson, errorPolicy: .skip, progress: progress) { row in
            if row.id == 30 { midway = Self.readOnAnotherThread(progress) }
        }
        #expect(decoder.progressHandle === progress)
        for chunk in chunks(Self.input, size) { try decoder.feed(chunk) }
        try decoder.finish()
        // While record 30 is being handed over, 28 records (0...29 but two) and 2 skips are counted.
        #expect(midway?.records == 28)
        #expect(midway?.skipped == 2)
        #expect((midway?.bytes ?? -1) <= Self.input.count)
        let end = progress.current
        #expect(end.records == 48 && end.skipped == 2 && end.bytes == Self.input.count)
        #expect(end.seconds > 0 && end.recordsPerSecond > 0 && end.megabytesPerSecond > 0)
        // The current rate counts since the previous snapshot: nothing has arrived since.
        let again = progress.current
        #expect(again.currentRecordsPerSecond == 0 && again.currentMegabytesPerSecond == 0)
        #expect(again.recordsPerSecond > 0)
    }

    @Test func currentRate_countsSinceThePreviousSnapshot() throws {
        let progress = ProgressHandle()
        #expect(progress.current.currentRecordsPerSecond == 0)  // before the first byte
        let decoder = RecordDecoder(ProgressRow.self, layout: .ndjson, progress: progress) { _ in }
        try decoder.feed(Array("{\"id\": 1}\n".utf8))
        let first = progress.current
        #expect(first.records == 1 && first.currentRecordsPerSecond > 0)
        try decoder.feed(Array("{\"id\": 2}\n{\"id\": 3}\n".utf8))
        let second = progress.current
        #expect(second.records == 3 && second.currentRecordsPerSecond > 0)
        #expect(progress.current.currentRecordsPerSecond == 0)
    }

    @Test func forEachRecord_fromDataAndHandle_countIntoTheHandle() throws {
        let progress = ProgressHandle()
        var count = 0
        let skipped = try JSONAdapter.forEachRecord(ProgressRow.self, from: Data(Self.input), layout: .ndjson, errorPolicy: .skip,
                                                    progress: progress) { _ in count += 1 }
        #expect(progress.current.records == count && count == 48)
        #expect(progress.current.skipped == skipped.count && skipped.count == 2)

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID()).ndjson")
        try Data(Self.input).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let fromFile = ProgressHandle()
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        try JSONAdapter.forEachRecord(ProgressRow.self, from: handle, layout: .ndjson, errorPolicy: .skip, progress: fromFile) { _ in }
        #expect(fromFile.current.records == 48 && fromFile.current.bytes == Self.input.count)
    }

    @Test func records_async_countsIntoTheHandle() async throws {
        let progress = ProgressHandle()
        let pieces = AsyncStream<[UInt8]> { continuation in
            for piece in chunks(Self.input, 64) { continuation.yield(piece) }
            continuation.finish()
        }
        var rows = 0
        for try await _ in JSONAdapter.records(ProgressRow.self, from: pieces, layout: .ndjson, errorPolicy: .skip, progress: progress) {
            rows += 1
        }
        #expect(rows == 48 && progress.current.records == 48 && progress.current.skipped == 2)
    }
}

