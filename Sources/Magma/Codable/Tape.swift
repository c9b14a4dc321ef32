// Tape: a whole JSON document as a flat array of 16-byte entries, built from yajl's events by
// the EventBuilder (so a Codable decode passes the same checks as a model decode: strict UTF-8,
// surrogate escapes, size cap, depth limit), then read by `TapeDecoder` in any order.
//
// Data layout and invariants
// - One entry per token, in document order: a scalar, a string, an object key, or the start of a
//   container. Container ends have no entry: a container's entry holds the index one past its
//   last entry (`end`), so skipping a value is one load.
// - `word` packs the kind (low 3 bits), whether the text is in `side` (bit 3), and the token's
//   byte offset in the input (bits 8...). `payload` holds a text's length (low 32 bits) and its
//   offset in `side` (high 32 bits), or a container's end index (low 32) and member count (high 32).
// - Strings and keys without escapes are not copied: yajl hands their bytes inside the input, and
//   the entry points there. Text yajl decoded (escapes) is appended to `side`. No `String` is made
//   here; `TapeDecoder` makes one only when a string value is decoded.
// - The input must outlive the tape's readers: `Tape.own()` copies it in when a decoder escapes.

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
    /// Byte offset of the token in the input (for copied text, where yajl's position puts it).
    @inline(__always) var offset: Int { Int(truncatingIfNeeded: word >> 8) }
    @inline(__always) var textCount: Int { Int(truncatingIfNeeded: payload & 0xFFFF_FFFF) }
    @inline(__always) var sideOffset: Int { Int(truncatingIfNeeded: payload >> 32) }
    /// For a container: one past its last entry.
    @inline(__always) var end: Int { Int(truncatingIfNeeded: payload & 0xFFFF_FFFF) }
    /// For a container: its elements, or its members (key-value pairs).
    @inline(__always) var count: Int { Int(truncatingIfNeeded: payload >> 32) }
}

/// A parsed document: the entries and the bytes they point into.
final class Tape {
    private(set) var entries: UnsafeMutablePointer<TapeEntry>
    private(set) var count = 0
    private var capacity: Int
    /// Text yajl decoded (strings and keys with escapes).
    private(set) var side: [UInt8] = []
    /// The input; owned by the caller unless `own()` copied it.
    private(set) var input: UnsafeRawBufferPointer
    private var ownedInput: UnsafeMutableRawBufferPointer?
    /// Open containers: their entry index, and for objects the members so far.
    private var open: [(index: Int, members: Int, lastKey: Int)] = []

    private var lineStartCache: [Int]?

    /// Offsets where lines begin (for the line and column of an error), computed once.
    func lineStarts() -> [Int] {
        if let lineStartCache { return lineStartCache }
        var starts = [0]
        for (i, c) in input.enumerated() where c == 10 { starts.append(i + 1) }
        lineStartCache = starts
        return starts
    }

    init(input: UnsafeRawBufferPointer) {
        self.input = input
        // One entry per 16 bytes of input: the tape starts at the input's size and doubles when
        // the JSON is denser (a number array).
        capacity = max(16, input.count / 16)
        entries = .allocate(capacity: capacity)
    }

    deinit {
        entries.deallocate()
        ownedInput?.deallocate()
    }

    /// Copies the input in, for readers that outlive the caller's buffer.
    func own() {
        guard ownedInput == nil else { return }
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(input.count, 1), alignment: 1)
        if input.count > 0 { copy.copyMemory(from: input) }
        ownedInput = copy
        input = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(copy)[..<input.count])
    }

    @inline(__always) subscript(i: Int) -> TapeEntry { entries[i] }

    /// The bytes of a string, key or number entry.
    @inline(__always)
    func text(_ e: TapeEntry) -> UnsafeRawBufferPointer {
        if e.inSide {
            return side.withUnsafeBytes { UnsafeRawBufferPointer(rebasing: $0[e.sideOffset..<(e.sideOffset + e.textCount)]) }
        }
        return UnsafeRawBufferPointer(rebasing: input[e.offset..<(e.offset + e.textCount)])
    }

    /// Index of the entry after the value at `i`.
    @inline(__always)
    func next(after i: Int) -> Int {
        let e = entries[i]
        return e.kind == .object || e.kind == .array ? e.end : i + 1
    }

    // MARK: Building (from the EventBuilder's callbacks)

    @inline(__always)
    private func append(_ entry: TapeEntry) {
        if count == capacity { grow() }
        entries[count] = entry
        count += 1
    }

    private func grow() {
        let newCapacity = capacity * 2
        let bigger = UnsafeMutablePointer<TapeEntry>.allocate(capacity: newCapacity)
        bigger.moveInitialize(from: entries, count: count)
        entries.deallocate()
        entries = bigger
        capacity = newCapacity
    }

    func scalar(_ kind: TapeKind, offset: Int) {
        append(TapeEntry(word: UInt64(kind.rawValue) | UInt64(max(offset, 0)) << 8, payload: 0))
    }

    /// A string, key or number; `tokenEnd` is one past the token in the input, where yajl stands.
    func text(_ kind: TapeKind, _ bytes: UnsafeRawBufferPointer, tokenEnd: Int?) {
        if kind == .key { open[open.count - 1].members += 1; open[open.count - 1].lastKey = count }
        if let base = bytes.baseAddress, let start = input.baseAddress, base >= start, base + bytes.count <= start + input.count {
            append(TapeEntry(word: UInt64(kind.rawValue) | UInt64(base - start) << 8, payload: UInt64(bytes.count)))
            return
        }
        let sideOffset = side.count
        side.append(contentsOf: bytes)
        let quotes = kind == .number ? 0 : 2
        let offset = max((tokenEnd ?? 0) - bytes.count - quotes, 0)
        append(TapeEntry(word: UInt64(kind.rawValue) | 8 | UInt64(offset) << 8,
                         payload: UInt64(bytes.count) | UInt64(sideOffset) << 32))
    }

    func startContainer(_ kind: TapeKind, offset: Int) {
        open.append((count, 0, -1))
        scalar(kind, offset: offset)
    }

    /// Closes the innermost container; `elements` is an array's count (objects count their keys).
    func endContainer(elements: Int) {
        let (index, members, _) = open.removeLast()
        let n = entries[index].kind == .object ? members : elements
        entries[index].payload = UInt64(count) | UInt64(n) << 32
    }

    /// The innermost open object's last key, for error paths while building.
    func currentKey() -> String? {
        guard let top = open.last, top.lastKey >= 0 else { return nil }
        return String(decoding: text(entries[top.lastKey]), as: UTF8.self)
    }
}

// MARK: - The EventBuilder side

/// Receives every value of the document (root, elements and members alike) into the tape.
final class TapeTarget: ValueTarget {
    let owner = TapeOwner()

    init() { super.init(property: nil) }

    @inline(__always) private func tape(_ context: UnsafeMutableRawPointer) -> Tape {
        Unmanaged<Tape>.fromOpaque(context).takeUnretainedValue()
    }

    override func string(_ bytes: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        tape(context).text(.string, bytes, tokenEnd: b.tokenEnd())
    }
    override func number(_ text: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        tape(context).text(.number, text, tokenEnd: b.tokenEnd())
    }
    override func bool(_ value: Bool, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        tape(context).scalar(value ? .trueValue : .falseValue, offset: (b.tokenEnd() ?? 0) - (value ? 4 : 5))
    }
    override func null(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        tape(context).scalar(.null, offset: (b.tokenEnd() ?? 0) - 4)
    }
    override func startObject(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        tape(context).startContainer(.object, offset: (b.tokenEnd() ?? 0) - 1)
        b.push(.dictionary, owner: owner, node: nil, target: self, starter: self, storage: context, parentContext: context)
    }
    override func startArray(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        tape(context).startContainer(.array, offset: (b.tokenEnd() ?? 0) - 1)
        b.push(.array, owner: owner, node: nil, target: self, starter: self, storage: context, parentContext: context)
    }
}

/// Closes containers on the tape and adds object keys.
final class TapeOwner: ContainerOwner {
    override func key(_ bytes: UnsafeRawBufferPointer, _ storage: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        Unmanaged<Tape>.fromOpaque(storage).takeUnretainedValue().text(.key, bytes, tokenEnd: b.tokenEnd())
    }
    override func finish(_ b: inout EventBuilder) throws {
        let top = b.top
        Unmanaged<Tape>.fromOpaque(top.storage).takeUnretainedValue().endContainer(elements: top.count)
        b.pop()
    }
    override func currentKey(_ storage: UnsafeMutableRawPointer) -> String? {
        Unmanaged<Tape>.fromOpaque(storage).takeUnretainedValue().currentKey()
    }
}

extension Tape {
    /// Parses `input` (one whole JSON value) into a tape.
    /// - Throws: `JSONError` with offset, line and column.
    static func parse(_ input: UnsafeRawBufferPointer, options: DecodingOptions) throws(JSONError) -> Tape {
        let tape = Tape(input: input)
        let target = TapeTarget()
        try withExtendedLifetime(target) { () throws(JSONError) in
            let builder = UnsafeMutablePointer<EventBuilder>.allocate(capacity: 1)
            builder.initialize(to: EventBuilder(root: target, rootContext: Unmanaged.passUnretained(tape).toOpaque(), options: options))
            defer {
                builder.pointee.destroy()
                builder.deinitialize(count: 1)
                builder.deallocate()
            }
            var tokenizer = Tokenizer(builder: builder, tracksLines: false)
            try tokenizer.parseAll(input)
        }
        if tape.count == 0 { throw JSONError(.unexpectedEnd, "the input holds no JSON value") }
        return tape
    }
}
