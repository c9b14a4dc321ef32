// Tape.parse's fast path: a whole document in memory is read into the tape straight from its
// bytes by DocumentScanner, without yajl and the EventBuilder (yajl's lexer was half of a
// MagmaDecoder decode of the GitHub corpus).
//
// The scanner accepts a strict subset of what the yajl path accepts, and the tape it writes is
// the same (entries and side text, byte for byte; TapeScannerTests holds it to that); here, an
// object or array at the root, and the default key policies. On anything else, errors included,
// the yajl path reads the document from the start, so errors keep their code, message and position.

extension TapeWriter: DocumentSink {
    /// Reads the whole input into the tape; false (the tape is then partial) on anything outside
    /// the subset above.
    mutating func scan(options: DecodingOptions) -> Bool {
        guard !options.allowComments, case .useLast = options.duplicateKeys, case .ignore = options.unknownKeys,
              let base = input.baseAddress else { return false }
        let first = SkipScanner.blank(base, base + input.count)
        guard first < base + input.count, first.load(as: UInt8.self) == UInt8(ascii: "{") || first.load(as: UInt8.self) == UInt8(ascii: "[") else {
            return false
        }
        return DocumentScanner.scan(input, into: &self, maxTokenLength: options.maxTokenLength, maxDepth: options.maxDepth)
    }

    @inline(__always)
    mutating func startContainer(object: Bool, at offset: Int) -> Bool {
        startContainer(object ? .object : .array, offset: offset)
        return true
    }
    @inline(__always)
    mutating func endContainer(object: Bool, elements: Int) -> Bool {
        endContainer(elements: elements)
        return true
    }
    @inline(__always)
    mutating func text(_ text: UnsafeRawBufferPointer, isKey: Bool, end: Int) -> Bool {
        self.text(isKey ? .key : .string, text, tokenEnd: end)
        return true
    }
    @inline(__always)
    mutating func number(_ text: UnsafeRawBufferPointer) -> Bool {
        self.text(.number, text, tokenEnd: nil)
        return true
    }
    @inline(__always)
    mutating func literal(_ value: Bool?, at offset: Int) -> Bool {
        scalar(value == nil ? .null : value! ? .trueValue : .falseValue, offset: offset)
        return true
    }
    var skipRoom: Int? { nil }
}
