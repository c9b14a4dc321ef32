// JSONInput.swift — Magma
//
// What the front door reads. A document decode wants its text whole, in one buffer, for the
// scanner (chunks go to yajl instead); a record stream wants pieces, in bounded memory. One type
// gives both, so an entry point takes one input rather than one overload per kind of source.

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// JSON to read: bytes in memory, a file, a file handle (a pipe, standard input), or chunks.
///
/// Every entry point that reads JSON takes one. `Data`, `[UInt8]`, `String` (JSON text), a file
/// `URL`, a `FileHandle` and `UnsafeRawBufferPointer` are inputs as they are; the rest are
/// written with a leading dot:
///
/// ```swift
/// let issue  = try JSONAdapter.model(GHIssue.self, from: data)
/// let config = try JSONAdapter.model(Config.self, from: .file("config.json"))
/// let order  = try JSONAdapter.model(Order.self, from: .chunks(pieces))   // any chunking
/// try JSONAdapter.forEachRecord(GHIssue.self, from: .standardInput, layout: .ndjson) { try store.insert($0) }
/// ```
///
/// A document (`JSONAdapter.model(_:from:)`) reads a file or a handle to its end
/// first; a record stream (``JSONAdapter/forEachRecord(_:from:layout:options:errorPolicy:progress:_:)``)
/// reads it in 256 KiB pieces into one reused buffer, so its memory stays bounded by the
/// largest record.
public struct JSONInput: JSONInputConvertible {
    enum Source {
        case data(Data)
        case bytes([UInt8])
        case text(String)
        case buffer(UnsafeRawBufferPointer)
        case file(String)
        case handle(FileHandle)
        case chunks((_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Void)
        /// An input known to be unreadable (a URL that is not a file's): reading it throws this.
        case unreadable(JSONError)
    }

    let source: Source

    public var jsonInput: JSONInput { self }
}

/// A value that is JSON to read, such as `Data` or a file `URL`: see ``JSONInput``.
public protocol JSONInputConvertible {
    /// The value as an input.
    var jsonInput: JSONInput { get }
}

extension JSONInputConvertible where Self == JSONInput {
    /// The file at a path.
    ///
    /// ```swift
    /// let config = try JSONAdapter.model(Config.self, from: .file("/etc/app/config.json"))
    /// ```
    public static func file(_ path: String) -> JSONInput { JSONInput(source: .file(path)) }

    /// The process's standard input, read to its end.
    ///
    /// ```swift
    /// try JSONAdapter.forEachRecord(Event.self, from: .standardInput, layout: .ndjson) { try sink.write($0) }
    /// ```
    public static var standardInput: JSONInput { JSONInput(source: .handle(.standardInput)) }

    /// JSON text in pieces, in order; a piece may end anywhere, mid-token included. The sequence
    /// is iterated once per read (a parallel stream iterates it on a thread of its own, and
    /// returns once that thread has left it).
    ///
    /// ```swift
    /// let order = try JSONAdapter.model(Order.self, from: .chunks([head, tail]))
    /// ```
    public static func chunks<Chunks: Sequence & Sendable>(_ chunks: Chunks) -> JSONInput where Chunks.Element: ContiguousBytes {
        JSONInput(chunks: chunks)
    }
}

extension JSONInput {
    /// Chunks of any sequence: for the deprecated `fromChunks:` forwards, which only decode
    /// documents on the caller's thread.
    init<Chunks: Sequence>(chunks: Chunks) where Chunks.Element: ContiguousBytes {
        source = .chunks { body in for chunk in chunks { try chunk.withUnsafeBytes(body) } }
    }
}

extension Data: JSONInputConvertible {
    public var jsonInput: JSONInput { JSONInput(source: .data(self)) }
}

extension Array: JSONInputConvertible where Element == UInt8 {
    public var jsonInput: JSONInput { JSONInput(source: .bytes(self)) }
}

/// A `String` is JSON text (for a file at a path, use ``JSONInputConvertible/file(_:)``).
extension String: JSONInputConvertible {
    public var jsonInput: JSONInput { JSONInput(source: .text(self)) }
}

/// Bytes in memory the caller owns: its input must not outlive them.
extension UnsafeRawBufferPointer: JSONInputConvertible {
    public var jsonInput: JSONInput { JSONInput(source: .buffer(self)) }
}

/// A file URL. Another URL is not fetched: reading it fails with ``JSONError/Code/io``, naming it.
extension URL: JSONInputConvertible {
    public var jsonInput: JSONInput {
        if isFileURL { return JSONInput(source: .file(path)) }
        return JSONInput(source: .unreadable(JSONError(.io, "cannot read \(absoluteString): not a file URL")))
    }
}

/// A file, a pipe, or standard input, read from where it stands to its end (it stays open).
extension FileHandle: JSONInputConvertible {
    public var jsonInput: JSONInput { JSONInput(source: .handle(self)) }
}

extension JSONInput {
    /// Decodes one value of `codec`: a whole text with the scanner (a file mapped, a handle read to
    /// its end), chunks with yajl.
    func decode<V>(_ codec: Codec<V>, options: DecodingOptions, report: DecodingReport? = nil,
                   onFailure: (inout EventBuilder) -> Void = { _ in }) throws -> V {
        if case .chunks(let each) = source {
            return try codec.run(options: options, chunked: true, report: report, onFailure: onFailure) { tokenizer in
                try each { try tokenizer.feed($0) }
                try tokenizer.finish()
            }
        }
        return try withWholeText { try codec.decode(from: $0, options: options, report: report, onFailure: onFailure) }
    }

    /// Calls `body` with the whole text in one buffer: bytes in memory as they are, a file mapped,
    /// a handle or chunks read to their end first.
    func withWholeText<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        if let result = try withBytesInMemory(body) { return result }
        if case .file(let path) = source { return try Data(readingFile: URL(fileURLWithPath: path)).withUnsafeBytes(body) }
        var whole: [UInt8] = []
        try forEachPiece { whole.append(contentsOf: $0) }
        return try whole.withUnsafeBytes(body)
    }

    /// Calls `body` with the bytes, if the input is bytes in memory; nil for a file, a handle or chunks.
    func withBytesInMemory<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        switch source {
        case .data(let data): return try data.withUnsafeBytes(body)
        case .bytes(let bytes): return try bytes.withUnsafeBytes(body)
        case .text(var text): return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        case .buffer(let buffer): return try body(buffer)
        case .file, .handle, .chunks, .unreadable: return nil
        }
    }

    /// Calls `body` with the text in pieces, in order: bytes in memory as one piece, a file or a
    /// handle in reads of up to 256 KiB into one reused buffer, chunks as they come.
    /// - Throws: What `body` throws; ``JSONError/Code/io`` when a file cannot be opened or read.
    func forEachPiece(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        if try withBytesInMemory(body) != nil { return }
        if case .chunks(let each) = source { return try each(body) }
        if case .unreadable(let error) = source { throw error }
        var name: String? = nil
        if case .file(let path) = source { name = path }
        try withDescriptor { try Self.read($0, named: name, body) }
    }

    /// Calls `body` with the bytes if the input is bytes in memory (and descriptor -1), else with
    /// a descriptor to read it from (see `withDescriptor`) and nil.
    func withBytesOrDescriptor<R>(_ body: (Int32, UnsafeRawBufferPointer?) throws -> R) throws -> R {
        if let result = try withBytesInMemory({ try body(-1, $0) }) { return result }
        return try withDescriptor { try body($0, nil) }
    }

    /// Calls `body` with a descriptor to read the input from: a file's (opened, and closed after),
    /// a handle's, or for chunks the reading end of a pipe that a thread writes them into. That
    /// thread ends at the first write that fails (the reader closed its end) and is waited for;
    /// an error of its input is thrown after `body` returns.
    func withDescriptor<R>(_ body: (Int32) throws -> R) throws -> R {
        switch source {
        case .file(let path):
            let descriptor = try openForReading(path)
            defer { close(descriptor) }
            return try body(descriptor)
        case .handle(let handle): return try body(handle.fileDescriptor)
        case .unreadable(let error): throw error
        default:
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw JSONError(.io, "cannot make a pipe: \(String(cString: strerror(errno)))") }
            // Not inherited by a process started meanwhile, which would keep the pipe open.
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            let pieces = PipedPieces(self, into: ends[1])
            Thread { pieces.write() }.start()
            let result = Result { try body(ends[0]) }
            close(ends[0])
            pieces.written.wait()  // the input is not read after this returns
            if case .success = result, let failure = pieces.failure { throw failure }
            return try result.get()
        }
    }

    private static func read(_ descriptor: Int32, named name: String?, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer { buffer.deallocate() }
        enlargePipeBuffer(descriptor)
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                throw JSONError.readFailed(errno, name)
            }
            try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// A pipe's kernel buffer is 64 KiB by default: the writer and this reader then take turns every
    /// 64 KiB, and on a busy machine each turn may wait for a core. Asks for 1 MiB (the unprivileged
    /// limit, /proc/sys/fs/pipe-max-size); best effort, nothing changes if refused.
    static func enlargePipeBuffer(_ descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else { return }
        // F_SETPIPE_SZ / F_GETPIPE_SZ (Linux, <fcntl.h> with _GNU_SOURCE, which Glibc's module omits).
        let setPipeSize: Int32 = 1031, getPipeSize: Int32 = 1032
        if fcntl(descriptor, getPipeSize) < 1 << 20 { _ = fcntl(descriptor, setPipeSize, Int32(1 << 20)) }
    }
}

/// An input written into a pipe by a thread of its own. Unchecked: the input (bytes, or a
/// `Sendable` sequence of chunks) is read on that thread only, and `failure` is read after
/// `written` is signalled.
private final class PipedPieces: @unchecked Sendable {
    let input: JSONInput
    let descriptor: Int32
    let written = DispatchSemaphore(value: 0)
    /// What reading the input threw, other than the reader closing the pipe.
    var failure: (any Error)?

    private struct ReaderClosed: Error {}

    init(_ input: JSONInput, into descriptor: Int32) {
        self.input = input
        self.descriptor = descriptor
    }

    func write() {
        // A write after the reader closed its end fails with EPIPE instead of killing the process.
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        defer {
            close(descriptor)
            written.signal()
        }
        do {
            try input.forEachPiece { piece in
                var done = 0
                while done < piece.count {
                    let n = Glibc.write(descriptor, piece.baseAddress! + done, piece.count - done)
                    if n < 0, errno == EINTR { continue }
                    if n <= 0 { throw ReaderClosed() }
                    done += n
                }
            }
        } catch is ReaderClosed {
        } catch {
            failure = error
        }
    }
}

/// A descriptor open for reading on the file at `path` (closed on `exec`); the caller closes it.
/// - Throws: ``JSONError/Code/io`` naming the path and the reason when it cannot be opened.
func openForReading(_ path: String) throws -> Int32 {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    if descriptor < 0 { throw JSONError(.io, "cannot open \(path): \(String(cString: strerror(errno)))") }
    return descriptor
}
