// Decoding a class cluster's object. The concrete model is not known until the discriminator's
// value arrives, which in a stream may come after other keys. Until then the object's frame is a
// dictionary frame owned by ClusterOwner whose storage is a ClusterBox: every event of the
// object (nested containers too, through recorder frames that share the box) is appended to a
// compact event log. When the discriminator's value arrives, the cluster frame is replaced by the
// chosen model's frame (same depth, same starter, same parent), the log is replayed into it
// through the ordinary event methods, and decoding goes on in the model frame as if it had been
// there from the start. When the discriminator is the first key, the log holds just that key.
// Models that are not clusters never see any of this.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The storage of a cluster frame.
struct ClusterBox {
    /// The object's events so far: a tag byte, the 64-bit offset in the input where the event's
    /// token ended (-1 if unknown; errors in the replayed event point at its token), then for
    /// keys, strings and numbers a 32-bit length and the bytes.
    var log: [UInt8] = []
    /// Where the object's current key is logged (the offset of its tag in `log`), for error
    /// paths, which make its `String`; -1 before the first key and once the object has ended.
    var currentKey = -1
    /// The last key was the discriminator: the next value picks the model.
    var awaiting = false
}

enum LoggedEvent: UInt8 {
    case key, string, number, `true`, `false`, null, startObject, endObject, startArray, endArray
}

extension ClusterBox {
    /// The logged object's members (its keys and values so far), for a cluster's rules.
    func members() -> [String: JSONValue] {
        log.withUnsafeBytes { bytes in
            var i = 0
            func text() -> String {
                let count = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i + ClusterBox.lengthOffset, as: UInt32.self)))
                defer { i += ClusterBox.textOffset + count }
                return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(i + ClusterBox.textOffset)..<(i + ClusterBox.textOffset + count)]),
                              as: UTF8.self)
            }
            func value() -> JSONValue {
                switch LoggedEvent(rawValue: bytes[i])! {
                case .string: return .string(text())
                case .number: return .number(JSONNumber(unchecked: text()))
                case .true: i += ClusterBox.lengthOffset; return .bool(true)
                case .false: i += ClusterBox.lengthOffset; return .bool(false)
                case .null: i += ClusterBox.lengthOffset; return .null
                case .startObject:
                    i += ClusterBox.lengthOffset
                    var members: [String: JSONValue] = [:]
                    while LoggedEvent(rawValue: bytes[i]) != .endObject {
                        let key = text()
                        members[key] = value()
                    }
                    i += ClusterBox.lengthOffset
                    return .object(members)
                case .startArray:
                    i += ClusterBox.lengthOffset
                    var elements: [JSONValue] = []
                    while LoggedEvent(rawValue: bytes[i]) != .endArray { elements.append(value()) }
                    i += ClusterBox.lengthOffset
                    return .array(elements)
                case .key, .endObject, .endArray: i += ClusterBox.lengthOffset; return .null   // not at a value's start
                }
            }
            var members: [String: JSONValue] = [:]
            while i < bytes.count {
                let key = text()
                members[key] = value()
            }
            return members
        }
    }

    /// Bytes from an event's tag to its text's length (tag, token end).
    static let lengthOffset = 9
    /// Bytes from an event's tag to its text (tag, token end, length).
    static let textOffset = 13

    mutating func append(_ event: LoggedEvent, _ b: borrowing EventBuilder) {
        log.append(event.rawValue)
        withUnsafeBytes(of: Int64(b.inputTokenEnd).littleEndian) { log.append(contentsOf: $0) }
    }

    mutating func append(_ event: LoggedEvent, _ bytes: UnsafeRawBufferPointer, _ b: borrowing EventBuilder) {
        append(event, b)
        withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { log.append(contentsOf: $0) }
        log.append(contentsOf: bytes)
    }
}

extension EventBuilder {
    /// Where the current event's token ends in the input (a replayed event's, while one is
    /// replayed); -1 when unknown.
    var inputTokenEnd: Int { replayedTokenEnd ?? tokenEnd() ?? -1 }

    /// Feeds logged events to the top frame, as if read from the input; an error in one points
    /// at its token.
    mutating func replay(log: [UInt8]) throws {
        let outer = replayedTokenEnd
        try log.withUnsafeBytes { bytes in
            var i = 0
            while i < bytes.count {
                let event = LoggedEvent(rawValue: bytes[i])!
                let end = Int(Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: i + 1, as: Int64.self)))
                replayedTokenEnd = end >= 0 ? end : nil
                i += ClusterBox.lengthOffset
                let ok: Bool
                switch event {
                case .key, .string, .number:
                    let count = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt32.self)))
                    let text = UnsafeRawBufferPointer(rebasing: bytes[(i + 4)..<(i + 4 + count)])
                    i += 4 + count
                    ok = event == .key ? key(text) : event == .string ? string(text) : number(text)
                case .true: ok = bool(true)
                case .false: ok = bool(false)
                case .null: ok = null()
                case .startObject: ok = startObject()
                case .endObject: ok = endObject()
                case .startArray: ok = startArray()
                case .endArray: ok = endArray()
                }
                replayedTokenEnd = outer
                try check(ok)
            }
        }
    }
}

/// Owns a cluster object's frame until its model is known.
final class ClusterOwner<Base>: ContainerOwner {
    unowned let codec: ClusterCodec<Base>
    private let recorder: ClusterRecorder<Base>
    /// The codec's discriminator key, compared with every key until it comes: held here so that
    /// a key costs no access through the unowned codec.
    private let discriminator: [UInt8]
    /// The cluster's problem, if it is illegal: thrown before any of its objects is read.
    private let problem: JSONError?
    /// The model is picked by rules when the object ends (no discriminator is awaited).
    private let picksByRule: Bool
    /// The model is picked by the object's first key (an enum tagged `.external`).
    private let picksByKey: Bool

    init(_ codec: ClusterCodec<Base>) {
        self.codec = codec
        discriminator = Array(codec.discriminator.utf8)
        problem = codec.problem
        picksByRule = codec.picksByRule
        picksByKey = codec.picksByKey
        recorder = ClusterRecorder()
        super.init()
        recorder.cluster = self
    }

    override func start(_ starter: ValueTarget, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        if let problem { throw problem }
        let storage = b.storage(size: MemoryLayout<ClusterBox>.size, alignment: MemoryLayout<ClusterBox>.alignment)
        storage.bindMemory(to: ClusterBox.self, capacity: 1).initialize(to: ClusterBox())
        b.push(.dictionary, owner: self, node: nil, target: recorder, starter: starter, storage: storage, parentContext: context)
    }

    override func key(_ bytes: UnsafeRawBufferPointer, _ storage: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        let box = storage.assumingMemoryBound(to: ClusterBox.self)
        box.pointee.currentKey = box.pointee.log.count
        box.pointee.append(.key, bytes, b)
        if picksByKey { return try keyed(bytes, &b) }
        box.pointee.awaiting = !picksByRule && bytes.count == discriminator.count
            && discriminator.withUnsafeBytes { bytes.count == 0 || memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
    }

    /// The object ended with no discriminator: the fallback model, or an error. In a cluster
    /// that picks by rules: the first case whose rule holds for the object, else the same.
    override func finish(_ b: inout EventBuilder) throws {
        if picksByRule {
            let members = b.top.storage.assumingMemoryBound(to: ClusterBox.self).pointee.members()
            if let entry = codec.ruled.first(where: { $0.rule!(members) }) ?? codec.fallback {
                try choose(entry, &b)
                return try b.check(b.endObject())
            }
            b.top.storage.assumingMemoryBound(to: ClusterBox.self).pointee.currentKey = -1
            throw JSONError(.unknownType, "no model of \(Base.self) matches this object: no rule of its cluster holds")
        }
        guard let fallback = codec.fallback else {
            // An error about the object as a whole: no current key in its path.
            b.top.storage.assumingMemoryBound(to: ClusterBox.self).pointee.currentKey = -1
            if picksByKey { throw JSONError(.unknownType, "an empty object holds no case of \(Base.self): its one key is the case's tag") }
            throw JSONError(.unknownType, "no \"\(codec.discriminator)\" key to pick the model of \(Base.self) by")
        }
        try choose(fallback, &b)
        try b.check(b.endObject())
    }

    override func discard(_ storage: UnsafeMutableRawPointer, _ b: inout EventBuilder) {
        storage.assumingMemoryBound(to: ClusterBox.self).deinitialize(count: 1)
    }

    override func currentKey(_ storage: UnsafeMutableRawPointer, fromTop: Int) -> String? {
        let box = storage.assumingMemoryBound(to: ClusterBox.self).pointee
        guard box.currentKey >= 0 else { return nil }
        return box.log.withUnsafeBytes { log in
            let count = Int(UInt32(littleEndian: log.loadUnaligned(fromByteOffset: box.currentKey + ClusterBox.lengthOffset,
                                                                   as: UInt32.self)))
            let start = box.currentKey + ClusterBox.textOffset
            return String(checkedUTF8: UnsafeRawBufferPointer(rebasing: log[start..<(start + count)]))
        }
    }

    /// The discriminator's value (a string's bytes): replaces the cluster frame by the model's.
    func discriminated(_ bytes: UnsafeRawBufferPointer, _ b: inout EventBuilder) throws {
        guard let entry = codec.entry(for: bytes) ?? codec.fallback else {
            let known = codec.entries.compactMap(\.value).map { "\"\($0)\"" }.joined(separator: ", ")
            throw JSONError(.unknownType, "no model of \(Base.self) for \"\(codec.discriminator)\": "
                + "\(JSONError.quote(bytes, asString: true)) (known: \(known))")
        }
        try choose(entry, &b)
        try b.check(b.string(bytes))
    }

    /// The object's first key, in a cluster that picks by key: the case whose tag it is (or the
    /// fallback) takes the object, the key replayed into it.
    private func keyed(_ bytes: UnsafeRawBufferPointer, _ b: inout EventBuilder) throws {
        guard let entry = codec.entry(for: bytes) ?? codec.fallback else {
            let known = codec.entries.compactMap(\.value).map { "\"\($0)\"" }.joined(separator: ", ")
            b.top.storage.assumingMemoryBound(to: ClusterBox.self).pointee.currentKey = -1
            throw JSONError(.unknownType, "no case of \(Base.self) is tagged \(JSONError.quote(bytes, asString: true)) (known: \(known))")
        }
        try choose(entry, &b)
    }

    /// Pops the cluster frame, pushes the model's in its place and replays the object so far.
    private func choose(_ entry: ClusterEntry<Base>, _ b: inout EventBuilder) throws {
        let frame = b.top
        let box = frame.storage.assumingMemoryBound(to: ClusterBox.self)
        let log = box.pointee.log
        box.deinitialize(count: 1)
        b.pop()
        try entry.owner.start(frame.starter.unsafelyUnwrapped.takeUnretainedValue(), frame.parentContext, &b)
        try b.replay(log: log)
    }

    func notAString(_ found: String) -> JSONError {
        JSONError(.unknownType, "the discriminator \"\(codec.discriminator)\" of \(Base.self) must be a string, found \(found)")
    }
}

/// Logs the values of a cluster object (and, through recorder frames, everything inside them)
/// until its model is known; the discriminator's value goes to the cluster instead.
final class ClusterRecorder<Base>: ValueTarget {
    unowned(unsafe) var cluster: ClusterOwner<Base>!
    private let objects = RecorderOwner(end: .endObject)
    private let arrays = RecorderOwner(end: .endArray)

    init() { super.init(property: nil) }

    private func box(_ context: UnsafeMutableRawPointer) -> UnsafeMutablePointer<ClusterBox> {
        context.assumingMemoryBound(to: ClusterBox.self)
    }

    override func string(_ bytes: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        if box(context).pointee.awaiting { return try cluster.discriminated(bytes, &b) }
        box(context).pointee.append(.string, bytes, b)
    }
    override func number(_ text: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        if box(context).pointee.awaiting { throw cluster.notAString("a number") }
        box(context).pointee.append(.number, text, b)
    }
    override func bool(_ value: Bool, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        if box(context).pointee.awaiting { throw cluster.notAString("a bool") }
        box(context).pointee.append(value ? .true : .false, b)
    }
    override func null(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        if box(context).pointee.awaiting { throw cluster.notAString("null") }
        box(context).pointee.append(.null, b)
    }
    override func startObject(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        if box(context).pointee.awaiting { throw cluster.notAString("an object") }
        box(context).pointee.append(.startObject, b)
        b.push(.dictionary, owner: objects, node: nil, target: self, starter: nil, storage: context, parentContext: context)
    }
    override func startArray(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        if box(context).pointee.awaiting { throw cluster.notAString("an array") }
        box(context).pointee.append(.startArray, b)
        b.push(.array, owner: arrays, node: nil, target: self, starter: nil, storage: context, parentContext: context)
    }
}

/// A container inside a cluster object whose model is not known yet: its events are logged in
/// the cluster's box (its storage is the box; it owns nothing).
final class RecorderOwner: ContainerOwner {
    let end: LoggedEvent
    init(end: LoggedEvent) { self.end = end }

    override func key(_ bytes: UnsafeRawBufferPointer, _ storage: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        storage.assumingMemoryBound(to: ClusterBox.self).pointee.append(.key, bytes, b)
    }
    override func finish(_ b: inout EventBuilder) throws {
        b.top.storage.assumingMemoryBound(to: ClusterBox.self).pointee.append(end, b)
        b.pop()
    }
}
