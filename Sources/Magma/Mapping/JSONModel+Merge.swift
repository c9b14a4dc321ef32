import Foundation

// Merging models, and updating a model from partial JSON (Mantle's -mergeValuesForKeysFromModel:
// and the seed's "update a GHIssue with new data from the server").

extension JSONModel {
    /// Sets every mapped property from `other`, through the property's merge hook where its
    /// line has one (``Map/merging(_:)``; Mantle's `merge<Key>FromModel:`). Unmapped properties
    /// are left alone.
    ///
    /// ```swift
    /// Map(\.commentCount, "comments").merging { (mine: Int, theirs: Int) in mine + theirs }
    /// ```
    ///
    /// Class models of a hierarchy merge the properties both have, as Mantle's
    /// `mergeValuesForKeysFromModel:` does: a subclass model into its superclass's (the
    /// superclass's properties) and back, through the mapping of the less derived of the two.
    /// - Parameter other: A model of the same type; for classes, of the same class, a superclass
    ///   or a subclass (or a class whose mapping is one of those: a subclass without its own).
    /// - Throws: ``JSONError/Code/invalidMapping`` if the mapping is illegal;
    ///   ``JSONError/Code/invalidValue`` if `other` is a class model neither mapping covers.
    public mutating func merge(from other: Self) throws {
        let mine = type(of: self), theirs = Swift.type(of: other)
        var mapping = mine.cachedMapping
        if Self.self is AnyObject.Type, ObjectIdentifier(mine) != ObjectIdentifier(theirs) {
            let theirMapping = theirs.cachedMapping
            if theirMapping.accepts(mine) {
                mapping = theirMapping        // `other` is of a superclass: its properties
            } else if !mapping.accepts(theirs) {
                throw JSONError(.invalidValue, "cannot merge a \(theirs) into a \(mine): neither is a subclass of the other's mapped class")
            }
        }
        _ = try mapping.plan(for: mine)
        _ = try mapping.plan(for: theirs)
        withUnsafeMutablePointer(to: &self) { mine in
            withUnsafePointer(to: other) { theirs in
                // The lines are written for MappingRoot: Self itself, or a superclass of it (the
                // same reference, whatever its static type).
                let root = UnsafeMutableRawPointer(mine).assumingMemoryBound(to: MappingRoot.self)
                let source = UnsafeRawPointer(theirs).assumingMemoryBound(to: MappingRoot.self)
                for map in mapping.maps { map.merge(&root.pointee, source.pointee) }
            }
        }
    }

    /// A copy of this model with `other` merged into it (see ``merge(from:)``); for a class model,
    /// this model itself, changed.
    /// - Parameter other: A model of the same type.
    /// - Returns: The merged model.
    /// - Throws: As ``merge(from:)``.
    public func merging(_ other: Self) throws -> Self {
        var copy = self
        try copy.merge(from: other)
        return copy
    }
}

extension JSONDraftedModel {
    /// What ``model(fromDraft:updating:)`` is for a model without unmapped `var` properties.
    public static func model(fromDraft draft: consuming Draft, updating old: Self) throws -> Self {
        try model(fromDraft: draft)
    }

    /// Sets every mapped property from `other`, through the property's `@Merge` hook where it has
    /// one; `@Ignore`'d properties keep this model's values.
    /// The model is built anew from the merged values, so its hooks run (a final class model:
    /// a new instance).
    /// - Parameter other: A model of the same type.
    /// - Throws: What the model's hooks throw, as decoding reports it.
    public mutating func merge(from other: Self) throws {
        var draft = jsonDraft
        try draft.merge(from: other.jsonDraft)
        self = try Self.model(fromDraft: draft, updating: self)
    }

    /// A copy of this model with `other` merged into it (see ``merge(from:)``).
    /// - Parameter other: A model of the same type.
    /// - Returns: The merged model.
    /// - Throws: As ``merge(from:)``.
    public func merging(_ other: Self) throws -> Self {
        var copy = self
        try copy.merge(from: other)
        return copy
    }
}

/// Reads the top-level object into an existing model.
final class UpdateCodec<Model: JSONModel>: Codec<Model>, @unchecked Sendable {
    private let owner: UpdateOwner<Model>
    init(_ model: Model) { owner = UpdateOwner(model) }
    override var objectOwner: ContainerOwner? { owner }
}

/// Starts the model frame with the existing model instead of a new one, its required
/// properties counted as seen.
final class UpdateOwner<Model: JSONModel>: ContainerOwner {
    private var seed: Model?
    private let model: ModelOwner<Model>

    init(_ seed: Model) {
        self.seed = seed
        model = ModelOwner(mapping: type(of: seed).cachedMapping, planType: type(of: seed))
    }

    override func start(_ starter: ValueTarget, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        guard let seed = seed.take() else { return try model.start(starter, context, &b) }
        try model.begin(seed, starter, context, &b)
        b.frames[b.depth - 1].seenRequired = .all
    }
}
