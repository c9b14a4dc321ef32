// EventBuilder: turns a reader's events into model values, with no intermediate dictionary. The
// events come from the scanner (`JSONScanner`, EventBuilder+Document: whole values in memory) or
// from yajl's callbacks (EventBuilder+Tokenizer: input fed in pieces, comments, `reader: .yajl`).
//
// Data layout and invariants
// - `frames[0..<depth]` is a stack, one frame per JSON container being filled. A frame is a plain
//   struct (no references it owns): its `target`, `owner`, `node` and `starter` are Unmanaged
//   references to objects of a compiled plan, which outlives every decode, called through
//   `_withUnsafeGuaranteedRef`, so an event costs no retain/release (once a large share of decoding).
// - `frames[depth-1]` is the top. For an object frame (`model`, `path`), `target` is where the value
//   of the current key goes, set by `key(_:)`; nil means "skip this value". For `array` and
//   `dictionary` frames, `target` is the element slot, fixed for the frame's life. Outside any frame
//   the value goes to `root`.
// - `storage` is the context handed to targets: a model's storage (a path frame shares its model's)
//   or an array/dictionary accumulator. It is initialised while its frame is on the stack, and
//   deinitialised by the frame's owner when the frame finishes or, after an error, in `destroy()`.
//   Storage comes from `pool`, one reusable block per depth, so a steady stream allocates nothing
//   here but what the models keep.
// - An unmapped value is passed over by the scanner, which checks it and hands over nothing
//   (`skipsValue`). yajl hands over every event, so there it is skipped by counting: `skipDepth > 0`
//   means every event only adjusts the count, with no frame and no lookup.
// - A failing event stores its error in `failure` and returns false; the reader stops, and adds
//   the offset. Nothing is delivered after a failure.
// - The scanner checks the text of strings and keys itself (strict UTF-8, surrogate escapes, size
//   cap); every token from yajl passes EventBuilder+Text first, skipped ones included. Replayed
//   values do not.
// - `position` is yajl's place in the input (FeedPosition), kept here because a callback reaches
//   only its context, the builder; the scanner's place is `scannedTokenEnd`.

import Foundation

/// What the codecs read per value: flags packed from `DecodingOptions` once per decode.
struct CodecFlags {
    var lenient: Bool
    var keepDefaultOnNull: Bool
}

struct EventBuilder {
    private(set) var frames: UnsafeMutablePointer<Frame>
    private var capacity: Int
    var depth = 0
    /// One reusable storage block per depth: (address, byte count).
    private var pool: UnsafeMutablePointer<(UnsafeMutableRawPointer?, Int)>
    var skipDepth = 0
    /// `duplicateKeys: .reject`: per frame depth, the keys of the object there that its
    /// `seenKeys` bits do not track (see `noteKeyBytes`); emptied when a frame is pushed there.
    private var keyBytesSeen: [Set<[UInt8]>] = []
    let root: Unmanaged<ValueTarget>
    let rootContext: UnsafeMutableRawPointer
    let options: DecodingOptions
    let flags: CodecFlags
    /// Counts events, so the tokenizer can see a feed that produced none.
    var eventCount = 0
    var failure: JSONError?
    var failureTokenLength = 0
    /// Where an error is recovered from instead of ending the read, innermost last: a stream's
    /// records (a bad one is skipped), a lossy collection's elements (a bad one is dropped), a
    /// property's value that keeps its default when invalid. An error at or above a point's depth
    /// that its sink takes unwinds to that depth, the rest of the value is read past by
    /// counting, and the read goes on (see `fail`). Empty for a plain read: nothing on the hot
    /// path looks at it.
    var recoveries: [RecoveryPoint] = []
    /// Where the values left out on purpose are noted (defaults kept, elements dropped), when the
    /// caller asked for a report; nil otherwise.
    var report: DecodingReport?
    /// In a stream, the index of the record being read, for the entries of `report`.
    var reportRecordIndex: ((borrowing EventBuilder) -> Int?)?
    /// Where the yajl handle being fed stands, for the offsets of recovered errors and the checks
    /// of EventBuilder+Text.
    var position = FeedPosition()
    /// The last unmapped key, for error paths in skipped values: its length and its first and last
    /// eight bytes (two loads, no copy call), exact up to 16 bytes, abridged beyond.
    private(set) var unmappedKey: (count: Int, head: UInt64, tail: UInt64) = (0, 0, 0)
    /// Values captured for properties mapped from several key paths, one array per model frame that has them.
    var captures: [[JSONValue?]] = []
    /// While a cluster object's logged event is replayed: where its token ended in the input
    /// (the reader stands at the discriminator's), for the offset of an error it raises.
    var replayedTokenEnd: Int?
    /// Whether the last error raised or placed here was in a string, number or key that had not
    /// reached the frames yet (the size cap, invalid text): an array has not counted such a value
    /// as an element, so a record that is one has the array's count as its index, not count - 1.
    /// Set on error paths only.
    var failedBeforeFrames = false
    /// Where the yajl handles of the records this builder reads allocate (`reader: .yajl`).
    var yajlMemory: YajlMemory?
    /// The grammar whole values are read with, set from the options.
    let scanner: JSONScanner
    /// The scanner's buffers, kept from one scanned value (an NDJSON line) to the next.
    var scanWorkspace = JSONScanner.Workspace()
    /// While the scanner reads: one past the token it handed over last, in the input it reads
    /// (for the offsets of errors the frames raise); -1 otherwise.
    var scannedTokenEnd = -1
    /// While the scanner reads: where its input begins in the whole input, and the input with the
    /// line and column of its first byte (for the place of an error a stream's record recovers from).
    var scanBase = 0
    var scanPlace: (input: UnsafeRawBufferPointer, place: (line: Int, column: Int))?

    init(root: ValueTarget, rootContext: UnsafeMutableRawPointer, options: DecodingOptions,
         report: DecodingReport? = nil) {
        self.report = report
        self.root = Unmanaged.passUnretained(root)
        self.rootContext = rootContext
        var options = options
        // Read once here, for the Tokenizer and the text checks alike: a negative cap is 0.
        options.maxTokenLength = max(options.maxTokenLength, 0)
        self.options = options
        scanner = JSONScanner(options)
        flags = CodecFlags(lenient: options.lenientTypes, keepDefaultOnNull: options.nullForNonOptional == .keepDefault)
        capacity = 16
        frames = .allocate(capacity: capacity)
        pool = .allocate(capacity: capacity)
        pool.initialize(repeating: (nil, 0), count: capacity)
    }

    /// Releases the stack and pool, discarding any half-built value left by an error.
    mutating func destroy() {
        while depth > 0 {
            let frame = frames[depth - 1]
            frame.owner?.takeUnretainedValue().discard(frame.storage, &self)
            depth -= 1
        }
        for i in 0..<capacity { pool[i].0?.deallocate() }
        pool.deallocate()
        frames.deallocate()
    }

    // MARK: Events (called by the Tokenizer's callbacks)

    mutating func null() -> Bool { scalar(tokenLength: 4) { try $0.null($1, &$2) } }

    mutating func bool(_ value: Bool) -> Bool { scalar(tokenLength: value ? 4 : 5) { try $0.bool(value, $1, &$2) } }

    @inline(__always)
    mutating func number(_ text: UnsafeRawBufferPointer) -> Bool {
        scalar(tokenLength: text.count) { try $0.number(text, $1, &$2) }
    }

    @inline(__always)
    mutating func string(_ bytes: UnsafeRawBufferPointer) -> Bool {
        scalar(tokenLength: bytes.count + 2) { try $0.string(bytes, $1, &$2) }
    }

    /// A scalar token: `send` hands it to the value's target (inlined into each caller).
    @inline(__always)
    private mutating func scalar(tokenLength: Int,
                                 _ send: (ValueTarget, UnsafeMutableRawPointer, inout EventBuilder) throws -> Void) -> Bool {
        eventCount &+= 1
        if skipDepth > 0 { return true }
        guard let (target, context) = valueTarget() else { return true }
        do { try target._withUnsafeGuaranteedRef { try send($0, context, &self) } } catch {
            return fail(error, target.takeUnretainedValue(), tokenLength: tokenLength)
        }
        return true
    }

    @inline(__always)
    mutating func startObject() -> Bool { start(object: true) }

    @inline(__always)
    mutating func startArray() -> Bool { start(object: false) }

    /// An object or an array opens: inlined into each caller, where `object` is a constant.
    @inline(__always)
    private mutating func start(object: Bool) -> Bool {
        eventCount &+= 1
        if depth + skipDepth >= options.maxDepth { return failDepth() }
        if skipDepth > 0 { skipDepth += 1; return true }
        guard let (target, context) = valueTarget() else { skipDepth = 1; return true }
        do {
            try target._withUnsafeGuaranteedRef {
                if object { try $0.startObject(context, &self) } else { try $0.startArray(context, &self) }
            }
        } catch {
            return fail(error, target.takeUnretainedValue(), tokenLength: 1, opened: 1)
        }
        return true
    }

    mutating func key(_ bytes: UnsafeRawBufferPointer) -> Bool {
        eventCount &+= 1
        if skipDepth > 0 { return true }
        let top = frames + (depth - 1)
        if top.pointee.kind == .dictionary { return dictionaryKey(bytes, top) }
        let index = top.pointee.keys.unsafelyUnwrapped.index(of: bytes)
        if index < 0 {
            top.pointee.target = nil
            top.pointee.entry = -2
            rememberUnmappedKey(bytes)
            if options.duplicateKeys == .reject, !noteKeyBytes(bytes) { return failDuplicateKey(bytes, nil) }
            return options.unknownKeys == .ignore || failUnknownKey(bytes)
        }
        let entry = top.pointee.entries.unsafelyUnwrapped[index]
        top.pointee.target = entry.target
        top.pointee.entry = Int32(truncatingIfNeeded: index)
        let bit: UInt64 = index < 64 ? 1 << UInt64(index) : 0
        if options.duplicateKeys == .reject, top.pointee.seenKeys & bit != 0 || (index >= 64 && !noteKeyBytes(bytes)) {
            return failDuplicateKey(bytes, index)
        }
        top.pointee.seenKeys |= bit
        if !entry.requiredBits.isEmpty { frames[Int(top.pointee.modelFrame)].seenRequired.formUnion(entry.requiredBits) }
        return true
    }

    // The rare paths of `key`, kept out of line so the common one stays small.

    @inline(never)
    private mutating func dictionaryKey(_ bytes: UnsafeRawBufferPointer, _ top: UnsafeMutablePointer<Frame>) -> Bool {
        let storage = top.pointee.storage
        do { try top.pointee.owner.unsafelyUnwrapped._withUnsafeGuaranteedRef { try $0.key(bytes, storage, &self) } } catch {
            return fail(error, nil, tokenLength: bytes.count + 2)
        }
        return true
    }

    @inline(never)
    private mutating func failUnknownKey(_ bytes: UnsafeRawBufferPointer) -> Bool {
        fail(JSONError(.unknownKey, "unknown key \(JSONError.quote(bytes, asString: true))"), nil, tokenLength: bytes.count + 2)
    }

    /// `duplicateKeys: .reject`: a key the seen-bits of the frame cannot track (unmapped, or
    /// beyond the 64th entry) is recorded by its bytes for the object on top.
    /// - Returns: Whether the key is new in the object.
    @inline(never)
    private mutating func noteKeyBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        while keyBytesSeen.count < depth { keyBytesSeen.append([]) }
        return keyBytesSeen[depth - 1].insert(Array(bytes)).inserted
    }

    @inline(never)
    private mutating func failDuplicateKey(_ bytes: UnsafeRawBufferPointer, _ index: Int?) -> Bool {
        let name = index.map { "\"\(frames[depth - 1].node.unsafelyUnwrapped.takeUnretainedValue().names[$0])\"" }
            ?? JSONError.quote(bytes, asString: true)
        return fail(JSONError(.duplicateKey, "duplicate key \(name)"), nil, tokenLength: bytes.count + 2)
    }

    @inline(__always)
    mutating func endObject() -> Bool {
        eventCount &+= 1
        if skipDepth > 0 { skipDepth -= 1; return true }
        return endContainer()
    }

    @inline(__always)
    mutating func endArray() -> Bool {
        eventCount &+= 1
        if skipDepth > 0 { skipDepth -= 1; return true }
        return endContainer()
    }

    @inline(__always)
    mutating func rememberUnmappedKey(_ bytes: UnsafeRawBufferPointer) {
        let n = bytes.count
        if n >= 8 {
            unmappedKey = (n, bytes.loadUnaligned(as: UInt64.self), bytes.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))
        } else if let base = bytes.baseAddress, base >= position.inputStart, base + 8 <= position.inputEnd {
            // In the buffer being parsed, with eight bytes readable: one masked load.
            unmappedKey = (n, base.loadUnaligned(as: UInt64.self) & (n == 0 ? 0 : ~0 >> UInt64(64 - 8 * n)), 0)
        } else {
            var head: UInt64 = 0
            for i in 0..<n { head |= UInt64(bytes[i]) << (8 * UInt64(i)) }
            unmappedKey = (n, head, 0)
        }
    }

    /// Whether the value after the key just read goes nowhere (an unmapped key of a model), so
    /// that it may be read past yajl.
    @inline(__always)
    var skipsNextValue: Bool {
        skipDepth == 0 && depth > 0 && frames[depth - 1].target == nil && frames[depth - 1].entry == -2
    }

    // MARK: Frames

    /// Where the next value goes, and its context; nil to skip it.
    @inline(__always)
    private mutating func valueTarget() -> (Unmanaged<ValueTarget>, UnsafeMutableRawPointer)? {
        if depth == 0 { return (root, rootContext) }
        let top = frames + (depth - 1)
        switch top.pointee.kind {
        case .model, .path, .dictionary:
            guard let target = top.pointee.target else { return nil }
            return (target, top.pointee.storage)
        case .array:
            top.pointee.count &+= 1
            return (top.pointee.target.unsafelyUnwrapped, top.pointee.storage)
        case .pathArray:
            let index = top.pointee.count
            top.pointee.count &+= 1
            let node = top.pointee.node.unsafelyUnwrapped.takeUnretainedValue()
            guard let entry = node.element(at: index) else { top.pointee.entry = -1; return nil }
            top.pointee.entry = Int32(truncatingIfNeeded: entry)
            let e = node.entries[entry]
            if !e.requiredBits.isEmpty { frames[Int(top.pointee.modelFrame)].seenRequired.formUnion(e.requiredBits) }
            return (e.target, top.pointee.storage)
        }
    }

    @inline(__always)
    private mutating func endContainer() -> Bool {
        let top = frames[depth - 1]
        switch top.kind {
        case .path, .pathArray:
            depth -= 1
        case .model, .array, .dictionary:
            let base = depth
            do { try top.owner.unsafelyUnwrapped._withUnsafeGuaranteedRef { try $0.finish(&self) } } catch {
                // The container has closed: its frame, if still there, is not an open one.
                return fail(error, nil, tokenLength: 1, opened: depth == base ? -1 : 0)
            }
        }
        return true
    }

    /// Pushes a frame for a container that fills `storage`.
    mutating func push(_ kind: FrameKind, owner: ContainerOwner?, node: PlanNode?, target: ValueTarget?,
                       starter: ValueTarget?, storage: UnsafeMutableRawPointer, parentContext: UnsafeMutableRawPointer) {
        if depth == capacity { grow() }
        if options.duplicateKeys == .reject, depth < keyBytesSeen.count { keyBytesSeen[depth].removeAll(keepingCapacity: true) }
        let modelFrame: Int32 = kind == .model ? Int32(depth) : (depth > 0 ? frames[depth - 1].modelFrame : 0)
        (frames + depth).initialize(to: Frame(
            kind: kind, modelFrame: modelFrame, entry: -1, target: target.map(Unmanaged.passUnretained),
            owner: owner.map(Unmanaged.passUnretained), node: node.map(Unmanaged.passUnretained),
            keys: node?.keys, entries: node?.entries.baseAddress,
            starter: starter.map(Unmanaged.passUnretained), storage: storage, parentContext: parentContext, seenRequired: .none, seenKeys: 0, count: 0))
        depth += 1
    }

    /// Pushes a path frame: an object or array on the way down a key path, writing into the
    /// current model's storage.
    mutating func pushPath(_ node: PlanNode, array: Bool, storage: UnsafeMutableRawPointer) {
        push(array ? .pathArray : .path, owner: nil, node: node, target: nil, starter: nil, storage: storage, parentContext: storage)
    }

    /// Makes `target` the one the top frame's finished container is delivered to: a target that
    /// wraps the one that started it, and must see its value end.
    mutating func setTopStarter(_ target: ValueTarget) { frames[depth - 1].starter = Unmanaged.passUnretained(target) }

    /// Marks the top frame as having no current key (errors about the object as a whole).
    mutating func setTopEntry(_ entry: Int32) { frames[depth - 1].entry = entry }

    /// Before failing a key: the object's current key is no longer the one before it, so neither
    /// the error's path nor its property names that one.
    mutating func dropCurrentKey() {
        if skipDepth == 0, depth > 0 { setTopEntry(-1) }
    }

    /// Pops the top frame; its owner has taken its value.
    mutating func pop() { depth -= 1 }

    /// The top frame, for its owner.
    var top: Frame { frames[depth - 1] }

    /// Storage of `size` bytes for a frame about to be pushed at the current depth. Reused across
    /// frames at the same depth; the caller initialises and deinitialises it.
    mutating func storage(size: Int, alignment: Int) -> UnsafeMutableRawPointer {
        if depth == capacity { grow() }
        let want = max(size, 16)
        if let block = pool[depth].0, pool[depth].1 >= want, alignment <= 16 { return block }
        pool[depth].0?.deallocate()
        let block = UnsafeMutableRawPointer.allocate(byteCount: want, alignment: max(alignment, 16))
        pool[depth] = (block, want)
        return block
    }

    private mutating func grow() {
        let old = capacity
        capacity *= 2
        frames = frames.moved(count: depth, toCapacity: capacity)
        pool = pool.moved(count: old, toCapacity: capacity)
        (pool + old).initialize(repeating: (nil, 0), count: capacity - old)
    }
}
