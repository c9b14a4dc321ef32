import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The bytes of a file or a file handle (a pipe, standard input) as an async sequence of chunks.
///
/// On Linux `FileHandle` offers no async byte stream: each chunk here is a blocking `read(2)` of
/// up to 256 KiB done on a Dispatch queue, so a slow pipe blocks no task of the cooperative pool,
/// and nothing is read ahead of what the consumer asks for (back-pressure).
///
/// ```swift
/// for try await chunk in FileChunks(.standardInput) { try decoder.feed(chunk) }
/// try decoder.finish()
/// ```
public struct FileChunks: AsyncSequence, Sendable {
    public typealias Element = [UInt8]
    private let source: Source

    enum Source: @unchecked Sendable {
        case path(String)
        // FileHandle is not Sendable on Linux; the handle is only read through its descriptor.
        case handle(FileHandle)
    }

    /// The chunks of a file handle, read to its end (it stays open).
    /// - Parameter handle: A file, a pipe, or `FileHandle.standardInput`.
    public init(_ handle: FileHandle) { source = .handle(handle) }

    /// The chunks of the file at a path, opened by the first chunk pulled and closed at its end.
    /// - Parameter path: The file's path.
    public init(path: String) { source = .path(path) }

    public func makeAsyncIterator() -> Iterator { Iterator(reader: Reader(source)) }

    /// Reads one chunk per call of `next()`.
    public struct Iterator: AsyncIteratorProtocol {
        let reader: Reader

        /// The next chunk, or nil at the end of the input.
        /// - Throws: ``JSONError/Code/io`` when the file cannot be opened or a read fails.
        public mutating func next() async throws -> [UInt8]? {
            let reader = reader
            return try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global(qos: .utility).async { continuation.resume(with: Result { try reader.read() }) }
            }
        }
    }

    /// The descriptor and its state; used by one iterator, one read at a time.
    final class Reader: @unchecked Sendable {
        private let source: Source
        private var descriptor: Int32 = -1
        private var ended = false

        init(_ source: Source) { self.source = source }

        deinit {
            if case .path = source, descriptor >= 0 { close(descriptor) }
        }

        func read() throws -> [UInt8]? {
            if ended { return nil }
            if descriptor < 0 {
                switch source {
                case .handle(let handle): descriptor = handle.fileDescriptor
                case .path(let path): descriptor = try openForReading(path)
                }
                JSONInput.enlargePipeBuffer(descriptor)
            }
            let capacity = 1 << 18
            var failure: Int32 = 0
            let chunk = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                while true {
                    let read = Glibc.read(descriptor, buffer.baseAddress, capacity)
                    if read < 0, errno == EINTR { continue }
                    if read < 0 { failure = errno }
                    count = Swift.max(read, 0)
                    return
                }
            }
            if failure != 0 { throw JSONError.readFailed(failure) }
            if chunk.isEmpty { ended = true; return nil }
            return chunk
        }
    }
}
