/// Receives the errors of the values a read recovers from (see `EventBuilder.recoveries`): a
/// stream's skipped records (and may stop the stream by throwing), a lossy collection's dropped
/// elements, a property's invalid value that leaves it its default.
class RecoverySink {
    /// Whether an error in a token's text (invalid UTF-8, a token over the size cap) is recovered
    /// here too: a stream's records are; a collection's elements and a property's value are not,
    /// as the input itself is bad there.
    var recoversTextErrors: Bool { true }
    /// Whether the point goes once it has recovered (a property's one value) rather than staying
    /// for the next records or elements.
    var recoversOnce: Bool { false }

    func skipped(_ error: JSONError) throws {}

    /// An error recovered at `point` (the frames above it are gone, the rest of the value is read
    /// past). By default a skipped record: `recordIndex` is its index.
    func recovered(_ error: JSONError, recordIndex: Int?, at point: RecoveryPoint, _ b: inout EventBuilder) throws {
        var error = error
        error.recordIndex = recordIndex
        try skipped(error)
    }

    /// The index of the record an error is in, when records are top-level values (which no frame
    /// counts); nil when the sink does not know.
    /// - Parameter valueStarted: Whether the failing token began a value the records' counter has
    ///   seen (not one that failed before reaching the frames).
    func topLevelRecordIndex(valueStarted: Bool) -> Int? { nil }

    /// A top-level record that failed before it began (its first token) is counted.
    func countSkippedTopLevel() {}
}

/// A frame depth where errors are recovered from, and who takes them (see `EventBuilder.recoveries`).
struct RecoveryPoint {
    let depth: Int
    let sink: RecoverySink
    /// The storage the value recovered from is written to, where the sink needs it.
    var context: UnsafeMutableRawPointer? = nil
}

extension EventBuilder {
    /// Recovers errors at or above the current depth with `sink` from now on.
    mutating func beginRecovery(_ sink: RecoverySink) {
        beginRecovery(RecoveryPoint(depth: depth, sink: sink))
    }

    /// Adds `point` among the points, which stay in depth order (the innermost last): a value's
    /// point may be added after the points its container's frame added.
    mutating func beginRecovery(_ point: RecoveryPoint) {
        let index = recoveries.lastIndex { $0.depth <= point.depth }.map { $0 + 1 } ?? 0
        recoveries.insert(point, at: index)
    }

    /// Ends the innermost point of `sink` (its value has ended; any point above it has gone).
    mutating func endRecovery(_ sink: RecoverySink) {
        guard let index = recoveries.lastIndex(where: { $0.sink === sink }) else { return }
        recoveries.remove(at: index)
    }

    /// The innermost point that takes `error` here, if any: never an error thrown by a record
    /// handler, nor one too deep (only stopping bounds what a stream of brackets costs); an
    /// error in a token's text (`inText`) only where the sink takes those.
    func recoveryIndex(for error: any Error, code: JSONError.Code, inText: Bool) -> Int? {
        guard !recoveries.isEmpty, !(error is RecordHandlerError), code != .depthLimitExceeded else { return nil }
        return recoveries.lastIndex { depth >= $0.depth && (!inText || $0.sink.recoversTextErrors) }
    }
}

/// Wraps an error thrown by the caller's record handler, so it stops the stream instead of being
/// taken for a bad record.
struct RecordHandlerError: Error {
    let error: any Error
}
