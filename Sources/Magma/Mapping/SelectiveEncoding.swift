/// A model that chooses, per value, which of its mapped properties are written (Mantle's
/// `serializablePropertyKeys:forModel:`), beside the static mapping: a draft leaves out its
/// review fields, an anonymous post its author.
///
/// ```swift
/// @JSONModel
/// struct Post: SelectiveEncoding {
///     let title: String
///     let author: String?
///     var anonymous = false
///     func encodes(_ property: AnyKeyPath) -> Bool { !(anonymous && property == \Post.author) }
/// }
/// ```
///
/// A `@JSONModel` model names `SelectiveEncoding` in its declaration (the macro then writes
/// ``jsonDraftKeyPaths``); a `Map` model (``JSONModel``) anywhere. Models that do not conform pay
/// nothing. Decoding is not affected.
public protocol SelectiveEncoding: JSONObjectModel {
    /// Whether this model writes the mapped property `property` (its key path rooted at the
    /// model: `\Post.author`; in a class hierarchy, lines inherited by a subclass are keyed by key
    /// paths rooted at that subclass). Called once per mapped property per encode.
    /// - Parameter property: The property's key path.
    /// - Returns: `false` to leave it out of this value's JSON.
    func encodes(_ property: AnyKeyPath) -> Bool

    /// For a `@JSONModel` model, the model's key path of each draft property (the draft is what
    /// is written; ``encodes(_:)`` is asked with the model's key path), read once per codec.
    /// Written by the macro; empty (the default) for a `Map` model.
    static var jsonDraftKeyPaths: [AnyKeyPath: AnyKeyPath] { get }
}

extension SelectiveEncoding {
    public static var jsonDraftKeyPaths: [AnyKeyPath: AnyKeyPath] { [:] }
}

/// The plan's filter for a `SelectiveEncoding` model: asks the model at the pointer.
enum SelectiveEncodingFilter {
    static func make<Model: SelectiveEncoding>(_: Model.Type) -> (UnsafeRawPointer, AnyKeyPath) -> Bool {
        { model, property in model.assumingMemoryBound(to: Model.self).pointee.encodes(property) }
    }

    /// Sends a `@JSONModel` model's draft to `out`, asking the model which properties it writes.
    /// - Parameters:
    ///   - paths: The model's ``SelectiveEncoding/jsonDraftKeyPaths``.
    ///   - discriminator: A cluster's key and the model's case, written first.
    static func write<Model: JSONDraftedModel & SelectiveEncoding, Output: ModelOutput>(
        _ value: Model, paths: [AnyKeyPath: AnyKeyPath], discriminator: (key: String, value: String)?, into out: inout Output
    ) throws {
        if paths.isEmpty {
            throw JSONError.invalidMapping("\(Model.self) conforms to SelectiveEncoding outside its @JSONModel declaration; "
                + "name SelectiveEncoding in the declaration so that the macro maps its draft's properties to the model's")
        }
        let plan = try Model.Draft.cachedMapping.plan(for: Model.Draft.self)
        let draft = value.jsonDraft
        try withUnsafePointer(to: draft) { draft in
            try out.model(UnsafeRawPointer(draft), plan: plan, discriminator: discriminator, choosing: { _, property in
                paths[property].map { value.encodes($0) } ?? true
            })
        }
    }
}
