/// Where the bytes yajl is parsing lie in the input, so a token's offset and raw text can be found.
struct FeedPosition {
    var handle: OpaquePointer?
    /// Offset in the whole input of `input`'s first byte.
    var consumedBefore = 0
    /// The buffer yajl is parsing (its end is exclusive); a null range when there is none.
    var inputStart = UnsafeRawPointer(bitPattern: 1)!
    var inputEnd = UnsafeRawPointer(bitPattern: 1)!
    /// Where in `input` yajl was last fed from: 0, or past a value read without yajl (an
    /// unmapped value skipped in place), after which yajl counts its offsets from there.
    var resumedAt = 0
    /// Bytes the Tokenizer holds from earlier feeds: they end where `input` starts (in offsets of
    /// the whole input) and begin at a token boundary, at or before any token still open.
    var carry = UnsafeRawBufferPointer(start: nil, count: 0)
    /// The lines before `input`, when the Tokenizer counts them (streams): for the line and column
    /// of an error the builder recovers from.
    var lines: LineCounter?

    var input: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: inputStart, count: inputEnd - inputStart) }
}
