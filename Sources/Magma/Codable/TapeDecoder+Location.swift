// TapeDecoder+Location.swift — Magma
//
// Where an error in the tape lies, placed when it leaves the decode (moved out of TapeDecoder.swift).

import Foundation

/// The tape entry a `DecodingError` is about, until `Tape.place` turns it into the error's
/// location (the `underlyingError` of a decoding error that escapes `decode` inside an error of
/// `init(from:)`'s own, or is thrown by a decoder `init(from:)` kept, stays this).
struct PendingLocation: Error, CustomStringConvertible {
    let index: Int
    let code: JSONError.Code?
    let path: String?
    /// What Magma says of the error where JSONDecoder's text says less (a number out of range).
    let message: String?
    var description: String { "the value at tape entry \(index)" }
}

extension Tape {
    /// `error` as the caller of a decode sees it: a `DecodingError` marked by `TapeDecoder.located`
    /// keeps JSONDecoder's text and gets, as its underlying error, a `JSONError` with the line,
    /// column and byte offset of its value and the JSON path. Anything else is returned as it is.
    func place(_ error: any Error) -> any Error {
        guard let decoding = error as? DecodingError else { return error }
        func relocate(_ context: DecodingError.Context) -> DecodingError.Context {
            guard let pending = context.underlyingError as? PendingLocation else { return context }
            let i = pending.index
            var underlying = JSONError(pending.code ?? decoding.jsonCode, pending.message ?? context.debugDescription)
            underlying.path = pending.path ?? JSONPathText.render(context.codingPath)
            if i >= 0 {
                let e = self[i]
                // A string's text starts after its quote: point at the quote.
                let offset = (e.kind == .string || e.kind == .key) && !e.inSide ? e.offset - 1 : e.offset
                underlying.offset = offset
                if let (line, column) = lineAndColumn(of: offset) {
                    underlying.line = line
                    underlying.column = column
                }
            }
            return DecodingError.Context(codingPath: context.codingPath, debugDescription: context.debugDescription, underlyingError: underlying)
        }
        return decoding.withContext(relocate)
    }
}

extension DecodingError {
    /// The ``JSONError/Code`` that says what this error says.
    var jsonCode: JSONError.Code {
        switch self {
        case .typeMismatch: .typeMismatch
        case .valueNotFound: .nullValue
        case .keyNotFound: .missingKey
        default: .invalidValue
        }
    }

    /// The error's context.
    var context: Context? {
        switch self {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c): c
        @unknown default: nil
        }
    }

    /// The same error with the context `transform` makes of its own.
    func withContext(_ transform: (Context) -> Context) -> DecodingError {
        switch self {
        case .typeMismatch(let type, let context): .typeMismatch(type, transform(context))
        case .valueNotFound(let type, let context): .valueNotFound(type, transform(context))
        case .keyNotFound(let key, let context): .keyNotFound(key, transform(context))
        case .dataCorrupted(let context): .dataCorrupted(transform(context))
        @unknown default: self
        }
    }
}
