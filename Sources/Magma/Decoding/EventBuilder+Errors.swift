// EventBuilder's errors: a failing event stores its error and stops yajl; in a stream that skips
// bad records, the error unwinds to the record's frame and the rest of the record is read past.

import Foundation

extension EventBuilder {

    /// The size cap's error for a string or number (`what`), named a key when it is one: not in a
    /// skipped subtree, where the Tokenizer, which fails a token that spans feeds before yajl has
    /// read it whole, cannot tell a key from a value after a `,` (no container kinds are kept while
    /// skipping), and any chunking must give the error one whole buffer gives.
    mutating func tokenTooLong(_ what: String, isKey: Bool) -> JSONError {
        failedBeforeFrames = true
        return JSONError.tokenTooLong(isKey && skipDepth == 0 ? "key" : what, limit: options.maxTokenLength)
    }

    mutating func failDepth() -> Bool {
        fail(JSONError(.depthLimitExceeded, "nesting deeper than the limit of \(options.maxDepth)"), nil, tokenLength: 1,
             opened: 1)
    }

    /// Stores `error` with its location and returns false, which stops yajl. `tokenLength` is the
    /// offending token's length in the input, so the Tokenizer can point at its start (yajl has
    /// consumed through its end). A string's length is its decoded bytes plus quotes, exact unless
    /// it holds escapes; then the offset falls inside the string.
    ///
    /// Where a recovery point takes the error (a stream that skips bad records, a lossy
    /// collection, a property that keeps its default: see `recoveries`), it does not stop yajl:
    /// the frames above the point are discarded and the JSON containers still open in the value
    /// (`opened` says whether the failing event opened (+1) or closed (-1) one without a frame
    /// for it) are skipped by counting, so the next record, element or key starts clean. Errors
    /// the caller's record handler throws always stop.
    ///
    /// An error's path of `$` is taken for one not set yet, and set to where the builder stands;
    /// `placed` says it is set already (`placePending`: a key of a top-level object is at `$`),
    /// which also says the failing token has not reached the frames (see `failedBeforeFrames`).
    mutating func fail(_ error: any Error, _ target: ValueTarget?, tokenLength: Int = 0, opened: Int = 0,
                       placed: Bool = false) -> Bool {
        failureTokenLength = tokenLength
        failedBeforeFrames = placed
        var e = placing(error, target, tokenLength: tokenLength, placed: placed)
        if let point = recoveryIndex(for: error, code: e.code, inText: placed).map({ recoveries[$0] }) {
            let recordDepth = point.depth
            // In the rest of a record already skipped (its tokens are still checked): it was
            // reported once, and the containers open in it are counted already.
            if depth == recordDepth, skipDepth > 0 { skipDepth += opened; return true }
            // Containers being skipped (an unmapped key's value) are open in the record too.
            let open = depth - recordDepth + skipDepth + opened
            // A token failed before the frames at the records' level is a record not counted yet.
            let counted = !(placed && depth == recordDepth)
            let index = recordDepth > 0 ? frames[recordDepth - 1].count - (counted ? 1 : 0)
                                        : point.sink.topLevelRecordIndex(valueStarted: counted)
            // Counted now, so the record after it has an index of its own.
            if !counted {
                if recordDepth > 0 { countSkippedRecord() } else { point.sink.countSkippedTopLevel() }
            }
            locate(&e, tokenLength: tokenLength)
            unwind(to: recordDepth)
            // The points above it have gone with their frames; a value's own point with its value.
            while let last = recoveries.last, last.sink !== point.sink || last.depth != recordDepth { recoveries.removeLast() }
            if point.sink.recoversOnce { recoveries.removeLast() }
            skipDepth = max(open, 0)
            do { try point.sink.recovered(e, recordIndex: index, at: point, &self) } catch {
                failure = error as? JSONError ?? e
                return false
            }
            return true
        }
        failure = e
        return false
    }

    /// `error` as a `JSONError` at the value being read (`target`'s, `tokenLength` bytes long):
    /// its path and property where it has none (with `placed`, its path is set already).
    func placing(_ error: any Error, _ target: ValueTarget?, tokenLength: Int, placed: Bool = false) -> JSONError {
        var e = error as? JSONError ?? JSONError(.invalidValue, "\(error)", underlying: error)
        if !placed, e.path == "$" { e.path = currentPath() }
        if e.property == nil { e.property = target?.property ?? enclosingProperty() }
        if e.offset == nil, let end = replayedTokenEnd { e.offset = end - tokenLength }
        return e
    }

    /// Places an error the read goes on after, as one that stops it is placed (Tokenizer.error):
    /// the offset of the failing token (`tokenLength` bytes long), its line and column.
    mutating func locate(_ e: inout JSONError, tokenLength: Int) {
        if e.offset == nil, let end = tokenEnd() { e.offset = end - tokenLength }
        if e.line == nil, let offset = e.offset { position.locate(&e, offset: offset) }
        locateScanned(&e)
    }

    /// Whether the rest of a value is being read past by counting (an unmapped value, or a
    /// record skipped after an error).
    var isSkipping: Bool { skipDepth > 0 }

    /// Discards the frames above `frameDepth` (after an error: their values are incomplete).
    mutating func unwind(to frameDepth: Int) {
        while depth > frameDepth {
            let frame = frames[depth - 1]
            frame.owner?.takeUnretainedValue().discard(frame.storage, &self)
            depth -= 1
        }
        while let last = recoveries.last, last.depth > frameDepth { recoveries.removeLast() }
    }

    /// Back to the state before the first event, keeping the stack and pool for the next value.
    mutating func reset() {
        unwind(to: 0)
        skipDepth = 0
        captures.removeAll(keepingCapacity: true)
        failure = nil
    }

    /// After an error: moves out what the top-level array had accumulated (the elements decoded
    /// before the failing one), leaving an empty array for `destroy()` to discard.
    mutating func takeRootElements<Element>(_ type: [Element].Type) -> [Element] {
        guard depth > 0, frames[0].kind == .array, frames[0].starter?.toOpaque() == root.toOpaque() else { return [] }
        let accumulator = frames[0].storage.assumingMemoryBound(to: [Element].self)
        let elements = accumulator.move()
        accumulator.initialize(to: [])
        return elements
    }

    /// The property of the innermost key being read, for errors raised inside its value (an
    /// array element, a dictionary member, a captured object).
    func enclosingProperty() -> String? {
        for i in stride(from: depth - 1, through: 0, by: -1) {
            let frame = frames[i]
            guard frame.kind == .model || frame.kind == .path || frame.kind == .pathArray, frame.entry >= 0,
                  let node = frame.node?.takeUnretainedValue() else { continue }
            return node.entries[Int(frame.entry)].target.takeUnretainedValue().property
        }
        return nil
    }

    /// Takes the stored error (the Tokenizer adds offset, line and column).
    mutating func takeError() -> JSONError? {
        defer { failure = nil }
        return failure
    }

    /// The JSON path of the value being read, e.g. `$[12].user.login`. With `pending`, of the
    /// token that has begun but not reached the builder yet (the next array element; for a key,
    /// the object, not the key before it).
    func currentPath(pending: PendingToken? = nil) -> String {
        var components: [String] = []
        for i in 0..<depth {
            let frame = frames[i]
            if let pending, skipDepth == 0, i == depth - 1 {
                if pending == .value, frame.kind == .array || frame.kind == .pathArray {
                    components.append("[\(frame.count)]")
                    continue
                }
                if pending == .key, frame.kind == .model || frame.kind == .path || frame.kind == .dictionary { continue }
            }
            switch frame.kind {
            case .model, .path:
                if frame.entry >= 0, let node = frame.node?.takeUnretainedValue() {
                    components.append(JSONPath.component(node.names[Int(frame.entry)]))
                } else if frame.entry == -2 {
                    components.append(JSONPath.component(unmappedKeyText()))
                }
            case .array, .pathArray:
                if frame.count > 0 { components.append("[\(frame.count - 1)]") }
            case .dictionary:
                if let key = frame.owner?.takeUnretainedValue().currentKey(frame.storage, fromTop: depth - 1 - i) {
                    components.append(JSONPath.component(key))
                }
            }
        }
        return JSONPath.joined(components)
    }
}

extension EventBuilder {
    /// The unmapped key last read, for a message (its first and last eight bytes when longer).
    func unmappedKeyText() -> String {
        let (n, head, tail) = unmappedKey
        func bytes(_ word: UInt64, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: word >> (8 * UInt64($0))) } }
        if n < 8 { return String(decoding: bytes(head, n), as: UTF8.self) }
        if n <= 16 { return String(decoding: bytes(head, 8) + bytes(tail, 8).suffix(n - 8), as: UTF8.self) }
        return String(decoding: bytes(head, 8), as: UTF8.self) + "…" + String(decoding: bytes(tail, 8), as: UTF8.self)
    }
}
