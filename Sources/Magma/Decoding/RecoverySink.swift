/// Receives the errors of skipped records in a stream (and may stop it by throwing).
class RecoverySink {
    func skipped(_ error: JSONError) throws {}
    /// The index of the record an error is in, when records are top-level values (which no frame
    /// counts); nil when the sink does not know.
    /// - Parameter valueStarted: Whether the failing token began a value the records' counter has
    ///   seen (not one that failed before reaching the frames).
    func topLevelRecordIndex(valueStarted: Bool) -> Int? { nil }
}

/// Wraps an error thrown by the caller's record handler, so it stops the stream instead of being
/// taken for a bad record.
struct RecordHandlerError: Error {
    let error: any Error
}
