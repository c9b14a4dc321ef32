// StreamState: the output of one StreamEncoder encode and its stack of open containers (see the
// note at the top of StreamEncoder.swift): separators and keys as JSONEncoder lays them out,
// members reordered in place when an object closes, and marks to take a failed write back.

import Foundation

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

    /// JSONEncoder's limit: a container at this depth is an error (MagmaEncoder throws it).
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

    /// Empties the state for another encode, keeping its buffers.
    mutating func reset() {
        writer.truncate(to: 0)
        frameCount = 0
        memberCount = 0
        current = 0
        slotPending = false
        floor = 0
        lastID = 0
        abandoned = false
    }

    mutating func newID() -> Int {
        lastID += 1
        return lastID
    }

    var topID: Int { frameCount == 0 ? 0 : frames[frameCount - 1].id }

    /// Gives up on streaming this encode.
    mutating func abandon() -> StreamFallback {
        abandoned = true
        // No frame or slot has this id (a container that could not be opened has -1): every
        // later write reaches for its frame, and throws.
        current = Int.min
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
            frameCapacity *= 2
            frames = frames.moved(count: frameCount, toCapacity: frameCapacity)
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
            memberCapacity *= 2
            members = members.moved(count: memberCount, toCapacity: memberCapacity)
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

    /// Compares two keys as written (escaped) by their unescaped UTF-8, as JSONEncoder sorts them.
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
}
