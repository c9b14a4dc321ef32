// The reads of ParallelRecordStream: each batch is read by the worker that decodes it, so that its
// bytes are in that core's cache and no thread copies them from another. NDJSON in a regular file
// is read with `pread` (bytes in memory are read where they lie), a range of `batchBytes` at a time,
// as a byte-range split reads its lines: a batch holds the lines that begin in its range, the last
// one read on past the range to its end. A pipe, and an array or concatenated values from any
// input, are read by one worker at a time: `batchBytes` into the batch itself, cut after the last
// newline (after the last record whose separator is read: `RecordSteps`), the rest carried to the
// next read.

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A worker's read buffer, kept from batch to batch: each batch's bytes are read into it, or,
/// from bytes in memory, read where they lie (`view`).
final class BatchBuffer {
    private var storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 0, alignment: 16)
    /// The bytes in memory it holds instead of its own, from `view`.
    private var viewed: UnsafeRawPointer?
    /// The bytes read.
    var count = 0

    deinit { storage.deallocate() }

    var bytes: UnsafeRawBufferPointer { self[0..<count] }
    subscript(range: Range<Int>) -> UnsafeRawBufferPointer {
        guard let viewed else { return UnsafeRawBufferPointer(rebasing: storage[range]) }
        return UnsafeRawBufferPointer(start: viewed + range.lowerBound, count: range.count)
    }
    var last: UInt8? { count > 0 ? self[(count - 1)..<count][0] : nil }

    /// Holds `bytes` (in memory, alive until the batch is decoded) where they lie: no copy.
    func view(_ bytes: UnsafeRawBufferPointer) {
        viewed = bytes.baseAddress
        count = bytes.count
    }

    /// Room for `more` bytes after `count`, into which a read writes (never into a view: bytes
    /// in memory are only viewed).
    func room(_ more: Int) -> UnsafeMutableRawBufferPointer {
        assert(viewed == nil, "a read into bytes held where they lie")
        if count + more > storage.count {
            let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count + more, storage.count * 2), alignment: 16)
            larger.copyMemory(from: bytes)
            storage.deallocate()
            storage = larger
        }
        return UnsafeMutableRawBufferPointer(rebasing: storage[count..<(count + more)])
    }

    /// The offset after the last newline at or after `offset`; nil if there is none.
    func endOfLastLine(from offset: Int) -> Int? {
        let bytes = bytes
        var at = count
        while at > offset {
            if bytes[at - 1] == 0x0A { return at }
            at -= 1
        }
        return nil
    }
}

/// A batch's records, in a buffer grown here rather than an Array, so that `collect` moves them
/// into its result (a memcpy) instead of copying them (a retain of every reference a record
/// holds) and then destroying the batches' arrays (a release of each): work done on one thread.
final class RecordBuffer<M>: @unchecked Sendable {
    private var base: UnsafeMutablePointer<M>?
    private(set) var count = 0
    private var capacity = 0

    subscript(index: Int) -> M { base![index] }

    func append(_ value: M) {
        if count == capacity {
            capacity = max(64, capacity * 2)
            base = base?.moved(count: count, toCapacity: capacity) ?? .allocate(capacity: capacity)
        }
        (base! + count).initialize(to: value)
        count += 1
    }

    /// The records of `buffers` in order, moved out (the buffers are left empty).
    static func join(_ buffers: [RecordBuffer<M>]) -> [M] {
        let total = buffers.reduce(0) { $0 + $1.count }
        return [M](unsafeUninitializedCapacity: total) { result, initialized in
            for buffer in buffers where buffer.count > 0 {
                (result.baseAddress! + initialized).moveInitialize(from: buffer.base!, count: buffer.count)
                initialized += buffer.count
                buffer.count = 0
            }
        }
    }

    deinit {
        base?.deinitialize(count: count)
        base?.deallocate()
    }
}

extension ParallelRecordStream {
    /// Reads the bytes of a batch `claimLocked` gave into a worker's buffer.
    func read(_ claimed: Batch, into buffer: BatchBuffer) -> Batch {
        buffer.count = 0
        return file == nil ? readPipe(claimed, into: buffer) : readRange(claimed, into: buffer)
    }

    /// Reads the next `batchBytes` of a pipe (more for a line longer than that) after the bytes
    /// carried from the last read, and cuts them after their last newline (records cut by their
    /// structure: after the last record whose separator is read); at the end of the input, or a
    /// failed read, the batch is all that was read.
    func readPipe(_ claimed: Batch, into buffer: BatchBuffer) -> Batch {
        let carried = carry.count
        var failure: Int32 = 0, atEnd = false
        if let memory {
            // The bytes carried are those just before the next unread byte, where they lie.
            buffer.view(UnsafeRawBufferPointer(rebasing: memory[carryStart..<(carryStart + carried)]))
        } else {
            carry.withUnsafeBytes { buffer.room(carried).copyMemory(from: $0) }
            buffer.count = carried
        }
        let full = carried + batchBytes
        while buffer.count < full, !atEnd, failure == 0 {
            readSome(full - buffer.count, into: buffer, atEnd: &atEnd, failure: &failure)
        }
        var batch = Batch(sequence: claimed.sequence, start: claimed.start, held: 0)
        // No newline yet: a line longer than a batch; read on to its end.
        var cut = steps == nil ? buffer.endOfLastLine(from: carried).map { (end: $0, next: $0) } : nil
        // Records cut by their structure: the next to read, or the first's place.
        var record = claimed.sequence == 0 ? nil : Optional(0)
        steps?.forget()
        if steps != nil { batch.tail = cutRecords(buffer, from: &record, cut: &cut) }
        while cut == nil, !batch.tail, !atEnd, failure == 0 {
            let searchFrom = buffer.count
            readSome(batchBytes, into: buffer, atEnd: &atEnd, failure: &failure)
            if steps == nil {
                cut = buffer.endOfLastLine(from: searchFrom).map { (end: $0, next: $0) }
            } else {
                batch.tail = cutRecords(buffer, from: &record, cut: &cut)
            }
        }
        let read = buffer.count
        if let cut, !atEnd || failure != 0, !batch.tail {
            // The rest is carried to the next read; after a failure, the whole lines read before
            // it are delivered, then the error is thrown.
            buffer.count = cut.next
            if steps != nil { batch.recordsEnd = cut.end }
        }
        batch.inArray = layout.kind == .array
        let rest = failure == 0 ? read - buffer.count : 0
        monitor.lock()
        inFlight += buffer.count + rest - carried - claimed.held
        peakInFlight = max(peakInFlight, inFlight)
        carry.removeAll(keepingCapacity: true)
        carry.append(contentsOf: buffer[buffer.count..<(buffer.count + rest)])
        carryStart += buffer.count
        reading = false
        if atEnd || failure != 0 || batch.tail { readEnded = true }
        if failure != 0 { readError = JSONError.readFailed(failure) }
        monitor.broadcast()
        monitor.unlock()
        // It holds its bytes in the window (the claim's are given back above).
        batch.held = buffer.count
        if failure != 0 && cut == nil { buffer.count = 0 }
        return batch
    }

    /// Reads on from record `p` (nil: from the start of an array or concatenated values) in the
    /// bytes read, keeping the last place they may be cut; true when no record can come next (the
    /// array ends, or a flaw stands between two records): the batch reads the rest of the input.
    private func cutRecords(_ buffer: BatchBuffer, from p: inout Int?, cut: inout (end: Int, next: Int)?) -> Bool {
        let bytes = buffer.bytes
        if p == nil {
            switch steps!.first(in: bytes) {
            case .record(_, let first, _): p = first
            case .more: return false
            case .last: return true
            }
        }
        while true {
            switch steps!.step(in: bytes, from: p!) {
            case .record(let end, let next, let cuts):
                if cuts { cut = (end, next) }
                p = next
            case .more: return false
            case .last: return true
            }
        }
    }

    /// Reads the rest of the input for a tail batch, a chunk at a time, into `buffer` (its
    /// batch's bytes already fed), feeding each to `decoder`; false if a read failed (its error
    /// is the stream's, after the records decoded) or the stream stopped.
    func readTail(into buffer: BatchBuffer, feeding decoder: RecordDecoder<M>) throws -> Bool {
        var atEnd = false, failure: Int32 = 0
        while !atEnd {
            monitor.lock()
            let stopped = stopped
            monitor.unlock()
            if stopped { return false }
            buffer.count = 0
            readSome(max(batchBytes, 1 << 16), into: buffer, atEnd: &atEnd, failure: &failure)
            if failure != 0 {
                monitor.lock()
                readError = JSONError.readFailed(failure)
                monitor.unlock()
                return false
            }
            try decoder.feed(buffer.bytes)
        }
        return true
    }

    /// One `read` of up to `more` bytes of the pipe into `buffer`, after its bytes. Bytes in
    /// memory are not copied: the buffer holds those just before the next unread one, where they
    /// lie, and grows over the next ones.
    private func readSome(_ more: Int, into buffer: BatchBuffer, atEnd: inout Bool, failure: inout Int32) {
        var n = 0
        if let memory {
            n = min(more, memory.count - memoryRead)
            buffer.view(UnsafeRawBufferPointer(rebasing: memory[(memoryRead - buffer.count)..<(memoryRead + n)]))
            memoryRead += n
        } else {
            let room = buffer.room(more)
            repeat { n = Glibc.read(descriptor, room.baseAddress, more) } while n < 0 && errno == EINTR
            if n < 0 { failure = errno; return }
            buffer.count += n
        }
        if n == 0 { atEnd = true; return }
        progress?.start()  // at the first byte: the clock does not count the wait for it
        progress?.bytes.add(n, ordering: .relaxed)
    }

    /// Where the input begins (the descriptor's offset) and its size, if it is a regular file.
    static func regularFile(_ descriptor: Int32) -> (base: Int, size: Int)? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let base = lseek(descriptor, 0, SEEK_CUR)
        guard base >= 0 else { return nil }
        return (Int(base), max(0, Int(status.st_size) - Int(base)))
    }

    /// Reads the lines that begin in the range of `claimed` (a batch from `claimLocked`): from
    /// the first line that begins at or after its start to the end of the last that begins before
    /// its end. A range inside one long line holds no line. A failed read fails the batch.
    func readRange(_ claimed: Batch, into buffer: BatchBuffer) -> Batch {
        let file = file!
        let from = claimed.sequence * batchBytes, to = min(from + batchBytes, file.size)
        progress?.start()
        defer { progress?.bytes.add(to - from, ordering: .relaxed) }
        if let memory {
            let lines = NDJSONSplit.lines(of: memory, in: from..<to)
            buffer.view(UnsafeRawBufferPointer(rebasing: memory[lines]))
            return Batch(sequence: claimed.sequence, start: lines.isEmpty ? to : lines.lowerBound, held: claimed.held)
        }
        do {
            // The first line beginning in the range: after the first newline from the byte before it.
            var start = from
            if from > 0 {
                guard let newline = try firstNewline(from: from - 1, before: to - 1, buffer) else {
                    return Batch(sequence: claimed.sequence, start: to, held: claimed.held)
                }
                start = newline + 1
            }
            // Its bytes to the range's end, then on to the end of the line the range ends in.
            try read(to - start, at: start, into: buffer)
            while buffer.last != 0x0A, start + buffer.count < file.size {
                let searchFrom = buffer.count
                try read(min(1 << 16, file.size - start - buffer.count), at: start + buffer.count, into: buffer)
                if buffer.count == searchFrom { break }
                let tail = buffer[searchFrom..<buffer.count]
                if let newline = memchr(tail.baseAddress!, 0x0A, tail.count) {
                    buffer.count = searchFrom + (UnsafeRawPointer(newline) - tail.baseAddress!) + 1
                    break
                }
            }
            return Batch(sequence: claimed.sequence, start: start, held: claimed.held)
        } catch {
            buffer.count = 0
            return Batch(sequence: claimed.sequence, start: from, held: claimed.held, failure: error as? JSONError)
        }
    }

    /// The offset of the first newline at or after `offset` and before `end`; nil if none. Reads
    /// through `buffer`, left empty.
    private func firstNewline(from offset: Int, before end: Int, _ buffer: BatchBuffer) throws -> Int? {
        defer { buffer.count = 0 }
        var at = offset
        while at < end {
            buffer.count = 0
            try read(min(1 << 14, end - at), at: at, into: buffer)
            if buffer.count == 0 { return nil }
            if let newline = buffer.bytes.firstIndex(of: 0x0A) { return at + newline }
            at += buffer.count
        }
        return nil
    }

    /// Reads `count` bytes of the input from `offset` (fewer at the end of the file) into
    /// `buffer`, after its bytes.
    private func read(_ count: Int, at offset: Int, into buffer: BatchBuffer) throws {
        let base = file!.base
        let room = buffer.room(count)
        var initialized = 0, failure: Int32 = 0
        while initialized < count {
            let n = pread(descriptor, room.baseAddress! + initialized, count - initialized, off_t(base + offset + initialized))
            if n < 0, errno == EINTR { continue }
            if n < 0 { failure = errno }
            if n <= 0 { break }
            initialized += n
        }
        buffer.count += initialized
        if failure != 0 { throw JSONError.readFailed(failure) }
    }
}
