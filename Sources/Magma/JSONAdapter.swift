// The front door (rank 7 in ARCHITECTURE.md). Every entry point ends in a codec run over the
// input (`Codec.decode`, Decoding/Codec+Run.swift): an EventBuilder whose root target is a Slot of
// the value's codec, fed by the document scanner or a Tokenizer. Entry points take
// a JSONObjectModel (a `@JSONModel` model or a `Map`-declared JSONModel) or a Transformer.

import Foundation

/// Magma's front door: decodes models from JSON.
///
/// ```swift
/// let issue  = try JSONAdapter.model(GHIssue.self, from: data)
/// let issues = try JSONAdapter.models(GHIssue.self, from: data)   // a top-level array
/// ```
///
/// Every method reads the JSON in one pass through yajl, straight into the models; nothing in
/// between. Errors are ``JSONError``s with the JSON path, the model property, and the byte
/// offset, line and column of the failure.
public enum JSONAdapter {
    /// Compiles the mapping of `type` and of every model a decode of it can reach (nested, in
    /// arrays and dictionaries, at key paths, cluster cases) now, on this thread. Otherwise each
    /// is compiled when its first object is read: a service that wants its first request, or a
    /// benchmark that times from the first byte, calls this at start-up. The parallel entry
    /// points call it themselves. A mapping that is illegal is left for the decode to report.
    public static func prepare<M: JSONObjectModel>(_ type: M.Type) {
        prepareGraph(of: M.self)
    }

    // MARK: One model

    /// Decodes one model from a JSON object.
    /// - Parameters:
    ///   - type: The model type.
    ///   - data: The JSON text, UTF-8.
    ///   - options: How to read it; the defaults suit most input.
    /// - Returns: The model.
    /// - Throws: ``JSONError``.
    public static func model<M: JSONObjectModel>(_ type: M.Type, from data: Data, options: DecodingOptions = .init()) throws -> M {
        try data.withUnsafeBytes { try objectModelCodec(M.self).decode(from: $0, options: options) }
    }

    /// Decodes one model from JSON bytes.
    public static func model<M: JSONObjectModel>(_ type: M.Type, from bytes: [UInt8], options: DecodingOptions = .init()) throws -> M {
        try bytes.withUnsafeBytes { try objectModelCodec(M.self).decode(from: $0, options: options) }
    }

    /// Decodes one model from a JSON string.
    public static func model<M: JSONObjectModel>(_ type: M.Type, from string: String, options: DecodingOptions = .init()) throws -> M {
        var string = string
        return try string.withUTF8 { try objectModelCodec(M.self).decode(from: UnsafeRawBufferPointer($0), options: options) }
    }

    /// Decodes one model from JSON bytes in memory the caller owns.
    public static func model<M: JSONObjectModel>(_ type: M.Type, from buffer: UnsafeRawBufferPointer,
                                           options: DecodingOptions = .init()) throws -> M {
        try objectModelCodec(M.self).decode(from: buffer, options: options)
    }

    /// Decodes one model from a JSON file.
    /// - Parameters:
    ///   - type: The model type.
    ///   - url: A file URL.
    ///   - options: How to read it.
    /// - Throws: ``JSONError``; code ``JSONError/Code/io`` if the file cannot be read.
    public static func model<M: JSONObjectModel>(_ type: M.Type, contentsOf url: URL, options: DecodingOptions = .init()) throws -> M {
        try model(type, from: try Data(readingFile: url), options: options)
    }

    /// Decodes one model from JSON arriving in chunks (any chunking gives the same result).
    /// - Parameters:
    ///   - type: The model type.
    ///   - chunks: The JSON text in pieces, in order.
    ///   - options: How to read it.
    public static func model<M: JSONObjectModel, Chunks: Sequence>(_ type: M.Type, fromChunks chunks: Chunks,
                                                             options: DecodingOptions = .init()) throws -> M
    where Chunks.Element: ContiguousBytes {
        try objectModelCodec(M.self).decode(fromChunks: chunks, options: options)
    }

    // MARK: A top-level array of models

    /// Decodes a top-level JSON array of objects into models.
    /// - Parameters:
    ///   - type: The model type.
    ///   - data: The JSON text, UTF-8.
    ///   - options: How to read it.
    /// - Returns: The models, in order.
    /// - Throws: ``JSONError``; its path starts with the failing element's index (`$[12]...`).
    public static func models<M: JSONObjectModel>(_ type: M.Type, from data: Data, options: DecodingOptions = .init()) throws -> [M] {
        try data.withUnsafeBytes { try ArrayCodec(objectModelCodec(M.self)).decode(from: $0, options: options) }
    }

    /// Decodes a top-level JSON array of objects into models, from bytes.
    public static func models<M: JSONObjectModel>(_ type: M.Type, from bytes: [UInt8], options: DecodingOptions = .init()) throws -> [M] {
        try bytes.withUnsafeBytes { try ArrayCodec(objectModelCodec(M.self)).decode(from: $0, options: options) }
    }

    /// Decodes a top-level JSON array of objects into models, from a string.
    public static func models<M: JSONObjectModel>(_ type: M.Type, from string: String, options: DecodingOptions = .init()) throws -> [M] {
        var string = string
        return try string.withUTF8 { try ArrayCodec(objectModelCodec(M.self)).decode(from: UnsafeRawBufferPointer($0), options: options) }
    }

    /// Decodes a top-level JSON array of objects into models, from memory the caller owns.
    public static func models<M: JSONObjectModel>(_ type: M.Type, from buffer: UnsafeRawBufferPointer,
                                            options: DecodingOptions = .init()) throws -> [M] {
        try ArrayCodec(objectModelCodec(M.self)).decode(from: buffer, options: options)
    }

    /// Decodes a top-level JSON array of objects into models, from a file.
    public static func models<M: JSONObjectModel>(_ type: M.Type, contentsOf url: URL, options: DecodingOptions = .init()) throws -> [M] {
        try models(type, from: try Data(readingFile: url), options: options)
    }

    /// Decodes a top-level JSON array of objects into models, from chunks.
    public static func models<M: JSONObjectModel, Chunks: Sequence>(_ type: M.Type, fromChunks chunks: Chunks,
                                                              options: DecodingOptions = .init()) throws -> [M]
    where Chunks.Element: ContiguousBytes {
        try ArrayCodec(objectModelCodec(M.self)).decode(fromChunks: chunks, options: options)
    }

    /// Decodes a top-level JSON array of objects into models, keeping every model decoded before
    /// an error: the models before the failing element, and the error (nil if none).
    /// - Parameters:
    ///   - type: The model type.
    ///   - data: The JSON text.
    ///   - options: How to read it.
    /// - Returns: The models decoded, in order, and the error that stopped decoding, if any.
    public static func modelsUntilError<M: JSONObjectModel>(_ type: M.Type, from data: Data,
                                                      options: DecodingOptions = .init()) -> (models: [M], error: JSONError?) {
        var partial: [M] = []
        do {
            let models = try data.withUnsafeBytes { bytes in
                try ArrayCodec(objectModelCodec(M.self)).decode(from: bytes, options: options,
                                                                 onFailure: { partial = $0.takeRootElements([M].self) })
            }
            return (models, nil)
        } catch {
            return (partial, error as? JSONError ?? JSONError(.invalidValue, "\(error)", underlying: error))
        }
    }

    // MARK: Any value

    /// Decodes any value through a transformer: `JSONAdapter.value(from: data, .json)` gives a
    /// ``JSONValue``; `.array(.integer)` an `[Int]`.
    /// - Parameters:
    ///   - data: The JSON text.
    ///   - transformer: How to read the top-level value.
    ///   - options: How to read it.
    public static func value<V>(from data: Data, _ transformer: Transformer<JSONValue, V>,
                                options: DecodingOptions = .init()) throws -> V {
        try data.withUnsafeBytes { try transformer.codec.decode(from: $0, options: options) }
    }

    /// Decodes any value through a transformer, from chunks.
    public static func value<V, Chunks: Sequence>(fromChunks chunks: Chunks, _ transformer: Transformer<JSONValue, V>,
                                                  options: DecodingOptions = .init()) throws -> V
    where Chunks.Element: ContiguousBytes {
        try transformer.codec.decode(fromChunks: chunks, options: options)
    }

    // MARK: Encoding

    /// Encodes a model as JSON, through its mapping and the reverse transformers.
    ///
    /// Dotted key paths rebuild nested objects (`user.login` writes `{"user":{"login":…}}`), a
    /// property fed by several key paths writes each of them, and properties whose transformer
    /// is one-way (no reverse) are left out: they are decode-only.
    /// - Parameters:
    ///   - model: The model.
    ///   - options: How to write it; default compact, mapping order, nil properties left out.
    /// - Returns: UTF-8 JSON.
    /// - Throws: ``JSONError`` with code ``JSONError/Code/notEncodable`` naming the property and
    ///   value a reverse transformer rejected; no partial output is returned.
    public static func json<M: JSONObjectModel>(from model: M, options: EncodingOptions = .init()) throws -> Data {
        var w = JSONWriter(options: options)
        try objectModelCodec(M.self).write(model, into: &w)
        return w.takeData()
    }

    /// Encodes models as a JSON array.
    /// - Parameters:
    ///   - models: The models, in order.
    ///   - options: How to write them.
    /// - Returns: UTF-8 JSON.
    /// - Throws: ``JSONError`` naming the property and value that could not be encoded.
    public static func json<M: JSONObjectModel>(from models: [M], options: EncodingOptions = .init()) throws -> Data {
        var w = JSONWriter(options: options, capacity: max(4096, models.count * 256))
        try ArrayCodec(objectModelCodec(M.self)).write(models, into: &w)
        return w.takeData()
    }

    /// Encodes any value through a transformer.
    /// - Parameters:
    ///   - value: The value.
    ///   - transformer: How to write it.
    ///   - options: How to write JSON.
    public static func json<V>(from value: V, _ transformer: Transformer<JSONValue, V>,
                               options: EncodingOptions = .init()) throws -> Data {
        var w = JSONWriter(options: options)
        try transformer.codec.write(value, into: &w)
        return w.takeData()
    }
}
