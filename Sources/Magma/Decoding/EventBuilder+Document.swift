// EventBuilder+Document.swift — Magma
//
// The builder as a DocumentScanner's sink: a whole document in memory is read without yajl
// (JSONAdapter.scanned), its unmapped values passed over by the scanner.

extension EventBuilder: DocumentSink {
    /// The room within which the scanner validates and passes over the value of a key the object
    /// on top does not map; nil when the value is read.
    var skipRoom: Int? { options.skipsUnmappedInPlace && skipsNextValue ? options.maxDepth - depth - 1 : nil }
}
