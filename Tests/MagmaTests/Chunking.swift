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

/// Decodes `json` whole and in every chunk size; checks they all agree, and returns the result.
func decodeEverywhere<M: JSONModel & Equatable>(_ type: M.Type, _ json: String, options: DecodingOptions = .init(),
                                                sourceLocation: SourceLocation = #_sourceLocation) throws -> M {
    let whole = try JSONAdapter.model(type, from: json, options: options)
    for size in chunkSizes {
        let chunked = try JSONAdapter.model(type, fromChunks: chunks(Array(json.utf8), size), options: options)
        #expect(chunked == whole, "chunk size \(size)", sourceLocation: sourceLocation)
    }
    return whole
}

/// Decodes `json` whole and in every chunk size; checks each fails with the same error, and returns it.
func failureEverywhere<M: JSONModel>(_ type: M.Type, _ json: String, options: DecodingOptions = .init(),
                                     sourceLocation: SourceLocation = #_sourceLocation) -> JSONError? {
    var first: JSONError?
    do {
        _ = try JSONAdapter.model(type, from: json, options: options)
        Issue.record("decoding succeeded; expected an error", sourceLocation: sourceLocation)
        return nil
    } catch let error as JSONError {
        first = error
    } catch {
        Issue.record("not a JSONError: \(error)", sourceLocation: sourceLocation)
        return nil
    }
    for size in chunkSizes {
        do {
            _ = try JSONAdapter.model(type, fromChunks: chunks(Array(json.utf8), size), options: options)
            Issue.record("chunk size \(size): decoding succeeded", sourceLocation: sourceLocation)
        } catch let error as JSONError {
            #expect(error.code == first?.code, "chunk size \(size)", sourceLocation: sourceLocation)
            #expect(error.path == first?.path, "chunk size \(size)", sourceLocation: sourceLocation)
            #expect(error.offset == first?.offset, "chunk size \(size)", sourceLocation: sourceLocation)
            #expect(error.line == first?.line, "chunk size \(size)", sourceLocation: sourceLocation)
            #expect(error.column == first?.column, "chunk size \(size)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("not a JSONError: \(error)", sourceLocation: sourceLocation)
        }
    }
    return first
}
