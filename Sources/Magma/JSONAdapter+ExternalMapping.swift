import Foundation

extension JSONAdapter {
    /// Decodes one model through a mapping given at run time (one loaded from a file) instead of
    /// its own; nested models use their own.
    ///
    /// ```swift
    /// let mapping = try JSONMapping(declared: Item.jsonMapping, contentsOf: mappingURL)
    /// let item = try JSONAdapter.model(Item.self, from: data, mapping: mapping)
    /// ```
    /// - Parameters:
    ///   - type: The model type.
    ///   - input: The JSON (see ``JSONInput``).
    ///   - mapping: The mapping to use.
    ///   - options: How to read it.
    /// - Returns: The model.
    /// - Throws: ``JSONError``.
    public static func model<M: JSONModel>(_ type: M.Type, from input: some JSONInputConvertible, mapping: JSONMapping<M.MappingRoot>,
                                           options: DecodingOptions = .init()) throws -> M {
        try input.jsonInput.decode(ModelCodec<M>(mapping: mapping), options: options)
    }

    /// Decodes a top-level array of models through a mapping given at run time (one loaded from a
    /// file) instead of their own; nested models use their own.
    ///
    /// ```swift
    /// let items = try JSONAdapter.models(Item.self, from: .file("items.json"), mapping: mapping)
    /// ```
    /// - Parameters:
    ///   - type: The model type.
    ///   - input: The JSON: an array of objects (see ``JSONInput``).
    ///   - mapping: The mapping to use.
    ///   - options: How to read it.
    /// - Returns: The models, in order.
    /// - Throws: ``JSONError``, with the path of the element that failed (`$[12].title`).
    public static func models<M: JSONModel>(_ type: M.Type, from input: some JSONInputConvertible, mapping: JSONMapping<M.MappingRoot>,
                                            options: DecodingOptions = .init()) throws -> [M] {
        try input.jsonInput.decode(ArrayCodec(ModelCodec<M>(mapping: mapping)), options: options)
    }

    /// Encodes a model through a mapping given at run time.
    /// - Parameters:
    ///   - model: The model.
    ///   - mapping: The mapping to use.
    ///   - options: How to write it.
    /// - Returns: UTF-8 JSON.
    /// - Throws: ``JSONError``.
    public static func json<M: JSONModel>(from model: M, mapping: JSONMapping<M.MappingRoot>,
                                          options: EncodingOptions = .init()) throws -> Data {
        var w = JSONWriter(options: options)
        try ModelCodec<M>(mapping: mapping).write(model, into: &w)
        return w.takeData()
    }

    /// Encodes models as a JSON array through a mapping given at run time (one loaded from a
    /// file) instead of their own; nested models use their own.
    /// - Parameters:
    ///   - models: The models, in order.
    ///   - mapping: The mapping to use.
    ///   - options: How to write them.
    /// - Returns: UTF-8 JSON.
    /// - Throws: ``JSONError`` naming the property and value that could not be encoded.
    public static func json<M: JSONModel>(from models: [M], mapping: JSONMapping<M.MappingRoot>,
                                          options: EncodingOptions = .init()) throws -> Data {
        var w = JSONWriter(options: options, capacity: max(4096, models.count * 256))
        try ArrayCodec(ModelCodec<M>(mapping: mapping)).write(models, into: &w)
        return w.takeData()
    }
}
