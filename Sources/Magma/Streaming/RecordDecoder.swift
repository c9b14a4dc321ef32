import Foundation
import Synchronization

/// Decodes a stream of records as its bytes arrive, handing each model to you as soon as it is
/// complete and keeping none: memory is bounded by the largest record, not by the input.
///
/// ```swift
/// let decoder = RecordDecoder(GHIssue.self, layout: .ndjson, errorPolicy: .skip) { issue in
///     try store.insert(issue)
/// }
/// for try await chunk in body { try decoder.feed(chunk) }    // any chunking
/// try decoder.finish()
/// print(decoder.progress.records, decoder.skipped.count)
/// ```
///
/// - Top-level array (`[{…},{…}]`), an array at a key path in an envelope object
///   (`{"total": 2, "items": [{…},{…}]}`), or concatenated values (`{…}{…} {…}`): a record that
///   fails to map (a type mismatch, a missing required key) is skipped or stops the stream, as the
///   policy says; a syntax error ends the stream with a precise error, after every record before it
///   was delivered.
/// - NDJSON: one record per line; blank lines, CRLF and a last line without newline are fine. Each
///   line is parsed on its own, so a syntax error loses that line only.
public final class RecordDecoder<Model: JSONModel> {
    /// How records are laid out in the input.
    public struct Layout: Sendable, Equatable {
        enum Kind: Equatable {
            case array, ndjson, concatenated
            case nested(keyPath: String)
        }
        let kind: Kind

        /// One top-level JSON array whose elements are the records.
        public static var array: Layout { Layout(kind: .array) }
        /// Newline-delimited JSON: one record per line.
        public static var ndjson: Layout { Layout(kind: .ndjson) }
        /// Top-level values one after another (`{…}{…} {…}`), separated by any whitespace or none.
        public static var concatenated: Layout { Layout(kind: .concatenated) }
        /// The array at a key path of a top-level envelope object: `"items"`, or dotted through
        /// nested objects, `"data.items"` (`\.` for a dot inside a key). The envelope's other
        /// fields can be decoded into a model of their own (see
        /// ``RecordDecoder/init(_:at:envelope:options:errorPolicy:onSkip:onRecord:)``).
        /// - Parameter keyPath: Where the records' array is.
        public static func array(at keyPath: String) -> Layout { Layout(kind: .nested(keyPath: keyPath)) }
    }

    /// What a bad record does to the stream.
    public enum ErrorPolicy: Sendable {
        /// The first bad record stops the stream with its error (the default).
        case stop
        /// A bad record is reported (``skipped``, `onSkip`) and the stream goes on.
        case skip
    }

    /// How far a stream has come; readable from any thread while it runs.
    public struct Progress: Sendable {
        /// Input bytes handed to the decoder so far.
        public var bytes: Int
        /// Records delivered.
        public var records: Int
        /// Records skipped as bad.
        public var skipped: Int
        /// Seconds since the first byte.
        public var seconds: Double
        /// Records delivered per second so far.
        public var recordsPerSecond: Double { seconds > 0 ? Double(records) / seconds : 0 }
        /// Input megabytes (10^6 bytes) per second so far.
        public var megabytesPerSecond: Double { seconds > 0 ? Double(bytes) / 1e6 / seconds : 0 }
    }

    private let layout: Layout
    private let policy: ErrorPolicy
    private let options: DecodingOptions
    private let onSkip: ((JSONError) -> Void)?
    private let receiver: RecordReceiver<Model>
    private let recordSlot: Slot<Model>
    private let root: ValueTarget
    private let sink: Sink
    /// The records' array or the root of concatenated values, for the index of the record an
    /// error stopped in (nil for NDJSON, which counts its lines itself).
    private let recordCounter: RecordCounter?
    /// The envelope root (`.array(at:)`).
    private let envelopeRoot: EnvelopeRoot?
    /// A layout that cannot work (a malformed key path): thrown by the first `feed` or `finish`.
    private let configurationError: JSONError?
    private let builder: UnsafeMutablePointer<EventBuilder>
    private var tokenizer: Tokenizer?
    private var finished = false
    private var pendingLine: [UInt8] = []
    private var lineNumber = 0
    private var lineRecords = 0
    private var consumed = 0
    private var started: ContinuousClock.Instant?
    private let counters = Counters()

    /// The errors of the records skipped so far (with `.skip`), in order.
    public var skipped: [JSONError] { sink.errors }

    /// Creates a decoder.
    /// - Parameters:
    ///   - type: The record model.
    ///   - layout: How the records are laid out: a top-level array, an array at a key path, NDJSON,
    ///     or concatenated values.
    ///   - options: How to read each record.
    ///   - errorPolicy: Stop at the first bad record (default) or skip and report it.
    ///   - onSkip: Called with each skipped record's error (its record index, offset, reason).
    ///   - onRecord: Called with each record, in order, as soon as it is complete. An error it
    ///     throws stops the stream and comes out of `feed` or `finish` as it was thrown.
    public convenience init(_ type: Model.Type, layout: Layout, options: DecodingOptions = .init(), errorPolicy: ErrorPolicy = .stop,
                            onSkip: ((JSONError) -> Void)? = nil, onRecord: @escaping (Model) throws -> Void) {
        self.init(layout: layout, envelope: NoEnvelope.self, options: options, errorPolicy: errorPolicy, onSkip: onSkip,
                  onRecord: onRecord)
    }

    /// Creates a decoder for records in an array at a key path of an envelope object, with the
    /// envelope's other fields decoded into a model: `{"total": 3, "items": [...]}`.
    ///
    /// The records stream one at a time as for a top-level array; the envelope (its fields may
    /// come before or after the array) is available from ``envelope(_:)`` once its object has
    /// ended. Its mapping names its own fields, not the records' key path. Without the key path
    /// in the input, the stream ends with ``JSONError/Code/missingKey``.
    /// - Parameters:
    ///   - type: The record model.
    ///   - keyPath: Where the records' array is: `"items"`, or dotted, `"data.items"`.
    ///   - envelope: The model of the envelope's other fields.
    ///   - options: How to read each record (and the envelope).
    ///   - errorPolicy: Stop at the first bad record (default) or skip and report it. An error in
    ///     an envelope field always stops the stream.
    ///   - onSkip: Called with each skipped record's error.
    ///   - onRecord: Called with each record, in order, as soon as it is complete.
    public convenience init<Envelope: JSONModel>(_ type: Model.Type, at keyPath: String, envelope: Envelope.Type,
                                                 options: DecodingOptions = .init(), errorPolicy: ErrorPolicy = .stop,
                                                 onSkip: ((JSONError) -> Void)? = nil,
                                                 onRecord: @escaping (Model) throws -> Void) {
        self.init(layout: .array(at: keyPath), envelope: envelope, options: options, errorPolicy: errorPolicy, onSkip: onSkip,
                  onRecord: onRecord)
    }

    private init<Envelope: JSONModel>(layout: Layout, envelope: Envelope.Type, options: DecodingOptions, errorPolicy: ErrorPolicy,
                                      onSkip: ((JSONError) -> Void)?, onRecord: @escaping (Model) throws -> Void) {
        self.layout = layout
        policy = errorPolicy
        self.options = options
        self.onSkip = onSkip
        receiver = RecordReceiver(onRecord)
        recordSlot = Slot(ModelCodec<Model>(), receiver)
        sink = Sink()
        sink.counters = counters
        sink.onSkip = onSkip
        let recovering = errorPolicy == .skip ? sink : nil
        var envelopeRoot: EnvelopeRoot?
        var configurationError: JSONError?
        switch layout.kind {
        case .array:
            let array = RecordArrayOwner(recordSlot: recordSlot, sink: recovering)
            recordCounter = array
            root = RecordArrayTarget(owner: array)
        case .nested(let keyPath):
            let array = RecordArrayOwner(recordSlot: recordSlot, sink: recovering)
            recordCounter = array
            do {
                let target = try EnvelopeTarget<Envelope>(keyPath: keyPath, records: array)
                envelopeRoot = target
                root = target
            } catch {
                configurationError = error
                root = RecordArrayTarget(owner: array)
            }
        case .concatenated:
            let sequence = RecordSequenceTarget(recordSlot: recordSlot)
            recordCounter = sequence
            sink.sequence = sequence
            root = sequence
        case .ndjson:
            recordCounter = nil
            root = recordSlot
        }
        self.envelopeRoot = envelopeRoot
        self.configurationError = configurationError
        builder = .allocate(capacity: 1)
        builder.initialize(to: EventBuilder(root: root, rootContext: UnsafeMutableRawPointer(builder), options: options))
        if layout.kind == .concatenated, errorPolicy == .skip { builder.pointee.recovery = (0, sink) }
        if layout.kind != .ndjson {
            tokenizer = Tokenizer(builder: builder, multipleValues: layout.kind == .concatenated, tracksLines: true)
        }
    }

    deinit {
        tokenizer = nil
        builder.pointee.destroy()
        builder.deinitialize(count: 1)
        builder.deallocate()
    }

    /// How far the stream has come.
    public var progress: Progress {
        let elapsed = counters.startNanos.load(ordering: .relaxed)
        let seconds = elapsed == 0 ? 0 : Double(DispatchTime.now().uptimeNanoseconds &- UInt64(elapsed)) / 1e9
        return Progress(bytes: counters.bytes.load(ordering: .relaxed), records: counters.records.load(ordering: .relaxed),
                        skipped: counters.skipped.load(ordering: .relaxed), seconds: seconds)
    }

    /// Decodes the records a chunk completes. Any chunking gives the same records.
    /// - Parameter chunk: The next bytes of the input.
    /// - Throws: ``JSONError`` for a bad record (with `.stop`), a syntax error in an array, or
    ///   whatever `onRecord` threw.
    public func feed<Bytes: ContiguousBytes>(_ chunk: Bytes) throws {
        precondition(!finished, "feed after finish")
        if let configurationError { throw configurationError }
        if counters.startNanos.load(ordering: .relaxed) == 0 {
            counters.startNanos.store(Int(DispatchTime.now().uptimeNanoseconds), ordering: .relaxed)
        }
        try chunk.withUnsafeBytes { bytes in
            switch layout.kind {
            case .ndjson: try feedLines(bytes)
            case .array, .nested, .concatenated: try run { try tokenizer!.feed(bytes) }
            }
            consumed += bytes.count
            counters.bytes.store(consumed, ordering: .relaxed)
        }
    }

    /// Ends the input: decodes the last line, or checks that the array was complete.
    /// - Throws: As `feed`; ``JSONError/Code/unexpectedEnd`` if the input stopped mid-record.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        if let configurationError { throw configurationError }
        switch layout.kind {
        case .concatenated:
            // yajl calls an input with no value a premature end; for a stream it is zero records.
            try run {
                if builder.pointee.eventCount == 0, try tokenizer!.holdsNoToken() { return }
                try tokenizer!.finish()
            }
        case .array, .nested:
            try run { try tokenizer!.finish() }
        case .ndjson:
            if !pendingLine.isEmpty {
                let line = pendingLine
                pendingLine = []
                try line.withUnsafeBytes { try parseLine($0, start: consumed - line.count) }
            }
        }
    }

    /// The envelope model, once its object has ended: only a decoder made with
    /// ``init(_:at:envelope:options:errorPolicy:onSkip:onRecord:)`` has one (nil before, and for a
    /// decoder made with a `layout`, `.array(at:)` included: that one ignores the envelope's fields).
    /// - Parameter type: The envelope model given to the initialiser.
    /// - Returns: The decoded envelope.
    public func envelope<Envelope: JSONModel>(_ type: Envelope.Type = Envelope.self) -> Envelope? {
        envelopeRoot?.decoded as? Envelope
    }

    var envelopeValue: Any? { envelopeRoot?.decoded }

    /// The most bytes the tokenizer has held at once (tests check a long token is held in O(cap)).
    var mostHeld: Int { tokenizer?.mostHeld ?? 0 }

    private func run(_ body: () throws -> Void) throws {
        defer { counters.records.store(receiver.count, ordering: .relaxed) }
        do {
            try body()
        } catch var error as JSONError {
            if let handler = error.underlying as? RecordHandlerError { throw handler.error }
            if error.recordIndex == nil {
                // A syntax error may come before the next record's first token, and a string or
                // number failed before it reached the frames (the size cap, invalid text) may be
                // the next record itself; any other error comes from a token that began a value
                // in the record.
                let started = error.code != .syntax && error.code != .unexpectedEnd && !builder.pointee.failedBeforeFrames
                error.recordIndex = recordCounter?.recordIndex(builder.pointee, valueStarted: started)
            }
            throw error
        }
    }

    // MARK: NDJSON

    private func feedLines(_ bytes: UnsafeRawBufferPointer) throws {
        var start = 0
        while start < bytes.count, let found = memchr(bytes.baseAddress! + start, 0x0A, bytes.count - start) {
            let newline = UnsafeRawPointer(found) - bytes.baseAddress!
            if pendingLine.isEmpty {
                try parseLine(UnsafeRawBufferPointer(rebasing: bytes[start..<newline]), start: consumed + start)
            } else {
                pendingLine.append(contentsOf: bytes[start..<newline])
                let line = pendingLine
                pendingLine.removeAll(keepingCapacity: true)
                try line.withUnsafeBytes { try parseLine($0, start: consumed + newline - line.count) }
            }
            start = newline + 1
        }
        pendingLine.append(contentsOf: bytes[start...])
    }

    /// Parses one line with a handle of its own: a syntax error loses this line only.
    private func parseLine(_ line: UnsafeRawBufferPointer, start: Int) throws {
        lineNumber += 1
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        let index = lineRecords
        lineRecords += 1
        var lineTokenizer = Tokenizer(builder: builder, tracksLines: false)
        do {
            try run { try lineTokenizer.parseAll(line) }
        } catch var error as JSONError {
            builder.pointee.reset()
            error.recordIndex = index
            error.column = error.offset.map { $0 + 1 }
            error.offset = error.offset.map { start + $0 }
            error.line = lineNumber
            if policy == .stop { throw error }
            try sink.skipped(error)
        }
    }

    /// Counters the progress reads, safe to read from another thread.
    private final class Counters: Sendable {
        let bytes = Atomic<Int>(0)
        let records = Atomic<Int>(0)
        let skipped = Atomic<Int>(0)
        let startNanos = Atomic<Int>(0)
    }

    private final class Sink: RecoverySink {
        var errors: [JSONError] = []
        var onSkip: ((JSONError) -> Void)?
        var counters: Counters?
        /// Concatenated values: records are top-level, so the builder knows no index for them.
        var sequence: RecordSequenceTarget?
        override func topLevelRecordIndex(valueStarted: Bool) -> Int? {
            sequence.map { valueStarted ? $0.started - 1 : $0.started }
        }
        override func skipped(_ error: JSONError) throws {
            var error = error
            if error.recordIndex == nil, let sequence { error.recordIndex = sequence.started - 1 }
            errors.append(error)
            counters?.skipped.add(1, ordering: .relaxed)
            onSkip?(error)
        }
    }
}
