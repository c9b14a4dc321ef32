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
/// Every method reads the JSON in one pass, straight into the models; nothing in between. The
/// JSON may be bytes, a string, a file, a handle or chunks: see ``JSONInput``. Errors are ``JSONError``s with the JSON path, the model property, and the byte
/// offset, line and column of the failure.
public enum JSONAdapter {
    /// Compiles the mapping of `type` and of every model a decode of it can reach (nested, in
    /// arrays and dictionaries, at key paths, cluster cases) now, on this thread. Otherwise each
    /// is compiled when its first object is read: a service that wants its first request, or a
    /// benchmark that times from the first byte, calls this at start-up. The parallel entry
    /// points call it themselves. A mapping that is illegal is left for the decode to report.
    ///
    /// ```swift
    /// JSONAdapter.prepare(GHIssue.self)   // at start-up: GHIssue, its user, labels, milestone
    /// ```
    /// - Parameter type: The model whose mappings to compile.
    public static func prepare<M: JSONObjectModel>(_ type: M.Type) {
        prepareGraph(of: M.self)
    }

    // MARK: One model

    /// Decodes one model from a JSON object.
    ///
    /// ```swift
    /// let issue = try JSONAdapter.model(GHIssue.self, from: data)
    /// let config = try JSONAdapter.model(Config.self, from: .file("config.json"))
    ///
    /// let report = DecodingReport()
    /// let order = try JSONAdapter.model(Order.self, from: data, report: report)
    /// for entry in report.dropped { print("dropped \(entry.path): \(entry.error.message)") }
    /// ```
    /// - Parameters:
    ///   - type: The model type.
    ///   - input: The JSON: `Data`, bytes, a `String`, a file, a handle, or chunks (see ``JSONInput``).
    ///   - options: How to read it; the defaults suit most input.
    ///   - report: Where to note what the read left out on purpose: properties that kept their
    ///     default instead of an invalid value, elements lossy collections dropped (see
    ///     ``DecodingReport``; entries are added after those it holds). Nil for nowhere, at no cost.
    /// - Returns: The model.
    /// - Throws: ``JSONError``; code ``JSONError/Code/io`` if a file cannot be read. The entries
    ///   noted before the error stay in `report`.
    public static func model<M: JSONObjectModel>(_ type: M.Type, from input: some JSONInputConvertible,
                                                 options: DecodingOptions = .init(), report: DecodingReport? = nil) throws -> M {
        try input.jsonInput.decode(objectModelCodec(M.self), options: options, report: report)
    }

    // MARK: A top-level array of models

    /// Decodes a top-level JSON array of objects into models.
    ///
    /// ```swift
    /// let issues = try JSONAdapter.models(GHIssue.self, from: data)
    /// ```
    /// - Parameters:
    ///   - type: The model type.
    ///   - input: The JSON (see ``JSONInput``).
    ///   - options: How to read it.
    ///   - report: Where to note what the read left out on purpose (see ``DecodingReport``); nil
    ///     for nowhere.
    /// - Returns: The models, in order.
    /// - Throws: ``JSONError``; its path starts with the failing element's index (`$[12]...`).
    public static func models<M: JSONObjectModel>(_ type: M.Type, from input: some JSONInputConvertible,
                                                  options: DecodingOptions = .init(), report: DecodingReport? = nil) throws -> [M] {
        try input.jsonInput.decode(ArrayCodec(objectModelCodec(M.self)), options: options, report: report)
    }

    /// Decodes a top-level JSON array of objects into models, keeping every model decoded before
    /// an error: the models before the failing element, and the error (nil if none).
    ///
    /// ```swift
    /// let (issues, error) = JSONAdapter.modelsUntilError(GHIssue.self, from: data)
    /// ```
    /// - Parameters:
    ///   - type: The model type.
    ///   - input: The JSON (see ``JSONInput``).
    ///   - options: How to read it.
    /// - Returns: The models decoded, in order, and the error that stopped decoding, if any.
    public static func modelsUntilError<M: JSONObjectModel>(_ type: M.Type, from input: some JSONInputConvertible,
                                                            options: DecodingOptions = .init()) -> (models: [M], error: JSONError?) {
        var partial: [M] = []
        do {
            let models = try input.jsonInput.decode(ArrayCodec(objectModelCodec(M.self)), options: options,
                                                    onFailure: { partial = $0.takeRootElements([M].self) })
            return (models, nil)
        } catch {
            return (partial, error as? JSONError ?? JSONError(.invalidValue, "\(error)", underlying: error))
        }
    }

    // MARK: Any value

    /// Decodes any value through a transformer: `.json` gives a ``JSONValue``, `.array(.double)`
    /// a `[Double]`, `.dictionary(.model(GHUser.self))` the models of an object's members, by key.
    ///
    /// ```swift
    /// let tree = try JSONAdapter.value(from: data, .json)
    /// let usersByKey = try JSONAdapter.value(from: data, .dictionary(.model(GHUser.self)))
    /// ```
    /// - Parameters:
    ///   - input: The JSON (see ``JSONInput``).
    ///   - transformer: How to read the top-level value.
    ///   - options: How to read it.
    ///   - report: Where to note what the read left out on purpose (see ``DecodingReport``); nil
    ///     for nowhere.
    public static func value<V>(from input: some JSONInputConvertible, _ transformer: Transformer<JSONValue, V>,
                                options: DecodingOptions = .init(), report: DecodingReport? = nil) throws -> V {
        try input.jsonInput.decode(transformer.codec, options: options, report: report)
    }

    // MARK: Encoding

    /// Encodes a model as JSON, through its mapping and the reverse transformers.
    ///
    /// Dotted key paths rebuild nested objects (`user.login` writes `{"user":{"login":…}}`), a
    /// property fed by several key paths writes each of them, and properties whose transformer
    /// is one-way (no reverse) are left out: they are decode-only.
    ///
    /// ```swift
    /// let data = try JSONAdapter.json(from: issue)
    /// var options = EncodingOptions()
    /// options.prettyPrinted = true
    /// let pretty = try JSONAdapter.json(from: issue, options: options)
    /// ```
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
    ///
    /// ```swift
    /// let data = try JSONAdapter.json(from: issues)   // [{…},{…}]
    /// ```
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

    /// Encodes any value through a transformer: a dictionary of models, an array of scalars, a
    /// tagged enum, a `JSONValue`.
    ///
    /// ```swift
    /// let data = try JSONAdapter.json(from: ["a": issue], .dictionary(.model(GHIssue.self)))
    /// ```
    /// - Parameters:
    ///   - value: The value.
    ///   - transformer: How to write it.
    ///   - options: How to write JSON.
    /// - Returns: UTF-8 JSON.
    /// - Throws: ``JSONError`` naming the value that could not be encoded.
    public static func json<V>(from value: V, _ transformer: Transformer<JSONValue, V>,
                               options: EncodingOptions = .init()) throws -> Data {
        var w = JSONWriter(options: options)
        try transformer.codec.write(value, into: &w)
        return w.takeData()
    }
}
