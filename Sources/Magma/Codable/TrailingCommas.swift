// JSONDecoder's one liberty with the JSON grammar: a comma after the last value of an array or an
// object (`[1,]`, `{"a":1,}`) is accepted. Magma's readers (the document scanner and yajl) read
// strict JSON, and stay so; a document they refuse is read again from a copy in which each such
// comma is a space. The copy has the same length, so every offset an error gives is the input's.

enum TrailingCommas {
    /// A copy of `input` with every comma that follows a value and precedes a closing bracket (past
    /// blanks, and comments when `comments`) made a space; nil when there is none. The caller
    /// frees the copy.
    static func blanked(_ input: UnsafeRawBufferPointer, comments: Bool) -> UnsafeMutableRawBufferPointer? {
        var copy: UnsafeMutableRawBufferPointer?
        let n = input.count
        var i = 0
        // Whether the last token ended a value: a comma after anything else is an error, kept.
        var afterValue = false
        while i < n {
            switch input[i] {
            case UInt8(ascii: "\""):
                i = stringEnd(input, from: i)
                afterValue = true
            case UInt8(ascii: ","):
                if afterValue, let next = significant(input, from: i + 1, comments: comments),
                   input[next] == UInt8(ascii: "]") || input[next] == UInt8(ascii: "}") {
                    if copy == nil {
                        let made = UnsafeMutableRawBufferPointer.allocate(byteCount: n, alignment: 1)
                        made.copyMemory(from: input)
                        copy = made
                    }
                    copy![i] = UInt8(ascii: " ")
                }
                afterValue = false
                i += 1
            case UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ":"):
                afterValue = false
                i += 1
            case 0x20, 0x09, 0x0A, 0x0D:
                i += 1
            case UInt8(ascii: "/") where comments:
                i = commentEnd(input, from: i) ?? i + 1
            default:
                // A closing bracket, or a byte of a number or a literal.
                afterValue = true
                i += 1
            }
        }
        return copy
    }

    /// One past the string whose opening quote is at `open` (the input's end if it has none).
    private static func stringEnd(_ input: UnsafeRawBufferPointer, from open: Int) -> Int {
        var i = open + 1
        while i < input.count {
            switch input[i] {
            case UInt8(ascii: "\\"): i += 2
            case UInt8(ascii: "\""): return i + 1
            default: i += 1
            }
        }
        return input.count
    }

    /// The first byte at or after `start` that is not a blank (nor in a comment); nil at the end.
    private static func significant(_ input: UnsafeRawBufferPointer, from start: Int, comments: Bool) -> Int? {
        var i = start
        while i < input.count {
            switch input[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            case UInt8(ascii: "/") where comments:
                guard let end = commentEnd(input, from: i) else { return i }
                i = end
            default: return i
            }
        }
        return nil
    }

    /// One past the `//` or `/* */` comment at `start`; nil when none begins there.
    private static func commentEnd(_ input: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start + 1 < input.count else { return nil }
        var i = start + 2
        switch input[start + 1] {
        case UInt8(ascii: "/"):
            while i < input.count, input[i] != 0x0A { i += 1 }
            return i
        case UInt8(ascii: "*"):
            while i + 1 < input.count, !(input[i] == UInt8(ascii: "*") && input[i + 1] == UInt8(ascii: "/")) { i += 1 }
            return min(i + 2, input.count)
        default:
            return nil
        }
    }
}
