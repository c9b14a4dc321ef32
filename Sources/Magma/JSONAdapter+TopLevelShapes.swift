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
    ///   - data: The JSON text, UTF-8.
    ///   - options: How to read it.
    /// - Returns: The models, by their member's key.
    /// - Throws: ``JSONError``; its path starts with the failing member's key (`$.1.login`).
    public static func modelsByKey<M: JSONObjectModel>(_ type: M.Type, from data: Data, options: DecodingOptions = .init()) throws -> [String: M] {
        try data.withUnsafeBytes { try DictionaryCodec(objectModelCodec(M.self)).decode(from: $0, options: options) }
    }

    /// Decodes a top-level JSON object of models by key, from a string.
    public static func modelsByKey<M: JSONObjectModel>(_ type: M.Type, from string: String, options: DecodingOptions = .init()) throws -> [String: M] {
        var string = string
        return try string.withUTF8 { try DictionaryCodec(objectModelCodec(M.self)).decode(from: UnsafeRawBufferPointer($0), options: options) }
    }

    /// Decodes a top-level JSON object of models by key, from chunks.
    public static func modelsByKey<M: JSONObjectModel, Chunks: Sequence>(_ type: M.Type, fromChunks chunks: Chunks,
                                                                   options: DecodingOptions = .init()) throws -> [String: M]
    where Chunks.Element: ContiguousBytes {
        try DictionaryCodec(objectModelCodec(M.self)).decode(fromChunks: chunks, options: options)
    }

    // MARK: A top-level array of scalars

    /// Decodes a top-level JSON array of scalars (or of any ``JSONRepresentable`` values).
    ///
    /// ```swift
    /// let scores = try JSONAdapter.values(Double.self, from: "[0.69, 0.7, 1]")
    /// ```
    /// - Parameters:
    ///   - type: The element type: `Double`, `Int`, `String`, `Date`, `URL`...
    ///   - data: The JSON text, UTF-8.
    ///   - options: How to read it.
    /// - Returns: The values, in order.
    /// - Throws: ``JSONError``; its path starts with the failing element's index (`$[3]`).
    public static func values<V: JSONRepresentable>(_ type: V.Type, from data: Data, options: DecodingOptions = .init()) throws -> [V]
    where V.JSONForm == V {
        try data.withUnsafeBytes { try ArrayCodec(V.jsonTransformer.codec).decode(from: $0, options: options) }
    }

    /// Decodes a top-level JSON array of values, from a string.
    public static func values<V: JSONRepresentable>(_ type: V.Type, from string: String, options: DecodingOptions = .init()) throws -> [V]
    where V.JSONForm == V {
        var string = string
        return try string.withUTF8 { try ArrayCodec(V.jsonTransformer.codec).decode(from: UnsafeRawBufferPointer($0), options: options) }
    }

    /// Decodes a top-level JSON array of values, from chunks.
    public static func values<V: JSONRepresentable, Chunks: Sequence>(_ type: V.Type, fromChunks chunks: Chunks,
                                                                      options: DecodingOptions = .init()) throws -> [V]
    where V.JSONForm == V, Chunks.Element: ContiguousBytes {
        try ArrayCodec(V.jsonTransformer.codec).decode(fromChunks: chunks, options: options)
    }
}
