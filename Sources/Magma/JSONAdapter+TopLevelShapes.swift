import Foundation

// The top-level shapes beside one model and an array of models: an object whose members are
// models (`{"0": {...}, "1": {...}}`, as some APIs key their records), and an array of scalars
// (`[0.69, 0.7]`). Each reads in one pass, as `models(_:from:)` does.
extension JSONAdapter {
    // MARK: A top-level object of models

    /// Decodes a top-level JSON object whose members are objects into models, by key.
    ///
    /// ```swift
    /// let users = try JSONAdapter.modelsByKey(GHUser.self, from: #"{"0": {"login": "a"}, "1": {"login": "b"}}"#)
    /// // users["1"]?.login == "b"
    /// ```
    /// - Parameters:
    ///   - type: The model type of every member.
    ///   - input: The JSON (see ``JSONInput``).
    ///   - options: How to read it.
    /// - Returns: The models, by their member's key.
    /// - Throws: ``JSONError``; its path starts with the failing member's key (`$.1.login`).
    public static func modelsByKey<M: JSONObjectModel>(_ type: M.Type, from input: some JSONInputConvertible,
                                                       options: DecodingOptions = .init()) throws -> [String: M] {
        try input.jsonInput.decode(DictionaryCodec(objectModelCodec(M.self)), options: options)
    }

    // MARK: A top-level array of scalars

    /// Decodes a top-level JSON array of scalars (or of any ``JSONRepresentable`` values).
    ///
    /// ```swift
    /// let scores = try JSONAdapter.values(Double.self, from: "[0.69, 0.7, 1]")
    /// ```
    /// - Parameters:
    ///   - type: The element type: `Double`, `Int`, `String`, `Date`, `URL`...
    ///   - input: The JSON (see ``JSONInput``).
    ///   - options: How to read it.
    /// - Returns: The values, in order.
    /// - Throws: ``JSONError``; its path starts with the failing element's index (`$[3]`).
    public static func values<V: JSONRepresentable>(_ type: V.Type, from input: some JSONInputConvertible,
                                                    options: DecodingOptions = .init()) throws -> [V]
    where V.JSONForm == V {
        try input.jsonInput.decode(ArrayCodec(V.jsonTransformer.codec), options: options)
    }
}
