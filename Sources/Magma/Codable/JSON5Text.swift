// JSON5 as JSONDecoder reads it (`allowsJSON5`), made strict JSON for the one grammar Magma reads.
//
// The pass is lexical: it rewrites each JSON5 token as its JSON spelling and copies the structure
// through, so the document scanner still checks structure, strings' UTF-8 and escapes, and
// numbers. What JSONDecoder's JSON5 differs in, and how it is written:
// - `//` and `/* */` comments, and vertical tab and form feed among the blanks: one space.
// - Unquoted keys (a letter, `$` or `_`, then those, digits and combining marks; `\u` and `\x`
//   escapes) and single-quoted strings: double-quoted strings.
// - Escapes: `\'` and `\x41` become their characters; a backslash before a line break keeps the
//   break (JSONDecoder's reading: "\n", "\r", "\r\n"); `\0`, `\v` and others are errors, as are
//   `\u0000` and `\x00`, as in JSONDecoder.
// - Numbers: a sign `+`, a leading or trailing point, hexadecimal (up to 64 bits) are written in
//   decimal; `Infinity` and `NaN` (signed or not) have no JSON spelling, so each is written as
//   a number of the same length whose text is put back in the tape once it is built
//   (DecoderInput), and TapeDecoder reads the literal.
// - Unquoted keys keep their `\u` and `\x` escapes as written (JSONDecoder does not decode them).
// - A comma after the last value of an array or object is dropped.
// - `assumesTopLevelDictionary`: a document that does not open with `{` gets the braces.
// Errors are JSONError(.syntax) at the offending byte; the map takes the scanner's back.

struct JSON5Text {
    /// The strict JSON, the way back to the JSON5's offsets, and the stand-ins for non-finite numbers.
    struct Strict {
        let bytes: UnsafeMutableRawBufferPointer
        let map: OffsetMap
        let nonFinite: [(offset: Int, text: StaticString)]
    }

    private let text: UnsafeRawBufferPointer
    private var i = 0
    private var out: [UInt8] = []
    private var map = OffsetMap()
    private var nonFinite: [(offset: Int, text: StaticString)] = []
    /// Open containers, true for an object.
    private var open: [Bool] = []
    /// The next token is an object's key.
    private var expectsKey = false
    /// The last token ended a value: a comma after it may be a trailing one.
    private var afterValue = false
    /// A comma after a value, written only once the next token is not a closing bracket.
    private var heldComma: Int?

    private init(_ text: UnsafeRawBufferPointer) {
        self.text = text
        out.reserveCapacity(text.count + 16)
    }

    /// The strict JSON of `text`.
    static func strict(_ text: UnsafeRawBufferPointer, assumesObject: Bool) throws(JSONError) -> Strict {
        var pass = JSON5Text(text)
        try pass.run(assumesObject: assumesObject)
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(pass.out.count, 1), alignment: 1)
        pass.out.withUnsafeBytes { bytes.copyMemory(from: $0) }
        return Strict(bytes: UnsafeMutableRawBufferPointer(rebasing: bytes[..<pass.out.count]), map: pass.map, nonFinite: pass.nonFinite)
    }

    private mutating func run(assumesObject: Bool) throws(JSONError) {
        try skipBlanks()
        let braced = assumesObject && (i >= text.count || text[i] != UInt8(ascii: "{"))
        if braced { open(object: true) }
        while true {
            try skipBlanks()
            guard i < text.count else { break }
            let c = text[i]
            if c == UInt8(ascii: "]") || c == UInt8(ascii: "}") {
                heldComma = nil
                emit(c)
                i += 1
                if !open.isEmpty { open.removeLast() }
                (expectsKey, afterValue) = (false, true)
                continue
            }
            if let comma = heldComma {
                map.mark(made: out.count, original: comma)
                out.append(UInt8(ascii: ","))
                heldComma = nil
            }
            switch c {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                i += 1
                open(object: c == UInt8(ascii: "{"))
            case UInt8(ascii: ","):
                if afterValue { heldComma = i } else { emit(c) }
                i += 1
                (expectsKey, afterValue) = (open.last == true, false)
            case UInt8(ascii: ":"):
                emit(c)
                i += 1
                (expectsKey, afterValue) = (false, false)
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                try string(quote: c)
                (expectsKey, afterValue) = (false, true)
            default:
                if expectsKey { try unquotedKey() } else { try bareValue() }
                (expectsKey, afterValue) = (false, true)
            }
        }
        if braced {
            heldComma = nil
            emit(UInt8(ascii: "}"))
        } else if let comma = heldComma {
            map.mark(made: out.count, original: comma)
            out.append(UInt8(ascii: ","))
        }
    }

    private mutating func open(object: Bool) {
        emit(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        open.append(object)
        (expectsKey, afterValue) = (object, false)
    }

    /// Writes `byte`, marking that it stands for the text at `i`.
    private mutating func emit(_ byte: UInt8) {
        map.mark(made: out.count, original: i)
        out.append(byte)
    }

    private func fail(_ message: String, at offset: Int) -> JSONError {
        var error = JSONError(.syntax, message)
        error.offset = offset
        return error
    }

    // MARK: Blanks and comments

    /// Passes JSON5's blanks and comments, writing one space for them.
    private mutating func skipBlanks() throws(JSONError) {
        let start = i
        while i < text.count {
            switch text[i] {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C, 0xA0:
                i += 1
            case UInt8(ascii: "/") where i + 1 < text.count && text[i + 1] == UInt8(ascii: "/"):
                i += 2
                while i < text.count, text[i] != 0x0A, text[i] != 0x0D { i += 1 }
            case UInt8(ascii: "/") where i + 1 < text.count && text[i + 1] == UInt8(ascii: "*"):
                let open = i
                i += 2
                while i + 1 < text.count, !(text[i] == UInt8(ascii: "*") && text[i + 1] == UInt8(ascii: "/")) { i += 1 }
                guard i + 1 < text.count else { throw fail("a comment that is not closed", at: open) }
                i += 2
            default:
                if i > start { out.append(0x20) }
                return
            }
        }
        if i > start { out.append(0x20) }
    }

    // MARK: Strings and keys

    /// A string in double or single quotes, written in double quotes.
    private mutating func string(quote: UInt8) throws(JSONError) {
        let open = i
        emit(UInt8(ascii: "\""))
        i += 1
        while true {
            guard i < text.count else { throw fail("a string that is not closed", at: open) }
            let c = text[i]
            switch c {
            case quote:
                emit(UInt8(ascii: "\""))
                i += 1
                return
            case UInt8(ascii: "\\"):
                try escape()
            case UInt8(ascii: "\""):
                emit(UInt8(ascii: "\\"))
                out.append(c)
                i += 1
            case 0x00..<0x20:
                throw fail("a control character in a string", at: i)
            default:
                out.append(c)
                i += 1
            }
        }
    }

    /// The escape at `i`, in JSON's spelling.
    private mutating func escape() throws(JSONError) {
        guard i + 1 < text.count else { throw fail("a string that is not closed", at: i) }
        let e = text[i + 1]
        map.mark(made: out.count, original: i)
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
             UInt8(ascii: "r"), UInt8(ascii: "t"):
            out.append(contentsOf: [UInt8(ascii: "\\"), e])
            i += 2
        case UInt8(ascii: "'"):
            out.append(e)
            i += 2
        case 0x0A:
            out.append(contentsOf: Array("\\n".utf8))
            i += 2
        case 0x0D:
            let crlf = i + 2 < text.count && text[i + 2] == 0x0A
            out.append(contentsOf: Array((crlf ? "\\r\\n" : "\\r").utf8))
            i += crlf ? 3 : 2
        case UInt8(ascii: "u"):
            // Copied; the scanner checks the digits and surrogates. U+0000 is refused, as JSONDecoder's JSON5 does.
            guard text.hexValue(at: i + 2, digits: 4) != 0 else { throw fail("\\u0000 in a JSON5 string", at: i) }
            out.append(contentsOf: [UInt8(ascii: "\\"), e])
            i += 2
        case UInt8(ascii: "x"):
            guard let value = text.hexValue(at: i + 2, digits: 2) else { throw fail("\\x without two hexadecimal digits", at: i) }
            guard value != 0 else { throw fail("\\x00 in a JSON5 string", at: i) }
            let hex = Array("0123456789abcdef".utf8)
            out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(value >> 4)], hex[Int(value & 15)]])
            i += 4
        default:
            throw fail("an escape JSON5 does not have", at: i)
        }
    }

    /// An unquoted key (ECMAScript's identifier names), written as a string.
    private mutating func unquotedKey() throws(JSONError) {
        let start = i
        emit(UInt8(ascii: "\""))
        while let (scalar, length) = keyScalar(), Self.isKeyCharacter(scalar, first: i == start) {
            if text[i] == UInt8(ascii: "\\") {
                // JSONDecoder keeps a key's escape as written: its backslash is text.
                map.mark(made: out.count, original: i)
                out.append(UInt8(ascii: "\\"))
            }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[i..<(i + length)]))
            i += length
        }
        guard i > start else { throw fail("a key that is neither quoted nor a JSON5 identifier", at: start) }
        emit(UInt8(ascii: "\""))
    }

    /// The scalar of a key at `i` (a `\u` or `\x` escape's) and its length in the text; nil at the
    /// end or at text that is not UTF-8.
    private func keyScalar() -> (Unicode.Scalar, Int)? {
        guard i < text.count else { return nil }
        if text[i] == UInt8(ascii: "\\") {
            guard i + 1 < text.count else { return nil }
            let digits = text[i + 1] == UInt8(ascii: "u") ? 4 : text[i + 1] == UInt8(ascii: "x") ? 2 : 0
            guard digits > 0, let value = text.hexValue(at: i + 2, digits: digits), value != 0, let scalar = Unicode.Scalar(value) else { return nil }
            return (scalar, 2 + digits)
        }
        var decoder = UTF8()
        var bytes = UnsafeRawBufferPointer(rebasing: text[i..<min(i + 4, text.count)]).makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&bytes) else { return nil }
        return (scalar, UTF8.width(scalar))
    }

    /// ECMAScript's identifier characters: a letter, `$`, `_`; after the first, also digits,
    /// combining marks, connector punctuation, ZWNJ and ZWJ.
    private static func isKeyCharacter(_ scalar: Unicode.Scalar, first: Bool) -> Bool {
        if scalar == "$" || scalar == "_" { return true }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .letterNumber: return true
        case .nonspacingMark, .spacingMark, .decimalNumber, .connectorPunctuation: return !first
        default: return !first && (scalar.value == 0x200C || scalar.value == 0x200D)
        }
    }

    // MARK: Literals and numbers

    /// `true`, `false`, `null`, or a number (JSON5's, in JSONDecoder's reading: a run of digits,
    /// letters, points and signs, checked whole).
    private mutating func bareValue() throws(JSONError) {
        let start = i
        while i < text.count, Self.isNumberByte(text[i]) { i += 1 }
        guard i > start else { throw fail("a character JSON5 does not have here", at: start) }
        let token = UnsafeRawBufferPointer(rebasing: text[start..<i])
        map.mark(made: out.count, original: start)
        for literal in ["true", "false", "null"] where token.elementsEqual(literal.utf8) {
            out.append(contentsOf: token)
            return
        }
        guard let number = Self.number(token) else { throw fail("\(JSONError.quote(token, asString: false)) is not a JSON5 value", at: start) }
        if let literal = number.nonFinite { nonFinite.append((out.count, literal)) }
        out.append(contentsOf: number.json)
    }

    private static func isNumberByte(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    /// A JSON5 number as JSON text, and for an infinity or NaN the literal its stand-in replaces.
    static func number(_ token: UnsafeRawBufferPointer) -> (json: [UInt8], nonFinite: StaticString?)? {
        var body = token[...]
        let negative = body.first == UInt8(ascii: "-")
        if negative || body.first == UInt8(ascii: "+") { body = body.dropFirst() }
        let sign: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        if body.elementsEqual("Infinity".utf8) {
            return (sign + Array("10000000".utf8), negative ? "-Infinity" : "Infinity")
        }
        if body.elementsEqual("NaN".utf8) { return (sign + Array("100".utf8), negative ? "-NaN" : "NaN") }
        if body.count > 2, body.first == UInt8(ascii: "0"), body.dropFirst().first.map({ $0 | 0x20 == UInt8(ascii: "x") }) == true {
            var value: UInt64 = 0
            for c in body.dropFirst(2) {
                guard let d = c.hexDigitValue else { return nil }
                let (shifted, overflow) = value.multipliedReportingOverflow(by: 16)
                guard !overflow else { return nil }
                value = shifted | UInt64(d)
            }
            return (sign + Array(String(value).utf8), nil)
        }
        // int? ('.' digits*)? (e sign? digits+)?, with at least one digit before the exponent.
        let digits = body.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        guard digits.count <= 1 || digits.first != UInt8(ascii: "0") else { return nil }
        var rest = body.dropFirst(digits.count)
        var json = sign + (digits.isEmpty ? [UInt8(ascii: "0")] : Array(digits))
        if rest.first == UInt8(ascii: ".") {
            let fraction = rest.dropFirst().prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            guard !digits.isEmpty || !fraction.isEmpty else { return nil }
            json += [UInt8(ascii: ".")] + (fraction.isEmpty ? [UInt8(ascii: "0")] : Array(fraction))
            rest = rest.dropFirst(1 + fraction.count)
        } else if digits.isEmpty {
            return nil
        }
        if let e = rest.first, e | 0x20 == UInt8(ascii: "e") {
            var exponent = rest.dropFirst()
            if exponent.first == UInt8(ascii: "+") || exponent.first == UInt8(ascii: "-") { exponent = exponent.dropFirst() }
            guard !exponent.isEmpty, exponent.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            json += Array(rest)
            rest = rest[rest.endIndex...]
        }
        return rest.isEmpty ? (json, nil) : nil
    }
}
