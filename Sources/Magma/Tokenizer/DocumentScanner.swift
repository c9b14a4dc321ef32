// DocumentScanner.swift — Magma
//
// A whole document in memory read straight from its bytes, without yajl: a structural loop over
// SkipScanner's grammar (the lexer that already validates what the skip past yajl reads past)
// hands a sink the events yajl's callbacks would, and skips a value the sink does not read with
// one scan. yajl lexes every byte it is given; this reads the GitHub corpus for the seed model in
// two thirds of the instructions yajl's own no-op parse takes (callgrind).
//
// It accepts a strict subset of what the yajl path accepts: only space, tab, CR and LF between
// tokens, no comments, strings and keys SkipScanner accepts (strict UTF-8, valid escapes,
// surrogate escapes in pairs, within the size cap), the number grammar, any value but a number
// at the root (yajl's rule: it could go on), nesting below the depth limit (and 128 levels). On anything else (errors included) and on
// a sink's refusal it answers false, and the caller reads the document with yajl from the start,
// so every error keeps the code, message and position the yajl path gives it.
private import CYajl  // its bytescan.h: the SIMD run of string content

/// Where a `DocumentScanner` hands its events: those yajl's callbacks give, already checked (text
/// is strict UTF-8 within the size cap, its escapes decoded; numbers follow the grammar), with
/// the positions and counts a tape keeps. Each returns false to stop the scan.
protocol DocumentSink {
    /// An object or array opens at `offset` (its bracket's, in the input).
    mutating func startContainer(object: Bool, at offset: Int) -> Bool
    /// The innermost container closes; `elements` is an array's element count (an object's members).
    mutating func endContainer(object: Bool, elements: Int) -> Bool
    /// A key or a string value: its bytes in the input, or decoded from escapes into a scratch
    /// buffer (`end` is one past the closing quote, in the input).
    mutating func text(_ text: UnsafeRawBufferPointer, isKey: Bool, end: Int) -> Bool
    /// A number, its text in the input.
    mutating func number(_ text: UnsafeRawBufferPointer) -> Bool
    /// `true`, `false` (`value`) or `null` (nil) at `offset`.
    mutating func literal(_ value: Bool?, at offset: Int) -> Bool
    /// Asked after each key: nil to be handed its value, or how many levels of containers the
    /// value may hold (the depth limit) to have the scanner validate it and pass over it.
    var skipRoom: Int? { get }
}

enum DocumentScanner {
    /// What the scan expects next.
    private enum Next { case value, key, afterValue }

    /// The scan's growable buffer, kept by a caller that scans document after document (an
    /// NDJSON line each) so that it is allocated once, not once per document.
    struct Workspace {
        /// Text with escapes, decoded (its count is the room, not the text's length).
        fileprivate var scratch: [UInt8] = []
        init() {}
    }

    /// The deepest nesting the scan follows (deeper documents are read by yajl): its container
    /// stack is on the thread's stack, 8 bytes a level. 1 KiB is what Swift places there without
    /// asking the thread how much room it has (a call that cost ~1,800 instructions a document).
    private static var deepestNesting: Int { 128 }

    /// `scan(_:into:maxTokenLength:maxDepth:workspace:)` with buffers of its own.
    static func scan<Sink: DocumentSink>(_ input: UnsafeRawBufferPointer, into sink: inout Sink,
                                         maxTokenLength: Int, maxDepth: Int) -> Bool {
        var workspace = Workspace()
        return scan(input, into: &sink, maxTokenLength: maxTokenLength, maxDepth: maxDepth, workspace: &workspace)
    }

    /// Hands the whole document to `sink`; false on anything outside the subset above or when
    /// the sink stops (the sink is then partial).
    /// - Parameters:
    ///   - maxTokenLength: The longest string, key (bytes as written) or number accepted.
    ///   - maxDepth: Containers may nest below this depth (the scan gives up at it: yajl's reading
    ///     reports the limit).
    ///   - workspace: Buffers the scan empties and grows; they keep their capacity for the next.
    static func scan<Sink: DocumentSink>(_ input: UnsafeRawBufferPointer, into sink: inout Sink,
                                         maxTokenLength: Int, maxDepth: Int, workspace: inout Workspace) -> Bool {
        guard input.count > 0, let base = input.baseAddress else { return false }
        let end = base + input.count
        let scanner = SkipScanner(maxTokenLength: maxTokenLength, nestingRoom: 0)
        // The scratch buffer is moved out for the scan (no copy) and back when it ends.
        var scratch = workspace.scratch
        workspace = Workspace()
        defer { workspace.scratch = scratch }
        // Per open container: its element count so far, times 2, plus 1 for an object.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: max(0, min(maxDepth, deepestNesting))) { stack in
            var depth = 0
            var p = SkipScanner.blank(base, end)
            var next = Next.value
            while true {
                switch next {
                case .value:
                    guard p < end else { return false }
                    let c = p.load(as: UInt8.self)
                    switch c {
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        let object = c == UInt8(ascii: "{")
                        guard depth + 1 < maxDepth, depth < stack.count, sink.startContainer(object: object, at: p - base) else { return false }
                        p = SkipScanner.blank(p + 1, end)
                        guard p < end else { return false }
                        if p.load(as: UInt8.self) == (object ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                            guard sink.endContainer(object: object, elements: 0) else { return false }
                            p += 1
                            next = .afterValue
                        } else {
                            stack[depth] = object ? 1 : 2
                            depth += 1
                            next = object ? .key : .value
                        }
                    case UInt8(ascii: "\""):
                        guard let close = text(p, end, base, scanner, &scratch, &sink, isKey: false) else { return false }
                        p = close + 1
                        next = .afterValue
                    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                        // A number must end before the input does: at the root it could go on (yajl's rule).
                        guard let stop = scanner.numberEnd(p, end), sink.number(UnsafeRawBufferPointer(start: p, count: stop - p)) else {
                            return false
                        }
                        p = stop
                        next = .afterValue
                    case UInt8(ascii: "t"):
                        guard scanner.literal(p, end, "true"), sink.literal(true, at: p - base) else { return false }
                        p += 4
                        next = .afterValue
                    case UInt8(ascii: "f"):
                        guard scanner.literal(p, end, "false"), sink.literal(false, at: p - base) else { return false }
                        p += 5
                        next = .afterValue
                    case UInt8(ascii: "n"):
                        guard scanner.literal(p, end, "null"), sink.literal(nil, at: p - base) else { return false }
                        p += 4
                        next = .afterValue
                    default:
                        return false
                    }
                case .key:
                    guard p < end, p.load(as: UInt8.self) == UInt8(ascii: "\""),
                          let close = text(p, end, base, scanner, &scratch, &sink, isKey: true) else { return false }
                    p = SkipScanner.blank(close + 1, end)
                    guard p < end, p.load(as: UInt8.self) == UInt8(ascii: ":") else { return false }
                    p = SkipScanner.blank(p + 1, end)
                    if let room = sink.skipRoom {
                        guard room >= 0, let stop = SkipScanner(maxTokenLength: maxTokenLength, nestingRoom: room).valueEnd(p, end) else {
                            return false
                        }
                        p = stop
                        next = .afterValue
                    } else {
                        next = .value
                    }
                case .afterValue:
                    p = SkipScanner.blank(p, end)
                    guard depth > 0 else { return p == end }
                    let top = stack[depth - 1]
                    guard p < end else { return false }
                    let c = p.load(as: UInt8.self)
                    let object = top & 1 != 0
                    p += 1
                    if c == UInt8(ascii: ",") {
                        p = SkipScanner.blank(p, end)
                        if object {
                            next = .key
                        } else {
                            stack[depth - 1] = top + 2
                            next = .value
                        }
                    } else if c == (object ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        guard sink.endContainer(object: object, elements: top >> 1) else { return false }
                        depth -= 1
                    } else {
                        return false
                    }
                }
            }
        }
    }

    /// A string or key whose opening quote is at `open`, handed to the sink; its closing quote,
    /// or nil when SkipScanner does not accept it or the sink stops. Text with escapes is decoded
    /// (as yajl decodes it) into `scratch`.
    @inline(__always)
    private static func text<Sink: DocumentSink>(_ open: UnsafeRawPointer, _ end: UnsafeRawPointer, _ base: UnsafeRawPointer,
                                                 _ scanner: SkipScanner, _ scratch: inout [UInt8], _ sink: inout Sink,
                                                 isKey: Bool) -> UnsafeRawPointer? {
        let start = open + 1
        var high: Int32 = 0
        let run = magma_string_run(start.assumingMemoryBound(to: UInt8.self), end - start, &high)
        let q = start + run
        guard q < end else { return nil }
        if q.load(as: UInt8.self) == UInt8(ascii: "\"") {
            let content = UnsafeRawBufferPointer(start: start, count: run)
            guard run <= scanner.maxTokenLength, high == 0 || UTF8Validation.firstInvalid(content) < 0 else { return nil }
            return sink.text(content, isKey: isKey, end: q + 1 - base) ? q : nil
        }
        guard let close = scanner.stringEnd(open, end) else { return nil }
        // Room for the text as written (decoding never lengthens it); the buffer only grows.
        let raw = UnsafeRawBufferPointer(start: start, count: close - start)
        if scratch.count < raw.count { scratch.append(contentsOf: repeatElement(0, count: max(raw.count, 2 * scratch.count) - scratch.count)) }
        let ok = scratch.withUnsafeMutableBufferPointer { buffer in
            let count = EscapedText.decode(raw, to: buffer.baseAddress.unsafelyUnwrapped)
            return sink.text(UnsafeRawBufferPointer(start: buffer.baseAddress, count: count), isKey: isKey, end: close + 1 - base)
        }
        return ok ? close : nil
    }
}
