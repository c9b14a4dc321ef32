// Tape.parse's fast path: a whole document in memory is read into the tape straight from its
// bytes, without yajl and the EventBuilder (yajl's lexer was half of a MagmaDecoder decode of the
// GitHub corpus).
//
// It accepts a strict subset of what the yajl path accepts, and writes the same tape for it
// (entries and side text, byte for byte; TapeScannerTests holds it to that): an object or array
// at the root, only space, tab, CR and LF between tokens, strings and keys that SkipScanner
// accepts (strict UTF-8, valid escapes, surrogate escapes in pairs, within the size cap), the
// number grammar, and nesting well inside the depth limit. On anything else, errors included, it
// gives up and the yajl path reads the document from the start, so errors keep their code,
// message and position.
private import CYajl  // its bytescan.h: the SIMD run of string content

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension TapeWriter {
    /// Reads the whole input into the tape; false (the tape is then partial) on anything outside
    /// the subset above.
    mutating func scan(options: DecodingOptions) -> Bool {
        guard !options.allowComments, case .useLast = options.duplicateKeys, case .ignore = options.unknownKeys,
              input.count > 0, let base = input.baseAddress else { return false }
        let end = base + input.count
        let scanner = SkipScanner(maxTokenLength: options.maxTokenLength, nestingRoom: 0)
        let maxDepth = options.maxDepth
        // Per open container: its element count so far, times 2, plus 1 for an object.
        var stack: [Int] = []
        stack.reserveCapacity(16)
        var scratch: [UInt8] = []
        var p = SkipScanner.blank(base, end)
        guard p < end, p.load(as: UInt8.self) == UInt8(ascii: "{") || p.load(as: UInt8.self) == UInt8(ascii: "[") else { return false }

        enum Next { case value, key, afterValue }
        var next = Next.value
        while true {
            switch next {
            case .value:
                p = SkipScanner.blank(p, end)
                guard p < end else { return false }
                let c = p.load(as: UInt8.self)
                switch c {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard stack.count + 1 < maxDepth else { return false }
                    let object = c == UInt8(ascii: "{")
                    startContainer(object ? .object : .array, offset: p - base)
                    p = SkipScanner.blank(p + 1, end)
                    guard p < end else { return false }
                    if p.load(as: UInt8.self) == (object ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        endContainer(elements: 0)
                        p += 1
                        next = .afterValue
                    } else {
                        stack.append(object ? 1 : 2)
                        next = object ? .key : .value
                    }
                case UInt8(ascii: "\""):
                    guard let close = string(.string, p, end, base, scanner, &scratch) else { return false }
                    p = close + 1
                    next = .afterValue
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    guard let stop = scanner.numberEnd(p, end) else { return false }
                    text(.number, UnsafeRawBufferPointer(start: p, count: stop - p), tokenEnd: nil)
                    p = stop
                    next = .afterValue
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                    let (word, kind): (StaticString, TapeKind) = c == UInt8(ascii: "t") ? ("true", .trueValue)
                        : c == UInt8(ascii: "f") ? ("false", .falseValue) : ("null", .null)
                    guard scanner.literal(p, end, word) else { return false }
                    scalar(kind, offset: p - base)
                    p += word.utf8CodeUnitCount
                    next = .afterValue
                default:
                    return false
                }
            case .key:
                p = SkipScanner.blank(p, end)
                guard p < end, p.load(as: UInt8.self) == UInt8(ascii: "\""),
                      let close = string(.key, p, end, base, scanner, &scratch) else { return false }
                p = SkipScanner.blank(close + 1, end)
                guard p < end, p.load(as: UInt8.self) == UInt8(ascii: ":") else { return false }
                p += 1
                next = .value
            case .afterValue:
                guard let top = stack.last else {
                    return SkipScanner.blank(p, end) == end
                }
                p = SkipScanner.blank(p, end)
                guard p < end else { return false }
                let c = p.load(as: UInt8.self)
                let object = top & 1 != 0
                p += 1
                if c == UInt8(ascii: ",") {
                    if object {
                        next = .key
                    } else {
                        stack[stack.count - 1] = top + 2
                        next = .value
                    }
                } else if c == (object ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    endContainer(elements: top >> 1)
                    stack.removeLast()
                } else {
                    return false
                }
            }
        }
    }

    /// A string or key whose opening quote is at `open`: its entry, and its closing quote; nil
    /// when it is not what SkipScanner.stringEnd accepts (escapes, no control character, strict
    /// UTF-8, surrogate escapes in pairs, within the size cap). Text with escapes is decoded, as
    /// yajl decodes it, into `scratch` in the same pass, and the entry copies it to the side.
    @inline(__always)
    private mutating func string(_ kind: TapeKind, _ open: UnsafeRawPointer, _ end: UnsafeRawPointer, _ base: UnsafeRawPointer,
                                 _ scanner: SkipScanner, _ scratch: inout [UInt8]) -> UnsafeRawPointer? {
        let start = open + 1
        var high: Int32 = 0
        // (Plain functions: a closure capturing `high` cost an exclusivity check per call.)
        var q = Self.run(start, end, &high)
        guard q < end else { return nil }
        if q.load(as: UInt8.self) == UInt8(ascii: "\"") {
            guard Self.valid(start, q, high, scanner.maxTokenLength) else { return nil }
            text(kind, UnsafeRawBufferPointer(start: start, count: q - start), tokenEnd: nil)
            return q
        }
        scratch.removeAll(keepingCapacity: true)
        var copied = start
        while true {
            let c = q.load(as: UInt8.self)
            if c == UInt8(ascii: "\"") { break }
            guard c == UInt8(ascii: "\\"), q + 1 < end else { return nil }  // a control character, or the end
            scratch.append(contentsOf: UnsafeRawBufferPointer(start: copied, count: q - copied))
            let e = q.load(fromByteOffset: 1, as: UInt8.self)
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(e)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = Self.hex4(q + 2, end), scalar < 0xDC00 || scalar > 0xDFFF else { return nil }
                if scalar >= 0xD800 && scalar <= 0xDBFF {
                    // A high surrogate must be followed by an escaped low one.
                    guard q + 12 <= end, q.load(fromByteOffset: 6, as: UInt8.self) == UInt8(ascii: "\\"),
                          q.load(fromByteOffset: 7, as: UInt8.self) == UInt8(ascii: "u"),
                          let low = Self.hex4(q + 8, end), low >= 0xDC00 && low <= 0xDFFF else { return nil }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    q += 6
                }
                Self.appendUTF8(scalar, to: &scratch)
                q += 4
            default:
                return nil
            }
            q += 2
            copied = q
            q = Self.run(q, end, &high)
            guard q < end else { return nil }
        }
        guard Self.valid(start, q, high, scanner.maxTokenLength) else { return nil }
        scratch.append(contentsOf: UnsafeRawBufferPointer(start: copied, count: q - copied))
        scratch.withUnsafeBytes { text(kind, $0, tokenEnd: q + 1 - base) }
        return q
    }

    /// To the next quote, backslash or control character (or `end`) from `from`; `high` becomes 1
    /// if a byte of 0x80 or above comes before it.
    @inline(__always)
    private static func run(_ from: UnsafeRawPointer, _ end: UnsafeRawPointer, _ high: inout Int32) -> UnsafeRawPointer {
        from + magma_string_run(from.assumingMemoryBound(to: UInt8.self), end - from, &high)
    }

    /// Whether the text from `start` to `stop`, as written, is within the cap and (when it has a
    /// byte of 0x80 or above) strict UTF-8.
    @inline(__always)
    private static func valid(_ start: UnsafeRawPointer, _ stop: UnsafeRawPointer, _ high: Int32, _ cap: Int) -> Bool {
        let content = UnsafeRawBufferPointer(start: start, count: stop - start)
        return content.count <= cap && (high == 0 || UTF8Validation.firstInvalid(content) < 0)
    }

    /// The value of four hex digits at `p`, if they are there.
    @inline(__always)
    private static func hex4(_ p: UnsafeRawPointer, _ end: UnsafeRawPointer) -> UInt32? {
        guard end - p >= 4 else { return nil }
        var value: UInt32 = 0
        for k in 0..<4 {
            let c = p.load(fromByteOffset: k, as: UInt8.self)
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// `scalar` (not a surrogate) in UTF-8; U+0000 is one zero byte, as yajl writes it.
    @inline(__always)
    private static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        if scalar < 0x80 {
            out.append(UInt8(scalar))
        } else if scalar < 0x800 {
            out.append(0xC0 | UInt8(scalar >> 6))
            out.append(0x80 | UInt8(scalar & 0x3F))
        } else if scalar < 0x10000 {
            out.append(0xE0 | UInt8(scalar >> 12))
            out.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            out.append(0x80 | UInt8(scalar & 0x3F))
        } else {
            out.append(0xF0 | UInt8(scalar >> 18))
            out.append(0x80 | UInt8(scalar >> 12 & 0x3F))
            out.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            out.append(0x80 | UInt8(scalar & 0x3F))
        }
    }
}
