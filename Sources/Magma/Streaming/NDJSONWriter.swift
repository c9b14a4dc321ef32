import Foundation

/// Writes models as NDJSON (one compact JSON object per line) to a file handle or any byte sink,
/// incrementally: it holds at most one buffer of output, never the whole stream.
///
/// ```swift
/// let writer = NDJSONWriter<GHIssue>(fileHandle: .standardOutput)
/// for issue in issues { try writer.write(issue) }
/// try writer.flush()
/// ```
///
/// A model that cannot be encoded throws and writes nothing: the lines already written stay
/// whole. Pretty printing is ignored (it would break lines).
public final class NDJSONWriter<Model: JSONObjectModel> {
    private var writer: JSONWriter
    private let sink: (UnsafeRawBufferPointer) throws -> Void
    private let bufferSize: Int
    private let codec = objectModelCodec(Model.self)
    /// Records written so far (including those still in the buffer).
    public private(set) var recordsWritten = 0

    /// Creates a writer that hands bytes to `sink` whenever its buffer fills, and on `flush()`.
    /// - Parameters:
    ///   - options: How to write each record; `prettyPrinted` is ignored.
    ///   - bufferSize: Bytes buffered before the sink is called; default 64 KiB.
    ///   - sink: Receives the output in order; may throw to stop the writer.
    public init(options: EncodingOptions = .init(), bufferSize: Int = 1 << 16,
                sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        var options = options
        options.prettyPrinted = false
        writer = JSONWriter(options: options, capacity: bufferSize + 4096)
        self.bufferSize = bufferSize
        self.sink = sink
    }

    /// Creates a writer to a file handle (a file, a pipe, standard output).
    /// - Parameters:
    ///   - fileHandle: Where the lines go.
    ///   - options: How to write each record.
    public convenience init(fileHandle: FileHandle, options: EncodingOptions = .init()) {
        self.init(options: options) { bytes in
            try fileHandle.write(contentsOf: Data(bytes))
        }
    }

    /// Appends one model as one line.
    /// - Parameter model: The model.
    /// - Throws: ``JSONError`` if the model cannot be encoded (nothing of it is written), or
    ///   whatever the sink throws.
    public func write(_ model: Model) throws {
        let mark = writer.count
        do {
            try codec.write(model, into: &writer)
        } catch {
            writer.truncate(to: mark)
            writer.reset()
            throw error
        }
        writer.append(UInt8(ascii: "\n"))
        recordsWritten += 1
        if writer.count >= bufferSize { try flush() }
    }

    /// Hands everything buffered to the sink.
    /// - Throws: Whatever the sink throws.
    public func flush() throws {
        guard writer.count > 0 else { return }
        try writer.withUnsafeBytes { try sink($0) }
        writer.truncate(to: 0)
    }

    deinit { try? flush() }
}
