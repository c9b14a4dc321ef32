// CommentBlanker.swift — Magma
//
// JSON with comments read by the strict grammar: a record stream, cut into records each read
// whole, and the bytes the Tokenizer checks behind yajl (held bytes, and where yajl stopped). So
// comments (and form feed and vertical tab, which JSON5 reads as whitespace, as yajl does with
// comments on) become spaces as the bytes arrive, newlines kept: offsets, lines and columns stay
// as written. A document with comments is otherwise yajl's.

struct CommentBlanker {
    /// NDJSON: a newline ends a string, as the reader sees it there (each line is read from its
    /// start, and a raw newline inside a string is an error), so an unclosed quote in a bad line
    /// does not keep the next lines' comments from being blanked. Elsewhere the blanker follows
    /// strings as the record cutter does.
    let newlineEndsString: Bool
    private var inString = false
    private var escaped = false
    /// 0 none; 1 a line comment; 2 a block comment; 3 a block comment after a `*`.
    private var comment = 0
    /// A `/` ended the last piece outside a string: it may begin a comment (held back, not given yet).
    private(set) var heldSlash = false

    init(newlineEndsString: Bool) { self.newlineEndsString = newlineEndsString }

    /// Whether the input may end here: no block comment is open.
    var isClosed: Bool { comment < 2 }

    /// The bytes of `chunk` to read, comments blanked, with a `/` held from the last piece before
    /// them and one that ends this piece held back.
    mutating func blank(_ chunk: UnsafeRawBufferPointer) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(chunk.count + 1)
        if heldSlash { out.append(UInt8(ascii: "/")) }
        heldSlash = false
        for c in chunk {
            if inString {
                out.append(c)
                if c == 0x0A, newlineEndsString {
                    (inString, escaped) = (false, false)
                } else if escaped { escaped = false } else if c == UInt8(ascii: "\\") { escaped = true } else if c == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch comment {
            case 1:
                if c == 0x0A { comment = 0; out.append(c) } else { out.append(0x20) }
                continue
            case 2, 3:
                if c == 0x0A { out.append(c) } else { out.append(0x20) }
                comment = c == UInt8(ascii: "/") && comment == 3 ? 0 : c == UInt8(ascii: "*") ? 3 : 2
                continue
            default:
                break
            }
            if out.last == UInt8(ascii: "/") {
                // The `/` before this byte: a comment's start, or a lone `/` the grammar rejects.
                if c == UInt8(ascii: "/") || c == UInt8(ascii: "*") {
                    out[out.count - 1] = 0x20
                    out.append(0x20)
                    comment = c == UInt8(ascii: "/") ? 1 : 2
                    continue
                }
            }
            switch c {
            case UInt8(ascii: "\""): inString = true; out.append(c)
            case 0x0B, 0x0C: out.append(0x20)
            default: out.append(c)
            }
        }
        if comment == 0, !inString, out.last == UInt8(ascii: "/") {
            out.removeLast()
            heldSlash = true
        }
        return out
    }

    /// The end of what is read now. At the end of the input (`final`), a `/` held back is given as
    /// it is. Before it, a blank stands in for the `/`, which may begin a comment the next bytes
    /// close: it ends the token before it, and is judged once the next byte is there.
    mutating func finish(final: Bool = true) -> [UInt8] {
        defer { heldSlash = false }
        return heldSlash ? [final ? UInt8(ascii: "/") : 0x20] : []
    }
}
