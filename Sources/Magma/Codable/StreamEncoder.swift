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
//   bytes; other objects are never touched again. TreeEncoder's trees are written here too.

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

    /// A copy of the settings; hot paths read `output.settings` in place, not a copy per value.
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
        try encode(value, settings: settings, buffers: StreamBuffers(formatting: formatting))
    }

    /// Encodes `value` with `buffers` (emptied first; written with their formatting).
    static func encode<T: Encodable>(_ value: T, settings: EncoderSettings, buffers: StreamBuffers) throws -> Data? {
        buffers.state.pointee.reset()
        let output = StreamOutput(settings: settings, buffers: buffers)
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
            return s.pointee.writer.takeData()
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
    /// Number text already formatted (a tree's Float or Decimal).
    func encodeNumberText(_ text: String) throws { try single().pointee.writer.numberText(text) }
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
    func encode(_ value: Int128) throws { try single().pointee.writer.integer(value) }
    func encode(_ value: UInt128) throws { try single().pointee.writer.integer(value) }
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
        if T.self == Date.self { return try date(unsafeBitCast(value, to: Date.self), key) }
        if T.self == Data.self { return try data(unsafeBitCast(value, to: Data.self), key) }
        if T.self == URL.self { s.pointee.writer.string(unsafeBitCast(value, to: URL.self).absoluteString); return true }
        if T.self == Decimal.self { s.pointee.writer.numberText(unsafeBitCast(value, to: Decimal.self).description); return true }
        if !output.settings.defaultKeys, let dictionary = value as? any StringKeyedDictionaryEncodable {
            return try self.dictionary(dictionary.stringKeyed, key)
        }
        if let array = output.routes.answer(for: T.self) {
            return try withUnsafePointer(to: value) { p in try nested(key) { try array.encodeElements(of: UnsafeRawPointer(p), into: $0) } }
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
        if case .convertToString = strategy ?? output.settings.floats { return }
        throw EncodingError.invalidValue(value, EncodingError.Context(
            codingPath: codingPath + (key().codingKey.map { [$0] } ?? []), debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
    }

    /// Writes a float `check` let through.
    func float<F: BinaryFloatingPoint & TextOutputStreamable>(_ value: F, into s: UnsafeMutablePointer<StreamState>) {
        guard value.isFinite else {
            guard case let .convertToString(positiveInfinity: inf, negativeInfinity: negInf, nan: nan) = output.settings.floats else { return }
            return s.pointee.writer.string(value == F.infinity ? inf : value == -F.infinity ? negInf : nan)
        }
        // Finite here; a Double takes the integer writer where it can.
        if F.self == Double.self { return try! s.pointee.writer.double(Double(value)) }
        s.pointee.writer.descriptionForm(value)
    }

    private func date(_ date: Date, _ key: SlotKey) throws -> Bool {
        let s = output.state
        switch output.settings.dates {
        case .deferredToDate:
            return try nested(key) { try date.encode(to: $0) }
        case .secondsSince1970:
            try check(date.timeIntervalSince1970, key, strategy: .throw)
            try s.pointee.writer.double(date.timeIntervalSince1970)
        case .millisecondsSince1970:
            try check(1000.0 * date.timeIntervalSince1970, key, strategy: .throw)
            try s.pointee.writer.double(1000.0 * date.timeIntervalSince1970)
        case .iso8601:
            s.pointee.writer.string(MagmaEncoder.DateEncodingStrategy.iso8601String(date))
        case .formatted:
            s.pointee.writer.string(output.settings.formattedDates.unsafelyUnwrapped.string(date))
        case .custom(let closure):
            if try !nested(key, { try closure(date, $0) }) { s.pointee.emptyObject() }
        }
        return true
    }

    private func data(_ data: Data, _ key: SlotKey) throws -> Bool {
        let s = output.state
        switch output.settings.data {
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
        if output.settings.defaultKeys { return key.stringValue }
        return output.settings.jsonKey(for: key, at: codingPath + path)
    }
}

/// Arrays, element by element without `Array.encode(to:)` (see `TreeArrayEncodable`). Static,
/// reached through the type: a cast of each array value to the protocol cost a conformance check.
protocol StreamArrayEncodable {
    /// Writes the array at `value` (a `Self`) with `encoder`, whose slot awaits it.
    static func encodeElements(of value: UnsafeRawPointer, into encoder: StreamEncoder) throws
}

extension Array: StreamArrayEncodable where Element: Encodable {
    static func encodeElements(of value: UnsafeRawPointer, into encoder: StreamEncoder) throws {
        let array = value.assumingMemoryBound(to: Self.self).pointee
        try array.encodeElements(into: encoder)
    }

    private func encodeElements(into encoder: StreamEncoder) throws {
        let s = encoder.output.state
        guard s.pointee.open(object: false) != 0 else { throw StreamFallback() }
        // Indices, not `enumerated()` (see TreeArrayEncodable).
        for index in 0..<count {
            s.pointee.separate()
            if try !encoder.value(self[index], .index(index)) { s.pointee.emptyObject() }
        }
    }
}
