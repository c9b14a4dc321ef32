import Foundation

extension JSONAdapter {
    /// Updates a model from partial JSON: only the properties whose keys the object holds change;
    /// the others keep their values (required properties are not required). A nested model
    /// present in the JSON is decoded anew, as a whole.
    ///
    /// ```swift
    /// try JSONAdapter.update(&issue, from: responseData)
    /// ```
    /// - Parameters:
    ///   - model: The model; a struct is left unchanged on error, a class model may be partly
    ///     updated.
    ///   - data: A JSON object.
    ///   - options: How to read it.
    /// - Throws: ``JSONError``.
    public static func update<M: JSONModel>(_ model: inout M, from data: Data, options: DecodingOptions = .init()) throws {
        let codec = UpdateCodec(model)
        model = try data.withUnsafeBytes { try codec.decode(from: $0, options: options) }
    }

    /// Updates a model from a partial JSON string; see the `Data` form.
    public static func update<M: JSONModel>(_ model: inout M, from string: String, options: DecodingOptions = .init()) throws {
        try update(&model, from: Data(string.utf8), options: options)
    }

    /// Updates a model from partial JSON arriving in chunks.
    public static func update<M: JSONModel, Chunks: Sequence>(_ model: inout M, fromChunks chunks: Chunks,
                                                              options: DecodingOptions = .init()) throws
    where Chunks.Element: ContiguousBytes {
        model = try UpdateCodec(model).decode(fromChunks: chunks, options: options)
    }
}

extension JSONAdapter {
    /// Updates a `@JSONModel` model from partial JSON: only the properties whose keys the object
    /// holds change; the others keep their values, `@Ignore`'d ones included (required
    /// properties are not required). A nested model present in the JSON is decoded anew, as a
    /// whole. The model's draft is updated, and the model built anew from it, hooks included
    /// (a final class model: a new instance is stored in `model`).
    ///
    /// ```swift
    /// try JSONAdapter.update(&issue, from: responseData)
    /// ```
    /// - Parameters:
    ///   - model: The model, left unchanged on error.
    ///   - data: A JSON object.
    ///   - options: How to read it.
    /// - Throws: ``JSONError``.
    public static func update<M: JSONDraftedModel>(_ model: inout M, from data: Data, options: DecodingOptions = .init()) throws {
        let codec = UpdateCodec(model.jsonDraft)
        let draft = try data.withUnsafeBytes { try codec.decode(from: $0, options: options) }
        model = try M.model(fromDraft: draft, updating: model)
    }

    /// Updates a `@JSONModel` model from a partial JSON string; see the `Data` form.
    public static func update<M: JSONDraftedModel>(_ model: inout M, from string: String, options: DecodingOptions = .init()) throws {
        try update(&model, from: Data(string.utf8), options: options)
    }

    /// Updates a `@JSONModel` model from partial JSON arriving in chunks.
    public static func update<M: JSONDraftedModel, Chunks: Sequence>(_ model: inout M, fromChunks chunks: Chunks,
                                                                     options: DecodingOptions = .init()) throws
    where Chunks.Element: ContiguousBytes {
        let draft = try UpdateCodec(model.jsonDraft).decode(fromChunks: chunks, options: options)
        model = try M.model(fromDraft: draft, updating: model)
    }
}
