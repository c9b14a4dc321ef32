// Tape: a whole JSON document as a flat array of 16-byte entries, built from yajl's events by
// the EventBuilder (so a Codable decode passes the same checks as a model decode: strict UTF-8,
// surrogate escapes, size cap, depth limit), then read by `TapeDecoder` in any order.
//
// Data layout and invariants
// - One entry per token, in document order: a scalar, a string, an object key, or the start of a
//   container. Container ends have no entry: a container's entry holds the index one past its
//   last entry (`end`), so skipping a value is one load.
// - `word` packs the kind (low 3 bits), whether the text is in `side` (bit 3), whether yajl
//   decoded it from escapes (bit 4), and the token's
//   byte offset in the input (bits 8...). `payload` holds a text's length (low 32 bits) and its
//   offset in `side` (high 32 bits), or a container's end index (low 32) and member count (high 32).
// - Strings and keys without escapes are not copied: yajl hands their bytes inside the input, and
//   the entry points there. Text yajl decoded (escapes) is appended to `side`. No `String` is made
//   here; `TapeDecoder` makes one only when a string value is decoded.
// - The input must outlive the tape's readers: `Tape.own()` copies it in when a decoder escapes.
// - A record of a stream (TapeRecords.swift) has no input buffer: its text is all in `side`, its
//   offsets are the stream's, and its lines come from marks taken as its bytes went by.

import Foundation

/// What a tape entry is.
enum TapeKind: UInt8 {
    case null = 0, falseValue, trueValue, number, string, object, array
    /// Object keys: the same layout as `string`.
    case key
}

struct TapeEntry {
    var word: UInt64
    var payload: UInt64

    @inline(__always) var kind: TapeKind { TapeKind(rawValue: UInt8(truncatingIfNeeded: word & 7)).unsafelyUnwrapped }
    @inline(__always) var inSide: Bool { word & 8 != 0 }
    /// A string yajl decoded (it had escapes). Every text of a stream's record is in `side`, but
    /// none is marked: the stream's buffers are gone, so escapes are not known there.
    @inline(__always) var escaped: Bool { word & 16 != 0 }
    /// Byte offset of the token in the input (for copied text, where yajl's position puts it).
    @inline(__always) var offset: Int { Int(truncatingIfNeeded: word >> 8) }
    @inline(__always) var textCount: Int { Int(truncatingIfNeeded: payload & 0xFFFF_FFFF) }
    @inline(__always) var sideOffset: Int { Int(truncatingIfNeeded: payload >> 32) }
    /// For a container: one past its last entry.
    @inline(__always) var end: Int { Int(truncatingIfNeeded: payload & 0xFFFF_FFFF) }
    /// For a container: its elements, or its members (key-value pairs).
    @inline(__always) var count: Int { Int(truncatingIfNeeded: payload >> 32) }
}

/// A parsed document: the entries and the bytes they point into. Immutable once built (its
/// fields are `let`s, so reading them costs no exclusivity check); `TapeWriter` builds it.
final class Tape {
    let entries: UnsafeMutablePointer<TapeEntry>
    let count: Int
    /// Text yajl decoded (strings and keys with escapes).
    let side: UnsafeMutableRawBufferPointer
    /// The input, in a cell so that `own()` can repoint it: owned by the caller unless `own()` copied it.
    private let inputCell: UnsafeMutablePointer<UnsafeRawBufferPointer>
    private var ownedInput: UnsafeMutableRawBufferPointer?
    private var lineStartCache: [Int]?
    /// A record of a stream (no input buffer): the stream places its errors.
    let isRecord: Bool

    fileprivate init(_ writer: TapeWriter) {
        entries = writer.entries
        count = writer.count
        isRecord = writer.isRecord
        let side = UnsafeMutableRawBufferPointer.allocate(byteCount: max(writer.side.count, 1), alignment: 1)
        writer.side.withUnsafeBytes { side.copyMemory(from: $0) }
        self.side = side
        inputCell = .allocate(capacity: 1)
        inputCell.initialize(to: writer.input)
    }

    deinit {
        entries.deallocate()
        side.deallocate()
        inputCell.deallocate()
        ownedInput?.deallocate()
    }

    var input: UnsafeRawBufferPointer { inputCell.pointee }

    /// Takes `buffer`, the input the tape was read from, to free with the tape (at once if the
    /// tape reads a copy of its own).
    func adopt(_ buffer: UnsafeMutableRawBufferPointer) {
        guard ownedInput == nil, input.baseAddress == UnsafeRawPointer(buffer.baseAddress) else { return buffer.deallocate() }
        ownedInput = buffer
    }

    /// Copies the input in, for readers that outlive the caller's buffer.
    func own() {
        guard ownedInput == nil else { return }
        let input = self.input
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(input.count, 1), alignment: 1)
        if input.count > 0 { copy.copyMemory(from: input) }
        ownedInput = copy
        inputCell.pointee = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(copy)[..<input.count])
    }

    /// Offsets where lines begin (for the line and column of an error), computed once.
    func lineStarts() -> [Int] {
        if let lineStartCache { return lineStartCache }
        var starts = [0]
        for (i, c) in input.enumerated() where c == 10 { starts.append(i + 1) }
        lineStartCache = starts
        return starts
    }

    @inline(__always) subscript(i: Int) -> TapeEntry { entries[i] }

    /// The bytes of a string, key or number entry.
    @inline(__always)
    func text(_ e: TapeEntry) -> UnsafeRawBufferPointer {
        let base = e.inSide ? UnsafeRawPointer(side.baseAddress.unsafelyUnwrapped) + e.sideOffset
                            : inputCell.pointee.baseAddress.unsafelyUnwrapped + e.offset
        return UnsafeRawBufferPointer(start: base, count: e.textCount)
    }

    /// Index of the entry after the value at `i`.
    @inline(__always)
    func next(after i: Int) -> Int {
        let e = entries[i]
        return e.kind == .object || e.kind == .array ? e.end : i + 1
    }
}

/// Builds a tape from the EventBuilder's callbacks; lives at a fixed address (the context pointer).
struct TapeWriter {
    var entries: UnsafeMutablePointer<TapeEntry>
    var count = 0
    private var capacity: Int
    var side: [UInt8] = []
    let input: UnsafeRawBufferPointer
    private let inputStart: UnsafeRawPointer
    private let inputEnd: UnsafeRawPointer
    /// Open containers: their entry index, and for objects the members so far and the last key.
    private(set) var open: [(index: Int, members: Int, lastKey: Int)] = []
    /// A record of a stream (no input buffer).
    private(set) var isRecord = false

    init(input: UnsafeRawBufferPointer) {
        self.input = input
        inputStart = input.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        inputEnd = inputStart + input.count
        // One entry per 16 bytes of input: the tape starts at the input's size and doubles when
        // the JSON is denser (a number array).
        capacity = max(16, input.count / 16)
        entries = .allocate(capacity: capacity)
    }

    /// A record of a stream: every text is copied (the stream's buffers do not outlive the record).
    static func record() -> TapeWriter {
        var writer = TapeWriter(input: UnsafeRawBufferPointer(start: nil, count: 0))
        writer.isRecord = true
        return writer
    }

    @inline(__always)
    private mutating func append(_ entry: TapeEntry) {
        if count == capacity { grow() }
        entries[count] = entry
        count += 1
    }

    private mutating func grow() {
        capacity *= 2
        entries = entries.moved(count: count, toCapacity: capacity)
    }

    mutating func scalar(_ kind: TapeKind, offset: Int) {
        append(TapeEntry(word: UInt64(kind.rawValue) | UInt64(max(offset, 0)) << 8, payload: 0))
    }

    /// A string, key or number; `tokenEnd` is one past the token in the input, where yajl stands
    /// (asked only for text yajl copied).
    @inline(__always)
    mutating func text(_ kind: TapeKind, _ bytes: UnsafeRawBufferPointer, tokenEnd: @autoclosure () -> Int?) {
        if kind == .key {
            let top = open.count - 1
            open[top].members += 1
            open[top].lastKey = count
        }
        if let base = bytes.baseAddress, base >= inputStart, base + bytes.count <= inputEnd {
            append(TapeEntry(word: UInt64(kind.rawValue) | UInt64(base - inputStart) << 8, payload: UInt64(bytes.count)))
            return
        }
        copied(kind, bytes, tokenEnd: tokenEnd())
    }

    private mutating func copied(_ kind: TapeKind, _ bytes: UnsafeRawBufferPointer, tokenEnd: Int?) {
        let sideOffset = side.count
        side.append(contentsOf: bytes)
        let quotes = kind == .number ? 0 : 2
        let offset = max((tokenEnd ?? 0) - bytes.count - quotes, 0)
        append(TapeEntry(word: UInt64(kind.rawValue) | (isRecord ? 8 : 8 | 16) | UInt64(offset) << 8,
                         payload: UInt64(bytes.count) | UInt64(sideOffset) << 32))
    }

    mutating func startContainer(_ kind: TapeKind, offset: Int) {
        open.append((count, 0, -1))
        scalar(kind, offset: offset)
    }

    /// Closes the innermost container; `elements` is an array's count (objects count their keys).
    mutating func endContainer(elements: Int) {
        let (index, members, _) = open.removeLast()
        let n = entries[index].kind == .object ? members : elements
        entries[index].payload = UInt64(count) | UInt64(n) << 32
    }

    /// The last key of the object open `fromTop` containers below the innermost, for error paths
    /// while building (every open container has a frame of the builder's, in the same order).
    func currentKey(fromTop: Int) -> String? {
        let level = open.count - 1 - fromTop
        return open.indices.contains(level) ? key(at: open[level].lastKey) : nil
    }

    /// The text of the key entry at `index`; nil for -1 (no key yet).
    func key(at index: Int) -> String? {
        guard index >= 0 else { return nil }
        let e = entries[index]
        if e.inSide { return String(decoding: side[e.sideOffset..<(e.sideOffset + e.textCount)], as: UTF8.self) }
        return String(decoding: UnsafeRawBufferPointer(rebasing: input[e.offset..<(e.offset + e.textCount)]), as: UTF8.self)
    }
}

// MARK: - The EventBuilder side

/// Receives every value of the document (root, elements and members alike) into the tape.
final class TapeTarget: ValueTarget {
    let owner = TapeOwner()

    init() { super.init(property: nil) }

    @inline(__always) private func tape(_ context: UnsafeMutableRawPointer) -> UnsafeMutablePointer<TapeWriter> {
        context.assumingMemoryBound(to: TapeWriter.self)
    }

    override func string(_ bytes: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        tape(context).pointee.text(.string, bytes, tokenEnd: b.tokenEnd())
    }
    override func number(_ text: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        tape(context).pointee.text(.number, text, tokenEnd: b.tokenEnd())
    }
    override func bool(_ value: Bool, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        tape(context).pointee.scalar(value ? .trueValue : .falseValue, offset: (b.tokenEnd() ?? 0) - (value ? 4 : 5))
    }
    override func null(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        tape(context).pointee.scalar(.null, offset: (b.tokenEnd() ?? 0) - 4)
    }
    override func startObject(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        tape(context).pointee.startContainer(.object, offset: (b.tokenEnd() ?? 0) - 1)
        b.push(.dictionary, owner: owner, node: nil, target: self, starter: self, storage: context, parentContext: context)
    }
    override func startArray(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        tape(context).pointee.startContainer(.array, offset: (b.tokenEnd() ?? 0) - 1)
        b.push(.array, owner: owner, node: nil, target: self, starter: self, storage: context, parentContext: context)
    }
}

/// Closes containers on the tape and adds object keys.
final class TapeOwner: ContainerOwner {
    override func key(_ bytes: UnsafeRawBufferPointer, _ storage: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        storage.assumingMemoryBound(to: TapeWriter.self).pointee.text(.key, bytes, tokenEnd: b.tokenEnd())
    }
    override func finish(_ b: inout EventBuilder) throws {
        let top = b.top
        top.storage.assumingMemoryBound(to: TapeWriter.self).pointee.endContainer(elements: top.count)
        b.pop()
    }
    override func currentKey(_ storage: UnsafeMutableRawPointer, fromTop: Int) -> String? {
        storage.assumingMemoryBound(to: TapeWriter.self).pointee.currentKey(fromTop: fromTop)
    }
}

extension Tape {
    /// Parses `input` (one whole JSON value) into a tape, with the scanner; with
    /// `trailingCommas`, a comma after the last value of an array or object is read past, as
    /// JSONDecoder reads it.
    /// - Throws: `JSONError` with path, offset, line and column.
    static func parse(_ input: UnsafeRawBufferPointer, options: DecodingOptions, trailingCommas: Bool = false) throws(JSONError) -> Tape {
        var writer = TapeWriter(input: input)
        var scanner = JSONScanner(options)
        scanner.allowsTrailingCommas = trailingCommas
        switch scanner.scan(input, into: &writer) {
        case .complete:
            return Tape(writer)
        case .stopped:
            preconditionFailure("a tape takes every token")
        case .failed(var error, let pending):
            error.path = writer.path(pending: pending)
            writer.entries.deallocate()
            if let offset = error.offset { LineCounter().locate(&error, offset: offset, chunk: input, at: 0) }
            throw error
        }
    }
}

extension Tape {
    /// The tape of a stream's record, built by `writer` (made with `init(record:)`), which gives
    /// its entries over.
    static func record(_ writer: TapeWriter) -> Tape { Tape(writer) }
}
