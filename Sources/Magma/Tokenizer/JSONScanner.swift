// JSONScanner.swift — Magma
//
// The one JSON grammar written in Swift (yajl's, in C, is the other reader). A whole value in
// memory is read straight from its bytes: a structural loop hands a sink the events yajl's
// callbacks would, passes over a value the sink does not read with one validating scan, and
// reports its own errors, exactly: code, message (yajl's words), the offset of the first
// offending byte, and where it stands for the error's path. A document is lexed once.
//
// Data layout and invariants
// - `Stack` holds one word per open container (its commas so far × 2, + 1 for an object): on the
//   thread's stack for the first 128 levels, on the heap beyond (to the depth limit).
// - `State` is all the grammar needs to go on from a token boundary (the open containers and what
//   comes next): the yajl reader rebuilds one from its events to have this grammar describe an
//   error yajl found (Tokenizer+Errors.swift), so both readers report the same errors.
// - Strict: only space, tab, CR and LF between tokens; no comments (JSON with comments is yajl's);
//   strings in strict UTF-8, escapes checked, surrogate escapes in pairs (or replaced); strings,
//   keys and numbers within the size cap; containers within the depth limit.
private import CYajl  // its bytescan.h: the SIMD run of string content

/// Where a `JSONScanner` hands its events: those yajl's callbacks give, already checked (text is
/// strict UTF-8 within the size cap, its escapes decoded; numbers follow the grammar), with the
/// positions and counts a tape keeps. Each returns false to stop the scan (the sink keeps why).
protocol ScanSink {
    /// An object or array opens at `offset` (its bracket's, in the input).
    mutating func startContainer(object: Bool, at offset: Int) -> Bool
    /// The innermost container closes at `offset`; `elements` is an array's element count (an
    /// object's members).
    mutating func endContainer(object: Bool, elements: Int, at offset: Int) -> Bool
    /// A key or a string value: its bytes in the input, or decoded from escapes into a scratch
    /// buffer; `start` is its opening quote's offset, `end` one past its closing quote.
    mutating func text(_ text: UnsafeRawBufferPointer, isKey: Bool, start: Int, end: Int) -> Bool
    /// A number, its text in the input, which begins at `start`.
    mutating func number(_ text: UnsafeRawBufferPointer, at start: Int) -> Bool
    /// `true`, `false` (`value`) or `null` (nil) at `offset`.
    mutating func literal(_ value: Bool?, at offset: Int) -> Bool
    /// Asked after each key: whether its value goes nowhere, to be validated and passed over.
    var skipsValue: Bool { get }
}

/// How a scan ended.
enum ScanOutcome {
    /// The value was read whole; `end` is one past it (for a stream of values: where the next may begin).
    case complete(end: Int)
    /// The sink refused the token that begins at this offset (it keeps its own error).
    case stopped(at: Int)
    /// The input is not JSON, or breaks a limit: the error (its offset in the input set) and what
    /// the failing token was to be, for the error's path.
    indirect case failed(JSONError, PendingToken?)
}

struct JSONScanner {
    /// The longest string, key (bytes between the quotes, as written) or number accepted.
    let maxTokenLength: Int
    /// How many containers may be open at once, counting `baseDepth`.
    let maxDepth: Int
    /// Containers open around the input (a record's array, say).
    var baseDepth = 0
    /// Whether a `\u` escape of a lone surrogate reads as U+FFFD (else it is an error).
    var replacesBadSurrogates = false
    /// Whether a `,` may come before a closing bracket (Foundation's `JSONDecoder` accepts it).
    var allowsTrailingCommas = false
    /// Whether values may follow the first, separated by whitespace or nothing (concatenated JSON):
    /// the scan then completes after the first, and says where it ended.
    var stopsAfterOneValue = false
    /// Whether the input ends where the bytes do (a whole value). False for bytes more may follow
    /// (a record held so far, yajl's feed): a number they end inside is then not known to end.
    var endIsFinal = true
    /// Whether strings are checked as text (strict UTF-8, surrogate escapes in pairs). False reads
    /// the syntax alone: the rest of a record skipped for its text.
    var checksText = true

    init(maxTokenLength: Int, maxDepth: Int) {
        self.maxTokenLength = maxTokenLength
        self.maxDepth = maxDepth
    }

    init(_ options: DecodingOptions) {
        maxTokenLength = max(options.maxTokenLength, 0)
        maxDepth = options.maxDepth
        replacesBadSurrogates = options.invalidSurrogateEscapes == .replace
    }

    /// What the grammar expects next.
    enum Next: UInt8 {
        /// A value (the root, an array's element, or after `:`).
        case value
        /// An object's key (after `{` or `,`).
        case key
        /// The `:` after a key.
        case colon
        /// `,`, a closing bracket, or (at the root) the end.
        case afterValue
        /// The first element of an array or key of an object, or its closing bracket.
        case first
    }

    /// The scan's growable buffer, kept by a caller that scans value after value (an NDJSON line
    /// each) so that it is allocated once, not once per value.
    struct Workspace {
        /// Text with escapes, decoded (its count is the room, not the text's length).
        var scratch: [UInt8] = []
        init() {}
    }
}

// MARK: - The structural loop

extension JSONScanner {
    /// Containers the loop keeps on the thread's stack: 1 KiB is what Swift places there without
    /// asking the thread how much room it has; deeper documents move the stack to the heap.
    static var stackLevels: Int { 128 }

    /// Hands the whole value in `input` to `sink`.
    /// - Parameter workspace: Buffers the scan empties and grows; they keep their capacity.
    func scan<Sink: ScanSink>(_ input: UnsafeRawBufferPointer, into sink: inout Sink, workspace: inout Workspace) -> ScanOutcome {
        let base = input.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.stackLevels) { local in
            var stack = Stack(local)
            defer { stack.release() }
            var state = State(next: .value, atRoot: true)
            return run(from: base, to: base + input.count, base: base, state: &state, stack: &stack, sink: &sink, workspace: &workspace)
        }
    }

    /// `scan(_:into:workspace:)` with buffers of its own.
    func scan<Sink: ScanSink>(_ input: UnsafeRawBufferPointer, into sink: inout Sink) -> ScanOutcome {
        var workspace = Workspace()
        return scan(input, into: &sink, workspace: &workspace)
    }

    /// Where the loop stands between tokens.
    struct State {
        var next: Next
        /// Whether no token has been read yet (a byte order mark is named there).
        var atRoot: Bool
    }

    /// The open containers (see the file's note).
    struct Stack {
        private(set) var words: UnsafeMutablePointer<Int>
        private(set) var capacity: Int
        private var onHeap = false
        private(set) var depth = 0

        /// A stack in `local` (the thread's, or storage the caller keeps), holding the first `depth`
        /// words already there.
        init(_ local: UnsafeMutableBufferPointer<Int>, depth: Int = 0) {
            words = local.baseAddress!
            capacity = local.count
            self.depth = depth
        }

        var isEmpty: Bool { depth == 0 }
        /// Whether the innermost container is an object.
        var inObject: Bool { words[depth - 1] & 1 != 0 }
        var top: Int {
            get { words[depth - 1] }
            nonmutating set { words[depth - 1] = newValue }
        }

        mutating func push(object: Bool) {
            if depth == capacity { grow() }
            words[depth] = object ? 1 : 0
            depth += 1
        }

        @discardableResult
        mutating func pop() -> Int {
            depth -= 1
            return words[depth]
        }

        private mutating func grow() {
            let bigger = UnsafeMutablePointer<Int>.allocate(capacity: capacity * 2)
            bigger.initialize(from: words, count: depth)
            if onHeap { words.deallocate() }
            words = bigger
            capacity *= 2
            onHeap = true
        }

        func release() { if onHeap { words.deallocate() } }
    }

    /// The loop: from `p` (at a token boundary, `state` and `stack` saying where) to the end of
    /// the value, or to the first error. Its stages are in the order tokens follow one another
    /// (key, colon, value, what comes after it), each entered when the state names it. Not a
    /// `switch`: that is one indirect jump whose target changes token by token, which the
    /// processor mispredicts; a token read goes on to the next stage by plain branches.
    func run<Sink: ScanSink>(from start: UnsafeRawPointer, to end: UnsafeRawPointer, base: UnsafeRawPointer,
                             state: inout State, stack: inout Stack, sink: inout Sink,
                             workspace: inout Workspace) -> ScanOutcome {
        var p = start
        @inline(__always) func offset(_ q: UnsafeRawPointer) -> Int { q - base }
        while true {
            p = JSONScanner.blank(p, end)
            if state.next == .first {
                guard p < end else { return failure(.unexpectedEnd, at: p, base, end, stack, state) }
                if p.load(as: UInt8.self) == (stack.inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    let object = stack.inObject
                    stack.pop()
                    guard sink.endContainer(object: object, elements: 0, at: offset(p)) else { return .stopped(at: offset(p)) }
                    p += 1
                    state.next = .afterValue
                } else {
                    state.next = stack.inObject ? .key : .value
                }
                continue
            }
            if state.next == .key {
                guard p < end else { return failure(.unexpectedEnd, at: p, base, end, stack, state) }
                guard p.load(as: UInt8.self) == UInt8(ascii: "\"") else {
                    return failure(at: p, base, end, stack, state, parse: JSONScanner.invalidKey)
                }
                switch text(p, end, base, isKey: true, &sink, &workspace.scratch) {
                case .next(let q): p = JSONScanner.blank(q, end)
                case .stopped: return .stopped(at: offset(p))
                case .failed(let error): return .failed(error, .key)
                }
                state.next = .colon
            }
            if state.next == .colon {
                guard p < end else { return failure(.unexpectedEnd, at: p, base, end, stack, state) }
                guard p.load(as: UInt8.self) == UInt8(ascii: ":") else {
                    return failure(at: p, base, end, stack, state, parse: JSONScanner.missingColon)
                }
                p = JSONScanner.blank(p + 1, end)
                if sink.skipsValue {
                    switch skip(p, end, base, depth: stack.depth) {
                    case .next(let q): p = JSONScanner.blank(q, end)
                    case .stopped: return .stopped(at: offset(p))
                    case .failed(let error): return .failed(error, .value)
                    }
                    state.next = .afterValue
                } else {
                    state.next = .value
                }
            }
            if state.next == .value {
                guard p < end else { return failure(.unexpectedEnd, at: p, base, end, stack, state) }
                let c = p.load(as: UInt8.self)
                switch c {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let object = c == UInt8(ascii: "{")
                    guard baseDepth + stack.depth < maxDepth else {
                        // Its path is the container it would open in, as where the builder refuses it.
                        return .failed(located(JSONError(.depthLimitExceeded, "nesting deeper than the limit of \(maxDepth)"), p, base), nil)
                    }
                    guard sink.startContainer(object: object, at: offset(p)) else { return .stopped(at: offset(p)) }
                    stack.push(object: object)
                    // Not empty: its first key or element is next (`.first` decides the rest).
                    p = JSONScanner.blank(p + 1, end)
                    let empty = p == end || p.load(as: UInt8.self) == (object ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                    state = State(next: empty ? .first : object ? .key : .value, atRoot: false)
                    continue
                case UInt8(ascii: "\""):
                    switch text(p, end, base, isKey: false, &sink, &workspace.scratch) {
                    case .next(let q): p = q
                    case .stopped: return .stopped(at: offset(p))
                    case .failed(let error): return .failed(error, .value)
                    }
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    switch number(p, end, base) {
                    case .next(let q):
                        guard sink.number(UnsafeRawBufferPointer(start: p, count: q - p), at: offset(p)) else { return .stopped(at: offset(p)) }
                        p = q
                    case .stopped: return .stopped(at: offset(p))
                    case .failed(let error): return .failed(error, .value)
                    }
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                    guard let value = literal(p, end) else {
                        return failure(at: p, base, end, stack, state, parse: nil)
                    }
                    guard sink.literal(value, at: offset(p)) else { return .stopped(at: offset(p)) }
                    p += JSONScanner.literalLength(value)
                default:
                    return failure(at: p, base, end, stack, state, parse: JSONScanner.unallowedToken)
                }
                // A scalar: only a container clears `atRoot`, as after a scalar at the root the
                // value is complete.
                state.next = .afterValue
                p = JSONScanner.blank(p, end)
            }
            // After a value.
            if stack.isEmpty {
                if p == end || stopsAfterOneValue { return .complete(end: offset(p)) }
                return .failed(trailingGarbage(p, end, base), nil)
            }
            guard p < end else { return failure(.unexpectedEnd, at: p, base, end, stack, state) }
            let c = p.load(as: UInt8.self)
            let object = stack.inObject
            if c == UInt8(ascii: ",") {
                p += 1
                if allowsTrailingCommas {
                    let q = JSONScanner.blank(p, end)
                    if q < end, q.load(as: UInt8.self) == (object ? UInt8(ascii: "}") : UInt8(ascii: "]")) { p = q; continue }
                }
                stack.top += 2
                state.next = object ? .key : .value
            } else if c == (object ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                let elements = (stack.pop() >> 1) + 1
                guard sink.endContainer(object: object, elements: elements, at: offset(p)) else { return .stopped(at: offset(p)) }
                p += 1
            } else {
                return failure(at: p, base, end, stack, state, parse: object ? JSONScanner.afterMember : JSONScanner.afterElement)
            }
        }
    }
}
