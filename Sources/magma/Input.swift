import ArgumentParser
import Foundation
import Magma
#if canImport(Glibc)
import Glibc
#endif

/// How records are laid out in the input (`--layout`).
enum InputLayout: String, ExpressibleByArgument, CaseIterable {
    case auto, array, ndjson, document
}

/// A file or standard input, read in 256 KiB chunks into one reused buffer.
final class Input {
    let name: String
    let descriptor: Int32
    /// The size in bytes when it is known (a regular file), for the progress bar's ETA.
    let size: Int?
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
    /// Bytes read before the first `read` call (layout detection looks at them first), and how
    /// many of them `read` has handed out.
    private var pending: [UInt8] = []
    private var pendingDone = 0

    init(_ path: String) throws {
        name = path == "-" ? "standard input" : path
        if path == "-" {
            descriptor = STDIN_FILENO
        } else {
            descriptor = open(path, O_RDONLY)
            if descriptor < 0 { throw ValidationError("cannot open \(path): \(String(cString: strerror(errno)))") }
        }
        var info = stat()
        size = fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) : nil
    }

    deinit {
        if descriptor != STDIN_FILENO { close(descriptor) }
        buffer.deallocate()
    }

    /// The next chunk (empty at the end), valid until the next call.
    func read() throws -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffer[..<(try read(into: buffer))])
    }

    /// Reads the next bytes into `target`; how many (0 at the end).
    private func read(into target: UnsafeMutableRawBufferPointer) throws -> Int {
        if pendingDone < pending.count {
            let count = min(target.count, pending.count - pendingDone)
            pending.withUnsafeBytes { target.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[pendingDone..<pendingDone + count])) }
            pendingDone += count
            if pendingDone == pending.count { pending = [] ; pendingDone = 0 }
            return count
        }
        while true {
            let count = Glibc.read(descriptor, target.baseAddress, target.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw JSONError(.io, "cannot read \(name): \(String(cString: strerror(errno)))")
        }
    }

    /// Resolves `auto`: looks at the first chunk (which the next `read` returns again).
    func resolve(_ layout: InputLayout) throws -> InputLayout {
        guard layout == .auto else { return layout }
        var head: [UInt8] = []
        while head.count < buffer.count {
            let chunk = try read()
            if chunk.isEmpty { break }
            head += chunk
            if head.contains(0x0A) { break }
        }
        pending = head
        guard let first = head.firstIndex(where: { !Self.isSpace($0) }) else { return .ndjson }
        if head[first] == UInt8(ascii: "[") { return .array }
        // NDJSON when the first line is a value of its own (or a bad line of one); a document that
        // runs over several lines ends early.
        let lineEnd = head[first...].firstIndex(of: 0x0A) ?? head.count
        do {
            _ = try JSONAdapter.value(from: Data(head[first..<lineEnd]), .json)
            return .ndjson
        } catch let error as JSONError where error.code == .unexpectedEnd {
            return lineEnd == head.count ? .ndjson : .document
        } catch {
            return .ndjson
        }
    }

    /// Calls `body` with what has not been read yet, for the library's readers: the descriptor
    /// itself, moved back over the bytes layout detection read where it can be (a regular file);
    /// else those bytes, then the rest, as chunks (which the library writes into a pipe of its
    /// own, from a thread). A read error is thrown after `body`, in place of what it threw.
    func withRest<R>(_ body: (JSONInput) throws -> R) throws -> R {
        let head = pending[pendingDone...]
        if head.isEmpty || lseek(descriptor, -off_t(head.count), SEEK_CUR) >= 0 {
            pending = []
            pendingDone = 0
            return try body(FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).jsonInput)
        }
        let rest = Rest(input: self)
        let result = Result { try body(.chunks(rest)) }
        if let failure = rest.failure { throw failure }  // what ended the input early
        return try result.get()
    }

    /// The rest of the input as chunks, each valid until the next is asked for (the library
    /// writes one before it asks). Unchecked: read on the library's thread, `failure` after.
    private final class Rest: Sequence, IteratorProtocol, @unchecked Sendable {
        let input: Input
        var failure: (any Error)?

        init(input: Input) { self.input = input }

        func next() -> UnsafeRawBufferPointer? {
            do {
                let chunk = try input.read()
                return chunk.isEmpty ? nil : chunk
            } catch {
                failure = error
                return nil
            }
        }

        func makeIterator() -> Rest { self }
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    /// The start of a line the last `readLines` read and did not return.
    private var partialLine: [UInt8] = []

    /// The next whole lines, `atLeast` bytes of them unless the input ends first (a line longer
    /// than that is returned whole); empty at the end. The last line of the input may lack its
    /// newline. Read straight into the array returned: no copy but the start of a line.
    func readLines(atLeast: Int) throws -> [UInt8] {
        let carried = partialLine
        // A carried line longer than `atLeast` had no newline: read a buffer more, at least.
        let goal = max(atLeast, carried.count + buffer.count)
        var ended = false
        var lines = try [UInt8](unsafeUninitializedCapacity: max(goal, 2 * carried.count)) { bytes, count in
            count = carried.withUnsafeBufferPointer { UnsafeMutableBufferPointer(rebasing: bytes[...]).initialize(fromContentsOf: $0) }
            while count < goal {
                let read = try read(into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: bytes[count...])))
                if read == 0 { ended = true; break }
                count += read
            }
        }
        partialLine = []
        if ended { return lines }
        // Searched from the end: a line is short next to the bytes read.
        guard let newline = lines.lastIndex(of: 0x0A) else {
            partialLine = lines  // a line longer than all of it: read on, into a larger array
            return try readLines(atLeast: atLeast)
        }
        partialLine = Array(lines[(newline + 1)...])
        lines.removeSubrange((newline + 1)...)
        return lines
    }
}

extension InputLayout {
    /// The record layout of a resolved layout (a document is read as concatenated values: one,
    /// usually).
    func recordLayout<M: JSONModel>(_: M.Type) -> RecordDecoder<M>.Layout {
        switch self {
        case .array: .array
        case .ndjson, .auto: .ndjson
        case .document: .concatenated
        }
    }
}

/// Writes to standard output through a 256 KiB buffer.
struct Output {
    var bytes: [UInt8] = []
    let descriptor: Int32

    init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
        bytes.reserveCapacity(1 << 18 + 4096)
    }

    mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }
    mutating func append(_ byte: UInt8) { bytes.append(byte) }
    mutating func append<S: Sequence>(contentsOf s: S) where S.Element == UInt8 { bytes.append(contentsOf: s) }

    /// Writes out the buffer once it holds 256 KiB.
    mutating func flushIfFull() throws { if bytes.count >= 1 << 18 { try flush() } }

    mutating func flush() throws {
        try bytes.withUnsafeBytes { all in
            var done = 0
            while done < all.count {
                let n = write(descriptor, all.baseAddress! + done, all.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw JSONError(.io, "cannot write: \(String(cString: strerror(errno)))")
                }
                done += n
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }
}

/// A line on standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
