import Foundation

/// The records of an async sequence of byte chunks; see ``JSONAdapter/records(_:from:layout:options:errorPolicy:progress:onSkip:)->AsyncRecords<M,Chunks>``.
public struct AsyncRecords<Model, Chunks: AsyncSequence>: AsyncSequence where Chunks.Element: ContiguousBytes {
    public typealias Element = Model
    let chunks: Chunks
    let makeDecoder: (@escaping (Model) throws -> Void) -> RecordDecoder<Model>
    /// The layout's envelope, for the deprecated ``envelope(_:)``.
    let layoutEnvelope: (any EnvelopeSlot)?

    init(chunks: Chunks, envelope: (any EnvelopeSlot)? = nil,
         makeDecoder: @escaping (@escaping (Model) throws -> Void) -> RecordDecoder<Model>) {
        self.chunks = chunks
        layoutEnvelope = envelope
        self.makeDecoder = makeDecoder
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(chunks: chunks.makeAsyncIterator(), makeDecoder: makeDecoder)
    }

    @available(*, deprecated, message: "lay the records out with .array(at:envelope:) and read the Envelope's model")
    public func envelope<E: JSONObjectModel>(_ type: E.Type = E.self) -> E? { (layoutEnvelope as? Envelope<E>)?.model }

    /// Pulls chunks only while no decoded record is waiting.
    public struct Iterator: AsyncIteratorProtocol {
        private var chunks: Chunks.AsyncIterator
        private let ready: Queue
        private let decoder: RecordDecoder<Model>
        private var ended = false
        /// The error that ended the input, thrown once the records before it are delivered.
        private var failure: (any Error)?

        init(chunks: Chunks.AsyncIterator, makeDecoder: (@escaping (Model) throws -> Void) -> RecordDecoder<Model>) {
            self.chunks = chunks
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
