// What a MagmaDecoder decode reads, made from the caller's bytes as JSONDecoder reads them: UTF-8
// strict JSON. Most input is that already, and is read where it lies. Otherwise one copy is made
// first: UTF-16 or UTF-32 input transcoded (its encoding found as JSONDecoder finds it), JSON5
// made strict (JSON5Text.swift), an object's braces added for `assumesTopLevelDictionary`. So
// there is still one JSON grammar; an error it reports in the copy is placed in the caller's
// bytes: offset, line and column as they were given.

/// The encodings JSONDecoder reads, found as it finds them: a byte order mark, or the zero bytes
/// of the first two characters (which JSON text begins with ASCII ones).
enum TextEncoding: Equatable {
    case utf8, utf16BigEndian, utf16LittleEndian, utf32BigEndian, utf32LittleEndian

    /// The encoding of `bytes` and the length of their byte order mark.
    static func detect(_ bytes: UnsafeRawBufferPointer) -> (TextEncoding, mark: Int) {
        func starts(_ prefix: [UInt8]) -> Bool { bytes.count >= prefix.count && zip(bytes, prefix).allSatisfy { $0 == $1 } }
        if starts([0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
        if starts([0x00, 0x00, 0xFE, 0xFF]) { return (.utf32BigEndian, 4) }
        // JSONDecoder reads FE FF 00 00 as UTF-32LE's mark (and the real one, FF FE 00 00, as
        // UTF-16LE's, failing on the U+0000 after it): both are read as UTF-32LE here.
        if starts([0xFE, 0xFF, 0x00, 0x00]) || starts([0xFF, 0xFE, 0x00, 0x00]) { return (.utf32LittleEndian, 4) }
        if starts([0xFE, 0xFF]) { return (.utf16BigEndian, 2) }
        if starts([0xFF, 0xFE]) { return (.utf16LittleEndian, 2) }
        if bytes.count >= 4 {
            switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
            case (0, 0, 0, _): return (.utf32BigEndian, 0)
            case (_, 0, 0, 0): return (.utf32LittleEndian, 0)
            case (0, _, 0, _): return (.utf16BigEndian, 0)
            case (_, 0, _, 0): return (.utf16LittleEndian, 0)
            default: return (.utf8, 0)
            }
        }
        if bytes.count >= 2 {
            if bytes[0] == 0 { return (.utf16BigEndian, 0) }
            if bytes[1] == 0 { return (.utf16LittleEndian, 0) }
        }
        return (.utf8, 0)
    }

    /// Bytes per code unit.
    var unit: Int {
        switch self {
        case .utf8: 1
        case .utf16BigEndian, .utf16LittleEndian: 2
        case .utf32BigEndian, .utf32LittleEndian: 4
        }
    }

    /// The code unit at `at` (which has `unit` bytes).
    func codeUnit(_ bytes: UnsafeRawBufferPointer, at: Int) -> UInt32 {
        switch self {
        case .utf8: UInt32(bytes[at])
        case .utf16BigEndian: UInt32(bytes[at]) << 8 | UInt32(bytes[at + 1])
        case .utf16LittleEndian: UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at])
        case .utf32BigEndian: (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[at + $1]) }
        case .utf32LittleEndian: (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[at + 3 - $1]) }
        }
    }

    /// The scalar of UTF-16 or UTF-32 text at `at` and its length in bytes; nil when the text is
    /// not valid there.
    func scalar(_ bytes: UnsafeRawBufferPointer, at: Int) -> (Unicode.Scalar, Int)? {
        guard at + unit <= bytes.count else { return nil }
        let first = codeUnit(bytes, at: at)
        guard unit == 2, first & 0xFC00 == 0xD800 else { return Unicode.Scalar(first).map { ($0, unit) } }
        guard at + 4 <= bytes.count else { return nil }
        let second = codeUnit(bytes, at: at + 2)
        guard second & 0xFC00 == 0xDC00 else { return nil }
        return Unicode.Scalar(0x10000 + ((first & 0x3FF) << 10 | (second & 0x3FF))).map { ($0, 4) }
    }
}

/// Offsets in a text made from another, back to the other's: the two run in step between marks.
struct OffsetMap {
    private var made: [Int] = [0]
    private var original: [Int] = [0]

    /// From `made` on, the made text runs in step with the original from `original`.
    mutating func mark(made m: Int, original o: Int) {
        if made.last == m { original[original.count - 1] = o } else { made.append(m); original.append(o) }
    }

    /// The original offset of the made text's `offset`.
    func original(of offset: Int) -> Int {
        var lo = 0, hi = made.count
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if made[mid] <= offset { lo = mid } else { hi = mid }
        }
        return original[lo] + (offset - made[lo])
    }
}

/// The bytes a MagmaDecoder decode reads, and the way back to the caller's.
struct DecoderInput {
    /// The caller's bytes, whole (byte order mark included).
    let source: UnsafeRawBufferPointer
    let encoding: TextEncoding
    let mark: Int
    /// Strict JSON made from the source; nil when the source, after its mark, is read as it is.
    private var made: UnsafeMutableRawBufferPointer?
    /// From `made`'s offsets to those of the source's text as UTF-8 (nil: they are the same).
    private var map: OffsetMap?
    /// JSON5's infinities and NaNs: where `made` holds a number of their length, and their text.
    private var nonFinite: [(offset: Int, text: StaticString)] = []

    /// - Throws: `JSONError`, placed in the source, when the source is not text in its encoding
    ///   or not JSON5 (with `json5`).
    init(_ source: UnsafeRawBufferPointer, json5: Bool, assumesObject: Bool) throws(JSONError) {
        self.source = source
        (encoding, mark) = TextEncoding.detect(source)
        let body = UnsafeRawBufferPointer(rebasing: source[mark...])
        var text: UnsafeMutableRawBufferPointer?
        do {
            if encoding != .utf8 { text = try Self.transcode(body, from: encoding) }
            let utf8 = text.map(UnsafeRawBufferPointer.init) ?? body
            if json5 {
                let strict = try JSON5Text.strict(utf8, assumesObject: assumesObject)
                (made, map, nonFinite) = (strict.bytes, strict.map, strict.nonFinite)
                text?.deallocate()
            } else if assumesObject, !Self.opensObject(utf8) {
                made = Self.braced(utf8)
                var map = OffsetMap()
                map.mark(made: 1, original: 0)
                self.map = map
                text?.deallocate()
            } else {
                made = text
            }
        } catch {
            text?.deallocate()
            throw place(error, inMade: false)
        }
    }

    /// The tape of the input, which frees the bytes made for it.
    /// - Throws: `JSONError`, placed in the source.
    mutating func parse(options: DecodingOptions) throws(JSONError) -> Tape {
        guard let made else {
            do {
                return try Tape.parse(UnsafeRawBufferPointer(rebasing: source[mark...]), options: options, trailingCommas: true)
            } catch { throw place(error) }
        }
        self.made = nil
        let tape: Tape
        do {
            tape = try Tape.parse(UnsafeRawBufferPointer(made), options: options, trailingCommas: true)
        } catch {
            made.deallocate()
            throw place(error)
        }
        tape.adopt(made)
        if !nonFinite.isEmpty { try Self.restore(nonFinite, in: tape) }
        return tape
    }

    /// Writes each JSON5 literal over the text of its stand-in's number entry (in the input or
    /// the tape's side text, both the tape's own memory).
    /// - Throws: when a stand-in has no entry of its length: never a number read as its stand-in.
    private static func restore(_ literals: [(offset: Int, text: StaticString)], in tape: Tape) throws(JSONError) {
        var pending = Dictionary(uniqueKeysWithValues: literals.map { ($0.offset, $0.text) })
        for k in 0..<tape.count where tape[k].kind == .number {
            let text = tape.text(tape[k])
            guard let literal = pending[tape[k].offset], literal.utf8CodeUnitCount == text.count else { continue }
            UnsafeMutableRawPointer(mutating: text.baseAddress!).copyMemory(from: literal.utf8Start, byteCount: text.count)
            pending[tape[k].offset] = nil
        }
        guard pending.isEmpty else { throw JSONError(.syntax, "a JSON5 Infinity or NaN could not be read") }
    }

    /// `error` with its offset, line and column in the source; `inMade`: its offset is one in
    /// the strict JSON made (else in the source's text as UTF-8).
    func place(_ error: JSONError, inMade: Bool = true) -> JSONError {
        guard !inMade || mark > 0 || map != nil || encoding != .utf8, let offset = error.offset else { return error }
        var placed = error
        (placed.offset, placed.line, placed.column) = locate(inMade ? map?.original(of: offset) ?? offset : offset)
        return placed
    }

    /// A `DecodingError` whose underlying `JSONError` is placed in the source; any other error as it is.
    func place(_ error: any Error) -> any Error {
        guard mark > 0 || map != nil || encoding != .utf8, let decoding = error as? DecodingError else { return error }
        return decoding.withContext { c in
            guard let located = c.underlyingError as? JSONError else { return c }
            return DecodingError.Context(codingPath: c.codingPath, debugDescription: c.debugDescription, underlyingError: place(located))
        }
    }

    /// The source's byte offset, 1-based line and column (in bytes) of `textOffset`, an offset in
    /// its text as UTF-8: walked from the start (errors only).
    private func locate(_ textOffset: Int) -> (Int, Int, Int) {
        var at = mark, utf8 = 0, line = 1, lineStart = 0
        while at < source.count, utf8 < textOffset {
            let scalar: Unicode.Scalar, size: Int
            if encoding == .utf8 {
                (scalar, size) = (Unicode.Scalar(source[at]), 1)
                utf8 += 1
            } else {
                guard let decoded = encoding.scalar(source, at: at) else { break }
                (scalar, size) = decoded
                utf8 += UTF8.width(scalar)
            }
            at += size
            if scalar == "\n" { line += 1; lineStart = at }
        }
        return (at, line, at - lineStart + 1)
    }

    /// Whether the text's first byte past JSON's blanks is `{`.
    private static func opensObject(_ text: UnsafeRawBufferPointer) -> Bool {
        text.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
    }

    /// `{` + text + `}`.
    private static func braced(_ text: UnsafeRawBufferPointer) -> UnsafeMutableRawBufferPointer {
        let made = UnsafeMutableRawBufferPointer.allocate(byteCount: text.count + 2, alignment: 1)
        made[0] = UInt8(ascii: "{")
        UnsafeMutableRawBufferPointer(rebasing: made[1...]).copyMemory(from: text)
        made[text.count + 1] = UInt8(ascii: "}")
        return made
    }

    /// UTF-16 or UTF-32 text as UTF-8.
    /// - Throws: `invalidUnicode` at the first code unit that is not text (offset in the UTF-8 made so far).
    private static func transcode(_ body: UnsafeRawBufferPointer, from encoding: TextEncoding) throws(JSONError) -> UnsafeMutableRawBufferPointer {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(body.count / encoding.unit * 3)
        var at = 0
        while at < body.count {
            guard let (scalar, size) = encoding.scalar(body, at: at) else {
                var error = JSONError(.invalidUnicode, "the input is not valid \(encoding) text")
                error.offset = utf8.count
                throw error
            }
            utf8.append(contentsOf: UTF8.encode(scalar)!)
            at += size
        }
        let made = UnsafeMutableRawBufferPointer.allocate(byteCount: max(utf8.count, 1), alignment: 1)
        utf8.withUnsafeBytes { made.copyMemory(from: $0) }
        return UnsafeMutableRawBufferPointer(rebasing: made[..<utf8.count])
    }
}
