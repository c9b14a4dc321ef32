// The records of a request body, for the server adapters: an error of the body's (a bad record
// with `.stop`, a syntax error in an array, a line over the record size limit) comes out as a
// JSONBodyError, which each framework answers with a 400 or 413; any other error is left as it was.
#if NIO
import Magma

/// A request body's records, whose bad-input errors are ``JSONBodyError``s.
public struct BodyRecords<Records: AsyncSequence>: AsyncSequence {
    /// A record.
    public typealias Element = Records.Element

    let records: Records

    /// Wraps a record stream read from a request body.
    /// - Parameter records: The records (``JSONAdapter``'s `records` over the body).
    public init(_ records: Records) {
        self.records = records
    }

    /// Begins an iteration.
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: records.makeAsyncIterator())
    }

    /// Gives the records of the wrapped stream, its errors of bad input as ``JSONBodyError``s.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Records.AsyncIterator

        /// The next record.
        /// - Returns: The record, or nil at the end of the body.
        /// - Throws: ``JSONBodyError`` for bad input; any other error as it was thrown.
        public mutating func next() async throws -> Element? {
            do {
                return try await base.next()
            } catch {
                throw JSONBodyError(reading: error) ?? error
            }
        }
    }
}
#endif
