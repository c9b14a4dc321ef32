import Foundation

/// The records of an async sequence of byte chunks; see ``JSONAdapter/records(_:from:layout:options:errorPolicy:progress:onSkip:)->AsyncRecords<M,Chunks>``.
public struct AsyncRecords<Model, Chunks: AsyncSequence>: AsyncSequence where Chunks.Element: ContiguousBytes {
    public typealias Element = Model
    let chunks: Chunks
    let makeDecoder: (@escaping (Model) throws -> Void) -> RecordDecoder<Model>
    private let ended = EnvelopeBox()

    init(chunks: Chunks, makeDecoder: @escaping (@escaping (Model) throws -> Void) -> RecordDecoder<Model>) {
        self.chunks = chunks
        self.makeDecoder = makeDecoder
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(chunks: chunks.makeAsyncIterator(), makeDecoder: makeDecoder, envelope: ended)
    }

    /// The envelope of a sequence made with an envelope model, once an iteration has reached the
    /// end of the input (nil before, and for a sequence made with a `layout`, `.array(at:)`
    /// included: that one ignores the envelope's fields).
    /// - Parameter type: The envelope model given to ``JSONAdapter/records(_:from:at:envelope:options:errorPolicy:progress:)``.
    /// - Returns: The envelope of the last iteration that ended.
    public func envelope<E: JSONObjectModel>(_ type: E.Type = E.self) -> E? { ended.value as? E }

    final class EnvelopeBox: @unchecked Sendable {
        var value: Any?
    }

    /// Pulls chunks only while no decoded record is waiting.
    public struct Iterator: AsyncIteratorProtocol {
        private var chunks: Chunks.AsyncIterator
        private let ready: Queue
        private let decoder: RecordDecoder<Model>
        private let envelope: EnvelopeBox
        private var ended = false
        /// The error that ended the input, thrown once the records before it are delivered.
        private var failure: (any Error)?

        init(chunks: Chunks.AsyncIterator, makeDecoder: (@escaping (Model) throws -> Void) -> RecordDecoder<Model>,
             envelope: EnvelopeBox) {
            self.chunks = chunks
            self.envelope = envelope
            let ready = Queue()
            self.ready = ready
            decoder = makeDecoder { ready.items.append($0) }
        }

        public mutating func next() async throws -> Model? {
            while true {
                if ready.head < ready.items.count {
                    defer {
                        ready.head += 1
                        if ready.head == ready.items.count { ready.items.removeAll(keepingCapacity: true); ready.head = 0 }
                    }
                    return ready.items[ready.head]
                }
                if let failure {
                    self.failure = nil
                    throw failure
                }
                if ended { return nil }
                do {
                    if let chunk = try await chunks.next() {
                        try decoder.feed(chunk)
                    } else {
                        ended = true
                        try decoder.finish()
                        envelope.value = decoder.envelopeValue
                    }
                } catch {
                    // The records the chunk completed before the error come first.
                    ended = true
                    failure = error
                }
            }
        }

        final class Queue {
            var items: [Model] = []
            var head = 0
        }
    }
}
