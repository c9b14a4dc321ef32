// TokenSink.swift — Magma
//
// The yajl boundary's one interface upward: what a `Tokenizer` feeds (the `EventBuilder`,
// EventBuilder+Tokenizer.swift), and what the Tokenizer's repairs ask of it. `DocumentSink` is the
// same interface's half for the document scanner. The Tokenizer is generic over its sink, so each
// call is specialised and direct: no event pays an indirection for the boundary.

/// What a `Tokenizer` hands yajl's events to, and asks while it repairs yajl's gaps.
///
/// The events themselves reach the sink through `tokenCallbacks` (C function pointers cannot be
/// generic, so the sink's layer writes them); the Tokenizer calls the members below from its
/// repairs: the skip past yajl, the positions of errors in tokens that span feeds, the size cap.
protocol TokenSink {
    /// yajl's callback table for this kind of sink; each callback recovers the sink from yajl's
    /// context pointer (the pointer the Tokenizer was made with).
    static var tokenCallbacks: TokenCallbacks { get }

    /// The options of the decode: comments, the size cap and depth limit, the skip past yajl.
    var options: DecodingOptions { get }
    /// Where the handle being fed stands (set by the Tokenizer before each call into yajl).
    var position: FeedPosition { get set }
    /// One past the last string, key or number read straight from the buffer being parsed.
    var lastTokenEnd: UnsafeRawPointer? { get set }
    /// Set when a key callback read the unmapped values after it past yajl and cancelled the
    /// parse: where the Tokenizer resumes yajl.
    var resumeAt: UnsafeRawPointer? { get set }
    /// The offset of a string or number over the cap that the Tokenizer reads past, while yajl
    /// hands over the part of it yajl holds.
    var cutTokenStart: Int? { get set }
    /// Counts the events, so the Tokenizer sees a feed that produced none.
    var eventCount: Int { get }

    /// A key from yajl (checked as a key token is).
    mutating func keyToken(_ bytes: UnsafeRawBufferPointer) -> Bool
    mutating func startObject() -> Bool
    mutating func startArray() -> Bool

    /// Whether the value after the key just read goes nowhere (it may be read past yajl).
    var skipsNextValue: Bool { get }
    /// Asked after a key: nil to be handed its value, or how many levels of containers the value
    /// may hold (the depth limit) to have it read past yajl (`DocumentSink.skipRoom`).
    var skipRoom: Int? { get }
    /// Whether `bytes`, a key of the object on top as written, is one whose value only goes nowhere.
    mutating func isUnmappedKey(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// Notes the key of a value read past yajl, for the path of an error right after it.
    mutating func rememberUnmappedKey(_ bytes: UnsafeRawBufferPointer)
    /// Whether the rest of a value is being read past by counting.
    var isSkipping: Bool { get }
    /// How many levels a value being skipped may still open inside itself.
    var skipNestingRoom: Int { get }

    /// Takes the error a failing event stored (the Tokenizer adds offset, line and column).
    mutating func takeError() -> JSONError?
    /// The length in the input of the token whose event failed (yajl has consumed through its end).
    var failureTokenLength: Int { get }
    /// Whether an error here skips the record (a stream that skips bad records) rather than stops.
    var recoversHere: Bool { get }
    /// The JSON path of the value being read; with `pending`, of the token not handed over yet.
    func currentPath(pending: PendingToken?) -> String
    /// What a string or number begun right after `:` (`afterColon`), or else after `,` `{` `[`, is.
    func pendingToken(afterColon: Bool) -> PendingToken
    /// The size cap's error for a string or number (`what`), named a key when it is one.
    mutating func tokenTooLong(_ what: String, isKey: Bool) -> JSONError
    /// Places an error in a token that has not been handed over yet (its path and property).
    mutating func placePending(_ error: inout JSONError, _ pending: PendingToken)
}

extension TokenSink {
    /// The JSON path of the value being read.
    func currentPath() -> String { currentPath(pending: nil) }
}

/// A token that has begun but not reached the sink yet, for the path of an error in it.
enum PendingToken {
    /// A value: the next element of an array, or the value of an object's current key.
    case value
    /// An object key: it replaces the current one, so the path is the object's own.
    case key
}
