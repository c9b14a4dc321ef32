/// Hands each decoded record to the caller.
final class RecordReceiver<Model>: Receiver<Model> {
    let handler: (Model) throws -> Void
    /// Records handed to the caller.
    private(set) var count = 0
    /// NDJSON: a record is held until its line has ended without an error (a line is one record
    /// or one error, never both), then delivered by `deliverHeld`.
    var holds = false
    private var held: Model?

    init(_ handler: @escaping (Model) throws -> Void) { self.handler = handler }

    override func receive(_ value: consuming Model, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        if holds {
            held = value
            return
        }
        count += 1
        do { try handler(value) } catch { throw RecordHandlerError(error: error) }
    }

    /// Hands the held record to the caller; an error the handler throws comes out as it was thrown.
    func deliverHeld() throws {
        guard let value = held.take() else { return }
        count += 1
        try handler(value)
    }

    /// Drops the held record: its line failed.
    func dropHeld() { held = nil }
}

/// Counts the records of a stream whose tokenizer sees them all (the records' array, or the root of
/// concatenated values), for the index of the record an error stopped in.
protocol RecordCounter: AnyObject {
    /// The index of the record an error stopped in (or, between records, of the next one); nil
    /// when the error is outside the records (an envelope field).
    /// - Parameter valueStarted: Whether the failing token began a value (not a syntax error).
    func recordIndex(_ b: borrowing EventBuilder, valueStarted: Bool) -> Int?
}

/// The array whose elements are the records (top-level, or at a key path in an envelope): each
/// element goes to the record slot, none is kept.
final class RecordArrayOwner: ContainerOwner, RecordCounter {
    let recordSlot: ValueTarget
    /// Where a stream that skips bad records reports them; nil to stop at the first.
    let sink: RecoverySink?
    /// The array frame's depth while it is open (0 otherwise): records are the frames above it.
    private(set) var depth = 0
    /// Whether the array has begun (an envelope without it is an error).
    private(set) var started = false

    init(recordSlot: ValueTarget, sink: RecoverySink?) {
        self.recordSlot = recordSlot
        self.sink = sink
    }

    override func start(_ starter: ValueTarget, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        b.push(.array, owner: self, node: nil, target: recordSlot, starter: starter, storage: context, parentContext: context)
        depth = b.depth
        started = true
        // Recovery covers the records only: an error in an envelope field still stops the stream.
        if let sink { b.beginRecovery(sink) }
    }
    override func finish(_ b: inout EventBuilder) throws {
        if let sink { b.endRecovery(sink) }
        depth = 0
        b.pop()
    }

    func recordIndex(_ b: borrowing EventBuilder, valueStarted: Bool) -> Int? {
        guard depth > 0, b.depth >= depth else { return nil }
        let count = b.frames[depth - 1].count
        // Skipping at the records' level: the rest of a record that failed is being read past.
        return valueStarted || b.depth > depth || b.isSkipping ? count - 1 : count
    }
}

/// Where the records' array is: accepts only an array.
final class RecordArrayTarget: ValueTarget {
    let owner: RecordArrayOwner
    init(owner: RecordArrayOwner) {
        self.owner = owner
        super.init(property: nil)
    }
    override var expected: String { "an array of records" }
    override func startArray(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try owner.start(self, context, &b)
    }
}

/// The root of a concatenated-values stream: every top-level value is a record. Counts the
/// records begun, for the index of an error.
final class RecordSequenceTarget: ValueTarget, RecordCounter {
    let recordSlot: ValueTarget
    private(set) var started = 0

    init(recordSlot: ValueTarget) {
        self.recordSlot = recordSlot
        super.init(property: nil)
    }

    override var expected: String { recordSlot.expected }
    override func string(_ bytes: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        started += 1
        try recordSlot.string(bytes, context, &b)
    }
    override func number(_ text: UnsafeRawBufferPointer, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        started += 1
        try recordSlot.number(text, context, &b)
    }
    override func bool(_ value: Bool, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        started += 1
        try recordSlot.bool(value, context, &b)
    }
    override func null(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        started += 1
        try recordSlot.null(context, &b)
    }
    override func startObject(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        started += 1
        try recordSlot.startObject(context, &b)
    }
    override func startArray(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        started += 1
        try recordSlot.startArray(context, &b)
    }

    func recordIndex(_ b: borrowing EventBuilder, valueStarted: Bool) -> Int? {
        recordIndex(valueStarted: valueStarted || b.depth > 0 || b.isSkipping)
    }

    /// The index of the record an error is in: the last one begun if the failing token is in it,
    /// else the next one.
    func recordIndex(valueStarted: Bool) -> Int { valueStarted ? started - 1 : started }

    /// A record skipped before it reached the builder (over a limit) is counted too.
    func countSkipped() { started += 1 }
}
