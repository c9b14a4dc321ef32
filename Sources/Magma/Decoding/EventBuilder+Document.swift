// EventBuilder+Document.swift — Magma
//
// The builder as a DocumentScanner's sink: a whole document in memory (Codec.scanned) or a
// whole NDJSON line is read without yajl, its unmapped values passed over by the scanner.

extension EventBuilder: DocumentSink {
    @inline(__always)
    mutating func startContainer(object: Bool, at offset: Int) -> Bool { object ? startObject() : startArray() }
    @inline(__always)
    mutating func endContainer(object: Bool, elements: Int) -> Bool { object ? endObject() : endArray() }
    @inline(__always)
    mutating func text(_ text: UnsafeRawBufferPointer, isKey: Bool, end: Int) -> Bool { isKey ? key(text) : string(text) }
    @inline(__always)
    mutating func literal(_ value: Bool?, at offset: Int) -> Bool { value.map { bool($0) } ?? null() }
    /// The room within which the scanner validates and passes over the value of a key the object
    /// on top does not map; nil when the value is read.
    @inline(__always)
    var skipRoom: Int? { options.skipsUnmappedInPlace && skipsNextValue ? options.maxDepth - depth - 1 : nil }

    /// Reads the whole document (or NDJSON line) without yajl; false when the scanner gave up.
    mutating func scanDocument(_ input: UnsafeRawBufferPointer) -> Bool {
        guard !options.allowComments else { return false }
        // Out of self for the scan: the builder is the sink, passed inout beside it.
        var workspace = scanWorkspace
        scanWorkspace = DocumentScanner.Workspace()
        defer { scanWorkspace = workspace }
        return DocumentScanner.scan(input, into: &self, maxTokenLength: options.maxTokenLength, maxDepth: options.maxDepth,
                                    workspace: &workspace)
    }
}
