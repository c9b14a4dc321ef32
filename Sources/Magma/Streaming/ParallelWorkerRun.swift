import Foundation
import Synchronization

/// One run of `forEachRecordInParallel`'s worker form: the reads and the batches of a
/// ``ParallelRecordStream``, but each worker hands the records it decoded to `body` itself, with a
/// state of its own, so that a record is allocated, used and freed on one thread.
///
/// A record goes to `body` as soon as it is decoded once every batch before its batch has been
/// decoded without a failure (with `.skip` a batch cannot fail: at once). Until then its worker
/// keeps the batch's records ("parked"), gives them to `body` when that becomes known (during a
/// later record of the batch, or once the batch is decoded, between batches), and decodes on. So
/// with `.stop` no record after the first bad line is given to `body`, and every record before
/// it is. The calling thread places the batches' errors in the document, in input order, once
/// their records have been given to `body`.
///
/// All state here is read and written under the stream's `monitor` (`cleanPrefixNow`, an atomic
/// copy, is also read without it); every change is broadcast.
final class ParallelWorkerRun<M: SendableMetatype, State>: @unchecked Sendable {
    typealias Stream = ParallelRecordStream<M>

    private struct Parked {
        let sequence: Int
        let bytes: Int
        let models: [M]
    }

    private let stream: Stream
    private let makeState: @Sendable () -> State
    private let body: @Sendable (inout State, M) throws -> Void

    /// The decoded batches not yet placed, without their records.
    private var outcomes: [Int: Stream.Decoded] = [:]
    /// The batches whose records have been given to `body` (a failed batch: those before its bad line).
    private var delivered: Set<Int> = []
    /// Every batch before `cleanPrefix` has been decoded without a failure; `cleanAhead` holds
    /// the clean batches after it.
    private var cleanPrefix = 0
    private var cleanAhead: Set<Int> = []
    /// `cleanPrefix`, read without the monitor by a worker deciding whether a record may go to
    /// `body` as soon as it is decoded.
    private let cleanPrefixNow = Atomic<Int>(0)
    /// The first error `body` threw: the stream stops.
    private var bodyError: (any Error)?
    /// Each worker's state, once it has ended.
    private var states: [State] = []

    init(stream: Stream, makeState: @escaping @Sendable () -> State, body: @escaping @Sendable (inout State, M) throws -> Void) {
        self.stream = stream
        self.makeState = makeState
        self.body = body
    }

    /// Starts the workers, places the errors, and returns once every thread has ended.
    func run() throws -> (states: [State], skipped: SkippedRecords) {
        stream.start { [self] in work() }
        let placed = Result { try place() }
        stream.stopAndWait()
        return (states, try placed.get())
    }

    // MARK: The caller's thread

    /// Places each batch's errors in the document, in input order, once its records are delivered.
    private func place() throws -> SkippedRecords {
        let monitor = stream.monitor
        var skipped = SkippedRecords(limit: stream.options.keptSkippedErrors)
        var placedBatches = 0, placement = Stream.Placement()
        while true {
            monitor.lock()
            var next: Stream.Decoded?
            while true {
                if let bodyError {
                    monitor.unlock()
                    throw bodyError
                }
                if delivered.contains(placedBatches) {
                    delivered.remove(placedBatches)
                    next = outcomes.removeValue(forKey: placedBatches)
                    break
                }
                if stream.readEnded && placedBatches >= stream.emitted { break }
                monitor.wait()
            }
            let readError = stream.readError
            monitor.unlock()
            guard let next else {
                if let readError { throw readError }
                return skipped
            }
            try placement.place(next, into: &skipped, progress: stream.progress)
            placedBatches += 1
        }
    }

    // MARK: The workers

    /// Whether the records of batch `sequence` may go to `body` now: with `.skip` always, with
    /// `.stop` once every batch before it has been decoded without a failure.
    private func mayDeliver(_ sequence: Int) -> Bool {
        stream.policy == .skip || cleanPrefixNow.load(ordering: .acquiring) >= sequence
    }

    /// Gives records to `body`, in order, and counts them in the progress (once: an atomic add
    /// per record from every worker would contend for the handle's cache line).
    private func deliver(_ records: [M], _ state: inout State) throws {
        var given = 0
        defer { stream.progress?.records.add(given, ordering: .relaxed) }
        try records.withUnsafeBufferPointer { records in
            for index in records.indices {
                try body(&state, records[index])
                given += 1
            }
        }
    }

    /// Gives a parked batch's records to `body`, then counts the batch delivered.
    private func deliver(_ batch: Parked, _ state: inout State) throws {
        try deliver(batch.models, &state)
        let monitor = stream.monitor
        monitor.lock()
        delivered.insert(batch.sequence)
        stream.inFlight -= batch.bytes
        monitor.broadcast()
        monitor.unlock()
    }

    private func work() {
        let monitor = stream.monitor
        var state = makeState()
        defer {
            monitor.lock()
            states.append(state)
            monitor.unlock()
        }
        // This worker's decoded batches waiting for the batches before them, in input order.
        var parked: [Parked] = []
        // The batch being decoded: whether its records go to `body` as they are decoded, and
        // until then, those decoded (kept in order, in storage kept from batch to batch); the
        // records it gave to `body` directly, added to the progress once the batch is decoded.
        var sequence = 0, direct = false
        var kept: [M] = []
        var given = 0
        var bodyThrew = false
        var decoder = stream.makeDecoder { [self] model in
            do {
                if !direct, mayDeliver(sequence) {
                    // Every batch before this one is clean: this worker's parked ones go first.
                    for batch in parked { try deliver(batch, &state) }
                    parked.removeAll()
                    try deliver(kept, &state)
                    kept.removeAll(keepingCapacity: true)
                    direct = true
                }
                if direct {
                    try body(&state, model)
                    given += 1
                } else {
                    kept.append(model)
                }
            } catch {
                bodyThrew = true
                throw error
            }
        }
        let buffer = BatchBuffer()
        while true {
            monitor.lock()
            var claimed: Stream.Batch?
            var ready = 0
            while !stream.stopped {
                ready = parked.prefix { $0.sequence > stream.failedAt || stream.policy == .skip || cleanPrefix >= $0.sequence }.count
                if ready > 0 { break }
                claimed = stream.claimLocked()
                if claimed != nil { break }
                if stream.readEnded && parked.isEmpty { break }
                monitor.wait()
            }
            let stopped = stream.stopped, failedAt = stream.failedAt
            monitor.unlock()
            if stopped { return }
            if ready > 0 {
                for batch in parked[..<ready] {
                    // A batch after the first failure is dropped: the stream stops there.
                    guard batch.sequence <= failedAt else { continue }
                    do {
                        try deliver(batch, &state)
                    } catch {
                        stop(error)
                        return
                    }
                }
                parked.removeFirst(ready)
                continue
            }
            guard let claimed else { return }
            let batch = stream.read(claimed, into: buffer)
            sequence = batch.sequence
            direct = mayDeliver(sequence) && parked.isEmpty
            let decoded = stream.decode(batch, buffer, with: &decoder)
            stream.progress?.records.add(given, ordering: .relaxed)
            given = 0
            if bodyThrew, let error = decoded.failure {
                stop(error)
                return
            }
            monitor.lock()
            outcomes[batch.sequence] = Stream.Decoded(
                batch: batch, models: RecordBuffer(), skipped: decoded.skipped, failure: decoded.failure, counts: decoded.counts)
            if decoded.failure != nil {
                stream.failedAt = min(stream.failedAt, batch.sequence)
            } else {
                cleanAhead.insert(batch.sequence)
                while cleanAhead.remove(cleanPrefix) != nil { cleanPrefix += 1 }
                cleanPrefixNow.store(cleanPrefix, ordering: .releasing)
            }
            if direct {
                delivered.insert(batch.sequence)
                stream.inFlight -= batch.held
            }
            monitor.broadcast()
            monitor.unlock()
            if !direct {
                parked.append(Parked(sequence: batch.sequence, bytes: batch.held, models: kept))
                kept = []
            } else {
                kept.removeAll(keepingCapacity: true)
            }
        }
    }

    /// `body` threw: the stream stops with its error.
    private func stop(_ error: any Error) {
        let monitor = stream.monitor
        monitor.lock()
        if bodyError == nil { bodyError = error }
        stream.stopped = true
        monitor.broadcast()
        monitor.unlock()
    }
}
