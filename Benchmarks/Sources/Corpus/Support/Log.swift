import Foundation

/// Writes one line to standard error: progress and notes, kept out of the results on standard output.
/// - Parameter message: The line, without its newline.
public func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
