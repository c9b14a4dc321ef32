// StreamEncoder: MagmaEncoder's fast path. Values are written as `encode(to:)` hands them over: a
// keyed container writes `"key":value` straight into the output, with no tree in between.
//
// Data layout and invariants
// - One `StreamState` per encode (behind a pointer, as TreeEncoder's state is) holds the writer,
//   the stack of open containers (frames) and, per member of the open objects, where its key was
//   written and the key's hash.
// - One party may write at a time (`current`): the innermost open frame, or the encoder of a value
//   whose key or separator is written and whose value is awaited (a slot, `slotPending`). Frames
//   close lazily: when a frame below them is written to, when the value's `encode(to:)` returns,
//   and at the end. A value's `encode(to:)` cannot reach below its slot (`floor`).
// - Codable allows what a stream cannot take: a container written to after it was closed, a
//   nested container for a key already written (JSONEncoder merges them), `superEncoder` (its
//   value lands when the encoder goes away), nesting 512 deep. Such an encode is `abandoned`:
//   every later write throws `StreamFallback`, and MagmaEncoder encodes the value again with
//   TreeEncoder, which has JSONEncoder's semantics for all of them.
// - A key written twice keeps its first place and its last value (TreeEncoder's rule); with
//   `.sortedKeys` members are sorted. Both happen when the object closes, by moving its members'
//   bytes; other objects are never touched again. Bytes are TreeSerializer's, layout included.

import Foundation

/// Thrown inside an encode the stream cannot take; MagmaEncoder catches it and uses TreeEncoder.
struct StreamFallback: Error {}

/// The key of a value's slot: none (the encoder's own value), an array index, or a coding key.
enum SlotKey {
    case none
    case index(Int)
    case key(any CodingKey)

    var codingKey: (any CodingKey)? {
        switch self {
        case .none: nil
        case .index(let i): PathKey(index: i)
        case .key(let k): k
        }
    }
}

/// An open container of the output.
struct StreamFrame {
    let id: Int
    let isObject: Bool
    /// Members or elements so far.
    var count = 0
    /// Its first member record.
    let firstMember: Int
    /// One bit per key hash seen: a clear bit says a key is new without a search.
    var keyBits: UInt64 = 0
    /// Members to move when it closes: sorted keys, or a key written twice.
    var reorder: Bool
}

/// Where a member's key was written (quotes included), and its hash.
struct MemberRecord {
    let keyStart: Int
    let keyEnd: Int
    let hash: UInt64
}

/// Where a write began, to take it back when it throws: an error caught inside `encode(to:)`
/// must leave no half-written member, as TreeEncoder leaves none.
struct StreamMark {
    let count: Int, frames: Int, members: Int, frameCount: Int, current: Int, pending: Bool, floor: Int
}

struct StreamState {
    var writer: JSONWriter
    let pretty: Bool
    let sorted: Bool
    private var frames: UnsafeMutablePointer<StreamFrame>
    private var frameCapacity = 16
    private(set) var frameCount = 0
    private var members: UnsafeMutablePointer<MemberRecord>
    private var memberCapacity = 64
    private var memberCount = 0
    /// Who may write now: the innermost frame's id, or the awaited slot's.
    var current = 0
    var slotPending = false
    /// Frames below this belong to the values around the slot being written.
    var floor = 0
    private var lastID = 0
    private(set) var abandoned = false

    /// TreeSerializer's limit: a container at this depth is an error (TreeEncoder throws it).
    static let maxDepth = 512

    init(formatting: JSONEncoder.OutputFormatting) {
        var options = EncodingOptions()
        options.escapeSlashes = !formatting.contains(.withoutEscapingSlashes)
        writer = JSONWriter(options: options)
        pretty = formatting.contains(.prettyPrinted)
        sorted = formatting.contains(.sortedKeys)
        frames = .allocate(capacity: frameCapacity)
        members = .allocate(capacity: memberCapacity)
    }

    func release() {
        frames.deallocate()
        members.deallocate()
    }

    mutating func newID() -> Int {
        lastID += 1
        return lastID
    }

    var topID: Int { frameCount == 0 ? 0 : frames[frameCount - 1].id }

    /// Gives up on streaming this encode.
    mutating func abandon() -> StreamFallback {
        abandoned = true
        current = -1
        slotPending = false
        return StreamFallback()
    }

    // MARK: Frames

    /// Opens a container where the output stands; its id, or 0 (abandoned) past the depth limit.
    mutating func open(object: Bool) -> Int {
        guard frameCount + 1 < Self.maxDepth else { _ = abandon(); return 0 }
        writer.append(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        if pretty { writer.append(UInt8(ascii: "\n")) }
        if frameCount == frameCapacity {
            let bigger = UnsafeMutablePointer<StreamFrame>.allocate(capacity: frameCapacity * 2)
            bigger.moveInitialize(from: frames, count: frameCount)
            frames.deallocate()
            frames = bigger
            frameCapacity *= 2
        }
        let id = newID()
        (frames + frameCount).initialize(to: StreamFrame(id: id, isObject: object, firstMember: memberCount, reorder: object && sorted))
        frameCount += 1
        current = id
        slotPending = false
        return id
    }

    /// Closes the innermost frame.
    mutating func close() {
        let top = frameCount - 1
        let frame = frames[top]
        if frame.reorder, frame.count > 1 { reorderMembers(of: frame) }
        if pretty {
            writer.append(UInt8(ascii: "\n"))
            indent(top)
        }
        writer.append(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        frameCount = top
        memberCount = frame.firstMember
        current = topID
        slotPending = false
    }

    /// `{}` where the output stands: an `encode(to:)` that encoded nothing.
    mutating func emptyObject() {
        if open(object: true) != 0 { close() }
    }

    /// The index of the open frame `id` at or above `floor`.
    func index(of id: Int) -> Int? {
        var i = frameCount - 1
        while i >= floor {
            if frames[i].id == id { return i }
            i -= 1
        }
        return nil
    }

    /// Members or elements so far of the open frame `id`.
    func count(of id: Int) -> Int? { index(of: id).map { frames[$0].count } }

    func isOpen(_ id: Int, object: Bool) -> Bool {
        guard let i = index(of: id) else { return false }
        return frames[i].isObject == object
    }

    /// Makes frame `id` the one written to, closing those above it; false if it is not open.
    mutating func reach(_ id: Int) -> Bool {
        guard !abandoned, !slotPending, let i = index(of: id) else { _ = abandon(); return false }
        while frameCount > i + 1 { close() }
        current = id
        return true
    }

    // MARK: Members and elements

    private mutating func indent(_ depth: Int) {
        for _ in 0..<depth {
            writer.append(UInt8(ascii: " "))
            writer.append(UInt8(ascii: " "))
        }
    }

    /// Writes the separator before the next member or element of the innermost frame.
    @inline(__always)
    mutating func separate() {
        let top = frameCount - 1
        if frames[top].count > 0 {
            writer.append(UInt8(ascii: ","))
            if pretty { writer.append(UInt8(ascii: "\n")) }
        }
        frames[top].count += 1
        if pretty { indent(frameCount) }
    }

    /// Writes the separator and `"name":` of the next member; whether the object has the key already.
    @inline(__always) @discardableResult
    mutating func key(_ name: String) -> Bool {
        separate()
        var name = name
        let repeated = name.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            let start = writer.count
            writer.string(bytes)
            return note(hash: Self.hash(bytes), start: start, end: writer.count)
        }
        if pretty {
            writer.append(UInt8(ascii: " "))
            writer.append(UInt8(ascii: ":"))
            writer.append(UInt8(ascii: " "))
        } else {
            writer.append(UInt8(ascii: ":"))
        }
        return repeated
    }

    /// Records a member's key; whether the innermost object has it already.
    @inline(__always)
    private mutating func note(hash: UInt64, start: Int, end: Int) -> Bool {
        if memberCount == memberCapacity {
            let bigger = UnsafeMutablePointer<MemberRecord>.allocate(capacity: memberCapacity * 2)
            bigger.moveInitialize(from: members, count: memberCount)
            members.deallocate()
            members = bigger
            memberCapacity *= 2
        }
        (members + memberCount).initialize(to: MemberRecord(keyStart: start, keyEnd: end, hash: hash))
        memberCount += 1
        let top = frameCount - 1
        let bit: UInt64 = 1 << (hash >> 58)
        defer { frames[top].keyBits |= bit }
        guard frames[top].keyBits & bit != 0, isRepeated(memberCount - 1, from: frames[top].firstMember) else { return false }
        frames[top].reorder = true
        return true
    }

    /// Whether member `m`'s key is one of the members from `first` on, before it.
    private func isRepeated(_ m: Int, from first: Int) -> Bool {
        let record = members[m]
        return writer.withUnsafeBytes { out in
            let key = UnsafeRawBufferPointer(rebasing: out[record.keyStart..<record.keyEnd])
            for i in first..<m where members[i].hash == record.hash {
                if out[members[i].keyStart..<members[i].keyEnd].elementsEqual(key) { return true }
            }
            return false
        }
    }

    /// A hash of a key's UTF-8: its first and last eight bytes and its length (longer keys that
    /// agree on those are told apart by comparing bytes).
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let n = bytes.count
        var a: UInt64 = 0, b: UInt64 = 0
        if n >= 8 {
            a = bytes.loadUnaligned(as: UInt64.self)
            b = bytes.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
        } else if n >= 4 {
            a = UInt64(bytes.loadUnaligned(as: UInt32.self))
            b = UInt64(bytes.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self))
        } else {
            for c in bytes { a = a << 8 | UInt64(c) }
        }
        return (a ^ (b &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(n)) &* 0xBF58_476D_1CE4_E5B9
    }

    /// Puts the members of the closing `frame` in order (sorted keys) and keeps one per key
    /// (first place, last value), by moving their bytes.
    private mutating func reorderMembers(of frame: StreamFrame) {
        let first = frame.firstMember, n = memberCount - first
        let end = writer.count
        let indentWidth = pretty ? 2 * frameCount : 0
        let separatorWidth = 1 + (pretty ? 1 : 0) + indentWidth
        let contentStart = members[first].keyStart - indentWidth
        // A member's bytes run from its key to the separator before the next one.
        var spans: [Range<Int>] = []
        spans.reserveCapacity(n)
        for i in 0..<n {
            spans.append(members[first + i].keyStart..<(i + 1 < n ? members[first + i + 1].keyStart - separatorWidth : end))
        }
        let members = self.members, sorted = self.sorted
        let saved: [UInt8] = writer.withUnsafeBytes { Array($0[contentStart..<end]) }
        let chosen: [Int] = saved.withUnsafeBytes { bytes in
            func key(_ i: Int) -> UnsafeRawBufferPointer {
                let r = members[first + i]
                return UnsafeRawBufferPointer(rebasing: bytes[(r.keyStart + 1 - contentStart)..<(r.keyEnd - 1 - contentStart)])
            }
            func hash(_ i: Int) -> UInt64 { members[first + i].hash }
            var order = Array(0..<n)
            if sorted {
                order.sort { a, b in
                    let c = Self.compareEscaped(key(a), key(b))
                    return c != 0 ? c < 0 : a < b
                }
            } else {
                order.sort { a, b in hash(a) != hash(b) ? hash(a) < hash(b) : a < b }
            }
            // Runs of equal keys (sorted) or equal hashes, each split into its distinct keys.
            var picked: [(first: Int, last: Int)] = []
            var i = 0
            while i < n {
                var j = i + 1
                while j < n, sorted ? key(order[j]).elementsEqual(key(order[i])) : hash(order[j]) == hash(order[i]) { j += 1 }
                var groups: [(key: Int, first: Int, last: Int)] = []
                for m in order[i..<j] {
                    if let g = groups.firstIndex(where: { key($0.key).elementsEqual(key(m)) }) { groups[g].last = m } else { groups.append((m, m, m)) }
                }
                picked += groups.map { ($0.first, $0.last) }
                i = j
            }
            if !sorted { picked.sort { $0.first < $1.first } }
            return picked.map(\.last)
        }
        writer.truncate(to: contentStart)
        saved.withUnsafeBytes { bytes in
            for (k, m) in chosen.enumerated() {
                if k > 0 {
                    writer.append(UInt8(ascii: ","))
                    if pretty { writer.append(UInt8(ascii: "\n")) }
                }
                if pretty { indent(frameCount) }
                writer.append(UnsafeRawBufferPointer(rebasing: bytes[(spans[m].lowerBound - contentStart)..<(spans[m].upperBound - contentStart)]))
            }
        }
    }

    /// Compares two keys as written (escaped) by their unescaped UTF-8, as TreeSerializer sorts them.
    static func compareEscaped(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        var i = 0, j = 0
        func next(_ s: UnsafeRawBufferPointer, _ k: inout Int) -> UInt8 {
            let c = s[k]
            guard c == UInt8(ascii: "\\") else { k += 1; return c }
            let e = s[k + 1]
            k += 2
            switch e {
            case UInt8(ascii: "n"): return 0x0A
            case UInt8(ascii: "r"): return 0x0D
            case UInt8(ascii: "t"): return 0x09
            case UInt8(ascii: "b"): return 0x08
            case UInt8(ascii: "f"): return 0x0C
            case UInt8(ascii: "u"):
                var v = 0
                for _ in 0..<4 {
                    let h = Int(s[k])
                    v = v << 4 | (h <= 0x39 ? h - 0x30 : (h | 0x20) - 0x61 + 10)
                    k += 1
                }
                return UInt8(truncatingIfNeeded: v)
            default: return e  // \" \\ \/
            }
        }
        while i < a.count, j < b.count {
            let x = next(a, &i), y = next(b, &j)
            if x != y { return x < y ? -1 : 1 }
        }
        return i < a.count ? 1 : j < b.count ? -1 : 0
    }

    // MARK: Rolling back

    func mark() -> StreamMark {
        StreamMark(count: writer.count, frames: frameCount, members: memberCount,
                   frameCount: frameCount > 0 ? frames[frameCount - 1].count : 0, current: current, pending: slotPending, floor: floor)
    }

    mutating func rollback(_ mark: StreamMark) {
        guard !abandoned, frameCount >= mark.frames else { _ = abandon(); return }
        writer.truncate(to: mark.count)
        frameCount = mark.frames
        memberCount = mark.members
        if frameCount > 0 { frames[frameCount - 1].count = mark.frameCount }
        current = mark.current
        slotPending = mark.pending
        floor = mark.floor
    }

    // MARK: Numbers

    /// A finite Double as JSONEncoder writes it (TreeSerializer's rule: `description` without ".0").
    mutating func double(_ d: Double) {
        if abs(d) < 1e15, d.rounded(.towardZero) == d { return try! writer.double(d) }
        d.write(to: &writer)
        let n = writer.count
        if writer.withUnsafeBytes({ $0[n - 2] == UInt8(ascii: ".") && $0[n - 1] == UInt8(ascii: "0") }) { writer.truncate(to: n - 2) }
    }
}

/// The state of one streaming encode, freed with the last encoder that refers to it.
final class StreamOutput {
    let state: UnsafeMutablePointer<StreamState>
    let settings: EncoderSettings
    let routes = ArrayTypes()

    init(settings: EncoderSettings, formatting: JSONEncoder.OutputFormatting) {
        self.settings = settings
        state = .allocate(capacity: 1)
        state.initialize(to: StreamState(formatting: formatting))
    }

    deinit {
        state.pointee.release()
        state.deinitialize(count: 1)
        state.deallocate()
    }
}

final class StreamEncoder: Encoder, SingleValueEncodingContainer {
    let output: StreamOutput

    /// The mutable fields, behind a pointer (no exclusivity checks; see `EncodedArray`).
    private struct Fields {
        var owner: StreamEncoder?
        var key: SlotKey
        /// A child kept for reuse (one allocation fewer per value, as in TreeEncoder).
        var spare: StreamEncoder?
        /// The slot this encoder's value fills.
        var slot = 0
        /// The container this encoder opened, if any.
        var frame = 0
    }

    private let fields = UnsafeMutablePointer<Fields>.allocate(capacity: 1)

    private var owner: StreamEncoder? {
        _read { yield fields.pointee.owner }
        _modify { yield &fields.pointee.owner }
    }
    var slot: Int {
        _read { yield fields.pointee.slot }
        _modify { yield &fields.pointee.slot }
    }

    init(output: StreamOutput, owner: StreamEncoder?, key: SlotKey) {
        self.output = output
        fields.initialize(to: Fields(owner: owner, key: key))
    }

    deinit {
        fields.deinitialize(count: 1)
        fields.deallocate()
    }

    var settings: EncoderSettings { output.settings }
    var userInfo: [CodingUserInfoKey: Any] { output.settings.userInfo }

    var codingPath: [any CodingKey] {
        var keys: [any CodingKey] = []
        var e: StreamEncoder? = self
        while let encoder = e {
            if let k = encoder.fields.pointee.key.codingKey { keys.append(k) }
            e = encoder.owner
        }
        return keys.reversed()
    }

    /// Encodes `value`; nil when the stream cannot take it (the caller then uses TreeEncoder).
    static func encode<T: Encodable>(_ value: T, settings: EncoderSettings, formatting: JSONEncoder.OutputFormatting) throws -> Data? {
        let output = StreamOutput(settings: settings, formatting: formatting)
        let s = output.state
        let root = StreamEncoder(output: output, owner: nil, key: .none)
        root.slot = s.pointee.newID()
        do {
            let wrote = try root.value(value, .none)
            if s.pointee.abandoned { return nil }
            guard wrote else {
                throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
            }
            while s.pointee.frameCount > 0 { s.pointee.close() }
            return s.pointee.writer.withUnsafeBytes { Data($0) }
        } catch {
            if s.pointee.abandoned { return nil }
            throw error
        }
    }

    // MARK: Encoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(StreamKeyedContainer<Key>(encoder: self, frame: ownFrame(object: true), path: []))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        StreamUnkeyedContainer(encoder: self, frame: ownFrame(object: false), path: [])
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// The frame of this encoder's container: opened in its slot, or the one it opened before
    /// (asked twice, JSONEncoder gives the same container); -1 when the stream cannot say.
    private func ownFrame(object: Bool) -> Int {
        let s = output.state
        if s.pointee.current == slot, s.pointee.slotPending {
            let frame = s.pointee.open(object: object)
            fields.pointee.frame = frame
            return frame
        }
        let frame = fields.pointee.frame
        if frame != 0, s.pointee.isOpen(frame, object: object) { return frame }
        _ = s.pointee.abandon()
        return -1
    }

    /// Makes `frame` the one written to (see `StreamState.reach`).
    @inline(never)
    func reach(_ frame: Int) throws {
        guard output.state.pointee.reach(frame) else { throw StreamFallback() }
    }

    // MARK: SingleValueEncodingContainer

    /// Takes this encoder's slot for a value.
    @inline(__always)
    private func single() throws -> UnsafeMutablePointer<StreamState> {
        let s = output.state
        guard s.pointee.current == slot, s.pointee.slotPending else { throw s.pointee.abandon() }
        s.pointee.slotPending = false
        s.pointee.current = s.pointee.topID
        return s
    }

    func encodeNil() throws { try single().pointee.writer.null() }
    func encode(_ value: Bool) throws { try single().pointee.writer.bool(value) }
    func encode(_ value: String) throws { try single().pointee.writer.string(value) }
    func encode(_ value: Double) throws {
        try check(value, .none)
        try float(value, into: single())
    }
    func encode(_ value: Float) throws {
        try check(value, .none)
        try float(value, into: single())
    }
    func encode(_ value: Int) throws { try single().pointee.writer.int64(Int64(value)) }
    func encode(_ value: Int8) throws { try single().pointee.writer.int64(Int64(value)) }
    func encode(_ value: Int16) throws { try single().pointee.writer.int64(Int64(value)) }
    func encode(_ value: Int32) throws { try single().pointee.writer.int64(Int64(value)) }
    func encode(_ value: Int64) throws { try single().pointee.writer.int64(value) }
    func encode(_ value: UInt) throws { try single().pointee.writer.uint64(UInt64(value)) }
    func encode(_ value: UInt8) throws { try single().pointee.writer.uint64(UInt64(value)) }
    func encode(_ value: UInt16) throws { try single().pointee.writer.uint64(UInt64(value)) }
    func encode(_ value: UInt32) throws { try single().pointee.writer.uint64(UInt64(value)) }
    func encode(_ value: UInt64) throws { try single().pointee.writer.uint64(value) }
    func encode<T: Encodable>(_ value: T) throws {
        let s = try single()
        // Back to awaiting, for `value` to fill this same slot (JSONEncoder encodes it with this encoder).
        s.pointee.current = slot
        s.pointee.slotPending = true
        let mark = s.pointee.mark()
        s.pointee.current = s.pointee.topID
        s.pointee.slotPending = false
        do {
            if try !self.value(value, .none) { s.pointee.emptyObject() }
        } catch {
            s.pointee.rollback(mark)
            throw error
        }
    }

    // MARK: Values

    /// Writes `value` where the output stands (its key or separator written), as TreeEncoder's
    /// `wrapGeneric` turns it into a tree; false if it wrote nothing (an `encode(to:)` that
    /// encodes nothing: the caller writes `{}` or throws, as TreeEncoder does).
    @inline(__always)
    func value<T: Encodable>(_ value: T, _ key: SlotKey) throws -> Bool {
        let s = output.state
        if T.self == String.self { s.pointee.writer.string(unsafeBitCast(value, to: String.self)); return true }
        if T.self == Int.self { s.pointee.writer.int64(Int64(unsafeBitCast(value, to: Int.self))); return true }
        if T.self == Double.self {
            let d = unsafeBitCast(value, to: Double.self)
            try check(d, key)
            float(d, into: s)
            return true
        }
        if T.self == Bool.self { s.pointee.writer.bool(unsafeBitCast(value, to: Bool.self)); return true }
        if T.self == Date.self { return try date(value as! Date, key) }
        if T.self == Data.self { return try data(value as! Data, key) }
        if T.self == URL.self { s.pointee.writer.string((value as! URL).absoluteString); return true }
        if T.self == Decimal.self { s.pointee.writer.numberText((value as! Decimal).description); return true }
        if !settings.defaultKeys, let dictionary = value as? any StringKeyedDictionaryEncodable {
            return try self.dictionary(dictionary.stringKeyed, key)
        }
        if output.routes.isArray(T.self), let array = value as? any StreamArrayEncodable {
            return try nested(key) { try array.encodeElements(into: $0) }
        }
        return try nested(key) { try value.encode(to: $0) }
    }

    /// Runs `body` with the encoder of the value at `key` (this one for `.none`), its slot
    /// awaiting the value; then closes what it opened. Whether it wrote anything.
    @inline(__always)
    func nested(_ key: SlotKey, _ body: (StreamEncoder) throws -> Void) throws -> Bool {
        let s = output.state
        var child = self
        if case .none = key {} else {
            if let spare = fields.pointee.spare {
                fields.pointee.spare = nil
                child = spare
                child.fields.pointee.key = key
                child.fields.pointee.owner = self
            } else {
                child = StreamEncoder(output: output, owner: self, key: key)
            }
            child.slot = s.pointee.newID()
        }
        let slot = child.slot
        let depth = s.pointee.frameCount, floor = s.pointee.floor
        s.pointee.current = slot
        s.pointee.slotPending = true
        s.pointee.floor = depth
        try body(child)
        s.pointee.floor = floor
        guard !s.pointee.abandoned, s.pointee.frameCount >= depth else { throw s.pointee.abandon() }
        let wrote = !(s.pointee.slotPending && s.pointee.current == slot)
        while s.pointee.frameCount > depth { s.pointee.close() }
        s.pointee.current = s.pointee.topID
        s.pointee.slotPending = false
        if child !== self, fields.pointee.spare == nil, isKnownUniquelyReferenced(&child) {
            child.fields.pointee.owner = nil
            child.fields.pointee.key = .none
            child.fields.pointee.frame = 0
            fields.pointee.spare = child
        }
        return wrote
    }

    /// Throws JSONEncoder's error for a non-finite float the strategy does not spell.
    @inline(__always)
    func check<F: BinaryFloatingPoint>(_ value: F, _ key: @autoclosure () -> SlotKey,
                                       strategy: JSONEncoder.NonConformingFloatEncodingStrategy? = nil) throws {
        guard !value.isFinite else { return }
        if case .convertToString = strategy ?? settings.floats { return }
        throw EncodingError.invalidValue(value, EncodingError.Context(
            codingPath: codingPath + (key().codingKey.map { [$0] } ?? []), debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
    }

    /// Writes a float `check` let through.
    func float<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F, into s: UnsafeMutablePointer<StreamState>) {
        guard value.isFinite else {
            guard case let .convertToString(positiveInfinity: inf, negativeInfinity: negInf, nan: nan) = settings.floats else { return }
            return s.pointee.writer.string(value == F.infinity ? inf : value == -F.infinity ? negInf : nan)
        }
        if F.self == Double.self { return s.pointee.double(Double(value)) }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        s.pointee.writer.numberText(text)
    }

    private func date(_ date: Date, _ key: SlotKey) throws -> Bool {
        let s = output.state
        switch settings.dates {
        case .deferredToDate:
            return try nested(key) { try date.encode(to: $0) }
        case .secondsSince1970:
            try check(date.timeIntervalSince1970, key, strategy: .throw)
            s.pointee.double(date.timeIntervalSince1970)
        case .millisecondsSince1970:
            try check(1000.0 * date.timeIntervalSince1970, key, strategy: .throw)
            s.pointee.double(1000.0 * date.timeIntervalSince1970)
        case .iso8601:
            s.pointee.writer.string(date.formatted(.iso8601))
        case .formatted:
            s.pointee.writer.string(settings.formattedDates.unsafelyUnwrapped.string(date))
        case .custom(let closure):
            if try !nested(key, { try closure(date, $0) }) { s.pointee.emptyObject() }
        }
        return true
    }

    private func data(_ data: Data, _ key: SlotKey) throws -> Bool {
        let s = output.state
        switch settings.data {
        case .base64:
            s.pointee.writer.string(data.base64EncodedString())
            return true
        case .custom(let closure):
            if try !nested(key, { try closure(data, $0) }) { s.pointee.emptyObject() }
            return true
        default:
            return try nested(key) { try data.encode(to: $0) }
        }
    }

    /// A `[String: V]` under a key strategy other than the default: its keys as they are.
    private func dictionary(_ dictionary: [String: any Encodable], _ key: SlotKey) throws -> Bool {
        try nested(key) { child in
            let s = self.output.state
            child.fields.pointee.frame = s.pointee.open(object: true)
            if s.pointee.abandoned { throw StreamFallback() }
            for (k, v) in dictionary {
                s.pointee.key(k)
                func open<V: Encodable>(_ v: V) throws -> Bool { try child.value(v, .key(PathKey(stringValue: k))) }
                if try !open(v) { s.pointee.emptyObject() }
            }
        }
    }

    /// The JSON key for `key`, through the key strategy.
    func converted(_ key: some CodingKey, path: [any CodingKey]) -> String {
        switch settings.keys {
        case .useDefaultKeys: return key.stringValue
        case .convertToSnakeCase: return JSONEncoder.KeyEncodingStrategy.convertToSnakeCase(key.stringValue)
        case .custom(let convert): return convert(codingPath + path + [key]).stringValue
        @unknown default: return key.stringValue
        }
    }
}

/// Arrays, element by element without `Array.encode(to:)` (see `TreeArrayEncodable`).
protocol StreamArrayEncodable {
    func encodeElements(into encoder: StreamEncoder) throws
}

extension Array: StreamArrayEncodable where Element: Encodable {
    func encodeElements(into encoder: StreamEncoder) throws {
        let s = encoder.output.state
        guard s.pointee.open(object: false) != 0 else { throw StreamFallback() }
        // Indices, not `enumerated()` (see TreeArrayEncodable).
        for index in 0..<count {
            s.pointee.separate()
            if try !encoder.value(self[index], .index(index)) { s.pointee.emptyObject() }
        }
    }
}
