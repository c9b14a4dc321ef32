// Class hierarchies. A non-final class model declares `class var jsonMapping: JSONMapping<Base>`
// (Swift lets no non-final class name `Self` in a generic argument), and each subclass overrides
// it with a mapping of its own lines plus its superclass's. The lines of a subclass `Sub` are
// rebased onto `Base`: their targets, writers and transformers never mention the model type (they
// read and write through key paths on the class reference, which is the same pointer whatever
// its static type), so only the merge and remake closures need a cast back to `Sub`.

// Rerooting a superclass's key path onto a subclass is the standard library's SPI for exactly
// this; Observation uses it for observable class hierarchies.
@_spi(ObservableRerootKeyPath) import Swift

extension JSONMapping {
    /// A subclass's mapping: the superclass's lines and the subclass's own. A subclass line for
    /// a property the superclass maps (the same property, declared in either class) replaces
    /// the inherited one.
    ///
    /// ```swift
    /// class Shape: JSONModel {
    ///     var id = 0
    ///     required init() {}
    ///     class var jsonMapping: JSONMapping<Shape> { shapeMapping }
    ///     static let shapeMapping = JSONMapping<Shape> { Map(\.id, "id") }
    /// }
    /// class Circle: Shape {
    ///     var radius = 0.0
    ///     override class var jsonMapping: JSONMapping<Shape> { circleMapping }
    ///     static let circleMapping = JSONMapping<Shape>(Circle.self, inheriting: shapeMapping) {
    ///         Map(\.radius, "radius")
    ///     }
    /// }
    /// ```
    /// - Parameters:
    ///   - subclass: The subclass the lines are for; it must be a subclass of `Model`, and of the
    ///     class `superclass` was written for (else the mapping fails to build with
    ///     ``JSONError/Code/invalidMapping``).
    ///   - superclass: The superclass's mapping.
    ///   - keyNaming: How the subclass's lines without key paths name their keys.
    ///   - content: The subclass's own lines.
    public convenience init<Sub: JSONModel>(_ subclass: Sub.Type, inheriting superclass: JSONMapping<Model>,
                                            keyNaming: KeyNaming = .propertyName,
                                            @MappingBuilder<Sub> _ content: () -> [Map<Sub>]) {
        let own = JSONMapping<Sub>.resolve(content(), keyNaming)
        guard Sub.self is Model.Type, Sub.self is AnyObject.Type else {
            self.init(maps: [], linesType: Sub.self, problem: .invalidMapping("\(Sub.self) is not a subclass of \(Model.self)"))
            return
        }
        // Rerooting onto Sub is only sound for key paths of Sub's superclasses.
        guard superclass.accepts(Sub.self) else {
            self.init(maps: [], linesType: Sub.self,
                      problem: .invalidMapping("\(Sub.self) is not a subclass of \(superclass.linesType), whose lines it inherits"))
            return
        }
        // A key path's root is part of its identity (`\Vehicle.name != \Car.name`), and a
        // non-final class's property has no name to match: the inherited lines are rerooted onto
        // Sub, so that Sub's own line for a property replaces them and the plan's mapped-twice
        // check sees the rest.
        let inherited = superclass.maps.map { $0.rerooted(onto: Sub.self) }
        let overridden = Set(own.map(\.property))
        self.init(maps: inherited.filter { !overridden.contains($0.property) } + own.map { $0.rebased(to: Model.self) },
                  linesType: Sub.self)
    }
}

extension Map {
    /// This line with its property's key path rerooted onto `subclass` (a subclass of every
    /// class the line's key path may start at: checked by the caller).
    func rerooted<Sub>(onto subclass: Sub.Type) -> Map {
        var map = self
        map.property = _rerootKeyPath(property, to: Sub.self)
        return map
    }

    /// This line as one of `Base`'s mapping, `Model` being a subclass of `Base` (checked by the
    /// caller).
    func rebased<Base>(to base: Base.Type) -> Map<Base> {
        let merge = self.merge
        let remake = self.remake
        let source: Map<Base>.Source
        switch self.source {
        case .single(let key, let target): source = .single(key, target)
        case .multiple(let keys, let binding): source = .multiple(keys, binding)
        }
        var map = Map<Base>(
            property: property, propertyName: propertyName, bareName: bareName, source: source, required: required,
            writer: writer, problem: problem, derivesKey: derivesKey,
            merge: { mine, theirs in
                var sub = mine as! Model
                merge(&sub, theirs as! Model)
                mine = sub as! Base
            },
            remake: remake.map { remake in { remake($0, $1, $2, $3).rebased(to: Base.self) } },
            makeRelationship: makeRelationship.map { make in { make($0).rebased(to: Base.self) } })
        map.encodeKey = encodeKey
        map.origin = origin
        return map
    }

    init(property: AnyKeyPath, propertyName: String, bareName: String?, source: Source, required: Bool,
         writer: ((String) -> PropertyWriter)?, problem: JSONError?, derivesKey: Bool, merge: @escaping (inout Model, Model) -> Void,
         remake: ((String, String?, TransformerRegistry, Bool) -> Map<Model>)?,
         makeRelationship: ((String) -> Relationship<Model>)?) {
        self.property = property
        names = Names(keyPath: property, jsonKeyPath: "", property: propertyName, bare: .some(bareName))
        self.source = source
        self.required = required
        self.writer = writer
        self.problem = problem
        self.derivesKey = derivesKey
        self.merge = merge
        self.remake = remake
        self.makeRelationship = makeRelationship
    }
}
