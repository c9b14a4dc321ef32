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
    private var steps: RecordSteps

    init<M>(_ data: UnsafeRawBufferPointer, layout: RecordDecoder<M>.Layout, options: DecodingOptions, count: Int) {
        self.data = data
        self.count = count
        switch layout.kind {
        case .ndjson where !options.allowComments: cut = .lines
        case .array where !options.allowComments: cut = .records(commas: true)
        case .concatenated where !options.allowComments: cut = .records(commas: false)
        default: cut = .none
        }
        steps = RecordSteps(commas: cut == .records(commas: true))
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
        guard case .record(let p, _, _) = RecordSteps(commas: commas).first(in: data) else { return nil }
        return p
    }

    /// Reads records from the one beginning at `p` until one ends at or after `target` with the
    /// layout's separator after it: that record's end and the next record's first byte. Nil where
    /// the input ends first or something else stands between two records.
    private func cutRecords(from p: Int?, at target: Int, _ commas: Bool) -> (end: Int, next: Int)? {
        guard var p else { return nil }
        while case .record(let end, let next, let cuts) = steps.step(in: data, from: p) {
            if end >= target, cuts { return (end, next) }
            p = next
        }
        return nil
    }
}

/// Reads the records of an array (`commas`) or of concatenated values one at a time by their
/// structure, to cut between them: the step from a record's first byte to the next's.
struct RecordSteps {
    enum Step {
        /// A record ends at `end`; the next begins at `next`, and the input may be cut between
        /// them (`cuts`: concatenated values only where a blank parts them, as every reader parts them).
        case record(end: Int, next: Int, cuts: Bool)
        /// The bytes end first: the record, or what follows it, goes on past them.
        case more
        /// Not a record next: the array ends, or something other than the layout's separator
        /// stands there (which only a decoder reading on reports as it should).
        case last
    }

    let commas: Bool
    private var cutter = RecordCutter()

    init(commas: Bool) { self.commas = commas }

    /// From the start of the input: `.record(p, p, false)` at the first record's first byte.
    func first(in data: UnsafeRawBufferPointer) -> Step {
        var p = Self.blank(data, 0)
        if commas {
            guard p < data.count else { return .more }
            guard data[p] == UInt8(ascii: "[") else { return .last }
            p = Self.blank(data, p + 1)
            guard p < data.count else { return .more }
            guard data[p] != UInt8(ascii: "]") else { return .last }
        }
        return p < data.count ? .record(end: p, next: p, cuts: false) : .more
    }

    /// Reads the record that begins at `p`, and the separator after it.
    mutating func step(in data: UnsafeRawBufferPointer, from p: Int) -> Step {
        guard let base = data.baseAddress, p < data.count else { return .more }
        cutter.reset()
        guard let found = cutter.scan(base + p, base + data.count) else { return .more }
        let end = found - base
        var q = Self.blank(data, end)
        guard q < data.count else { return .more }
        if commas {
            guard data[q] == UInt8(ascii: ",") else { return .last }
            q = Self.blank(data, q + 1)
            guard q < data.count else { return .more }
            guard data[q] != UInt8(ascii: "]") else { return .last }
        }
        return .record(end: end, next: q, cuts: commas || q > end)
    }

    static func blank(_ data: UnsafeRawBufferPointer, _ offset: Int) -> Int {
        guard let base = data.baseAddress, offset < data.count else { return offset }
        return JSONScanner.blank(base + offset, base + data.count) - base
    }
}
