/// Receives the errors of skipped records in a stream (and may stop it by throwing).
class RecoverySink {
    func skipped(_ error: JSONError) throws {}
}

/// Wraps an error thrown by the caller's record handler, so it stops the stream instead of being
/// taken for a bad record.
struct RecordHandlerError: Error {
    let error: any Error
}

/// Hands each decoded record to the caller.
final class RecordReceiver<Model>: Receiver<Model> {
    let handler: (Model) throws -> Void
    private(set) var count = 0

    init(_ handler: @escaping (Model) throws -> Void) { self.handler = handler }

    override func receive(_ value: consuming Model, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        count += 1
        do { try handler(value) } catch { throw RecordHandlerError(error: error) }
    }
}

/// The top-level array of a record stream: each element goes to the record slot, none is kept.
final class RecordArrayOwner: ContainerOwner {
    let recordSlot: ValueTarget
    init(recordSlot: ValueTarget) { self.recordSlot = recordSlot }

    override func start(_ starter: ValueTarget, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        b.push(.array, owner: self, node: nil, target: recordSlot, starter: starter, storage: context, parentContext: context)
    }
    override func finish(_ b: inout EventBuilder) throws { b.pop() }
}

/// The root of an array record stream: accepts only the top-level array.
final class RecordArrayTarget: ValueTarget {
    let owner: RecordArrayOwner
    init(recordSlot: ValueTarget) {
        owner = RecordArrayOwner(recordSlot: recordSlot)
        super.init(property: nil)
    }
    override var expected: String { "an array of records" }
    override func startArray(_ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try owner.start(self, context, &b)
    }
}
