// Where yajl stands: in the input (the buffer it parses, and the bytes held from earlier feeds
// before it) and in the grammar (after the last token it handed over: one past it, the open
// containers, what comes next). The Tokenizer sets the first before each feed; yajl's callbacks
// move the second (`Tokenizer.note`). From these the grammar can go on where yajl stopped and
// describe an error exactly, and a token's bytes as written can be found.

/// The open containers yajl has reported, one bit each (1 for an object). Its words are owned by
/// the Tokenizer that made them.
struct ContainerBits {
    private(set) var words: UnsafeMutablePointer<UInt64>
    private(set) var capacity: Int
    private(set) var depth = 0

    init() {
        capacity = 8
        words = .allocate(capacity: capacity)
    }

    func release() { words.deallocate() }

    mutating func push(object: Bool) {
        if depth == capacity * 64 {
            words = words.moved(count: capacity, toCapacity: capacity * 2)
            capacity *= 2
        }
        let (word, bit) = depth.quotientAndRemainder(dividingBy: 64)
        if object { words[word] |= 1 << UInt64(bit) } else { words[word] &= ~(1 << UInt64(bit)) }
        depth += 1
    }

    mutating func pop() { if depth > 0 { depth -= 1 } }

    /// Whether the container at `level` (0: the outermost) is an object.
    func isObject(_ level: Int) -> Bool { words[level / 64] >> UInt64(level % 64) & 1 != 0 }
}

struct FeedPosition {
    var handle: OpaquePointer?
    /// Offset in the whole input of `input`'s first byte.
    var consumedBefore = 0
    /// The buffer yajl is parsing (its end is exclusive); a null range when there is none.
    var inputStart = UnsafeRawPointer(bitPattern: 1)!
    var inputEnd = UnsafeRawPointer(bitPattern: 1)!
    /// Bytes the Tokenizer holds from earlier feeds: they end where `input` starts (in offsets of
    /// the whole input) and begin at or after `boundary`, with only blanks between.
    var carry = UnsafeRawBufferPointer(start: nil, count: 0)
    /// The lines before `input`, when the Tokenizer counts them.
    var lines: LineCounter?

    /// One past the last token yajl handed over, in the whole input (0 before the first).
    var boundary = 0
    /// One past the token before it: where the last token's bytes begin to be looked for.
    var lastBoundary = 0
    /// What the grammar expects after `boundary`.
    var next = JSONScanner.Next.value
    /// Whether no token has been handed over yet.
    var atRoot = true
    var containers: ContainerBits?

    var input: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: inputStart, count: inputEnd - inputStart) }

    /// Sets the line and column of `error` at `offset`, when lines are counted: from the count of
    /// the bytes before the carry, and the carry and input themselves.
    func locate(_ error: inout JSONError, offset: Int) {
        lines?.locate(&error, offset: offset, carry: carry, chunk: input, at: consumedBefore)
    }

    /// The grammar's state at `boundary`, and its open containers in `stack`.
    func state(into stack: inout JSONScanner.Stack) -> JSONScanner.State {
        if let containers { for level in 0..<containers.depth { stack.push(object: containers.isObject(level)) } }
        return JSONScanner.State(next: next, atRoot: atRoot)
    }

    /// Calls `body` with the bytes from offset `start` (at or after the carry's) to `end` (at most
    /// the end of `input`), joined when they span the carry and the input.
    func withBytes<R>(from start: Int, to end: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let carryStart = consumedBefore - carry.count
        let from = max(start, carryStart), to = max(min(end, consumedBefore + input.count), from)
        if from >= consumedBefore {
            return body(UnsafeRawBufferPointer(rebasing: input[(from - consumedBefore)..<(to - consumedBefore)]))
        }
        if to <= consumedBefore {
            return body(UnsafeRawBufferPointer(rebasing: carry[(from - carryStart)..<(to - carryStart)]))
        }
        var joined = Array(carry[(from - carryStart)...])
        joined += input[..<(to - consumedBefore)]
        return joined.withUnsafeBytes(body)
    }

    /// The offset of the first byte of the token that ends at `boundary` (the one yajl has just
    /// handed over): past the blanks, `,` and `:` (and comments, when allowed) after `lastBoundary`.
    func tokenStart(comments: Bool) -> Int {
        let start = max(lastBoundary, consumedBefore - carry.count)
        return withBytes(from: start, to: boundary) { bytes in
            var i = 0
            while i < bytes.count {
                switch bytes[i] {
                case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C, UInt8(ascii: ","), UInt8(ascii: ":"): i += 1
                case UInt8(ascii: "/") where comments && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/"):
                    while i < bytes.count, bytes[i] != 0x0A { i += 1 }
                case UInt8(ascii: "/") where comments && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "*"):
                    i += 2
                    while i + 1 < bytes.count, !(bytes[i] == UInt8(ascii: "*") && bytes[i + 1] == UInt8(ascii: "/")) { i += 1 }
                    i += 2
                default: return start + i
                }
            }
            return start + min(i, bytes.count)
        }
    }
}
