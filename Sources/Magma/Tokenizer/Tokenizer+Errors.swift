// Where yajl stops, the grammar says why. A callback that refused its token has stored its own
// error: it is placed at the token's first byte, found after the last token boundary. Any other
// stop is yajl's: the Swift grammar (JSONScanner) reads on from the last token yajl handed over,
// in the state yajl's events left, and its error (code, message, first offending byte) is the
// one both readers report. The grammar also reads the bytes held for a token open across feeds,
// for the size cap.
private import CYajl

extension Tokenizer {
    /// The error that stopped yajl, placed (offset, path, property, and line and column when
    /// lines are tracked). `atEnd`: yajl was completing the parse.
    mutating func failure(atEnd: Bool) -> JSONError {
        var error: JSONError
        if let stored = builder.pointee.takeError() {
            error = stored
            if error.offset == nil { error.offset = builder.pointee.position.tokenStart(comments: allowComments) }
        } else {
            let position = builder.pointee.position
            let from = max(position.boundary, position.consumedBefore - position.carry.count)
            let to = position.consumedBefore + position.input.count
            error = grammarError(from: from, to: to, atEnd: atEnd) ?? yajlError(atEnd: atEnd)
        }
        if error.line == nil, let offset = error.offset { builder.pointee.position.locate(&error, offset: offset) }
        return error
    }

    /// The grammar's error in the held bytes (which begin at offset `start`), read from the last
    /// boundary (a token over the size cap, or an error in bytes held back), or nil when they only
    /// end too soon.
    func heldError(from start: Int) -> JSONError? {
        let bytes = held.bytes
        let from = min(max(builder.pointee.position.boundary - start, 0), bytes.count)
        return grammarError(in: UnsafeRawBufferPointer(rebasing: bytes[from...]), at: start + from, atEnd: false)
    }

    /// The grammar's error in the bytes from offset `from` to `to` of the input (within the carry
    /// and the buffer being parsed), read from the state at the last boundary.
    func grammarError(from: Int, to: Int, atEnd: Bool) -> JSONError? {
        builder.pointee.position.withBytes(from: from, to: to) { bytes in grammarError(in: bytes, at: from, atEnd: atEnd) }
    }

    private func grammarError(in bytes: UnsafeRawBufferPointer, at offset: Int, atEnd: Bool) -> JSONError? {
        if allowComments {
            // The grammar has no comments: they become blanks first, as in a record stream (the
            // bytes begin at a token boundary, outside any comment or string).
            var blanker = CommentBlanker(newlineEndsString: false)
            let blanked = blanker.blank(bytes) + blanker.finish(final: atEnd)
            return blanked.withUnsafeBytes { grammarErrorAsWritten(in: $0, at: offset, atEnd: atEnd) }
        }
        return grammarErrorAsWritten(in: bytes, at: offset, atEnd: atEnd)
    }

    private func grammarErrorAsWritten(in bytes: UnsafeRawBufferPointer, at offset: Int, atEnd: Bool) -> JSONError? {
        let base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        let position = builder.pointee.position
        var scanner = JSONScanner(builder.pointee.options)
        scanner.endIsFinal = atEnd
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: JSONScanner.stackLevels) { local in
            var stack = JSONScanner.Stack(local)
            defer { stack.release() }
            var state = position.state(into: &stack)
            var sink = PassingSink()
            var workspace = JSONScanner.Workspace()
            guard case .failed(var error, let pending) = scanner.run(from: base, to: base + bytes.count, base: base, state: &state,
                                                                      stack: &stack, sink: &sink, workspace: &workspace),
                  atEnd || error.code != .unexpectedEnd else { return nil }
            error.offset = (error.offset ?? 0) + offset
            if let pending { builder.pointee.placePending(&error, pending) } else { builder.pointee.placeHere(&error) }
            return error
        }
    }

    /// yajl's own words, where the grammar found nothing wrong (it never should).
    private func yajlError(atEnd: Bool) -> JSONError {
        let raw = yajl_get_error(handle, 0, nil, 0)
        let message = raw.map { String(cString: $0) } ?? "invalid JSON"
        if let raw { yajl_free_error(handle, raw) }
        var error = JSONError(atEnd ? .unexpectedEnd : .syntax, message.trimmingCharacters(in: .whitespacesAndNewlines))
        error.offset = atEnd ? consumedBefore : consumedBefore + yajl_get_bytes_consumed(handle)
        builder.pointee.placeHere(&error)
        return error
    }
}

import Foundation
