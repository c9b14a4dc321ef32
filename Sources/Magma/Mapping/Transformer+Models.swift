extension Transformer where Input == JSONValue {
    /// A model, through its own mapping or through one given at run time (one loaded from a
    /// file); the models nested in it use their own. A transformer goes wherever one is taken, so
    /// a run-time mapping reads a document, an array, a dictionary or a property alike (a record
    /// stream takes it as `RecordDecoder(_:layout:mapping:)`):
    ///
    /// ```swift
    /// let mapping = try JSONMapping(declared: Item.jsonMapping, contentsOf: mappingURL)
    /// let item = try JSONAdapter.value(from: data, .model(Item.self, mapping: mapping))
    /// let items = try JSONAdapter.value(from: .file("items.json"), .array(.model(Item.self, mapping: mapping)))
    /// let json = try JSONAdapter.json(from: items, .array(.model(Item.self, mapping: mapping)))
    /// ```
    /// - Parameters:
    ///   - type: The model type.
    ///   - mapping: The mapping to read and write it through; nil for the model's own.
    public static func model(_ type: Output.Type, mapping: JSONMapping<Output.MappingRoot>? = nil) -> Self where Output: JSONModel {
        Transformer(codec: ModelCodec<Output>(mapping: mapping))
    }

    /// A nested `@JSONModel` model, through its draft.
    /// - Parameter type: The model type.
    @_disfavoredOverload
    public static func model(_ type: Output.Type) -> Self where Output: JSONDraftedModel {
        Transformer(codec: DraftModelCodec<Output>())
    }
}
