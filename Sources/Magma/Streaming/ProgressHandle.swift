import Foundation
import Synchronization

/// How far a stream has come: a snapshot taken from a ``ProgressHandle``.
public struct StreamProgress: Sendable {
    /// Input bytes handed to the decoder so far.
    public var bytes: Int
    /// Records delivered.
    public var records: Int
    /// Records skipped as bad.
    public var skipped: Int
    /// Seconds since the first byte.
    public var seconds: Double
    /// Records delivered per second since the previous snapshot of the same handle (since the
    /// first byte for the first one): the current rate.
    public var currentRecordsPerSecond: Double
    /// Input megabytes (10^6 bytes) per second since the previous snapshot of the same handle.
    public var currentMegabytesPerSecond: Double
    /// Records delivered per second since the first byte: the average rate.
    public var recordsPerSecond: Double { seconds > 0 ? Double(records) / seconds : 0 }
    /// Input megabytes (10^6 bytes) per second since the first byte.
    public var megabytesPerSecond: Double { seconds > 0 ? Double(bytes) / 1e6 / seconds : 0 }
}

/// A stream's progress counters, safe to read from any thread (it is `Sendable`) while the stream
/// runs on another.
///
/// Make one, hand it to a streaming entry point (``RecordDecoder``, `forEachRecord`, `records`)
/// and read ``current`` from a reporter task or thread:
///
/// ```swift
/// let progress = ProgressHandle()
/// let reporter = Task {
///     while !Task.isCancelled {
///         try await Task.sleep(for: .seconds(1))
///         print(progress.current.records, "records")
///     }
/// }
/// try JSONAdapter.forEachRecord(GHIssue.self, from: .standardInput, layout: .ndjson, progress: progress) { _ in }
/// reporter.cancel()
/// ```
///
/// The stream updates relaxed atomic counters (no lock on its path); a snapshot is consistent per
/// field, not across fields. One handle counts one stream: give each stream its own. Every read of
/// ``current`` (``RecordDecoder/progress`` included) starts the next interval of the current rate.
public final class ProgressHandle: Sendable {
    let bytes = Atomic<Int>(0)
    let records = Atomic<Int>(0)
    let skipped = Atomic<Int>(0)
    let startNanos = Atomic<Int>(0)
    /// The previous snapshot's time, bytes and records, for the current rate.
    private let previous = Mutex<(nanos: Int, bytes: Int, records: Int)>((0, 0, 0))

    /// Creates a handle with every counter at zero.
    public init() {}

    /// A snapshot of the counters, with the rates: the average since the first byte and the
    /// current one since the previous snapshot.
    public var current: StreamProgress {
        let start = startNanos.load(ordering: .relaxed)
        let now = Int(DispatchTime.now().uptimeNanoseconds)
        let bytes = bytes.load(ordering: .relaxed), records = records.load(ordering: .relaxed)
        let seconds = start == 0 ? 0 : Double(now &- start) / 1e9
        let (lastNanos, lastBytes, lastRecords) = previous.withLock { last in
            defer { if start != 0 { last = (now, bytes, records) } }
            return last.nanos == 0 ? (start, 0, 0) : last
        }
        let interval = start == 0 ? 0 : Double(now &- lastNanos) / 1e9
        return StreamProgress(
            bytes: bytes, records: records, skipped: skipped.load(ordering: .relaxed), seconds: seconds,
            currentRecordsPerSecond: interval > 0 ? Double(records - lastRecords) / interval : 0,
            currentMegabytesPerSecond: interval > 0 ? Double(bytes - lastBytes) / 1e6 / interval : 0)
    }

    /// Marks the first byte (once).
    func start() {
        if startNanos.load(ordering: .relaxed) == 0 {
            startNanos.store(Int(DispatchTime.now().uptimeNanoseconds), ordering: .relaxed)
        }
    }
}
