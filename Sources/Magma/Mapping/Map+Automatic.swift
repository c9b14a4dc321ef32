// Lines written without a key path: the key is the property's own name, converted by the
// mapping's KeyNaming when the mapping is made (`Map(\.createdAt)` in a `.snakeCase` mapping reads
// "created_at"). The name comes from the key path's description, which Swift gives for stored
// properties of structs and final classes; a non-final class property has none, so it is named
// with `.named(_:)`, or the mapping fails to build with a message saying so.

extension Map {
    /// Maps a property through its type's implicit transformer, from the key its name gives
    /// (see ``KeyNaming``).
    /// - Parameters:
    ///   - property: The model property; a stored property (or use ``named(_:)``).
    ///   - required: Whether a missing key is an error.
    public init<V: JSONRepresentable>(_ property: WritableKeyPath<Model, V>, required: Bool = false) where V.JSONForm == V {
        self.init(property, "", V.jsonTransformer, required: required)
        derivesKey = true
    }

    /// A property whose type has no JSON form Magma knows, from the key its name gives: chosen
    /// only when no other line fits, so the compiler's one error says what to do.
    @available(*, unavailable, message: "the property's type is not a JSON model: mark it @JSONModel or make it a JSONModel (an enum: give it a String or Int raw value), or give the property a transformer")
    @_disfavoredOverload
    public init<V>(_ property: WritableKeyPath<Model, V>, required: Bool = false) {
        fatalError("unavailable")
    }

    /// Maps a property through a transformer, from the key its name gives.
    /// - Parameters:
    ///   - property: The model property.
    ///   - transformer: Converts between the JSON value and the property's type.
    ///   - required: Whether a missing key is an error.
    public init<V>(_ property: WritableKeyPath<Model, V>, _ transformer: Transformer<JSONValue, V>, required: Bool = false) {
        self.init(property, "", transformer, required: required)
        derivesKey = true
    }

    /// Maps an optional property through a transformer of the wrapped type, from the key its name gives.
    public init<V>(_ property: WritableKeyPath<Model, V?>, _ transformer: Transformer<JSONValue, V>, required: Bool = false) {
        self.init(property, "", transformer, required: required)
        derivesKey = true
    }

    /// Maps a RawRepresentable enum by its raw value, from the key its name gives. Inlinable,
    /// as the other enum lines: the model's module compiles its typed write (`Transformer.rawValue`).
    @_disfavoredOverload @inlinable
    public init<V: RawRepresentable>(_ property: WritableKeyPath<Model, V>, required: Bool = false)
    where V.RawValue: JSONRepresentable, V.RawValue.JSONForm == V.RawValue {
        self.init(property, .rawValue(V.self), required: required)
    }

    /// Maps an optional RawRepresentable enum by its raw value, from the key its name gives.
    @_disfavoredOverload @inlinable
    public init<V: RawRepresentable>(_ property: WritableKeyPath<Model, V?>, required: Bool = false)
    where V.RawValue: JSONRepresentable, V.RawValue.JSONForm == V.RawValue {
        self.init(property, .rawValue(V.self), required: required)
    }

    /// One line per property, each from the key its name gives, through its type's implicit
    /// transformer: `Map.properties(\.title, \.body, \.number, \.createdAt)`.
    /// - Parameter properties: Stored properties of the model.
    /// - Returns: The lines, in order.
    public static func properties<each V: JSONRepresentable>(_ properties: repeat WritableKeyPath<Model, each V>) -> [Map]
    where repeat (each V).JSONForm == each V {
        var maps: [Map] = []
        for property in repeat each properties { maps.append(Map(property)) }
        return maps
    }

    /// The same line with the property named `name`: the key a line without key path derives
    /// from it, the name external mappings (``JSONMapping/init(declared:loading:registry:)``)
    /// know it by, and the name errors give it (`Model.name`). Needed for a non-final class's
    /// properties, whose key paths Swift cannot name.
    /// - Parameter name: The property's name, e.g. `createdAt`.
    /// - Returns: The renamed line.
    public func named(_ name: String) -> Map {
        var map = self
        map.propertyName = "\(typeName(Model.self)).\(name)"
        map.bareName = name
        return map
    }

    /// The same line with a merge hook: ``JSONModel/merge(from:)`` sets the property to
    /// `combine(mine, theirs)` instead of to the other model's value (Mantle's
    /// `merge<Key>FromModel:`).
    ///
    /// ```swift
    /// Map(\.commentCount, "comments").merging { (mine: Int, theirs: Int) in mine + theirs }
    /// ```
    /// The closure's parameter types say which type it is for (they must be the property's,
    /// or the mapping fails to build).
    /// - Parameter combine: The merged value from this model's value and the other's.
    /// - Returns: The line with the hook.
    public func merging<V>(_ combine: @escaping (_ mine: V, _ theirs: V) -> V) -> Map {
        var map = self
        guard let property = property as? WritableKeyPath<Model, V> else {
            map.problem = .invalidMapping("\(propertyName): the merge hook takes \(V.self), which is not the property's type")
            return map
        }
        map.merge = { mine, theirs in mine[keyPath: property] = combine(mine[keyPath: property], theirs[keyPath: property]) }
        return map
    }

    /// The same line written back at another key path than the one it reads (`@Key("user_name",
    /// encode: "userName")`): decoding reads `keyPath`'s value as before; encoding writes the
    /// property at `keyPath` instead, dotted paths rebuilding nested objects as usual.
    ///
    /// ```swift
    /// Map(\.userName, "user_name").encodingKey("userName")
    /// ```
    /// A key path another property is also written at fails the mapping when it is built.
    /// - Parameter keyPath: Where encoding writes the property.
    /// - Returns: The line; a line of several key paths fails to build.
    public func encodingKey(_ keyPath: String) -> Map {
        var map = self
        guard case .single = source else {
            map.problem = .invalidMapping("\(propertyName) is written back at each of its key paths; it takes no other key to write")
            return map
        }
        map.encodeKey = keyPath
        return map
    }

    /// Resolves a derived key with the mapping's naming.
    func resolvingKey(_ naming: KeyNaming) -> Map {
        guard derivesKey, case .single(_, let target) = source else { return self }
        var map = self
        guard let bareName else {
            map.problem = .invalidMapping("\(propertyName): its key path has no name Swift can give (a non-final class's "
                + "property?); write its key, or name it with .named(\"…\")")
            return map
        }
        map.source = .single(naming.key(for: bareName), target)
        return map
    }
}
