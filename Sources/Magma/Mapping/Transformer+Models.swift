extension Transformer where Input == JSONValue {
    /// A nested model, through its own mapping.
    /// - Parameter type: The model type.
    public static func model(_ type: Output.Type) -> Self where Output: JSONModel {
        Transformer(codec: ModelCodec<Output>())
    }

    /// A nested `@JSONModel` model, through its draft.
    /// - Parameter type: The model type.
    @_disfavoredOverload
    public static func model(_ type: Output.Type) -> Self where Output: JSONDraftedModel {
        Transformer(codec: DraftModelCodec<Output>())
    }
}
