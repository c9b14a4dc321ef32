import Foundation

/// Writes one line to standard error: progress and notes, kept out of the results on standard output.
/// - Parameter message: The line, without its newline.
public func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Writes one line to standard output and flushes it: the results, as they are ready. Piped,
/// standard output is block-buffered and would come out late and spliced with the progress lines
/// standard error writes at once.
/// - Parameter line: The line, without its newline.
public func emit(_ line: String) {
    print(line)
    fflush(nil)
}
