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
    ///   - input: The JSON (see ``JSONInput``).
    ///   - options: How to read it.
    ///   - report: Where the entries are added (after those it holds).
    /// - Returns: The model.
    /// - Throws: ``JSONError``; the entries noted before the error stay in `report`.
    public static func model<M: JSONObjectModel>(_ type: M.Type, from input: some JSONInputConvertible,
                                                 options: DecodingOptions = .init(), report: inout DecodingReport) throws -> M {
        try withUnsafeMutablePointer(to: &report) { try input.jsonInput.decode(objectModelCodec(M.self), options: options, report: $0) }
    }

    /// Decodes a top-level JSON array of objects into models, noting in `report` what it left
    /// out on purpose (each entry's path starts with its model's index, `$[12]...`).
    ///
    /// ```swift
    /// var report = DecodingReport()
    /// let orders = try JSONAdapter.models(Order.self, from: data, report: &report)
    /// ```
    /// - Parameters:
    ///   - type: The model type.
    ///   - input: The JSON (see ``JSONInput``).
    ///   - options: How to read it.
    ///   - report: Where the entries are added.
    /// - Returns: The models, in order.
    /// - Throws: ``JSONError``.
    public static func models<M: JSONObjectModel>(_ type: M.Type, from input: some JSONInputConvertible,
                                                  options: DecodingOptions = .init(), report: inout DecodingReport) throws -> [M] {
        try withUnsafeMutablePointer(to: &report) {
            try input.jsonInput.decode(ArrayCodec(objectModelCodec(M.self)), options: options, report: $0)
        }
    }
}
