// TokenSink.swift — Magma
//
// The yajl boundary's one interface upward: what a `Tokenizer` feeds (the `EventBuilder`,
// EventBuilder+Tokenizer.swift), and what the Tokenizer asks of it to place an error. `ScanSink`
// is the scanner's. The Tokenizer is generic over its sink, so each call is specialised and direct.

/// What a `Tokenizer` hands yajl's events to.
///
/// The events themselves reach the sink through `tokenCallbacks` (C function pointers cannot be
/// generic, so the sink's layer writes them), each after `Tokenizer.note` has moved `position`.
protocol TokenSink {
    /// yajl's callback table for this kind of sink; each callback recovers the sink from yajl's
    /// context pointer (the pointer the Tokenizer was made with).
    static var tokenCallbacks: TokenCallbacks { get }

    /// The options of the decode: comments, the size cap and depth limit.
    var options: DecodingOptions { get }
    /// Where yajl stands (set by the Tokenizer before each feed, moved by the callbacks).
    var position: FeedPosition { get set }
    /// Counts the events, so the Tokenizer sees a feed that produced none.
    var eventCount: Int { get }

    /// Takes the error a failing event stored (the Tokenizer adds offset, line and column).
    mutating func takeError() -> JSONError?
    /// Places an error in a token that has not been handed over (its path and property).
    mutating func placePending(_ error: inout JSONError, _ pending: PendingToken)
    /// Places an error where the sink stands (its path and property).
    mutating func placeHere(_ error: inout JSONError)
}

/// A token that has begun but not reached the sink yet, for the path of an error in it.
enum PendingToken {
    /// A value: the next element of an array, or the value of an object's current key.
    case value
    /// An object key: it replaces the current one, so the path is the object's own.
    case key
}
