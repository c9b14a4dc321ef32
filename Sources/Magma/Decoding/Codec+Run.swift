// Codec+Run.swift — Magma
//
// A codec run over JSON bytes: the one way any value is decoded from text. A fresh EventBuilder
// whose root target is a Slot of the codec reads a whole document with the scanner (`decode`),
// or, for a document fed in pieces, with comments, or when the options ask for it, with yajl
// (`run`). The front door (`JSONAdapter`'s entry points) and the layers that read JSON themselves
// (a mapping file) all come here.

import Foundation

extension Codec {
    /// Decodes one `V` from a whole document in memory.
    /// - Parameters:
    ///   - input: The JSON text.
    ///   - options: How to read it.
    ///   - report: Where to note the values left out on purpose (defaults kept, elements
    ///     dropped); nil keeps none.
    ///   - onFailure: Sees the builder before an error is thrown (to keep what was read).
    /// - Throws: ``JSONError`` with the path, property and position of the failure.
    func decode(from input: UnsafeRawBufferPointer, options: DecodingOptions, report: DecodingReport? = nil,
                onFailure: (inout EventBuilder) -> Void = { _ in }) throws -> V {
        if options.readsWithYajl {
            return try run(options: options, chunked: false, report: report, onFailure: onFailure) { (tokenizer: inout Tokenizer<EventBuilder>) in
                try tokenizer.parseAll(input)
            }
        }
        let (_, value) = try withBuilder(options: options, report: report) { builder in
            do {
                try builder.pointee.scanDocument(input)
            } catch {
                onFailure(&builder.pointee)
                throw error
            }
        }
        guard let value else { throw JSONError(.unexpectedEnd, "the input holds no JSON value") }
        return value
    }

    /// The value a Tokenizer fed by `body` builds; `onFailure` sees the builder before an error
    /// is thrown (to keep what was read).
    func run(options: DecodingOptions, chunked: Bool, report: DecodingReport? = nil,
             onFailure: (inout EventBuilder) -> Void = { _ in },
             _ body: (inout Tokenizer<EventBuilder>) throws -> Void) throws -> V {
        let (_, result) = try withBuilder(options: options, report: report) { builder in
            var tokenizer = Tokenizer(builder: builder, tracksLines: chunked)
            do {
                try body(&tokenizer)
            } catch {
                onFailure(&builder.pointee)
                throw error
            }
        }
        guard let result else { throw JSONError(.unexpectedEnd, "the input holds no JSON value") }
        return result
    }

    /// Runs `body` with a fresh builder (heap-allocated: a Tokenizer keeps its address) whose
    /// root slot receives a `V`, noting what it leaves out in `report`; the builder is destroyed
    /// after. Returns what `body` returned and the value the root received, if any.
    func withBuilder<R, E: Error>(options: DecodingOptions, report: DecodingReport? = nil,
                                  _ body: (UnsafeMutablePointer<EventBuilder>) throws(E) -> R) throws(E) -> (R, V?) {
        var result: V? = nil
        let slot = Slot(self, ResultReceiver<V>())
        let returned = try withExtendedLifetime(slot) { () throws(E) -> R in
            try withUnsafeMutablePointer(to: &result) { (resultPointer) throws(E) -> R in
                try EventBuilder.withHeapBuilder(root: slot, rootContext: UnsafeMutableRawPointer(resultPointer), options: options,
                                                 report: report, body)
            }
        }
        return (returned, result)
    }
}

extension EventBuilder {
    /// Runs `body` with a builder on the heap (a Tokenizer keeps its address), destroyed after.
    static func withHeapBuilder<R, E: Error>(root: ValueTarget, rootContext: UnsafeMutableRawPointer, options: DecodingOptions,
                                            report: DecodingReport? = nil,
                                            _ body: (UnsafeMutablePointer<EventBuilder>) throws(E) -> R) throws(E) -> R {
        let builder = UnsafeMutablePointer<EventBuilder>.allocate(capacity: 1)
        builder.initialize(to: EventBuilder(root: root, rootContext: rootContext, options: options, report: report))
        defer {
            builder.pointee.destroy()
            builder.deinitialize(count: 1)
            builder.deallocate()
        }
        return try body(builder)
    }
}
