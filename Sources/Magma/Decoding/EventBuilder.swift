// EventBuilder: turns yajl's events into model values, with no intermediate dictionary.
//
// Data layout and invariants
// - `frames[0..<depth]` is a stack, one frame per JSON container being filled. A frame is a plain
//   struct (no references it owns): its `target`, `owner`, `node` and `starter` are Unmanaged
//   references to objects of a compiled plan, which outlives every decode, called through
//   `_withUnsafeGuaranteedRef`, so an event costs no retain/release (measured: two retain/release
//   pairs per event cost ~20 % of decode time before this).
// - `frames[depth-1]` is the top. For an object frame (`model`, `path`), `target` is where the value
//   of the current key goes, set by `key(_:)`; nil means "skip this value". For `array` and
//   `dictionary` frames, `target` is the element slot, fixed for the frame's life. Outside any frame
//   the value goes to `root`.
// - `storage` is the context handed to targets: a model's storage (a path frame shares its model's)
//   or an array/dictionary accumulator. It is initialised while its frame is on the stack, and
//   deinitialised by the frame's owner when the frame finishes or, after an error, in `destroy()`.
//   Storage comes from `pool`, one reusable block per depth, so a steady stream allocates nothing
//   here but what the models keep.
// - An unmapped value is skipped by counting: `skipDepth > 0` means every event only adjusts the
//   count, with no frame and no lookup. When an unmapped object or array lies whole in the bytes
//   yajl is parsing, the Tokenizer moves yajl past it (SkipScanner), so the builder sees `{}`.
// - A failing event stores its error in `failure` and returns false; yajl then stops, and the
//   Tokenizer adds the offset. Nothing is delivered after a failure.
// - Every string, key and number token from yajl passes EventBuilder+Text first (strict UTF-8,
//   surrogate escapes, size cap), skipped ones included; replayed values do not.

import Foundation

/// What a frame is filling.
enum FrameKind: UInt8 {
    /// An object decoded into a model; `storage` holds the model.
    case model
    /// An object on the way down a dotted key path (`user` of `user.login`); writes into its model.
    case path
    /// An array on the way down a key path with an index (`labels.0.name`).
    case pathArray
    /// An array decoded element by element into an accumulator.
    case array
    /// An object decoded into a `[String: V]`.
    case dictionary
}

struct Frame {
    var kind: FrameKind
    /// Index of the model frame a path frame writes into (itself for a model frame).
    var modelFrame: Int32
    /// The current key's entry in `node` (-1 none, -2 an unmapped key), for error paths.
    var entry: Int32
    var target: Unmanaged<ValueTarget>?
    var owner: Unmanaged<ContainerOwner>?
    var node: Unmanaged<PlanNode>?
    /// `node`'s key table and entries, copied in so a key costs no access to the node object.
    var keys: KeyTable?
    var entries: UnsafeMutablePointer<PlanNode.Entry>?
    /// The target that started this container; it takes the finished value.
    var starter: Unmanaged<ValueTarget>?
    var storage: UnsafeMutableRawPointer
    /// Where the finished container is delivered: the parent's context.
    var parentContext: UnsafeMutableRawPointer
    /// Required properties seen (model frames).
    var seenRequired: RequiredSet
    /// Entries seen in this object, for duplicate keys.
    var seenKeys: UInt64
    /// Elements begun so far (array frames).
    var count: Int
}

/// What the codecs read per value: flags packed from `DecodingOptions` once per decode.
struct CodecFlags {
    var lenient: Bool
    var keepDefaultOnNull: Bool
}

struct EventBuilder {
    private(set) var frames: UnsafeMutablePointer<Frame>
    private var capacity: Int
    private(set) var depth = 0
    /// One reusable storage block per depth: (address, byte count).
    private var pool: UnsafeMutablePointer<(UnsafeMutableRawPointer?, Int)>
    private var skipDepth = 0
    /// `duplicateKeys: .reject`: per frame depth, the keys of the object there that its
    /// `seenKeys` bits do not track (see `noteKeyBytes`); emptied when a frame is pushed there.
    private var keyBytesSeen: [Set<[UInt8]>] = []
    let root: Unmanaged<ValueTarget>
    let rootContext: UnsafeMutableRawPointer
    let options: DecodingOptions
    let flags: CodecFlags
    /// Counts events, so the tokenizer can see a feed that produced none.
    var eventCount = 0
    private var failure: JSONError?
    private(set) var failureTokenLength = 0
    /// Streams that skip bad records: records live at this frame depth, and an error inside one
    /// unwinds to it, skips the rest of the record by counting, and goes on (see `fail`).
    var recovery: (recordDepth: Int, sink: RecoverySink)?
    /// Where the yajl handle being fed stands, for the offsets of recovered errors and the checks
    /// of EventBuilder+Text.
    var position = FeedPosition()
    /// One past the last string, key or number read straight from the buffer being parsed (the
    /// Tokenizer keeps the bytes after it when a feed ends inside a token).
    var lastTokenEnd: UnsafeRawPointer?
    /// The last unmapped key, for error paths in skipped values: its length and its first and last
    /// eight bytes (two loads, no copy call), exact up to 16 bytes, abridged beyond.
    private var unmappedKey: (count: Int, head: UInt64, tail: UInt64) = (0, 0, 0)
    /// Values captured for properties mapped from several key paths, one array per model frame that has them.
    var captures: [[JSONValue?]] = []
    /// A string or number over the cap that the Tokenizer read past (a stream skipping bad
    /// records): its offset in the input, while yajl hands over the part of it yajl holds, which
    /// fails as the whole token would (EventBuilder+Text). Nil otherwise.
    var cutTokenStart: Int?
    /// While a cluster object's logged event is replayed: where its token ended in the input
    /// (yajl stands at the discriminator's), for the offset of an error it raises.
    var replayedTokenEnd: Int?
    /// Whether the last error raised or placed here was in a string, number or key that had not
    /// reached the frames yet (the size cap, invalid text): an array has not counted such a value
    /// as an element, so a record that is one has the array's count as its index, not count - 1.
    /// Set on error paths only.
    private(set) var failedBeforeFrames = false

    init(root: ValueTarget, rootContext: UnsafeMutableRawPointer, options: DecodingOptions) {
        self.root = Unmanaged.passUnretained(root)
        self.rootContext = rootContext
        var options = options
        // Read once here, for the Tokenizer and the text checks alike: a negative cap is 0.
        options.maxTokenLength = max(options.maxTokenLength, 0)
        self.options = options
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

    mutating func null() -> Bool {
        eventCount &+= 1
        if skipDepth > 0 { return true }
        guard let (target, context) = valueTarget() else { return true }
        do { try target._withUnsafeGuaranteedRef { try $0.null(context, &self) } } catch {
            return fail(error, target.takeUnretainedValue(), tokenLength: 4)
        }
        return true
    }

    mutating func bool(_ value: Bool) -> Bool {
        eventCount &+= 1
        if skipDepth > 0 { return true }
        guard let (target, context) = valueTarget() else { return true }
        do { try target._withUnsafeGuaranteedRef { try $0.bool(value, context, &self) } } catch {
            return fail(error, target.takeUnretainedValue(), tokenLength: value ? 4 : 5)
        }
        return true
    }

    mutating func number(_ text: UnsafeRawBufferPointer) -> Bool {
        eventCount &+= 1
        if skipDepth > 0 { return true }
        guard let (target, context) = valueTarget() else { return true }
        do { try target._withUnsafeGuaranteedRef { try $0.number(text, context, &self) } } catch {
            return fail(error, target.takeUnretainedValue(), tokenLength: text.count)
        }
        return true
    }

    mutating func string(_ bytes: UnsafeRawBufferPointer) -> Bool {
        eventCount &+= 1
        if skipDepth > 0 { return true }
        guard let (target, context) = valueTarget() else { return true }
        do { try target._withUnsafeGuaranteedRef { try $0.string(bytes, context, &self) } } catch {
            return fail(error, target.takeUnretainedValue(), tokenLength: bytes.count + 2)
        }
        return true
    }

    mutating func startObject() -> Bool {
        eventCount &+= 1
        if depth + skipDepth >= options.maxDepth { return failDepth() }
        if skipDepth > 0 { skipDepth += 1; return true }
        guard let (target, context) = valueTarget() else { skipDepth = 1; return true }
        do { try target._withUnsafeGuaranteedRef { try $0.startObject(context, &self) } } catch {
            return fail(error, target.takeUnretainedValue(), tokenLength: 1, opened: 1)
        }
        return true
    }

    mutating func startArray() -> Bool {
        eventCount &+= 1
        if depth + skipDepth >= options.maxDepth { return failDepth() }
        if skipDepth > 0 { skipDepth += 1; return true }
        guard let (target, context) = valueTarget() else { skipDepth = 1; return true }
        do { try target._withUnsafeGuaranteedRef { try $0.startArray(context, &self) } } catch {
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

    mutating func endObject() -> Bool {
        eventCount &+= 1
        if skipDepth > 0 { skipDepth -= 1; return true }
        return endContainer()
    }

    mutating func endArray() -> Bool {
        eventCount &+= 1
        if skipDepth > 0 { skipDepth -= 1; return true }
        return endContainer()
    }

    @inline(__always)
    private mutating func rememberUnmappedKey(_ bytes: UnsafeRawBufferPointer) {
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

    private func unmappedKeyText() -> String {
        let (n, head, tail) = unmappedKey
        func bytes(_ word: UInt64, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: word >> (8 * UInt64($0))) } }
        if n < 8 { return String(decoding: bytes(head, n), as: UTF8.self) }
        if n <= 16 { return String(decoding: bytes(head, 8) + bytes(tail, 8).suffix(n - 8), as: UTF8.self) }
        return String(decoding: bytes(head, 8), as: UTF8.self) + "…" + String(decoding: bytes(tail, 8), as: UTF8.self)
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
        let newCapacity = capacity * 2
        let newFrames = UnsafeMutablePointer<Frame>.allocate(capacity: newCapacity)
        newFrames.moveInitialize(from: frames, count: depth)
        frames.deallocate()
        frames = newFrames
        let newPool = UnsafeMutablePointer<(UnsafeMutableRawPointer?, Int)>.allocate(capacity: newCapacity)
        newPool.moveInitialize(from: pool, count: capacity)
        (newPool + capacity).initialize(repeating: (nil, 0), count: newCapacity - capacity)
        pool.deallocate()
        pool = newPool
        capacity = newCapacity
    }

    // MARK: Errors

    /// The size cap's error for a string or number (`what`), named a key when it is one: not in a
    /// skipped subtree, where the Tokenizer, which fails a token that spans feeds before yajl has
    /// read it whole, cannot tell a key from a value after a `,` (no container kinds are kept while
    /// skipping), and any chunking must give the error one whole buffer gives.
    mutating func tokenTooLong(_ what: String, isKey: Bool) -> JSONError {
        failedBeforeFrames = true
        return JSONError.tokenTooLong(isKey && skipDepth == 0 ? "key" : what, limit: options.maxTokenLength)
    }

    private mutating func failDepth() -> Bool {
        fail(JSONError(.depthLimitExceeded, "nesting deeper than the limit of \(options.maxDepth)"), nil, tokenLength: 1,
             opened: 1)
    }

    /// Stores `error` with its location and returns false, which stops yajl. `tokenLength` is the
    /// offending token's length in the input, so the Tokenizer can point at its start (yajl has
    /// consumed through its end). A string's length is its decoded bytes plus quotes, exact unless
    /// it holds escapes; then the offset falls inside the string.
    ///
    /// In a stream that skips bad records, an error inside a record does not stop yajl: the
    /// record's frames are discarded and the JSON containers still open in it (`opened` says
    /// whether the failing event opened (+1) or closed (-1) one without a frame for it) are
    /// skipped by counting, so the next record starts clean. Errors the caller's record handler
    /// throws always stop.
    ///
    /// An error's path of `$` is taken for one not set yet, and set to where the builder stands;
    /// `placed` says it is set already (`placePending`: a key of a top-level object is at `$`),
    /// which also says the failing token has not reached the frames (see `failedBeforeFrames`).
    mutating func fail(_ error: any Error, _ target: ValueTarget?, tokenLength: Int = 0, opened: Int = 0,
                       placed: Bool = false) -> Bool {
        failureTokenLength = tokenLength
        failedBeforeFrames = placed
        var e = error as? JSONError ?? JSONError(.invalidValue, "\(error)", underlying: error)
        if !placed, e.path == "$" { e.path = currentPath() }
        if e.property == nil { e.property = target?.property ?? enclosingProperty() }
        if e.offset == nil, let end = replayedTokenEnd { e.offset = end - tokenLength }
        // Too deep never skips a record: yajl holds a byte per open bracket, so only stopping
        // bounds the time and memory a hostile stream of brackets takes.
        if let (recordDepth, sink) = recovery, depth >= recordDepth, !(error is RecordHandlerError),
           e.code != .depthLimitExceeded {
            // In the rest of a record already skipped (its tokens are still checked): it was
            // reported once, and the containers open in it are counted already.
            if depth == recordDepth, skipDepth > 0 { skipDepth += opened; return true }
            // Containers being skipped (an unmapped key's value) are open in the record too.
            let open = depth - recordDepth + skipDepth + opened
            // A token failed before the frames at the records' level is a record not counted yet.
            let counted = !(placed && depth == recordDepth)
            e.recordIndex = recordDepth > 0 ? frames[recordDepth - 1].count - (counted ? 1 : 0)
                                            : sink.topLevelRecordIndex(valueStarted: counted)
            if e.offset == nil, let end = tokenEnd() { e.offset = end - tokenLength }
            // Located as an error that stops the stream is (Tokenizer.error).
            if e.line == nil, let lines = position.lines, let offset = e.offset {
                lines.locate(&e, offset: offset, chunk: position.input, at: position.consumedBefore)
            }
            unwind(to: recordDepth)
            skipDepth = max(open, 0)
            do { try sink.skipped(e) } catch { failure = error as? JSONError ?? e; return false }
            return true
        }
        failure = e
        return false
    }

    /// Whether the rest of a value is being read past by counting (an unmapped value, or a
    /// record skipped after an error).
    var isSkipping: Bool { skipDepth > 0 }

    /// How many levels of containers a value being skipped may still open inside itself before
    /// the depth limit fails one (the Tokenizer's fast skip checks the limit as the events would).
    var skipNestingRoom: Int { options.maxDepth - depth - skipDepth }

    /// Whether an error here would skip the record rather than stop the stream (see `fail`).
    var recoversHere: Bool {
        guard let recovery else { return false }
        return depth >= recovery.recordDepth
    }

    /// Discards the frames above `frameDepth` (after an error: their values are incomplete).
    mutating func unwind(to frameDepth: Int) {
        while depth > frameDepth {
            let frame = frames[depth - 1]
            frame.owner?.takeUnretainedValue().discard(frame.storage, &self)
            depth -= 1
        }
    }

    /// Back to the state before the first event, keeping the stack and pool for the next value.
    mutating func reset() {
        unwind(to: 0)
        skipDepth = 0
        captures.removeAll(keepingCapacity: true)
        failure = nil
    }

    /// After an error: moves out what the top-level array had accumulated (the elements decoded
    /// before the failing one), leaving an empty array for `destroy()` to discard.
    mutating func takeRootElements<Element>(_ type: [Element].Type) -> [Element] {
        guard depth > 0, frames[0].kind == .array, frames[0].starter?.toOpaque() == root.toOpaque() else { return [] }
        let accumulator = frames[0].storage.assumingMemoryBound(to: [Element].self)
        let elements = accumulator.move()
        accumulator.initialize(to: [])
        return elements
    }

    /// The property of the innermost key being read, for errors raised inside its value (an
    /// array element, a dictionary member, a captured object).
    func enclosingProperty() -> String? {
        for i in stride(from: depth - 1, through: 0, by: -1) {
            let frame = frames[i]
            guard frame.kind == .model || frame.kind == .path || frame.kind == .pathArray, frame.entry >= 0,
                  let node = frame.node?.takeUnretainedValue() else { continue }
            return node.entries[Int(frame.entry)].target.takeUnretainedValue().property
        }
        return nil
    }

    /// Takes the stored error (the Tokenizer adds offset, line and column).
    mutating func takeError() -> JSONError? {
        defer { failure = nil }
        return failure
    }

    /// A token that has begun but not reached the builder yet, for the path of an error in it.
    enum PendingToken {
        /// A value: the next element of an array, or the value of an object's current key.
        case value
        /// An object key: it replaces the current one, so the path is the object's own.
        case key
    }

    /// What a string or number begun right after `:` (`afterColon`) or else after `,`, `{` or
    /// `[` is: a key when the top frame is an object's (a skipped subtree's path is the same
    /// either way).
    func pendingToken(afterColon: Bool) -> PendingToken {
        guard !afterColon, skipDepth == 0, depth > 0 else { return .value }
        switch frames[depth - 1].kind {
        case .model, .path, .dictionary: return .key
        case .array, .pathArray: return .value
        }
    }

    /// The JSON path of the value being read, e.g. `$[12].user.login`. With `pending`, of the
    /// token that has begun but not reached the builder yet (the next array element; for a key,
    /// the object, not the key before it).
    func currentPath(pending: PendingToken? = nil) -> String {
        var components: [String] = []
        for i in 0..<depth {
            let frame = frames[i]
            if let pending, skipDepth == 0, i == depth - 1 {
                if pending == .value, frame.kind == .array || frame.kind == .pathArray {
                    components.append("[\(frame.count)]")
                    continue
                }
                if pending == .key, frame.kind == .model || frame.kind == .path || frame.kind == .dictionary { continue }
            }
            switch frame.kind {
            case .model, .path:
                if frame.entry >= 0, let node = frame.node?.takeUnretainedValue() {
                    components.append(JSONPath.component(node.names[Int(frame.entry)]))
                } else if frame.entry == -2 {
                    components.append(JSONPath.component(unmappedKeyText()))
                }
            case .array, .pathArray:
                if frame.count > 0 { components.append("[\(frame.count - 1)]") }
            case .dictionary:
                if let key = frame.owner?.takeUnretainedValue().currentKey(frame.storage) { components.append(JSONPath.component(key)) }
            }
        }
        return JSONPath.joined(components)
    }
}

/// Renders JSON path components.
enum JSONPath {
    /// Components kept at each end of a path longer than twice as many.
    static let keptAtEachEnd = 6
    /// The longest key shown whole in a path; a longer one is cut, with `…`.
    static let longestKey = 64

    /// `$` and the components; a path deeper than `2 * keptAtEachEnd` shows its first and last
    /// components with the depth between (`$[0][0]…(depth 512)…[0][0]`), so a message stays short
    /// however deep the input nests.
    static func joined(_ components: [String]) -> String {
        guard components.count > 2 * keptAtEachEnd else { return "$" + components.joined() }
        return "$" + components.prefix(keptAtEachEnd).joined() + "…(depth \(components.count))…"
            + components.suffix(keptAtEachEnd).joined()
    }

    /// `.name` for identifier-like keys, `["key"]` for the rest; numeric components of key paths
    /// are shown as written (`.0`).
    static func component(_ key: String) -> String {
        let key = key.utf8.count > longestKey ? String(key.prefix(longestKey)) + "…" : key
        let plain = !key.isEmpty && key.utf8.allSatisfy { c in
            (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c == 95 || c == 45
        }
        if plain { return "." + key }
        let escaped = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "[\"\(escaped)\"]"
    }
}
