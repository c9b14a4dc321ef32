// The reads of ParallelLineStream: each batch is read by the worker that decodes it, so that its
// bytes are in that core's cache and no thread copies them from another. A regular file is read
// with `pread`, a range of `batchBytes` at a time, as a byte-range split reads its lines: a batch
// holds the lines that begin in its range, the last one read on past the range to its end. A pipe
// is read by one worker at a time: `batchBytes` into the batch itself, cut after the last newline,
// the rest carried to the next read.

import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension ParallelLineStream {
    /// The bytes of a batch `claimLocked` gave.
    func read(_ claimed: Batch) -> Batch {
        file == nil ? readPipe(claimed) : readRange(claimed)
    }

    /// Reads the next `batchBytes` of a pipe (more for a line longer than that) after the bytes
    /// carried from the last read, and cuts them after their last newline; at the end of the
    /// input, or a failed read, the batch is all that was read.
    func readPipe(_ claimed: Batch) -> Batch {
        let carried = carry.count
        var failure: Int32 = 0, atEnd = false
        var bytes = [UInt8](unsafeUninitializedCapacity: carried + batchBytes) { buffer, count in
            count = 0
            if carried > 0 { count = UnsafeMutableBufferPointer(rebasing: buffer[..<carried]).initialize(from: carry).1 }
            while count < buffer.count, !atEnd, failure == 0 {
                readSome(into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[count...])), count: &count,
                         atEnd: &atEnd, failure: &failure)
            }
        }
        // No newline yet: a line longer than a batch; read on to its end.
        var searchFrom = carried
        var cut = bytes[searchFrom...].lastIndex(of: 0x0A).map { $0 + 1 }
        while cut == nil, !atEnd, failure == 0 {
            searchFrom = bytes.count
            bytes.reserveCapacity(bytes.count * 2)
            let more = [UInt8](unsafeUninitializedCapacity: batchBytes) { buffer, count in
                count = 0
                readSome(into: UnsafeMutableRawBufferPointer(buffer), count: &count, atEnd: &atEnd, failure: &failure)
            }
            bytes += more
            cut = bytes[searchFrom...].lastIndex(of: 0x0A).map { $0 + 1 }
        }
        var rest: [UInt8] = []
        if let cut, !atEnd {
            rest = Array(bytes[cut...])
            bytes.removeSubrange(cut...)
        }
        if failure != 0, let cut {
            // The whole lines read before the failure are delivered, then the error is thrown.
            rest = []
            bytes.removeSubrange(cut...)
        }
        monitor.lock()
        inFlight += bytes.count + rest.count - carried - claimed.held
        peakInFlight = max(peakInFlight, inFlight)
        carry = rest
        carryStart += bytes.count
        reading = false
        if atEnd || failure != 0 { readEnded = true }
        if failure != 0 { readError = JSONError(.io, "cannot read: \(String(cString: strerror(failure)))") }
        monitor.broadcast()
        monitor.unlock()
        return Batch(sequence: claimed.sequence, start: claimed.start, bytes: failure != 0 && cut == nil ? [] : bytes)
    }

    /// One `read` of the pipe into `buffer`, after `count` bytes of it.
    private func readSome(into buffer: UnsafeMutableRawBufferPointer, count: inout Int, atEnd: inout Bool, failure: inout Int32) {
        while true {
            let n = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if n < 0, errno == EINTR { continue }
            if n < 0 { failure = errno; return }
            if n == 0 { atEnd = true; return }
            progress?.start()  // at the first byte: the clock does not count the wait for it
            progress?.bytes.add(n, ordering: .relaxed)
            count += n
            return
        }
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
    func readRange(_ claimed: Batch) -> Batch {
        let file = file!
        let from = claimed.sequence * batchBytes, to = min(from + batchBytes, file.size)
        progress?.start()
        defer { progress?.bytes.add(to - from, ordering: .relaxed) }
        do {
            // The first line beginning in the range: after the first newline from the byte before it.
            var start = from
            if from > 0 {
                guard let newline = try firstNewline(from: from - 1, before: to - 1) else {
                    return Batch(sequence: claimed.sequence, start: to, bytes: [], held: claimed.held)
                }
                start = newline + 1
            }
            // Its bytes to the range's end, read in place (room left for the line's end), then on
            // to the end of the line the range ends in.
            var bytes = try read(to - start, at: start, room: 1 << 16)
            while bytes.last != 0x0A, start + bytes.count < file.size {
                let more = try read(min(1 << 16, file.size - start - bytes.count), at: start + bytes.count)
                if more.isEmpty { break }
                if let newline = more.firstIndex(of: 0x0A) {
                    bytes += more[...newline]
                    break
                }
                bytes += more
            }
            return Batch(sequence: claimed.sequence, start: start, bytes: bytes, held: claimed.held)
        } catch {
            return Batch(sequence: claimed.sequence, start: from, bytes: [], held: claimed.held, failure: error as? JSONError)
        }
    }

    /// The offset of the first newline at or after `offset` and before `end`; nil if none.
    private func firstNewline(from offset: Int, before end: Int) throws -> Int? {
        var at = offset
        while at < end {
            let probe = try read(min(1 << 14, end - at), at: at)
            if probe.isEmpty { return nil }
            if let newline = probe.firstIndex(of: 0x0A) { return at + newline }
            at += probe.count
        }
        return nil
    }

    /// `count` bytes of the input from `offset` (fewer at the end of the file), in an array with
    /// `room` bytes of capacity to spare.
    private func read(_ count: Int, at offset: Int, room: Int = 0) throws -> [UInt8] {
        let base = file!.base
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count + room) { buffer, initialized in
            initialized = 0
            while initialized < count {
                let n = pread(descriptor, buffer.baseAddress! + initialized, count - initialized, off_t(base + offset + initialized))
                if n < 0, errno == EINTR { continue }
                if n < 0 { failure = errno }
                if n <= 0 { break }
                initialized += n
            }
        }
        if failure != 0 { throw JSONError(.io, "cannot read: \(String(cString: strerror(failure)))") }
        return bytes
    }
}
