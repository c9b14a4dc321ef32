import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension GitHubIssueCorpus {
    /// Writes at least `targetBytes` of records to a file descriptor (a pipe, say) as they are
    /// generated, never holding the output: the source of the streaming benchmarks.
    ///
    /// With `distinctRecords` nil every record is generated as it is written: ~2 GB/s on one core
    /// (64 MiB to /dev/null or through a pipe in 0.02-0.04 s, on a busy 2-core VM), still many
    /// times what the decoder reads. With a count, that many distinct records are generated once,
    /// then written over and over in large `write(2)` calls, so the source costs a kernel copy per
    /// byte and nothing else.
    /// - Parameters:
    ///   - targetBytes: Bytes to write at least (the last record is completed).
    ///   - format: A top-level array or NDJSON.
    ///   - distinctRecords: The size of the record pool, or nil to generate every record.
    ///   - descriptor: Where to write.
    ///   - onFirstWrite: Called just before the first `write(2)`: after the record pool is built,
    ///     or without a pool, after the first 1 MiB is generated. Where a reader timed from the
    ///     first byte starts its clock.
    /// - Returns: The bytes and records written.
    @discardableResult
    public func stream(targetBytes: Int, format: Format, distinctRecords: Int?, to descriptor: Int32,
                       onFirstWrite: () -> Void = {}) throws -> (bytes: Int, records: Int)
    {
        var written = 0
        var started = false
        func put(_ bytes: UnsafeRawBufferPointer) throws {
            if !started {
                started = true
                onFirstWrite()
            }
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                offset += n
            }
            written += bytes.count
        }
        var records = 0
        guard let distinctRecords, distinctRecords > 0 else {
            var writer = ByteWriter(capacity: 1 << 21)
            try writeRecords(targetBytes: targetBytes, format: format, into: &writer, records: &records) { writer in
                guard writer.count >= 1 << 20 else { return }
                try writer.bytes.withUnsafeBytes { try put($0) }
                writer.removeAll()
            }
            try writer.bytes.withUnsafeBytes { try put($0) }
            return (written, records)
        }

        let separator: StaticString = format == .array ? "," : "\n"
        // The pool: records each followed by the separator; `ends[i]` is the end of record i's separator.
        // Built before the first byte is written, so a reader timed from that byte is not charged for it.
        var pool = ByteWriter(capacity: distinctRecords * 4096)
        var ends: [Int] = []
        for i in 0..<distinctRecords {
            appendIssue(index: i, to: &pool)
            pool.append(separator)
            ends.append(pool.count)
        }
        if format == .array { try put(UnsafeRawBufferPointer(start: UnsafeRawPointer(("[" as StaticString).utf8Start), count: 1)) }
        try pool.bytes.withUnsafeBytes { bytes in
            // Every pass writes the pool from its first record: whole, or up to the record that
            // reaches the target.
            while true {
                var last = distinctRecords - 1
                if written + ends[last] >= targetBytes {
                    last = 0
                    while written + ends[last] < targetBytes { last += 1 }
                    // The last record's separator becomes the array's end (NDJSON keeps its newline).
                    try put(UnsafeRawBufferPointer(rebasing: bytes[0..<ends[last] - (format == .array ? 1 : 0)]))
                    records += last + 1
                    break
                }
                try put(UnsafeRawBufferPointer(rebasing: bytes[0..<ends[last]]))
                records += last + 1
            }
        }
        if format == .array { try put(UnsafeRawBufferPointer(start: UnsafeRawPointer(("]" as StaticString).utf8Start), count: 1)) }
        return (written, records)
    }
}
