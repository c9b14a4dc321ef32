// JSONScanner+Tokens.swift — Magma
//
// The tokens of the grammar: blanks, strings (checked and decoded), numbers, literals, and a value
// passed over unread. Each returns where the next token may begin, or its exact error.
private import CYajl  // its bytescan.h: the SIMD run of string content

extension JSONScanner {
    /// What reading one token gave.
    enum Step {
        /// It was read (and handed over): the next byte.
        case next(UnsafeRawPointer)
        /// The sink refused it.
        case stopped
        /// It is malformed, or over a limit.
        indirect case failed(JSONError)
    }

    /// The first byte at or after `p` that is not a blank (space, tab, CR, LF), or `end`. Most
    /// tokens follow no blank or one; a longer run (indentation, padding) is scanned 16 bytes a step.
    @inline(__always)
    static func blank(_ p: UnsafeRawPointer, _ end: UnsafeRawPointer) -> UnsafeRawPointer {
        guard p < end, isBlank(p.load(as: UInt8.self)) else { return p }
        let q = p + 1
        guard q < end, isBlank(q.load(as: UInt8.self)) else { return q }
        return blankRun(q, end)
    }

    /// Out of line: inlined, its SIMD constants are held in registers across the loop and
    /// reloaded after every call the loop makes, for runs compact JSON never has.
    @inline(never)
    static func blankRun(_ q: UnsafeRawPointer, _ end: UnsafeRawPointer) -> UnsafeRawPointer {
        q + magma_blank_run(q.assumingMemoryBound(to: UInt8.self), end - q)
    }

    @inline(__always)
    static func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

    // MARK: Strings

    /// A string or key whose opening quote is at `open`, checked and handed to the sink. Text
    /// with escapes is decoded (as yajl decodes it) into `scratch`.
    @inline(__always)
    func text<Sink: ScanSink>(_ open: UnsafeRawPointer, _ end: UnsafeRawPointer, _ base: UnsafeRawPointer, isKey: Bool,
                              _ sink: inout Sink, _ scratch: inout [UInt8]) -> Step {
        let start = open + 1
        var high: Int32 = 0
        let run = magma_string_run(start.assumingMemoryBound(to: UInt8.self), end - start, &high)
        let q = start + run
        if q < end, q.load(as: UInt8.self) == UInt8(ascii: "\""), run <= maxTokenLength {
            let content = UnsafeRawBufferPointer(start: start, count: run)
            if high != 0, checksText {
                let bad = UTF8Validation.firstInvalid(content)
                if bad >= 0 { return .failed(invalidUTF8(content, at: bad, isKey: isKey, base)) }
            }
            return sink.text(content, isKey: isKey, start: open - base, end: q + 1 - base) ? .next(q + 1) : .stopped
        }
        return escapedText(open, run: run, high: high, end, base, isKey: isKey, &sink, &scratch)
    }

    /// `text` past the first byte that is not plain content (`run` bytes on): escapes, errors, the
    /// size cap. A valid string with escapes is checked and decoded in one pass; anything else is
    /// left to `stringEnd`, which finds its exact error, and `EscapedText.decode`.
    @inline(never)
    private func escapedText<Sink: ScanSink>(_ open: UnsafeRawPointer, run: Int, high: Int32, _ end: UnsafeRawPointer,
                                             _ base: UnsafeRawPointer, isKey: Bool, _ sink: inout Sink, _ scratch: inout [UInt8]) -> Step {
        if Sink.decodesText, let (close, count) = decodeValid(open + 1, run: run, high: high, end, &scratch) {
            let handed = scratch.withUnsafeBytes {
                sink.text(UnsafeRawBufferPointer(rebasing: $0[..<count]), isKey: isKey, start: open - base, end: close + 1 - base)
            }
            return handed ? .next(close + 1) : .stopped
        }
        let close: UnsafeRawPointer
        switch stringEnd(open, end, base, isKey: isKey) {
        case .next(let q): close = q
        case .stopped: return .stopped
        case .failed(let error): return .failed(error)
        }
        let raw = UnsafeRawBufferPointer(start: open + 1, count: close - (open + 1))
        guard Sink.decodesText else { return .next(close + 1) }
        // Room for the text as written: decoding never lengthens it.
        JSONScanner.reserve(raw.count, in: &scratch)
        let handed = scratch.withUnsafeMutableBufferPointer { buffer in
            let count = EscapedText.decode(raw, to: buffer.baseAddress.unsafelyUnwrapped)
            return sink.text(UnsafeRawBufferPointer(start: buffer.baseAddress, count: count), isKey: isKey,
                             start: open - base, end: close + 1 - base)
        }
        return handed ? .next(close + 1) : .stopped
    }

    /// The closing quote of a string whose text begins at `start` (`run` bytes of plain content,
    /// `high` if they hold a byte above ASCII), and the length of its text decoded into `scratch`,
    /// when the string is valid: the runs between escapes are copied as they are found. nil at
    /// anything `stringEnd` reports or treats apart: a control character, a bad escape, a
    /// surrogate escape not in a pair, invalid UTF-8, the input's end, the size cap.
    @inline(__always)
    private func decodeValid(_ start: UnsafeRawPointer, run: Int, high: Int32, _ end: UnsafeRawPointer,
                             _ scratch: inout [UInt8]) -> (UnsafeRawPointer, Int)? {
        var q = start + run, pending = run, high = high, k = 0
        while true {
            guard q < end, q - start <= maxTokenLength else { return nil }
            let c = q.load(as: UInt8.self)
            var scalar: UInt32 = 0, length = 0
            if c != UInt8(ascii: "\"") {
                guard c == UInt8(ascii: "\\"), let escape = EscapedText.escape(UnsafeRawBufferPointer(start: q, count: end - q)) else { return nil }
                (scalar, length) = escape
            }
            // Room for the text so far and this escape's bytes (at most 4).
            JSONScanner.reserve(k + pending + 4, in: &scratch)
            k += scratch.withUnsafeMutableBytes { out in
                let to = out.baseAddress.unsafelyUnwrapped + k
                to.copyMemory(from: q - pending, byteCount: pending)
                return length == 0 ? pending : pending + EscapedText.utf8(scalar, to: to + pending)
            }
            if length == 0 { break }
            q += length
            pending = magma_string_run(q.assumingMemoryBound(to: UInt8.self), end - q, &high)
            q += pending
        }
        if high != 0, checksText, UTF8Validation.firstInvalid(UnsafeRawBufferPointer(start: start, count: q - start)) >= 0 { return nil }
        return (q, k)
    }

    /// Grows `scratch` (its count is the room) to at least `count` bytes; it only grows.
    @inline(__always)
    private static func reserve(_ count: Int, in scratch: inout [UInt8]) {
        if scratch.count < count { scratch.append(contentsOf: repeatElement(0, count: max(count, 2 * scratch.count) - scratch.count)) }
    }

    /// The closing quote of the string whose opening quote is at `open`, once it is checked: no
    /// control character, valid escapes, strict UTF-8, surrogate escapes in pairs (unless they
    /// are replaced), within the size cap. The first problem by yajl's order: an error of the
    /// lexer (a character, an escape) wherever it is, then the earlier of invalid UTF-8 and a bad
    /// surrogate; past the size cap, the cap.
    func stringEnd(_ open: UnsafeRawPointer, _ end: UnsafeRawPointer, _ base: UnsafeRawPointer, isKey: Bool) -> Step {
        let start = open + 1
        // A problem of the lexer past the cap is the cap's: a reader fed in pieces meets the cap
        // first, whatever follows.
        func failed(_ error: JSONError) -> Step {
            let pastCap = (error.offset ?? 0) - (start - base) > maxTokenLength
            return .failed(pastCap ? tooLong(isKey ? "key" : "string", open, base) : error)
        }
        var q = start
        var high: Int32 = 0
        var badSurrogate: UnsafeRawPointer? = nil
        while true {
            q += magma_string_run(q.assumingMemoryBound(to: UInt8.self), end - q, &high)
            // Bytes past the cap: a reader fed in pieces stops here, whatever follows.
            if q - start > maxTokenLength || (q >= end && end - start > maxTokenLength) { return .failed(tooLong(isKey ? "key" : "string", open, base)) }
            guard q < end else { return .failed(located(JSONError(.unexpectedEnd, JSONScanner.unexpectedEnd), end, base)) }
            let c = q.load(as: UInt8.self)
            if c == UInt8(ascii: "\"") { break }
            if c < 0x20 { return failed(lexical(JSONScanner.controlCharacter, q, base)) }
            guard c == UInt8(ascii: "\\") else { q += 1; continue }
            guard q + 1 < end else { return failed(located(JSONError(.unexpectedEnd, JSONScanner.unexpectedEnd), end, base)) }
            switch q.load(fromByteOffset: 1, as: UInt8.self) {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                q += 2
            case UInt8(ascii: "u"):
                let unit: UInt32
                switch hex4(q + 2, end, base) {
                case .success(let value): unit = value
                case .failure(let error): return failed(error.error)
                }
                if unit & 0xFC00 == 0xD800, q + 7 < end, q.load(fromByteOffset: 6, as: UInt8.self) == UInt8(ascii: "\\"),
                   q.load(fromByteOffset: 7, as: UInt8.self) == UInt8(ascii: "u") {
                    // A high surrogate followed by another escape: a low one makes the pair.
                    let low: UInt32
                    switch hex4(q + 8, end, base) {
                    case .success(let value): low = value
                    case .failure(let error): return failed(error.error)
                    }
                    if low & 0xFC00 == 0xDC00 { q += 12; continue }
                    if badSurrogate == nil { badSurrogate = q }
                    q += 6
                } else {
                    if unit & 0xF800 == 0xD800, badSurrogate == nil { badSurrogate = q }
                    q += 6
                }
            default:
                return failed(lexical(JSONScanner.badEscape, q + 1, base))
            }
        }
        guard checksText else { return .next(q) }
        let content = UnsafeRawBufferPointer(start: start, count: q - start)
        let bad = high != 0 ? UTF8Validation.firstInvalid(content) : -1
        if let badSurrogate, !replacesBadSurrogates, bad < 0 || badSurrogate - start < bad {
            let shown = String(decoding: UnsafeRawBufferPointer(start: badSurrogate, count: min(12, q - badSurrogate)), as: UTF8.self)
            return .failed(located(JSONError(.invalidUnicode, "a \\u escape of a UTF-16 surrogate that is not part of a pair (\(shown))"
                                            + (isKey ? " in a key" : " in a string")), badSurrogate, base))
        }
        if bad >= 0 { return .failed(invalidUTF8(content, at: bad, isKey: isKey, base)) }
        return .next(q)
    }

    /// A wrapper making a `JSONError` a typed failure.
    struct Failure: Error { let error: JSONError }

    /// The value of four hex digits at `p`.
    @inline(__always)
    private func hex4(_ p: UnsafeRawPointer, _ end: UnsafeRawPointer, _ base: UnsafeRawPointer) -> Result<UInt32, Failure> {
        var value: UInt32 = 0
        for k in 0..<4 {
            guard p + k < end else { return .failure(Failure(error: located(JSONError(.unexpectedEnd, JSONScanner.unexpectedEnd), end, base))) }
            guard let digit = p.load(fromByteOffset: k, as: UInt8.self).hexDigitValue else {
                return .failure(Failure(error: lexical(JSONScanner.nonHex, p + k, base)))
            }
            value = value << 4 | UInt32(digit)
        }
        return .success(value)
    }

    private func invalidUTF8(_ content: UnsafeRawBufferPointer, at index: Int, isKey: Bool, _ base: UnsafeRawPointer) -> JSONError {
        located(JSONError(.invalidUnicode, UTF8Validation.describe(content, at: index) + (isKey ? " in a key" : " in a string")),
                content.baseAddress! + index, base)
    }

    // MARK: Numbers and literals

    /// One past the number at `p`: `-`? (`0` | [1-9][0-9]*) (`.` [0-9]+)? ([eE] [+-]? [0-9]+)?,
    /// within the size cap. The input may end right after it (it is whole: the caller says
    /// whether that is the end of the value).
    @_transparent
    func number(_ p: UnsafeRawPointer, _ end: UnsafeRawPointer, _ base: UnsafeRawPointer) -> Step {
        var q = p
        if q.load(as: UInt8.self) == UInt8(ascii: "-") { q += 1 }
        guard q < end else { return numberFailure(p, q, end, base, nil) }
        let first = q.load(as: UInt8.self)
        if first == UInt8(ascii: "0") {
            q += 1
        } else {
            guard first &- UInt8(ascii: "1") < 9 else { return numberFailure(p, q, end, base, JSONScanner.minusSign) }
            q = Self.digitRun(q + 1, end)
        }
        if q < end, q.load(as: UInt8.self) == UInt8(ascii: ".") {
            q += 1
            guard q < end, q.load(as: UInt8.self) &- UInt8(ascii: "0") < 10 else { return numberFailure(p, q, end, base, JSONScanner.decimalPoint) }
            q = Self.digitRun(q + 1, end)
        }
        if q < end, q.load(as: UInt8.self) | 0x20 == UInt8(ascii: "e") {
            q += 1
            if q < end, q.load(as: UInt8.self) == UInt8(ascii: "+") || q.load(as: UInt8.self) == UInt8(ascii: "-") { q += 1 }
            guard q < end, q.load(as: UInt8.self) &- UInt8(ascii: "0") < 10 else { return numberFailure(p, q, end, base, JSONScanner.exponent) }
            q = Self.digitRun(q + 1, end)
        }
        // Failures are built out of line: this stays small enough to be inlined into the loop.
        guard q - p <= maxTokenLength, q < end || endIsFinal else { return numberFailure(p, q, end, base, nil) }
        return .next(q)
    }

    /// Whether `bytes` are one JSON number and nothing else (a string the lenient codecs read as a
    /// number, `JSONNumber(_:)`'s text): the grammar's number token, with no size cap.
    static func isNumber(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let p = bytes.baseAddress, !bytes.isEmpty else { return false }
        if case .next(let q) = JSONScanner(maxTokenLength: .max, maxDepth: 0).number(p, p + bytes.count, p) {
            return q == p + bytes.count
        }
        return false
    }

    /// A number that breaks off at `q` (`message`: the digit it lacks), or ends there with the input.
    @inline(never)
    private func numberFailure(_ p: UnsafeRawPointer, _ q: UnsafeRawPointer, _ end: UnsafeRawPointer, _ base: UnsafeRawPointer,
                               _ message: String?) -> Step {
        if q - p > maxTokenLength { return .failed(tooLong("number", p, base)) }
        guard q < end, let message else { return .failed(located(JSONError(.unexpectedEnd, JSONScanner.unexpectedEnd), end, base)) }
        return .failed(lexical(message, q, base))
    }

    /// One past the run of ASCII digits at `p`, eight bytes a step while eight are there. In the
    /// SWAR test a byte is flagged when it is not a digit; carries and borrows only run from a
    /// flagged byte upward, so the lowest flag is the first byte that is not a digit.
    @inline(__always)
    static func digitRun(_ p: UnsafeRawPointer, _ end: UnsafeRawPointer) -> UnsafeRawPointer {
        var q = p
        while end - q >= 8 {
            let chunk = UInt64(littleEndian: q.loadUnaligned(as: UInt64.self))
            let notDigit = ((chunk &+ 0x4646_4646_4646_4646) | (chunk &- 0x3030_3030_3030_3030)) & 0x8080_8080_8080_8080
            if notDigit != 0 { return q + (notDigit.trailingZeroBitCount >> 3) }
            q += 8
        }
        while q < end, q.load(as: UInt8.self) &- UInt8(ascii: "0") < 10 { q += 1 }
        return q
    }

    /// The literal at `p` (`true`, `false`, or `null` as `.some(nil)`), or nil when the bytes are
    /// not one.
    @inline(__always)
    func literal(_ p: UnsafeRawPointer, _ end: UnsafeRawPointer) -> Bool?? {
        switch p.load(as: UInt8.self) {
        case UInt8(ascii: "t"): return JSONScanner.spells(p, end, "true") ? .some(true) : nil
        case UInt8(ascii: "f"): return JSONScanner.spells(p, end, "false") ? .some(false) : nil
        default: return JSONScanner.spells(p, end, "null") ? .some(nil) : nil
        }
    }

    /// The length of a literal `literal(_:_:)` read: `false` has five bytes, `true` and `null` four.
    @inline(__always)
    static func literalLength(_ value: Bool?) -> Int { value == false ? 5 : 4 }

    /// Whether the bytes at `p` spell `word`; with `prefix`, whether those before `end` begin it.
    @inline(__always)
    static func spells(_ p: UnsafeRawPointer, _ end: UnsafeRawPointer, _ word: StaticString, prefix: Bool = false) -> Bool {
        let n = min(word.utf8CodeUnitCount, prefix ? end - p : word.utf8CodeUnitCount)
        guard end - p >= n else { return false }
        return memcmp(p, word.utf8Start, n) == 0
    }

    // MARK: Values passed over

    /// One past the value at `p` (blanks skipped), checked as if it were read, but handed to no
    /// sink; it lies in containers `depth` deep.
    func skip(_ p: UnsafeRawPointer, _ end: UnsafeRawPointer, _ base: UnsafeRawPointer, depth: Int) -> Step {
        // A scalar, the most common value passed over, is one token: read here without the
        // loop's set-up. Anything else, and any error (for its exact place), goes to the loop.
        if p < end {
            switch p.load(as: UInt8.self) {
            case UInt8(ascii: "\""):
                if case .next(let q) = stringEnd(p, end, base, isKey: false) { return .next(q + 1) }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                if case .next(let q) = number(p, end, base) { return .next(q) }
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                if let value = literal(p, end) { return .next(p + JSONScanner.literalLength(value)) }
            default: break
            }
        }
        var scanner = self
        scanner.baseDepth = baseDepth + depth
        scanner.stopsAfterOneValue = true
        var sink = PassingSink()
        var workspace = Workspace()
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 16) { local in
            var stack = Stack(local)
            defer { stack.release() }
            var state = State(next: .value, atRoot: false)
            switch scanner.run(from: p, to: end, base: base, state: &state, stack: &stack, sink: &sink, workspace: &workspace) {
            case .complete(let at): return .next(base + at)
            case .stopped: return .stopped
            case .failed(let error, _): return .failed(error)
            }
        }
    }
}

/// Takes every event and keeps nothing: a value passed over is checked as one read.
struct PassingSink: ScanSink {
    static var decodesText: Bool { false }
    @inline(__always) mutating func startContainer(object: Bool, at offset: Int) -> Bool { true }
    @inline(__always) mutating func endContainer(object: Bool, elements: Int, at offset: Int) -> Bool { true }
    @inline(__always) mutating func text(_ text: UnsafeRawBufferPointer, isKey: Bool, start: Int, end: Int) -> Bool { true }
    @inline(__always) mutating func number(_ text: UnsafeRawBufferPointer, at start: Int) -> Bool { true }
    @inline(__always) mutating func literal(_ value: Bool?, at offset: Int) -> Bool { true }
    var skipsValue: Bool { false }
}

extension ScanSink {
    /// Whether the sink reads text (a value passed over is only checked: its escapes are not decoded).
    static var decodesText: Bool { true }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
