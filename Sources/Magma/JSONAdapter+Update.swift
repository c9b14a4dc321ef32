import Foundation

extension JSONAdapter {
    /// Updates a model from partial JSON: only the properties whose keys the object holds change;
    /// the others keep their values, `@Ignore`'d ones included (required properties are not
    /// required). A nested model present in the JSON is decoded anew, as a whole.
    ///
    /// ```swift
    /// try JSONAdapter.update(&issue, from: responseData)
    /// ```
    ///
    /// A `Map`-declared ``JSONModel`` is updated in place. A `@JSONModel` model's draft is
    /// updated and the model built anew from it, hooks included (a final class model: a new
    /// instance is stored in `model`). A tagged enum has no properties to keep: the JSON gives its
    /// value anew.
    /// - Parameters:
    ///   - model: The model; left unchanged on error, except a `Map`-declared class model, which
    ///     may be partly updated.
    ///   - input: A JSON object (see ``JSONInput``).
    ///   - options: How to read it.
    /// - Throws: ``JSONError``.
    public static func update<M: JSONObjectModel>(_ model: inout M, from input: some JSONInputConvertible,
                                                  options: DecodingOptions = .init()) throws {
        // The kind is picked once per call, as `objectModelCodec` picks a codec.
        if let mapped = M.self as? any JSONModel.Type {
            model = try updated(model, as: mapped, from: input.jsonInput, options: options)
        } else if let drafted = M.self as? any JSONDraftedModel.Type {
            model = try updated(model, as: drafted, from: input.jsonInput, options: options)
        } else {
            model = try input.jsonInput.decode(objectModelCodec(M.self), options: options)
        }
    }

    private static func updated<L: JSONModel, M>(_ model: M, as: L.Type, from input: JSONInput, options: DecodingOptions) throws -> M {
        try input.decode(UpdateCodec(model as! L), options: options) as! M
    }

    private static func updated<D: JSONDraftedModel, M>(_ model: M, as: D.Type, from input: JSONInput, options: DecodingOptions) throws -> M {
        let model = model as! D
        let draft = try input.decode(UpdateCodec(model.jsonDraft), options: options)
        return try D.model(fromDraft: draft, updating: model) as! M
    }
}
