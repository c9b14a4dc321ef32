/// One line of a ``JSONMapping``: a model property, the JSON key path(s) that feed it, and the
/// transformer between them.
///
/// Key paths are dotted (`user.login`); a numeric component also indexes arrays (`labels.0.name`);
/// `\.` is a literal dot in a key (`a\.b` is the key `a.b`).
public struct Map<Model> {
    /// How the property reads its value, erased over the property's type. The slot (or binding)
    /// is made when the plan is compiled, from the line's final ``propertyName`` (which
    /// ``named(_:)`` may set after the line is made).
    enum Source {
        /// One key path; the slot decodes its value.
        case single(String, (_ propertyName: String) -> ValueTarget)
        /// Several key paths given to one transformer together when the object ends.
        case multiple([String], (_ propertyName: String) -> MultiKeyBinding)
    }

    /// The property, for duplicate checks and overrides: a key path of the type the mapping's
    /// lines are for (a subclass's mapping reroots the lines it inherits onto the subclass).
    var property: AnyKeyPath
    /// `GHIssue.reporterLogin`, for messages: from the key path, or `Type.name` for a line
    /// named with ``named(_:)``.
    var propertyName: String {
        get { names.property ?? Map.name(Map.name(of: names.keyPath), keyPath: names.jsonKeyPath) }
        set { names.property = newValue }
    }
    /// The property's own name (`reporterLogin`), from its key path or ``named(_:)``; nil when it
    /// cannot be known (a non-final class property's key path has no name).
    var bareName: String? {
        get { names.bare ?? Map.bareName(of: Map.name(of: names.keyPath), model: Model.self) }
        set { names.bare = .some(newValue) }
    }
    /// The names given, and the key path to work them out from when none is: only when first
    /// read, as describing a key path looks up its type's conformances (costly at start-up, and
    /// never needed for a line `@JSONModel` names).
    var names: Names
    struct Names {
        /// The key path as the line was written: `property` may be rerooted onto a subclass
        /// later, and the names are those of the class that declares the property.
        let keyPath: AnyKeyPath
        let jsonKeyPath: String
        var property: String? = nil
        var bare: String?? = nil
    }
    var source: Source
    var required: Bool
    /// Makes the writer of the property's JSON for encoding, from the line's final name; nil when
    /// its transformer is one-way (the property is then decode-only: encoding leaves it out).
    var writer: ((_ propertyName: String) -> PropertyWriter)?
    /// A problem found when the line was made (an unknown transformer name); reported when the
    /// plan is built.
    var problem: JSONError?
    /// The key is derived from ``bareName`` by the mapping's ``KeyNaming`` (a line written
    /// without a key path).
    var derivesKey = false
    /// Copies the property from another model of the type (``JSONModel/merge(from:)``).
    var merge: (inout Model, Model) -> Void
    /// The same line with another key path, and a transformer registered under a name, or the
    /// line's own transformer when the name is nil (mappings loaded at run time).
    var remake: ((_ keyPath: String, _ transformer: String?, _ registry: TransformerRegistry, _ required: Bool) -> Map<Model>)?
    /// For a class model's child models: makes the relationship that sets each child's
    /// back-reference to its parent, from the line's final name (``named(_:)`` may come after
    /// `inverse`), as `source` makes its slot.
    var makeRelationship: ((_ name: String) -> Relationship<Model>)? = nil
    /// The line's relationship, named by its final name: made on each read (once per plan).
    var relationship: Relationship<Model>? { makeRelationship?(bareName ?? propertyName) }
    /// The key path the property is written back at, when not the one it is read from
    /// (``encodingKey(_:)``).
    var encodeKey: String?
    /// The flattened property this line came from (``flattening(_:as:)``), for the keys two
    /// models claim; nil for the model's own lines.
    var origin: String?

    /// Maps a property through its type's implicit transformer.
    /// - Parameters:
    ///   - property: The model property.
    ///   - keyPath: The JSON key path (`user.login`).
    ///   - required: Whether a missing key is an error (``JSONError/Code/missingKey``); otherwise
    ///     the property keeps its default.
    public init<V: JSONRepresentable>(_ property: WritableKeyPath<Model, V>, _ keyPath: String, required: Bool = false)
    where V.JSONForm == V {
        self.init(property, keyPath, V.jsonTransformer, required: required)
    }

    /// A property whose type has no JSON form Magma knows: chosen only when no other line fits,
    /// so the compiler's one error says what to do (see `init(nonOptional:_:required:)`).
    @available(*, unavailable, message: "the property's type is not a JSON model: mark it @JSONModel or make it a JSONModel (an enum: give it a String or Int raw value), or give the property a transformer")
    @_disfavoredOverload
    public init<V>(_ property: WritableKeyPath<Model, V>, _ keyPath: String, required: Bool = false) {
        fatalError("unavailable")
    }

    /// Maps a property through an explicit transformer.
    /// - Parameters:
    ///   - property: The model property.
    ///   - keyPath: The JSON key path (`updated_at`).
    ///   - transformer: Converts between the JSON value and the property's type.
    ///   - required: Whether a missing key is an error; otherwise the property keeps its default.
    public init<V>(_ property: WritableKeyPath<Model, V>, _ keyPath: String, _ transformer: Transformer<JSONValue, V>,
                   required: Bool = false) {
        let codec = transformer.codec
        self.property = property
        names = Names(keyPath: property, jsonKeyPath: keyPath)
        source = .single(keyPath) { name in
            let slot = Slot(codec, PropertyReceiver(property), property: name)
            guard let offset = MemoryLayout<Model>.offset(of: property) else { return slot }
            return codec.fastTarget(offset: offset, form: .value, fallback: slot) ?? slot
        }
        self.required = required
        self.writer = codec.isReversible ? { TypedPropertyWriter(property, codec: codec, property: $0) } : nil
        problem = nil
        merge = { $0[keyPath: property] = $1[keyPath: property] }
        remake = { key, named, registry, required in
            guard let named else { return Map(property, key, transformer, required: required) }
            // An optional property also takes a transformer registered for its wrapped type.
            if let optional = V.self as? OptionalRemaking.Type,
               let map: Map = optional.remake(property, key, named: named, registry: registry, required: required) {
                return map
            }
            return Map(property, key, transformerNamed: named, registry: registry, required: required)
        }
    }

    /// Maps an optional property through a transformer of the wrapped type: `null` and absence give nil.
    /// - Parameters:
    ///   - property: The optional model property.
    ///   - keyPath: The JSON key path.
    ///   - transformer: Converts between the JSON value and the wrapped type.
    ///   - required: Whether a missing key is an error.
    public init<V>(_ property: WritableKeyPath<Model, V?>, _ keyPath: String, _ transformer: Transformer<JSONValue, V>,
                   required: Bool = false) {
        self.init(property, keyPath, .optional(transformer), required: required)
    }

    /// Maps a RawRepresentable enum by its raw value. Inlinable, as the other enum lines: the
    /// model's module compiles its typed write (`Transformer.rawValue`).
    /// - Parameters:
    ///   - property: The enum property.
    ///   - keyPath: The JSON key path.
    ///   - required: Whether a missing key is an error.
    @_disfavoredOverload @inlinable
    public init<V: RawRepresentable>(_ property: WritableKeyPath<Model, V>, _ keyPath: String, required: Bool = false)
    where V.RawValue: JSONRepresentable, V.RawValue.JSONForm == V.RawValue {
        self.init(property, keyPath, .rawValue(V.self), required: required)
    }

    /// Maps an optional RawRepresentable enum by its raw value.
    @_disfavoredOverload @inlinable
    public init<V: RawRepresentable>(_ property: WritableKeyPath<Model, V?>, _ keyPath: String, required: Bool = false)
    where V.RawValue: JSONRepresentable, V.RawValue.JSONForm == V.RawValue {
        self.init(property, keyPath, .optional(.rawValue(V.self)), required: required)
    }

    /// Maps an array of RawRepresentable enums by their raw values.
    @_disfavoredOverload @inlinable
    public init<V: RawRepresentable>(_ property: WritableKeyPath<Model, [V]>, _ keyPath: String, required: Bool = false)
    where V.RawValue: JSONRepresentable, V.RawValue.JSONForm == V.RawValue {
        self.init(property, keyPath, .array(.rawValue(V.self)), required: required)
    }

    /// Maps a property through a transformer registered by name (``TransformerRegistry``).
    /// An unknown name, or one registered for another type, fails when the plan is built.
    /// - Parameters:
    ///   - property: The model property.
    ///   - keyPath: The JSON key path.
    ///   - name: The registered transformer's name.
    ///   - registry: Where `name` is looked up.
    ///   - required: Whether a missing key is an error.
    public init<V>(_ property: WritableKeyPath<Model, V>, _ keyPath: String, transformerNamed name: String,
                   registry: TransformerRegistry = .shared, required: Bool = false) {
        if let transformer = registry.transformer(named: name, for: V.self) {
            self.init(property, keyPath, transformer, required: required)
        } else {
            self.init(unregistered: property, keyPath, name: name, types: "\(V.self)", required: required)
        }
    }

    /// Maps an optional property through a transformer registered by name: one registered for
    /// `V?` if there is one, else one for `V` (null and absence give nil).
    /// - Parameters:
    ///   - property: The optional model property.
    ///   - keyPath: The JSON key path.
    ///   - name: The registered transformer's name.
    ///   - registry: Where `name` is looked up.
    ///   - required: Whether a missing key is an error.
    public init<V>(_ property: WritableKeyPath<Model, V?>, _ keyPath: String, transformerNamed name: String,
                   registry: TransformerRegistry = .shared, required: Bool = false) {
        if let exact = registry.transformer(named: name, for: V?.self) {
            self.init(property, keyPath, exact, required: required)
        } else if let wrapped = registry.transformer(named: name, for: V.self) {
            self.init(property, keyPath, wrapped, required: required)
        } else {
            self.init(unregistered: property, keyPath, name: name, types: "\(V.self) or \(V?.self)", required: required)
        }
    }

    /// A line whose named transformer is not registered: it fails when the plan is built.
    private init<V>(unregistered property: WritableKeyPath<Model, V>, _ keyPath: String, name: String, types: String,
                    required: Bool) {
        let missing = Transformer<JSONValue, V>(forward: { _ in throw JSONError(.invalidMapping, "no transformer \"\(name)\"") })
        self.init(property, keyPath, missing, required: required)
        problem = .invalidMapping("\(propertyName): no transformer named \"\(name)\" for \(types) is registered")
    }

    /// Maps one property from several key paths: its transformer receives all of their values
    /// together (keyed by key path, absent ones left out) when the object ends, and gives back one
    /// value per key path when encoding.
    /// - Parameters:
    ///   - property: The model property.
    ///   - keyPaths: The JSON key paths, at least one.
    ///   - transformer: Combines the values into the property's value and splits it back.
    ///   - required: Whether the property fails with `missingKey` when none of the keys is present.
    public init<V>(_ property: WritableKeyPath<Model, V>, _ keyPaths: [String],
                   _ transformer: Transformer<[String: JSONValue], V>, required: Bool = false) {
        self.property = property
        names = Names(keyPath: property, jsonKeyPath: keyPaths.first ?? "")
        source = .multiple(keyPaths) { name in
            let receiver = PropertyReceiver(property)
            return MultiKeyBinding(keyPaths: keyPaths, property: name) { values, storage in
                receiver.set(try transformer.transform(values), in: storage)
            }
        }
        self.required = required
        self.writer = transformer.isReversible ? { MultiKeyPropertyWriter(property, reverse: transformer.reverseTransform, property: $0) } : nil
        problem = nil
        merge = { $0[keyPath: property] = $1[keyPath: property] }
        remake = nil
    }

    /// `GHIssue.reporterLogin` from `\GHIssue.reporterLogin`.
    static func name(of property: AnyKeyPath) -> String {
        var text = String(describing: property)
        if text.hasPrefix("\\") { text.removeFirst() }
        return text
    }

    /// The name messages give a property: its key path's (`GHIssue.reporterLogin`), or, where
    /// Swift cannot name it (a non-final class's property reads `<computed 0x… (Int)>`), the
    /// model and its JSON key path (`Animal.legs`); ``named(_:)`` gives the Swift name.
    static func name(_ described: String, keyPath: String) -> String {
        guard !keyPath.isEmpty, described.contains("<computed") else { return described }
        return "\(typeName(Model.self)).\(keyPath)"
    }

    /// `reporterLogin` from `\GHIssue.reporterLogin`: the key path's one component when it names
    /// a stored property. Nil for anything else: a key path through several properties, or one
    /// Swift cannot name (a non-final class's property reads `<computed 0x… (Int)>`).
    static func bareName(of propertyName: String, model: Any.Type) -> String? {
        let prefix = typeName(model) + "."
        guard propertyName.hasPrefix(prefix) else { return nil }
        let name = propertyName.dropFirst(prefix.count)
        guard let first = name.utf8.first, !(first >= 48 && first <= 57),
              name.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) || $0 == 95 })
        else { return nil }
        return String(name)
    }
}

extension PropertyReceiver {
    func set(_ value: V, in storage: UnsafeMutableRawPointer) {
        if let offset {
            (storage + offset).assumingMemoryBound(to: V.self).pointee = value
        } else {
            storage.assumingMemoryBound(to: Model.self).pointee[keyPath: keyPath] = value
        }
    }
}

/// A property fed by several key paths: their values are captured during the object and applied
/// when it ends.
final class MultiKeyBinding {
    let keyPaths: [String]
    let property: String
    /// Index of the first capture of this binding in the model frame's captures.
    var firstCapture = 0
    let body: ([String: JSONValue], UnsafeMutableRawPointer) throws -> Void

    init(keyPaths: [String], property: String, body: @escaping ([String: JSONValue], UnsafeMutableRawPointer) throws -> Void) {
        self.keyPaths = keyPaths
        self.property = property
        self.body = body
    }

    func apply(_ captures: [JSONValue?], to storage: UnsafeMutableRawPointer) throws {
        var values: [String: JSONValue] = [:]
        for (i, keyPath) in keyPaths.enumerated() {
            if let v = captures[firstCapture + i] { values[keyPath] = v }
        }
        do {
            try body(values, storage)
        } catch var error as JSONError {
            if error.property == nil { error.property = property }
            throw error
        } catch {
            var wrapped = JSONError(.invalidValue, "\(error)", underlying: error)
            wrapped.property = property
            throw wrapped
        }
    }
}

/// Stores one captured key-path value of a multi-key property in the model frame's captures.
final class CaptureReceiver: Receiver<JSONValue> {
    let index: Int
    init(_ index: Int) { self.index = index }

    override func receive(_ value: consuming JSONValue, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        b.captures[b.captures.count - 1][index] = value
    }
}

/// Lets a line of a generic `V` that is an optional be remade through the optional form of the
/// named-transformer line (which also looks up the wrapped type).
protocol OptionalRemaking {
    static func remake<Model>(_ property: AnyKeyPath, _ key: String, named: String, registry: TransformerRegistry,
                              required: Bool) -> Map<Model>?
}

extension Optional: OptionalRemaking {
    static func remake<Model>(_ property: AnyKeyPath, _ key: String, named: String, registry: TransformerRegistry,
                              required: Bool) -> Map<Model>? {
        guard let property = property as? WritableKeyPath<Model, Wrapped?> else { return nil }
        return Map(property, key, transformerNamed: named, registry: registry, required: required)
    }
}
