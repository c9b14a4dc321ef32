/// A model that chooses, per value, which of its mapped properties are written (Mantle's
/// `serializablePropertyKeys:forModel:`), beside the static mapping: a draft leaves out its
/// review fields, an anonymous post its author.
///
/// ```swift
/// struct Post: JSONModel, SelectiveEncoding {
///     var title = ""
///     var author: String?
///     var anonymous = false
///     static let jsonMapping = JSONMapping<Post> { Map(\.title, "title"); Map(\.author, "author"); Map(\.anonymous, "anonymous") }
///     func encodes(_ property: AnyKeyPath) -> Bool { !(anonymous && property == \Post.author) }
/// }
/// ```
///
/// Models that do not conform pay nothing. Decoding is not affected.
public protocol SelectiveEncoding: JSONModel {
    /// Whether this model writes the mapped property `property` (its key path as the mapping
    /// names it: `\Post.author`; in a class hierarchy, lines inherited by a subclass are keyed
    /// by key paths rooted at that subclass). Called once per mapped property per encode.
    /// - Parameter property: The property's key path.
    /// - Returns: `false` to leave it out of this value's JSON.
    func encodes(_ property: AnyKeyPath) -> Bool
}

/// The plan's filter for a `SelectiveEncoding` model: asks the model at the pointer.
enum SelectiveEncodingFilter {
    static func make<Model: SelectiveEncoding>(_: Model.Type) -> (UnsafeRawPointer, AnyKeyPath) -> Bool {
        { model, property in model.assumingMemoryBound(to: Model.self).pointee.encodes(property) }
    }
}
