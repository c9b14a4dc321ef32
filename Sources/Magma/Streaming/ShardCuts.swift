import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where the shards of a parallel decode (`modelsInParallel`) begin and end, worked out as the
/// workers take them, in order, under a lock: NDJSON at the first line start at or after each
/// even cut; an array or concatenated values where a record's structure ends at or after it
/// (`RecordCutter`), so that the one serial pass over the structure runs beside the decoding of
/// the shards taken before. Where the bytes between two records are not what the layout puts
/// there, or the structure cannot be trusted (an array at a key path; comments, which may hide
/// brackets and run on past a line's end), no more cuts are
/// made: the shard taken then reads the rest, and reports what is wrong as a decoder of the whole
/// input would, since it reads the same bytes from a record's first byte on.
final class ShardCuts: @unchecked Sendable {
    enum Cut: Equatable {
        case lines
        /// The elements of a top-level array (`commas`), or concatenated values.
        case records(commas: Bool)
        case none
    }

    struct Shard {
        let index: Int
        /// The bytes its decoder reads.
        let bytes: Range<Int>
        /// From its first byte to the next shard's: what it counts (lines, progress).
        let extent: Range<Int>
        /// Its decoder reads `[` before its bytes (a shard inside an array) and `]` after them.
        let opens: Bool
        let closes: Bool

        /// `error`, found by the shard's decoder, placed in the whole input: after `lines`
        /// newlines and `records` records, on a line that starts at `lineStart`.
        func placed(_ error: JSONError, lines: Int, records: Int, lineStart: Int) -> JSONError {
            let shift = bytes.lowerBound - (opens ? 1 : 0)
            var placed = error.placed(after: shift, lines: lines, records: records)
            // Its first line may begin before it (and, inside an array, after the `[` read first).
            if error.line == 1, let column = error.column { placed.column = column + shift - lineStart }
            placed.path = self.placed(path: error.path, records: records)
            return placed
        }

        /// A path in the shard (`$[3].id`) as a path in the whole: an element's begins with its
        /// index in the shard's array.
        func placed(path: String, records: Int) -> String {
            guard opens, path.hasPrefix("$["), let close = path.firstIndex(of: "]"),
                  let index = Int(path[path.index(path.startIndex, offsetBy: 2)..<close]) else { return path }
            return "$[\(index + records)" + path[close...]
        }
    }

    static let open: [UInt8] = [UInt8(ascii: "[")]
    static let close: [UInt8] = [UInt8(ascii: "]")]

    private let data: UnsafeRawBufferPointer
    private let count: Int
    private let cut: Cut
    private let lock = Lock()
    private var shards: [Shard] = []
    /// Where the next shard begins (a line start, or a record's first byte).
    private var next = 0
    private var ended = false
    private var cutter = RecordCutter()

    init<M>(_ data: UnsafeRawBufferPointer, layout: RecordDecoder<M>.Layout, options: DecodingOptions, count: Int) {
        self.data = data
        self.count = count
        switch layout.kind {
        case .ndjson where !options.allowComments: cut = .lines
        case .array where !options.allowComments: cut = .records(commas: true)
        case .concatenated where !options.allowComments: cut = .records(commas: false)
        default: cut = .none
        }
    }

    /// The shards taken so far.
    var claimed: Int { lock.withLock { shards.count } }
    func shard(_ index: Int) -> Shard { lock.withLock { shards[index] } }

    /// The next shard; nil once the input is taken.
    func claim() -> Shard? {
        lock.withLock {
            guard !ended else { return nil }
            let index = shards.count, start = next, n = data.count
            var end = n
            if index + 1 < count {
                let target = n * (index + 1) / count
                switch cut {
                case .lines: end = max(start, NDJSONSplit.lineStart(atOrAfter: target, in: data))
                case .records(let commas):
                    if let (recordEnd, nextRecord) = cutRecords(from: index == 0 ? firstRecord(commas) : start, at: target, commas) {
                        end = recordEnd
                        next = nextRecord
                    }
                case .none: break
                }
            }
            if cut == .lines { next = end }
            if end == n { ended = true }
            let inArray = cut == .records(commas: true)
            let shard = Shard(index: index, bytes: start..<end, extent: start..<(ended ? n : next),
                              opens: inArray && index > 0, closes: inArray && !ended)
            shards.append(shard)
            return shard
        }
    }

    /// The first element's first byte; nil for anything but an array with one.
    private func firstRecord(_ commas: Bool) -> Int? {
        var p = blank(0)
        if commas {
            guard p < data.count, data[p] == UInt8(ascii: "[") else { return nil }
            p = blank(p + 1)
            guard p < data.count, data[p] != UInt8(ascii: "]") else { return nil }
        }
        return p < data.count ? p : nil
    }

    /// Reads records from the one beginning at `p` until one ends at or after `target` with the
    /// layout's separator after it: that record's end and the next record's first byte. Nil where
    /// the input ends first or something else stands between two records.
    private func cutRecords(from p: Int?, at target: Int, _ commas: Bool) -> (end: Int, next: Int)? {
        guard var p, let base = data.baseAddress else { return nil }
        while true {
            cutter.reset()
            guard let found = cutter.scan(base + p, base + data.count) else { return nil }
            let end = found - base
            var q = blank(end)
            if commas {
                guard q < data.count, data[q] == UInt8(ascii: ",") else { return nil }
                q = blank(q + 1)
                guard q < data.count, data[q] != UInt8(ascii: "]") else { return nil }
            } else {
                guard q < data.count else { return nil }
            }
            // Concatenated values are cut only where a blank parts them, as every reader parts them.
            if end >= target, commas || q > end { return (end, q) }
            p = q
        }
    }

    private func blank(_ offset: Int) -> Int {
        guard let base = data.baseAddress, offset < data.count else { return offset }
        return JSONScanner.blank(base + offset, base + data.count) - base
    }
}
