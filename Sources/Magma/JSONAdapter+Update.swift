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
    ///   - input: A JSON object (see ``JSONInput``).
    ///   - options: How to read it.
    /// - Throws: ``JSONError``.
    public static func update<M: JSONModel>(_ model: inout M, from input: some JSONInputConvertible,
                                            options: DecodingOptions = .init()) throws {
        model = try input.jsonInput.decode(UpdateCodec(model), options: options)
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
    ///   - input: A JSON object (see ``JSONInput``).
    ///   - options: How to read it.
    /// - Throws: ``JSONError``.
    public static func update<M: JSONDraftedModel>(_ model: inout M, from input: some JSONInputConvertible,
                                                   options: DecodingOptions = .init()) throws {
        let draft = try input.jsonInput.decode(UpdateCodec(model.jsonDraft), options: options)
        model = try M.model(fromDraft: draft, updating: model)
    }
}
