import Foundation
import Testing
@testable import Magma

/// The chunk sizes every decode test runs over (issue 6's list); 0 means the whole buffer in one call.
let chunkSizes = [1, 2, 3, 7, 64, 4096, 65536, 0]

/// Splits `bytes` into chunks of `size` (0: one whole buffer).
func chunks(_ bytes: [UInt8], _ size: Int) -> [[UInt8]] {
    guard size > 0 else { return [bytes] }
    return stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
}

/// The ways a test feeds `bytes` in pieces, each with its name: every chunk size of `chunkSizes`,
/// and with `everySplit`, also split in two at every byte offset.
func splitWays(_ bytes: [UInt8], everySplit: Bool = false) -> [(name: String, pieces: [[UInt8]])] {
    var ways = chunkSizes.map { (name: "chunk size \($0)", pieces: chunks(bytes, $0)) }
    if everySplit {
        for split in 0...bytes.count { ways.append((name: "split at \(split)", pieces: [Array(bytes[..<split]), Array(bytes[split...])])) }
    }
    return ways
}

/// The `JSONError` `body` throws; records an issue (named `way`) if it succeeds or throws another error.
func thrownJSONError(_ way: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) -> JSONError? {
    do {
        try body()
        Issue.record("\(way): decoding succeeded; expected an error", sourceLocation: sourceLocation)
    } catch let error as JSONError {
        return error
    } catch {
        Issue.record("\(way): not a JSONError: \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// Decodes with `whole`, then with `pieces` each of `ways`; checks they all give the same value, and returns it.
private func valueEveryWay<V: Equatable>(_ ways: [(name: String, pieces: [[UInt8]])], sourceLocation: SourceLocation,
                                         whole: () throws -> V, pieces: ([[UInt8]]) throws -> V) throws -> V {
    let first = try whole()
    for way in ways {
        #expect(try pieces(way.pieces) == first, "\(way.name)", sourceLocation: sourceLocation)
    }
    return first
}

/// Fails with `whole`, then with `pieces` each of `ways`; checks every way fails with the same code,
/// message, offset, line, column, path and property as the whole buffer, and returns the whole
/// buffer's error.
private func failureEveryWay(_ ways: [(name: String, pieces: [[UInt8]])], sourceLocation: SourceLocation,
                             whole: () throws -> Void, pieces: ([[UInt8]]) throws -> Void) -> JSONError? {
    guard let first = thrownJSONError("whole buffer", sourceLocation: sourceLocation, whole) else { return nil }
    for way in ways {
        guard let error = thrownJSONError(way.name, sourceLocation: sourceLocation, { try pieces(way.pieces) }) else { continue }
        let same = error.code == first.code && error.offset == first.offset && error.line == first.line
            && error.column == first.column && error.path == first.path && error.message == first.message
            && error.property == first.property
        #expect(same, "\(way.name): \(error) / whole: \(first)", sourceLocation: sourceLocation)
    }
    return first
}

/// Decodes `json` whole and in every chunk size; checks they all agree, and returns the result.
func decodeEverywhere<M: JSONObjectModel & Equatable>(_ type: M.Type, _ json: String, options: DecodingOptions = .init(),
                                                sourceLocation: SourceLocation = #_sourceLocation) throws -> M {
    try valueEveryWay(splitWays(Array(json.utf8)), sourceLocation: sourceLocation,
                      whole: { try JSONAdapter.model(type, from: json, options: options) },
                      pieces: { try JSONAdapter.model(type, from: .chunks($0), options: options) })
}

/// Decodes `json` whole and in every chunk size; checks each fails with the same error, and returns it.
func failureEverywhere<M: JSONObjectModel>(_ type: M.Type, _ json: String, options: DecodingOptions = .init(),
                                     sourceLocation: SourceLocation = #_sourceLocation) -> JSONError? {
    failureEveryWay(splitWays(Array(json.utf8)), sourceLocation: sourceLocation,
                    whole: { _ = try JSONAdapter.model(type, from: json, options: options) },
                    pieces: { _ = try JSONAdapter.model(type, from: .chunks($0), options: options) })
}

/// Decodes `bytes` (which may be invalid UTF-8) whole and in every chunk size; checks each fails
/// with the same error, and returns it.
func failureEverywhere<M: JSONObjectModel>(_ type: M.Type, _ bytes: [UInt8], options: DecodingOptions = .init(),
                                     sourceLocation: SourceLocation = #_sourceLocation) -> JSONError? {
    failureEveryWay(splitWays(bytes), sourceLocation: sourceLocation,
                    whole: { _ = try JSONAdapter.model(type, from: Data(bytes), options: options) },
                    pieces: { _ = try JSONAdapter.model(type, from: .chunks($0), options: options) })
}

/// Decodes `bytes` whole, in every chunk size and split at every offset; checks every way gives
/// the same value, and returns it.
func valueAnywhere<V: Equatable>(_ bytes: [UInt8], _ transformer: Transformer<JSONValue, V>, options: DecodingOptions = .init(),
                                 sourceLocation: SourceLocation = #_sourceLocation) throws -> V {
    try valueEveryWay(splitWays(bytes, everySplit: true), sourceLocation: sourceLocation,
                      whole: { try JSONAdapter.value(from: Data(bytes), transformer, options: options) },
                      pieces: { try JSONAdapter.value(from: .chunks($0), transformer, options: options) })
}

/// Decodes `bytes` whole, in every chunk size and split at every offset; checks every way fails
/// with the same code, message, offset, line, column, path and property, and returns the
/// whole-buffer error.
func failureAnywhere<V>(_ bytes: [UInt8], _ transformer: Transformer<JSONValue, V>, options: DecodingOptions = .init(),
                        sourceLocation: SourceLocation = #_sourceLocation) -> JSONError? {
    failureEveryWay(splitWays(bytes, everySplit: true), sourceLocation: sourceLocation,
                    whole: { _ = try JSONAdapter.value(from: Data(bytes), transformer, options: options) },
                    pieces: { _ = try JSONAdapter.value(from: .chunks($0), transformer, options: options) })
}
