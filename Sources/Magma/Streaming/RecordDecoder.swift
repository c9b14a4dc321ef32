// The streaming layer (rank 8 in ARCHITECTURE.md): records one by one from a top-level array,
// an array at a key path, NDJSON or concatenated values, in any chunking. The stream is cut into
// records (RecordDecoder+Framing.swift: lines at their newline, other records by their structure,
// `RecordCutter`), each held until it is whole and read whole by the scanner (or yajl, when the
// options ask), through the same EventBuilder as one document. A record is a value the frames hand
// to a RecordReceiver (which calls the caller's handler and forgets it), so memory is bounded by
// the largest record; a bad record's error reaches a RecoverySink, which decides to stop or to
// skip. The parallel entry points split the input at line boundaries and decode the parts on
// worker threads, in order.

import Foundation
import Synchronization

/// Decodes a stream of records as its bytes arrive, handing each model to you as soon as it is
/// complete and keeping none: memory is bounded by the largest record, not by the input.
///
/// ```swift
/// let decoder = RecordDecoder(GHIssue.self, layout: .ndjson, errorPolicy: .skip) { issue in
///     try store.insert(issue)
/// }
/// for try await chunk in FileChunks(.standardInput) { try decoder.feed(chunk) }    // any chunking
/// try decoder.finish()
/// print(decoder.progress.records, decoder.skipped.total)
/// ```
///
/// Without `async`, ``read(from:)`` feeds a `FileHandle` to its end and finishes. The decoder
/// itself is not `Sendable`; to watch it from another thread, read ``progressHandle`` there.
///
/// - Top-level array (`[{…},{…}]`), an array at a key path in an envelope object
///   (`{"total": 2, "items": [{…},{…}]}`), or concatenated values (`{…}{…} {…}`): a record that
///   fails to map (a type mismatch, a missing required key) is skipped or stops the stream, as the
///   policy says, and so is one with bad UTF-8 or a token over `maxTokenLength`; a syntax error
///   ends the stream with a precise error, after every record before it was delivered. The rest
///   of a record skipped for its text is still read for its syntax (its first
///   `max(2 × maxTokenLength, 64 KiB)` bytes): an error there, or an input ending inside it, ends
///   the stream too, since the record's end is then in doubt.
/// - NDJSON: one record per line; blank lines, CRLF and a last line without newline are fine. Each
///   line is parsed on its own, so a syntax error loses that line only. A line is one record or
///   one error, never both: a line with anything after its value (`{"id":1}{"id":2}`) is an
///   error and delivers nothing, and a record is delivered once its line has ended. A line is held
///   until its newline and read whole; a string or number over `maxTokenLength` fails (or, with
///   `.skip`, loses its line) as soon as it passes the cap, however long the line runs on, and a
///   line over ``DecodingOptions/maxRecordLength`` likewise.
public final class RecordDecoder<Model> {
    /// How records are laid out in the input.
    public struct Layout: Sendable, Equatable {
        enum Kind: Equatable {
            case array, ndjson, concatenated
            case nested(keyPath: String)
        }
        let kind: Kind
        /// Where the envelope's other fields go (`.array(at:envelope:)`).
        let envelope: (any EnvelopeSlot)?

        init(kind: Kind, envelope: (any EnvelopeSlot)? = nil) {
            self.kind = kind
            self.envelope = envelope
        }

        /// One top-level JSON array whose elements are the records.
        public static var array: Layout { Layout(kind: .array) }
        /// Newline-delimited JSON: one record per line.
        public static var ndjson: Layout { Layout(kind: .ndjson) }
        /// Top-level values one after another (`{…}{…} {…}`), separated by any whitespace or none.
        public static var concatenated: Layout { Layout(kind: .concatenated) }
        /// The array at a key path of a top-level envelope object: `"items"`, or dotted through
        /// nested objects, `"data.items"` (`\.` for a dot inside a key). The envelope's other
        /// fields are ignored.
        /// - Parameter keyPath: Where the records' array is.
        public static func array(at keyPath: String) -> Layout { Layout(kind: .nested(keyPath: keyPath)) }

        /// The array at a key path of a top-level envelope object, with the envelope's other
        /// fields (before or after the array) decoded into `envelope`'s model. Its mapping names
        /// its own fields, not the records' key path; an error in one always stops the stream.
        /// Without the key path in the input, the stream ends with ``JSONError/Code/missingKey``.
        ///
        /// ```swift
        /// let page = Envelope(Page.self)
        /// try JSONAdapter.forEachRecord(GHIssue.self, from: data, layout: .array(at: "items", envelope: page)) { _ in }
        /// ```
        /// - Parameters:
        ///   - keyPath: Where the records' array is.
        ///   - envelope: Where the envelope model goes when the stream finishes (see ``Envelope``).
        public static func array<E>(at keyPath: String, envelope: Envelope<E>) -> Layout {
            Layout(kind: .nested(keyPath: keyPath), envelope: envelope)
        }

        public static func == (a: Layout, b: Layout) -> Bool { a.kind == b.kind && a.envelope === b.envelope }
    }

    /// What a bad record does to the stream.
    public enum ErrorPolicy: Sendable {
        /// The first bad record stops the stream with its error (the default).
        case stop
        /// A bad record is reported (``skipped``, `onSkip`) and the stream goes on. Nesting
        /// deeper than `maxDepth` stops the stream even so, at the first bracket too deep (in
        /// NDJSON it loses that line only): the rest of such a record could not be read past in
        /// bounded time and memory.
        case skip
    }

    /// How far a stream has come (see ``ProgressHandle``).
    public typealias Progress = StreamProgress

    let layout: Layout
    let policy: ErrorPolicy
    let receiver: RecordReceiver<Model>
    /// The builder's root, which it does not retain.
    let root: ValueTarget
    let sink: Sink
    /// The records' array or the root of concatenated values, for the index of the record an
    /// error stopped in (nil for NDJSON, which counts its lines itself).
    let recordCounter: RecordCounter?
    /// The envelope root (`.array(at:)`).
    let envelopeRoot: EnvelopeRoot?
    /// The key path of the records' array in an envelope, as the scanner hands keys over.
    let keyPath: [[UInt8]]
    /// A layout that cannot work (a malformed key path): thrown by the first `feed` or `finish`.
    let configurationError: JSONError?
    let builder: UnsafeMutablePointer<EventBuilder>
    var finished = false
    var consumed = 0
    let counters: ProgressHandle

    // Framing (RecordDecoder+Framing.swift).
    var framing = Framing.start
    /// The record (line, value, envelope part) under way, from its first byte at `pendingStart`,
    /// while it is not whole in the bytes at hand.
    var pending = HeldBytes()
    var pendingStart = 0
    /// Where the record under way ends, found by its structure as its bytes arrive.
    var cutter = RecordCutter()
    /// Line and column of the offsets the stream has passed.
    var lines = StreamLines()
    /// The line and column of `pendingStart`: the record under way's first byte, or the held
    /// text's around the records (before their array, after it, or all of a stream not as the
    /// layout wants), whose lines `lines` has passed by the time they are read.
    var recordPlace = (line: 1, column: 1)
    /// `pending.count` at which the record under way is next checked against the limits.
    var nextLimitCheck = 0
    /// An envelope: `pending.count` at which its bytes are next read for the records' array.
    var nextFindAt = 0
    /// A record over a limit: its error is reported, and its bytes are read past to its end.
    var skippingRecord = false
    /// The record read past was skipped before its value began: counted at its end (`endSkipped`).
    var uncountedSkip = false
    /// The error of the record being read past, found before it ended: the policy's once it ends.
    var deferred: JSONError?
    /// The scanner's place around the records of an array or envelope (its open containers).
    var outer: OuterScan?
    /// Comments in the input, blanked before the stream is cut (with `allowComments`).
    var comments: CommentBlanker?
    /// NDJSON: a line has begun and not ended.
    var lineOpen = false
    /// NDJSON: lines begun so far, and lines holding a record.
    var lineNumber = 0
    var lineRecords = 0
    /// The most bytes held at once.
    var mostHeldBytes = 0
    /// After a top-level array's `]`: the blanks not held (see `holdSuffix`).
    var suffixBlanks = SuffixBlanks()

    /// The stream's progress counters, readable from any thread while it runs: the handle given
    /// to the initialiser, or one of its own.
    public var progressHandle: ProgressHandle { counters }

    /// The records skipped so far (with `.skip`): the errors of the first
    /// ``DecodingOptions/keptSkippedErrors``, in order, and how many were skipped, by code.
    public var skipped: SkippedRecords { sink.errors }

    /// What the records delivered so far left out on purpose: properties that kept their default
    /// instead of an invalid value, and elements lossy collections dropped, each entry with the
    /// index of its record (as ``skipped`` numbers them). The first
    /// ``DecodingOptions/keptSkippedErrors`` of each kind are kept, every one counted; a record
    /// skipped as bad leaves none. A copy, as it stands when read: later records do not change it.
    public var report: DecodingReport { DecodingReport(copying: sink.report) }

    /// Creates a decoder.
    /// - Parameters:
    ///   - type: The record model.
    ///   - layout: How the records are laid out: a top-level array, an array at a key path, NDJSON,
    ///     or concatenated values.
    ///   - options: How to read each record.
    ///   - errorPolicy: Stop at the first bad record (default) or skip and report it.
    ///   - progress: Where to count bytes, records and skips (see ``ProgressHandle``); nil for a
    ///     handle of the decoder's own, at ``progressHandle``.
    ///   - onSkip: Called with each skipped record's error (its record index, offset, reason).
    ///   - onRecord: Called with each record, in order, as soon as it is complete. An error it
    ///     throws stops the stream and comes out of `feed` or `finish` as it was thrown.
    public convenience init(_ type: Model.Type, layout: Layout, options: DecodingOptions = .init(), errorPolicy: ErrorPolicy = .stop,
                            progress: ProgressHandle? = nil, onSkip: ((JSONError) -> Void)? = nil,
                            onRecord: @escaping (Model) throws -> Void) where Model: JSONObjectModel {
        self.init(layout: layout, codec: objectModelCodec(Model.self), options: options,
                  errorPolicy: errorPolicy, progress: progress,
                  onSkip: onSkip, onRecord: onRecord)
    }

    /// Every public init comes here with the codec of its records (a run-time mapping's, for
    /// RecordDecoder+Mapping.swift; a `Decodable` type's, for RecordDecoder+Decodable.swift).
    init(layout: Layout, codec: Codec<Model>, options: DecodingOptions, errorPolicy: ErrorPolicy, progress: ProgressHandle?,
         onSkip: ((JSONError) -> Void)?,
                                      onRecord: @escaping (Model) throws -> Void) {
        counters = progress ?? ProgressHandle()
        self.layout = layout
        policy = errorPolicy
        receiver = RecordReceiver(onRecord)
        let recordSlot = Slot(codec, receiver)
        sink = Sink(limit: options.keptSkippedErrors)
        sink.counters = counters
        sink.onSkip = onSkip
        let recovering = errorPolicy == .skip ? sink : nil
        var envelopeRoot: EnvelopeRoot?
        var configurationError: JSONError?
        var keyPath: [[UInt8]] = []
        switch layout.kind {
        case .array:
            let array = RecordArrayOwner(recordSlot: recordSlot, sink: recovering)
            recordCounter = array
            root = RecordArrayTarget(owner: array)
        case .nested(let path):
            let array = RecordArrayOwner(recordSlot: recordSlot, sink: recovering)
            recordCounter = array
            do {
                keyPath = try MappingPlan.components(of: path, property: "the records' key path").map { Array($0.utf8) }
                let target = try (layout.envelope ?? Envelope(NoEnvelope.self)).root(keyPath: path, records: array)
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
            receiver.holds = true
            root = recordSlot
        }
        self.envelopeRoot = envelopeRoot
        layout.envelope?.keep(nil)
        self.configurationError = configurationError
        self.keyPath = keyPath
        builder = .allocate(capacity: 1)
        builder.initialize(to: EventBuilder(root: root, rootContext: UnsafeMutableRawPointer(builder), options: options,
                                            report: sink.report))
        if layout.kind == .concatenated, errorPolicy == .skip { builder.pointee.beginRecovery(sink) }
        if options.allowComments { comments = CommentBlanker(newlineEndsString: layout.kind == .ndjson) }
        framing = layout.kind == .ndjson ? .lines : layout.kind == .concatenated ? .values : .start
        if layout.kind == .ndjson {
            builder.pointee.reportRecordIndex = { [unowned self] _ in lineRecords - 1 }
        } else {
            builder.pointee.reportRecordIndex = { [unowned(unsafe) counter = recordCounter] in counter?.recordIndex($0, valueStarted: true) }
        }
    }

    deinit {
        builder.pointee.destroy()
        builder.deinitialize(count: 1)
        builder.deallocate()
    }

    /// How far the stream has come: a snapshot of ``progressHandle``. To read it from another
    /// thread, read the handle there (the decoder itself is not `Sendable`).
    public var progress: Progress { counters.current }

    /// Decodes the records a chunk completes. Any chunking gives the same records.
    /// - Parameter chunk: The next bytes of the input.
    /// - Throws: ``JSONError`` for a bad record (with `.stop`), a syntax error in an array, or
    ///   whatever `onRecord` threw.
    public func feed<Bytes: ContiguousBytes>(_ chunk: Bytes) throws {
        precondition(!finished, "feed after finish")
        if let configurationError { throw configurationError }
        counters.start()
        try chunk.withUnsafeBytes { bytes in
            // A chunk that throws was handed over too, and records from it may have been delivered.
            defer {
                consumed += bytes.count
                counters.bytes.store(consumed, ordering: .relaxed)
                counters.records.store(receiver.count, ordering: .relaxed)
            }
            if comments != nil {
                let slash = comments!.heldSlash ? 1 : 0
                let blanked = comments!.blank(bytes)
                try blanked.withUnsafeBytes { try cut($0, at: consumed - slash) }
            } else {
                try cut(bytes, at: consumed)
            }
        }
    }

    /// Ends the input: decodes the last record, or checks that the array was complete.
    /// - Throws: As `feed`; ``JSONError/Code/unexpectedEnd`` if the input stopped mid-record.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        if let configurationError { throw configurationError }
        defer { counters.records.store(receiver.count, ordering: .relaxed) }
        if comments != nil {
            let rest = comments!.finish()
            try rest.withUnsafeBytes { try cut($0, at: consumed - rest.count) }
            if !comments!.isClosed {
                var error = JSONError(.unexpectedEnd, JSONScanner.unexpectedEnd)
                error.offset = consumed
                (error.line, error.column) = lines.place(consumed)
                throw error
            }
        }
        try end()
        layout.envelope?.keep(envelopeRoot?.decoded)
    }

    /// NDJSON: the lines begun so far, and those holding a record (not blank), for a batch of a
    /// document to place its errors in the whole (the parallel stream).
    var lineCounts: (lines: Int, records: Int) { (lineNumber, lineRecords) }

    /// The most bytes held at once (tests check a long token is held in O(cap)).
    var mostHeld: Int { mostHeldBytes }

    /// Begins a new input, counted from its own first byte and line, with the same handler, policy
    /// and options, and the builder and caches kept: for a worker of `forEachRecordInParallel` that
    /// decodes batch after batch. Read `skipped` and `lineCounts` of the last input first.
    func restart() {
        receiver.dropHeld()
        builder.pointee.reset()
        sink.errors.removeAll()
        sink.report.removeAll()
        finished = false
        lineNumber = 0
        lineRecords = 0
        consumed = 0
        pending.removeAll()
        cutter.reset()
        lines = StreamLines()
        skippingRecord = false
        uncountedSkip = false
        deferred = nil
        lineOpen = false
        framing = .lines
    }

    final class Sink: RecoverySink {
        var errors: SkippedRecords
        /// What the records left out (the builder notes it as it reads them).
        let report: DecodingReport
        var onSkip: ((JSONError) -> Void)?
        var counters: ProgressHandle?
        /// Concatenated values: records are top-level, so the builder knows no index for them.
        var sequence: RecordSequenceTarget?
        init(limit: Int) {
            errors = SkippedRecords(limit: limit)
            report = DecodingReport(limit: limit)
        }
        override func topLevelRecordIndex(valueStarted: Bool) -> Int? {
            sequence?.recordIndex(valueStarted: valueStarted)
        }
        override func countSkippedTopLevel() { sequence?.countSkipped() }
        /// `error` is placed in its record: the builder sets its index, and so does the framing.
        override func skipped(_ error: JSONError) throws {
            report.removeRecord(error.recordIndex)
            errors.append(error)
            counters?.skipped.add(1, ordering: .relaxed)
            onSkip?(error)
        }
    }
}
