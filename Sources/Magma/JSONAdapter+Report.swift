import Foundation

// The entry points that also say what the read left out on purpose: the properties that kept
// their default instead of an invalid value (`@Default(_:onInvalid: true)`) and the elements lossy
// collections dropped (`@Lossy`), in a `DecodingReport` the caller passes in. The others keep no
// report, and pay nothing for one.
extension JSONAdapter {
    /// Decodes one model from a JSON object, noting in `report` what it left out on purpose.
    ///
    /// ```swift
    /// var report = DecodingReport()
    /// let order = try JSONAdapter.model(Order.self, from: data, report: &report)
    /// // report.defaulted: properties that kept their default; report.dropped: elements dropped
    /// ```
    /// - Parameters:
    ///   - type: The model type.
    ///   - data: The JSON text, UTF-8.
    ///   - options: How to read it.
    ///   - report: Where the entries are added (after those it holds).
    /// - Returns: The model.
    /// - Throws: ``JSONError``; the entries noted before the error stay in `report`.
    public static func model<M: JSONObjectModel>(_ type: M.Type, from data: Data, options: DecodingOptions = .init(),
                                                 report: inout DecodingReport) throws -> M {
        try withUnsafeMutablePointer(to: &report) { report in
            try data.withUnsafeBytes { try objectModelCodec(M.self).decode(from: $0, options: options, report: report) }
        }
    }

    /// Decodes one model from a JSON string, noting in `report` what it left out on purpose.
    public static func model<M: JSONObjectModel>(_ type: M.Type, from string: String, options: DecodingOptions = .init(),
                                                 report: inout DecodingReport) throws -> M {
        var string = string
        return try withUnsafeMutablePointer(to: &report) { report in
            try string.withUTF8 { try objectModelCodec(M.self).decode(from: UnsafeRawBufferPointer($0), options: options, report: report) }
        }
    }

    /// Decodes one model from JSON arriving in chunks, noting in `report` what it left out on purpose.
    public static func model<M: JSONObjectModel, Chunks: Sequence>(_ type: M.Type, fromChunks chunks: Chunks,
                                                                   options: DecodingOptions = .init(),
                                                                   report: inout DecodingReport) throws -> M
    where Chunks.Element: ContiguousBytes {
        try withUnsafeMutablePointer(to: &report) { try objectModelCodec(M.self).decode(fromChunks: chunks, options: options, report: $0) }
    }

    /// Decodes a top-level JSON array of objects into models, noting in `report` what it left
    /// out on purpose (each entry's path starts with its model's index, `$[12]...`).
    /// - Parameters:
    ///   - type: The model type.
    ///   - data: The JSON text, UTF-8.
    ///   - options: How to read it.
    ///   - report: Where the entries are added.
    /// - Returns: The models, in order.
    /// - Throws: ``JSONError``.
    public static func models<M: JSONObjectModel>(_ type: M.Type, from data: Data, options: DecodingOptions = .init(),
                                                  report: inout DecodingReport) throws -> [M] {
        try withUnsafeMutablePointer(to: &report) { report in
            try data.withUnsafeBytes { try ArrayCodec(objectModelCodec(M.self)).decode(from: $0, options: options, report: report) }
        }
    }

    /// Decodes a top-level JSON array of models from a string, noting in `report` what it left out.
    public static func models<M: JSONObjectModel>(_ type: M.Type, from string: String, options: DecodingOptions = .init(),
                                                  report: inout DecodingReport) throws -> [M] {
        var string = string
        return try withUnsafeMutablePointer(to: &report) { report in
            try string.withUTF8 {
                try ArrayCodec(objectModelCodec(M.self)).decode(from: UnsafeRawBufferPointer($0), options: options, report: report)
            }
        }
    }

    /// Decodes a top-level JSON array of models from chunks, noting in `report` what it left out.
    public static func models<M: JSONObjectModel, Chunks: Sequence>(_ type: M.Type, fromChunks chunks: Chunks,
                                                                    options: DecodingOptions = .init(),
                                                                    report: inout DecodingReport) throws -> [M]
    where Chunks.Element: ContiguousBytes {
        try withUnsafeMutablePointer(to: &report) {
            try ArrayCodec(objectModelCodec(M.self)).decode(fromChunks: chunks, options: options, report: $0)
        }
    }
}
