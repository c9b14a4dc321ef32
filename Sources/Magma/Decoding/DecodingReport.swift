import Synchronization

/// What a read left out on purpose: each property that kept its default instead of an invalid
/// value (`@Default(_:onInvalid:)`), and each element a lossy collection dropped (`@Lossy`).
///
/// Pass one where you decode, as a ``ProgressHandle`` is passed; a read given none keeps no
/// report and costs nothing more:
///
/// ```swift
/// let report = DecodingReport()
/// let order = try JSONAdapter.model(Order.self, from: data, report: report)
/// for entry in report.dropped { print("dropped \(entry.path): \(entry.error.message)") }
/// ```
///
/// A stream keeps the report of its records together (``RecordDecoder/report``), each entry with
/// the index of its record, the first ``limit`` entries of each list kept and every one counted,
/// as ``SkippedRecords`` does for skipped records; a record skipped as bad leaves no entry. A
/// report given to several decodes, one after another, holds the entries of them all. It may be
/// read from another thread while a decode runs; each property reads it as it stands.
public final class DecodingReport: Sendable {
    /// One value left out.
    public struct Entry: Sendable {
        /// Where the value is: the property's (`$.items[2].count`), or the dropped element's
        /// (`$.tags[3]`).
        public let path: String
        /// The property that kept its default, or the collection that dropped the element
        /// (`Order.count`).
        public let property: String
        /// The error avoided: its code and message, where in the input (offset, line, column),
        /// and its own path and property, which may lie deeper inside the value.
        public let error: JSONError
        /// In a stream, the index of the record the value is in; nil for a document.
        public internal(set) var recordIndex: Int?
    }

    /// The most entries kept in each list; every later one is only counted.
    public let limit: Int
    private let notes = Mutex(Notes())

    /// An empty report.
    /// - Parameter limit: The most entries to keep in each list (the first ones); every entry is
    ///   counted. Negative counts as 0.
    public init(limit: Int = .max) {
        self.limit = max(0, limit)
    }

    /// A copy of `other` as it stands, taken under one lock: the lists and counts agree.
    init(copying other: DecodingReport) {
        limit = other.limit
        let notes = other.notes.withLock { $0 }
        self.notes.withLock { $0 = notes }
    }

    /// The properties that kept their default because their value was invalid, in input order.
    public var defaulted: [Entry] { notes.withLock { $0.defaulted } }
    /// The elements lossy collections dropped, in input order.
    public var dropped: [Entry] { notes.withLock { $0.dropped } }
    /// How many properties kept their default, kept in ``defaulted`` or not.
    public var defaultedCount: Int { notes.withLock { $0.defaultedCount } }
    /// How many elements were dropped, kept in ``dropped`` or not.
    public var droppedCount: Int { notes.withLock { $0.droppedCount } }
    /// Whether nothing was left out.
    public var isEmpty: Bool { notes.withLock { $0.defaultedCount == 0 && $0.droppedCount == 0 } }

    /// Counts `entry`, and keeps it while its list holds fewer than `limit` (and `cap`) entries.
    func add(_ entry: Entry, defaulted isDefault: Bool, cap: Int = .max) {
        let most = min(limit, cap)
        notes.withLock { $0.add(entry, defaulted: isDefault, most: most) }
    }

    /// Takes back the entries of the record at `index`, which failed: a stream notes the entries
    /// of each record as it reads it, and the last record noted is the one that fails.
    func removeRecord(_ index: Int?) { notes.withLock { $0.removeRecord(index) } }

    /// Adds the entries of a part of a stream (a parallel decode's batch) read after
    /// `recordsBefore` records: their record indices, paths and errors (`placed`) made the whole's, each
    /// list keeping no more than `cap` (the bound of each part too, so the kept ones are the
    /// first); `other`'s entries counted but not kept are counted here too.
    func append(contentsOf other: DecodingReport, recordsBefore: Int, cap: Int, _ placed: (JSONError) -> JSONError,
                path: (String) -> String) {
        let theirs = other.notes.withLock { $0 }
        func rebased(_ entry: Entry) -> Entry {
            Entry(path: path(entry.path), property: entry.property, error: placed(entry.error), recordIndex: entry.recordIndex.map { $0 + recordsBefore })
        }
        let most = min(limit, cap)
        notes.withLock { notes in
            for entry in theirs.defaulted { notes.add(rebased(entry), defaulted: true, most: most) }
            for entry in theirs.dropped { notes.add(rebased(entry), defaulted: false, most: most) }
            notes.defaultedCount += theirs.defaultedCount - theirs.defaulted.count
            notes.droppedCount += theirs.droppedCount - theirs.dropped.count
            notes.lastRecord = (nil, 0, 0)
        }
    }

    /// Forgets every entry, keeping the storage.
    func removeAll() { notes.withLock { $0.removeAll() } }

    private struct Notes: Sendable {
        var defaulted: [Entry] = []
        var dropped: [Entry] = []
        var defaultedCount = 0
        var droppedCount = 0
        /// The record the last entry was noted in, and its entries of each kind: taken back if
        /// the record fails (a stream's bad record leaves no entry).
        var lastRecord: (index: Int?, defaulted: Int, dropped: Int) = (nil, 0, 0)

        mutating func add(_ entry: Entry, defaulted isDefault: Bool, most: Int) {
            if entry.recordIndex != lastRecord.index { lastRecord = (entry.recordIndex, 0, 0) }
            if isDefault {
                defaultedCount += 1
                lastRecord.defaulted += 1
                if defaulted.count < most { defaulted.append(entry) }
            } else {
                droppedCount += 1
                lastRecord.dropped += 1
                if dropped.count < most { dropped.append(entry) }
            }
        }

        mutating func removeAll() {
            defaulted.removeAll(keepingCapacity: true)
            dropped.removeAll(keepingCapacity: true)
            defaultedCount = 0
            droppedCount = 0
            lastRecord = (nil, 0, 0)
        }

        mutating func removeRecord(_ index: Int?) {
            guard let index, lastRecord.index == index else { return }
            defaultedCount -= lastRecord.defaulted
            droppedCount -= lastRecord.dropped
            while defaulted.last?.recordIndex == index { defaulted.removeLast() }
            while dropped.last?.recordIndex == index { dropped.removeLast() }
            lastRecord = (nil, 0, 0)
        }
    }
}

extension EventBuilder {
    /// Notes a value left out, placed where the builder stands after its recovery: at the
    /// property's key (a default) or the dropped element. Kept only when the read was asked for a
    /// report.
    mutating func report(_ error: JSONError, property: String?, defaulted: Bool) {
        guard let report else { return }
        let entry = DecodingReport.Entry(path: currentPath(), property: property ?? error.property ?? "", error: error,
                                         recordIndex: reportRecordIndex?(self))
        report.add(entry, defaulted: defaulted)
    }
}
