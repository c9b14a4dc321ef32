import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How a child process hands its result to the parent that ran it: one line, a prefix then the
/// result as JSON (`MAGMA-RESULT {...}`), among whatever else the child prints.
public struct ResultLine: Sendable {
    /// What starts the line, its trailing space included.
    public let prefix: String

    /// - Parameter prefix: What starts the line, its trailing space included.
    public init(prefix: String) {
        self.prefix = prefix
    }

    /// The line for `result`, without its newline.
    /// - Parameter result: What the child measured.
    /// - Returns: The prefix and `result` as JSON.
    /// - Throws: What `JSONEncoder` throws.
    public func line(_ result: some Encodable) throws -> String {
        prefix + String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
    }

    /// Prints the line for `result` to standard output and flushes it.
    /// - Parameter result: What the child measured.
    /// - Throws: What `JSONEncoder` throws.
    public func print(_ result: some Encodable) throws {
        Swift.print(try line(result))
        fflush(nil)
    }

    /// The result of the first line of `output` that starts with the prefix.
    /// - Parameters:
    ///   - type: The result's type.
    ///   - output: What the child printed.
    /// - Returns: The result, or nil when no line starts with the prefix.
    /// - Throws: What `JSONDecoder` throws for a line that is not a `type`.
    public func parse<Result: Decodable>(_ type: Result.Type, from output: Data) throws -> Result? {
        for line in String(decoding: output, as: UTF8.self).split(separator: "\n") where line.hasPrefix(prefix) {
            return try JSONDecoder().decode(type, from: Data(line.dropFirst(prefix.count).utf8))
        }
        return nil
    }

    /// Runs `executable` in a child process, waits for it to exit, and reads its result line.
    /// - Parameters:
    ///   - type: The result's type.
    ///   - executable: The path of the program to run.
    ///   - arguments: Its arguments.
    ///   - fromStandardError: Read the line from standard error (when standard output carries data).
    ///   - setUp: Sets the child's other streams before it starts.
    ///   - started: Runs once the child has started, before its output is read (to close the
    ///     parent's ends of a pipe into it, say, so that it sees the end of its input).
    /// - Returns: The result (nil when no line starts with the prefix), the exit status, and the
    ///   output read.
    /// - Throws: What `Process.run` throws, and what `parse` throws.
    public func run<Result: Decodable>(
        _ type: Result.Type, _ executable: String, _ arguments: [String], fromStandardError: Bool = false,
        setUp: (Process) -> Void = { _ in }, started: () throws -> Void = {}
    ) throws -> (result: Result?, status: Int32, output: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        if fromStandardError { process.standardError = pipe } else { process.standardOutput = pipe }
        setUp(process)
        try process.run()
        try started()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (try parse(type, from: output), process.terminationStatus, output)
    }
}
