import Foundation

/// Writes records as NDJSON (one compact JSON value per line) to a file handle or any byte sink,
/// incrementally: it holds at most one buffer of output, never the whole stream.
///
/// ```swift
/// let writer = NDJSONWriter<GHIssue>(fileHandle: .standardOutput)
/// for issue in issues { try writer.write(issue) }
/// try writer.flush()
/// ```
///
/// Models are written through their mapping (``init(options:bufferSize:sink:)``); `Encodable`
/// values as a `MagmaEncoder` writes them (``init(encoder:bufferSize:sink:)``: each line the bytes
/// `JSONEncoder` gives the value, configured alike). A record that cannot be encoded throws and
/// writes nothing: the lines already written stay whole. Pretty printing is ignored (it would
/// break lines).
public final class NDJSONWriter<Record> {
    private var writer: JSONWriter
    private let sink: (UnsafeRawBufferPointer) throws -> Void
    private let bufferSize: Int
    /// Writes one record's JSON (no newline) at the end of the buffer.
    private let writeRecord: (Record, inout JSONWriter) throws -> Void
    /// Records written so far (including those still in the buffer).
    public private(set) var recordsWritten = 0

    private init(options: EncodingOptions, bufferSize: Int, sink: @escaping (UnsafeRawBufferPointer) throws -> Void,
                 writeRecord: @escaping (Record, inout JSONWriter) throws -> Void) {
        var options = options
        options.prettyPrinted = false
        writer = JSONWriter(options: options, capacity: bufferSize + 4096)
        self.bufferSize = bufferSize
        self.sink = sink
        self.writeRecord = writeRecord
    }

    /// Appends one record as one line.
    /// - Parameter record: The model or value.
    /// - Throws: ``JSONError`` if a model cannot be encoded, `EncodingError` if a value cannot
    ///   (nothing of it is written), or whatever the sink throws.
    public func write(_ record: Record) throws {
        let mark = writer.count
        do {
            try writeRecord(record, &writer)
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

extension NDJSONWriter where Record: JSONObjectModel {
    /// Creates a writer of models that hands bytes to `sink` whenever its buffer fills, and on `flush()`.
    /// - Parameters:
    ///   - options: How to write each record; `prettyPrinted` is ignored.
    ///   - bufferSize: Bytes buffered before the sink is called; default 64 KiB.
    ///   - sink: Receives the output in order; may throw to stop the writer.
    public convenience init(options: EncodingOptions = .init(), bufferSize: Int = 1 << 16,
                            sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        let codec = objectModelCodec(Record.self)
        self.init(options: options, bufferSize: bufferSize, sink: sink) { try codec.write($0, into: &$1) }
    }

    /// Creates a writer of models to a file handle (a file, a pipe, standard output).
    /// - Parameters:
    ///   - fileHandle: Where the lines go.
    ///   - options: How to write each record.
    public convenience init(fileHandle: FileHandle, options: EncodingOptions = .init()) {
        self.init(options: options) { bytes in try fileHandle.write(contentsOf: Data(bytes)) }
    }
}

extension NDJSONWriter where Record: Encodable {
    /// Creates a writer of `Encodable` values, each line written as `encoder` writes the value
    /// (its strategies and user info when the line is written; `.prettyPrinted` is left out),
    /// handing bytes to `sink` whenever its buffer fills, and on `flush()`.
    /// - Parameters:
    ///   - encoder: How to write each value.
    ///   - bufferSize: Bytes buffered before the sink is called; default 64 KiB.
    ///   - sink: Receives the output in order; may throw to stop the writer.
    public convenience init(encoder: MagmaEncoder, bufferSize: Int = 1 << 16, sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.init(options: .init(), bufferSize: bufferSize, sink: sink) { value, writer in
            try encoder.encode(value, formatting: encoder.outputFormatting.subtracting(.prettyPrinted)).withUnsafeBytes { writer.append($0) }
        }
    }

    /// Creates a writer of `Encodable` values to a file handle (a file, a pipe, standard output).
    /// - Parameters:
    ///   - fileHandle: Where the lines go.
    ///   - encoder: How to write each value.
    public convenience init(fileHandle: FileHandle, encoder: MagmaEncoder) {
        self.init(encoder: encoder) { bytes in try fileHandle.write(contentsOf: Data(bytes)) }
    }
}
