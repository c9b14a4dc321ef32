import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
    /// The record whose bytes ran out at the last step (its first byte), and where: the next step
    /// from it, over the same bytes and more, scans on from there rather than again.
    private var pending: (record: Int, scanned: Int)?

    /// What a batch inside an array reads before its records, and after them if it was cut
    /// before the array's end: its decoder reads it as an array of its own.
    static let open: [UInt8] = [UInt8(ascii: "[")]
    static let close: [UInt8] = [UInt8(ascii: "]")]

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
        var from = p
        if let pending, pending.record == p { from = pending.scanned } else { cutter.reset() }
        pending = nil
        guard let found = cutter.scan(base + from, base + data.count) else {
            pending = (p, data.count)
            return .more
        }
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

    /// Forgets the record under way: the next bytes are new ones (another batch's).
    mutating func forget() { pending = nil }

    static func blank(_ data: UnsafeRawBufferPointer, _ offset: Int) -> Int {
        guard let base = data.baseAddress, offset < data.count else { return offset }
        return JSONScanner.blank(base + offset, base + data.count) - base
    }
}
