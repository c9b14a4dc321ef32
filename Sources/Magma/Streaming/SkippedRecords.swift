/// The records a stream skipped as bad: the errors of the first ones, in input order, and how many
/// were skipped in all, by error code.
///
/// A stream with the `.skip` policy may meet millions of bad records; it keeps the errors of the
/// first ``DecodingOptions/keptSkippedErrors`` of them (default 100) and only counts the rest, so
/// its memory stays bounded whatever the input. As a collection, it holds the kept errors:
///
/// ```swift
/// let skipped = try JSONAdapter.forEachRecord(GHIssue.self, from: .file("issues.ndjson"), layout: .ndjson,
///                                             errorPolicy: .skip) { try store($0) }
/// for error in skipped { print("line \(error.line ?? 0): \(error.message)") }
/// if skipped.unlisted > 0 { print("and \(skipped.unlisted) more") }
/// print(skipped.total, skipped.counts[.syntax, default: 0])
/// ```
///
/// ``total`` and ``counts`` are exact; `count` is the number of errors kept.
public struct SkippedRecords: RandomAccessCollection, Sendable {
    /// The most errors kept; every later skip is only counted.
    public let limit: Int
    private var kept: [JSONError] = []
    /// How many records were skipped, kept or not.
    public private(set) var total = 0
    /// How many records were skipped with each error code (they add up to ``total``).
    public private(set) var counts: [JSONError.Code: Int] = [:]

    /// Creates an empty list.
    /// - Parameter limit: The most errors to keep (the first ones added); negative counts as 0.
    public init(limit: Int = DecodingOptions().keptSkippedErrors) {
        self.limit = Swift.max(0, limit)
    }

    /// How many skipped records' errors were not kept: ``total`` less the errors kept.
    public var unlisted: Int { total - kept.count }

    /// Counts a skipped record, keeping its error if fewer than ``limit`` are kept.
    /// - Parameter error: The record's error.
    public mutating func append(_ error: JSONError) {
        total += 1
        counts[error.code, default: 0] += 1
        if kept.count < limit { kept.append(error) }
    }

    /// Adds the skips of a later part of the input (the next split of a file, say): its counts,
    /// and its kept errors while fewer than ``limit`` are kept here.
    /// - Parameter later: The skips of the input that follows.
    public mutating func append(contentsOf later: SkippedRecords) {
        total += later.total
        counts.merge(later.counts, uniquingKeysWith: +)
        kept.append(contentsOf: later.kept.prefix(limit - kept.count))
    }

    /// The same skips with each kept error changed by `transform` (placed in a larger input).
    func mapErrors(_ transform: (JSONError) -> JSONError) -> SkippedRecords {
        var mapped = self
        mapped.kept = kept.map(transform)
        return mapped
    }

    /// Forgets every skip, keeping the storage.
    mutating func removeAll() {
        kept.removeAll(keepingCapacity: true)
        total = 0
        counts.removeAll(keepingCapacity: true)
    }

    /// The index of the first kept error (0).
    public var startIndex: Int { 0 }
    /// The index past the last kept error: how many are kept.
    public var endIndex: Int { kept.count }
    /// A kept error, in input order.
    /// - Parameter position: Its index among the kept errors.
    public subscript(position: Int) -> JSONError { kept[position] }
}
