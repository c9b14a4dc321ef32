// The lines `@JSONModel` writes into a model's draft. A property the model declares non-optional
// is held as an optional in the draft (the draft must be default-constructible, and the model's
// init moves the value out): with no default its line is required (absent → `missingKey`), and
// either way it reads `null` as the model's type does (an error), not as nil (`OptionalCodec`
// with `nullIsError`). Lines are named after the model, not the draft, so that errors and loaded
// mappings say `GHIssue.url`.

extension Map {
    /// A required line for a non-optional model property held as `V?` in the draft, through
    /// `V`'s implicit transformer. Written by `@JSONModel`'s expansion.
    /// - Parameters:
    ///   - property: The draft's property.
    ///   - keyPath: The JSON key path; nil derives it from the property's name.
    ///   - required: False for a property with a default (absent keeps it).
    public init<V: JSONRepresentable>(nonOptional property: WritableKeyPath<Model, V?>, _ keyPath: String? = nil,
                                      required: Bool = true)
    where V.JSONForm == V {
        self.init(nonOptional: property, keyPath, V.jsonTransformer, required: required)
    }

    /// A required line for a non-optional RawRepresentable model property held as `V?` in the draft.
    @_disfavoredOverload @inlinable
    public init<V: RawRepresentable>(nonOptional property: WritableKeyPath<Model, V?>, _ keyPath: String? = nil,
                                     required: Bool = true)
    where V.RawValue: JSONRepresentable, V.RawValue.JSONForm == V.RawValue {
        self.init(nonOptional: property, keyPath, .rawValue(V.self), required: required)
    }

    /// A required line for a non-optional array of RawRepresentable values held as `[V]?` in the draft.
    @_disfavoredOverload @inlinable
    public init<V: RawRepresentable>(nonOptional property: WritableKeyPath<Model, [V]?>, _ keyPath: String? = nil,
                                     required: Bool = true)
    where V.RawValue: JSONRepresentable, V.RawValue.JSONForm == V.RawValue {
        self.init(nonOptional: property, keyPath, .array(.rawValue(V.self)), required: required)
    }

    /// A property whose type has no JSON form Magma knows (a struct not marked `@JSONModel`, an
    /// enum without a raw value): chosen only when no other line fits, so the compiler's one
    /// error says what to do, instead of naming a protocol the type lacks.
    @available(*, unavailable, message: "the property's type is not a JSON model: mark it @JSONModel (an enum: give it a String or Int raw value), or give the property a @Transform")
    @_disfavoredOverload
    public init<V>(nonOptional property: WritableKeyPath<Model, V?>, _ keyPath: String? = nil, required: Bool = true) {
        fatalError("unavailable")
    }

    /// A required line for a non-optional model property held as `V?` in the draft, through an
    /// explicit transformer (`@Transform`).
    /// - Parameters:
    ///   - property: The draft's property.
    ///   - keyPath: The JSON key path; nil derives it from the property's name.
    ///   - transformer: Converts between the JSON value and the model property's type.
    ///   - required: False for a property with a default (absent keeps it).
    public init<V>(nonOptional property: WritableKeyPath<Model, V?>, _ keyPath: String? = nil,
                   _ transformer: Transformer<JSONValue, V>, required: Bool = true) {
        self.init(property, keyPath ?? "", Transformer(codec: OptionalCodec(transformer.codec, nullIsError: true)), required: required)
        derivesKey = keyPath == nil
    }

    /// A required line for a non-optional model property held as `V?` in the draft, read from
    /// several key paths together (`@Key("a", "b") @Transform(...)`).
    /// - Parameters:
    ///   - property: The draft's property.
    ///   - keyPaths: The JSON key paths.
    ///   - transformer: Combines their values into the property's value and splits it back.
    ///   - required: False for a property with a default.
    public init<V>(nonOptional property: WritableKeyPath<Model, V?>, _ keyPaths: [String],
                   _ transformer: Transformer<[String: JSONValue], V>, required: Bool = true) {
        let wrapped = Transformer<[String: JSONValue], V?>(
            forward: { try transformer.transform($0) },
            reverse: transformer.isReversible ? { value in
                guard let value else { throw JSONError(.notEncodable, "no value") }
                return try transformer.reverseTransform(value)
            } : nil)
        self.init(property, keyPaths, wrapped, required: required)
    }

    /// The same line with a merge hook (`@Merge`) on a draft property that holds the model's
    /// property as it is (an optional, or a default of an unwritten type): typed by the key path,
    /// so a hook of another type does not compile. Written by `@JSONModel`'s expansion.
    /// - Parameters:
    ///   - property: The draft's property.
    ///   - combine: The merged value from this model's value and the other's.
    /// - Returns: The line with the hook.
    public func merging<V>(_ property: WritableKeyPath<Model, V>, _ combine: @escaping (_ mine: V, _ theirs: V) -> V) -> Map {
        var map = self
        map.merge = { mine, theirs in mine[keyPath: property] = combine(mine[keyPath: property], theirs[keyPath: property]) }
        return map
    }

    /// The same line with a merge hook (`@Merge`) on a non-optional model property held as `V?`
    /// in the draft. A draft taken from a model holds every such value; were one missing, the
    /// other's value (or this one's) is taken as it is. Written by `@JSONModel`'s expansion.
    /// - Parameters:
    ///   - property: The draft's property.
    ///   - combine: The merged value from this model's value and the other's.
    /// - Returns: The line with the hook.
    public func merging<V>(nonOptional property: WritableKeyPath<Model, V?>,
                           _ combine: @escaping (_ mine: V, _ theirs: V) -> V) -> Map {
        var map = self
        map.merge = { mine, theirs in
            guard let other = theirs[keyPath: property] else { return }
            mine[keyPath: property] = mine[keyPath: property].map { combine($0, other) } ?? other
        }
        return map
    }

    /// The same line named as the model's property `name` of `model` (not the draft's): the name
    /// errors give it (`GHIssue.url`), the key a line without key path derives, and the name
    /// loaded mappings know it by. Written by `@JSONModel`'s expansion.
    /// - Parameters:
    ///   - name: The property's name.
    ///   - model: The model type's name.
    /// - Returns: The renamed line.
    public func named(_ name: String, in model: String) -> Map {
        var map = self
        map.propertyName = "\(model).\(name)"
        map.bareName = name
        return map
    }
}
