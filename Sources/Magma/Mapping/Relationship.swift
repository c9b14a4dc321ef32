// Relationships between class models (Modelmatic): a parent's mapping line for its child models
// names the children's weak back-reference (`.inverse(\Comment.issue)`). Decoding sets every
// child's back-reference when the parent's object ends; the helpers (`add`, `set`, `remove`)
// change either side and keep the other consistent, by relationship name or key path.

// Rerooting a key path (a superclass's property as one of a subclass's) is the standard library's
// SPI for exactly this; Observation uses it for observable class hierarchies.
@_spi(ObservableRerootKeyPath) import Swift

/// Sets back-references after a decode, erased over the parent's type.
class RelationshipLink {
    /// The relationship's name: its property's name.
    let name: String
    /// The parent's property, for lookups by key path (a `ReferenceWritableKeyPath` whose root
    /// is the class that declared the relationship's line).
    let property: AnyKeyPath
    /// Whether a type (the declaring line's class, or a subclass) holds the property.
    let isHeld: (Any.Type) -> Bool

    init<Parent>(name: String, property: ReferenceWritableKeyPath<Parent, some Any>) {
        self.name = name
        self.property = property
        isHeld = { $0 is Parent.Type }
    }

    init(name: String, property: AnyKeyPath, isHeld: @escaping (Any.Type) -> Bool) {
        self.name = name
        self.property = property
        self.isHeld = isHeld
    }

    /// Whether `query`, a key path whose root is `Parent`, names this relationship's property.
    /// A key path's root type is part of its identity, and a non-final class's property has no
    /// offset or name to compare, so a superclass's line is found by its key path rerooted.
    func isProperty<Parent>(_ query: AnyKeyPath, of parent: Parent.Type) -> Bool {
        if query == property { return true }
        // Rerooted onto an unrelated class, a stored property's offset could match another's.
        guard isHeld(Parent.self) else { return false }
        return _rerootKeyPath(property, to: Parent.self) == query
    }

    /// Points the children of the parent at `storage` back at it.
    func link(_ storage: UnsafeMutableRawPointer) {}
}

/// A relationship of the parent model `Model`.
class Relationship<Model>: RelationshipLink {
    override func link(_ storage: UnsafeMutableRawPointer) { link(storage.assumingMemoryBound(to: Model.self).pointee) }
    func link(_ parent: Model) {}
    func add(_ child: Any, to parent: Model) throws {}
    func remove(_ child: Any, from parent: Model) throws {}
    func set(_ child: Any?, on parent: Model) throws {}
    func children(of parent: Model) -> [AnyObject] { [] }

    /// This relationship in a superclass's mapping (`Model` is a subclass of `Base`).
    func rebased<Base>(to base: Base.Type) -> Relationship<Base> { RebasedRelationship<Base, Model>(self) }

    func wrongChild(_ child: Any, _ expected: Any.Type) -> JSONError {
        JSONError(.invalidValue, "\(type(of: child)) cannot be in \(name): it holds \(expected)")
    }
}

/// `[Child]` children, each with a weak `Model?` back-reference.
final class ToManyRelationship<Model: AnyObject, Child: AnyObject>: Relationship<Model> {
    let children: ReferenceWritableKeyPath<Model, [Child]>
    let inverse: ReferenceWritableKeyPath<Child, Model?>

    init(name: String, children: ReferenceWritableKeyPath<Model, [Child]>, inverse: ReferenceWritableKeyPath<Child, Model?>) {
        self.children = children
        self.inverse = inverse
        super.init(name: name, property: children)
    }

    override func link(_ parent: Model) {
        for child in parent[keyPath: children] { child[keyPath: inverse] = parent }
    }
    override func add(_ child: Any, to parent: Model) throws {
        guard let child = child as? Child else { throw wrongChild(child, Child.self) }
        if let old = child[keyPath: inverse], old !== parent { old[keyPath: children].removeAll { $0 === child } }
        if !parent[keyPath: children].contains(where: { $0 === child }) { parent[keyPath: children].append(child) }
        child[keyPath: inverse] = parent
    }
    override func remove(_ child: Any, from parent: Model) throws {
        guard let child = child as? Child else { throw wrongChild(child, Child.self) }
        parent[keyPath: children].removeAll { $0 === child }
        if child[keyPath: inverse] === parent { child[keyPath: inverse] = nil }
    }
    override func set(_ child: Any?, on parent: Model) throws {
        throw JSONError(.invalidValue, "\(name) holds many models: add or remove them")
    }
    override func children(of parent: Model) -> [AnyObject] { parent[keyPath: children] }
}

/// A `Child?` child with a weak `Model?` back-reference.
final class ToOneRelationship<Model: AnyObject, Child: AnyObject>: Relationship<Model> {
    let child: ReferenceWritableKeyPath<Model, Child?>
    let inverse: ReferenceWritableKeyPath<Child, Model?>

    init(name: String, child: ReferenceWritableKeyPath<Model, Child?>, inverse: ReferenceWritableKeyPath<Child, Model?>) {
        self.child = child
        self.inverse = inverse
        super.init(name: name, property: child)
    }

    override func link(_ parent: Model) { parent[keyPath: child]?[keyPath: inverse] = parent }
    override func set(_ new: Any?, on parent: Model) throws {
        let new = try new.map { value -> Child in
            guard let c = value as? Child else { throw wrongChild(value, Child.self) }
            return c
        }
        if let old = parent[keyPath: child], old !== new, old[keyPath: inverse] === parent { old[keyPath: inverse] = nil }
        if let new {
            if let oldParent = new[keyPath: inverse], oldParent !== parent, oldParent[keyPath: child] === new {
                oldParent[keyPath: child] = nil
            }
            new[keyPath: inverse] = parent
        }
        parent[keyPath: child] = new
    }
    override func add(_ child: Any, to parent: Model) throws {
        throw JSONError(.invalidValue, "\(name) holds one model: set it")
    }
    override func remove(_ child: Any, from parent: Model) throws {
        guard let current = parent[keyPath: self.child], current === (child as AnyObject) else { return }
        try set(nil, on: parent)
    }
    override func children(of parent: Model) -> [AnyObject] { parent[keyPath: child].map { [$0] } ?? [] }
}

/// A subclass's relationship in its base class's mapping: casts the parent back down.
final class RebasedRelationship<Base, Sub>: Relationship<Base> {
    let base: Relationship<Sub>
    init(_ base: Relationship<Sub>) {
        self.base = base
        super.init(name: base.name, property: base.property, isHeld: base.isHeld)
    }
    /// Decoding's link, per model, without a dynamic cast: a plan holding this relationship is
    /// only used for a `Sub` or a subclass of it (`JSONMapping.plan(for:)`), and a class
    /// reference is the same pointer whatever its static type, so the storage reads as a `Sub`.
    override func link(_ storage: UnsafeMutableRawPointer) { base.link(storage) }
    override func add(_ child: Any, to parent: Base) throws { try base.add(child, to: parent as! Sub) }
    override func remove(_ child: Any, from parent: Base) throws { try base.remove(child, from: parent as! Sub) }
    override func set(_ child: Any?, on parent: Base) throws { try base.set(child, on: parent as! Sub) }
    override func children(of parent: Base) -> [AnyObject] { base.children(of: parent as! Sub) }
}

extension Map where Model: AnyObject {
    /// Declares the line's child models (a `[Child]` or `Child?` property of a class model) as a
    /// relationship whose children point back at the parent through `backReference`, a `weak var`
    /// of the child: decoding sets it, and the relationship helpers (`add(_:to:)`,
    /// `set(_:for:)`, `remove(_:from:)`) keep both sides
    /// consistent. The back-reference is not mapped, so encoding never loops. The relationship
    /// is named as the line is, by its property or by ``Map/named(_:)`` before or after this call.
    ///
    /// ```swift
    /// Map(\.comments, "comments").inverse(\Comment.issue)
    /// ```
    /// - Parameter backReference: The child's reference to its parent.
    /// - Returns: The line with the relationship; a line of another type fails when the mapping
    ///   is built.
    public func inverse<Child: AnyObject>(_ backReference: ReferenceWritableKeyPath<Child, Model?>) -> Map {
        var map = self
        if let many = property as? ReferenceWritableKeyPath<Model, [Child]> {
            map.makeRelationship = { ToManyRelationship(name: $0, children: many, inverse: backReference) }
        } else if let one = property as? ReferenceWritableKeyPath<Model, Child?> {
            map.makeRelationship = { ToOneRelationship(name: $0, child: one, inverse: backReference) }
        } else {
            map.problem = .invalidMapping("\(propertyName) is not a [\(Child.self)] or \(Child.self)? property, "
                + "so it cannot have the inverse \(backReference)")
        }
        return map
    }
}

extension JSONModel where Self: AnyObject {
    /// Adds `child` to the to-many relationship `name`, setting its back-reference (and taking it
    /// out of its previous parent's).
    /// - Parameters:
    ///   - child: The related model.
    ///   - name: The relationship's name: its property's name.
    /// - Throws: ``JSONError/Code/unknownRelationship`` for a name no relationship has;
    ///   ``JSONError/Code/invalidValue`` for a child of the wrong type or a to-one relationship;
    ///   ``JSONError/Code/invalidMapping`` if the model's mapping does not build.
    public func add(_ child: AnyObject, to name: String) throws { try relationship(named: name).add(child, to: rootSelf) }

    /// Adds `child` to the to-many relationship held by `property`.
    public func add<Child: AnyObject>(_ child: Child, to property: KeyPath<Self, [Child]>) throws {
        try relationship(for: property).add(child, to: rootSelf)
    }

    /// Sets the to-one relationship `name` to `child` (nil clears it), keeping the back-references
    /// of the old and the new child consistent.
    /// - Parameters:
    ///   - child: The related model, or nil.
    ///   - name: The relationship's name.
    /// - Throws: As `add(_:to:)` by name.
    public func set(_ child: AnyObject?, for name: String) throws { try relationship(named: name).set(child, on: rootSelf) }

    /// Sets the to-one relationship held by `property`.
    public func set<Child: AnyObject>(_ child: Child?, for property: KeyPath<Self, Child?>) throws {
        try relationship(for: property).set(child, on: rootSelf)
    }

    /// Removes `child` from the relationship `name`, clearing its back-reference.
    /// - Parameters:
    ///   - child: The related model.
    ///   - name: The relationship's name.
    /// - Throws: As `add(_:to:)` by name.
    public func remove(_ child: AnyObject, from name: String) throws { try relationship(named: name).remove(child, from: rootSelf) }

    /// The models related through `name`.
    /// - Parameter name: The relationship's name.
    /// - Returns: Its children (none, one or many).
    /// - Throws: ``JSONError/Code/unknownRelationship``; ``JSONError/Code/invalidMapping`` if the
    ///   model's mapping does not build.
    public func related(_ name: String) throws -> [AnyObject] { try relationship(named: name).children(of: rootSelf) }

    /// The names of the model's relationships.
    public static var relationshipNames: [String] { cachedMapping.maps.compactMap { $0.relationship?.name } }

    private var rootSelf: MappingRoot { self as! MappingRoot }

    private func relationship(named name: String) throws -> Relationship<MappingRoot> {
        let relationships = try type(of: self).cachedMapping.plan().relationships
        if let found = relationships.first(where: { $0.name == name }) { return typed(found) }
        throw JSONError(.unknownRelationship, "\(type(of: self)) has no relationship \"\(name)\" "
            + "(relationships: \(relationships.map(\.name).joined(separator: ", ")))")
    }

    private func relationship(for property: AnyKeyPath) throws -> Relationship<MappingRoot> {
        let relationships = try type(of: self).cachedMapping.plan().relationships
        if let found = relationships.first(where: { $0.isProperty(property, of: Self.self) }) { return typed(found) }
        throw JSONError(.unknownRelationship, "\(property) is not a relationship of \(type(of: self)) "
            + "(relationships: \(relationships.map(\.name).joined(separator: ", ")))")
    }

    /// A relationship of the plan of a `JSONMapping<MappingRoot>`: one of its lines'.
    private func typed(_ link: RelationshipLink) -> Relationship<MappingRoot> {
        unsafeDowncast(link, to: Relationship<MappingRoot>.self)
    }
}
