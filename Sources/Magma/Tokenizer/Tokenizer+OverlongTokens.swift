// The Tokenizer in a stream that skips bad records: a string or number over the size cap is read
// past instead of held, and its record skipped once it ends, as one whole buffer skips it.
private import CYajl

extension Tokenizer {

    /// The token open at the end of the held bytes has passed the cap and its record can be
    /// skipped: from here on its bytes are read past (`skipOverlongToken`). yajl is fed the rest
    /// of it held (it holds the token from its start, over the cap, in O(cap) bytes), then nothing
    /// more of it; nothing is held.
    mutating func beginSkipping(_ token: OverlongToken) throws(JSONError) {
        // Inside the token, without a byte yajl rejects: no event, no error.
        if held.fedCount < held.count { try feedDirect(held.heldBackBytes, carry: held.fedBytes) }
        var token = token
        token.markFedToYajl()
        overlong = token
        held.removeAll()
        stallSize = 0
        nextSizeCheck = maxTokenLength &+ 1
    }

    /// Reads past the over-long token in `chunk`. Its bytes count as input (offsets, lines), but
    /// only its ending goes to yajl (`endOverlongToken`).
    /// - Returns: Where the token ends in `chunk`, or nil if it runs on past it.
    mutating func skipOverlongToken(_ chunk: UnsafeRawBufferPointer) throws(JSONError) -> Int? {
        let outcome = overlong!.advance(over: chunk)
        // A byte yajl rejects: one whole buffer fails the token with the cap's error, not the record.
        if case .invalid = outcome { throw overlongError(overlong!) }
        var end: Int?
        if case .ended(let e) = outcome { end = e }
        let read = UnsafeRawBufferPointer(rebasing: chunk[..<(end ?? chunk.count)])
        lines?.count(read, at: consumedBefore)
        consumedBefore += read.count
        if end != nil { try endOverlongToken() }
        return end
    }

    /// The over-long token has ended (at `consumedBefore`): yajl gets a short ending for the part it
    /// holds, and passes the token to the builder, which fails it at its start, as it fails the
    /// whole token from one whole buffer, and skips its record.
    mutating func endOverlongToken() throws(JSONError) {
        let token = overlong!
        overlong = nil
        builder.pointee.cutTokenStart = token.start
        defer { builder.pointee.cutTokenStart = nil }
        builder.pointee.position = FeedPosition(handle: handle, consumedBefore: consumedBefore, lines: lines)
        builder.pointee.lastTokenEnd = nil
        let status = token.yajlEnding.withUnsafeBufferPointer { yajl_parse(handle, $0.baseAddress, $0.count) }
        if status == yajl_status_ok { return }
        if status == yajl_status_client_canceled, var error = builder.pointee.takeError() {
            if let offset = error.offset { lines?.locate(&error, offset: offset, at: consumedBefore) }
            throw error
        }
        // yajl rejects the token where it stands: one whole buffer gives the cap's error.
        throw overlongError(token)
    }

    func overlongError(_ token: OverlongToken) -> JSONError {
        tokenTooLong(token.kind, at: token.start, pending: builder.pointee.pendingToken(afterColon: token.afterColon))
    }
}
