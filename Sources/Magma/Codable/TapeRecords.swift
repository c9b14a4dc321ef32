// Records of a stream read as `Decodable` types, as `MagmaDecoder` reads a document: each record's
// events go into a tape of its own (through the EventBuilder's checks, with the stream's offsets),
// `TapeDecoder` reads it when the record ends, and it is dropped: memory is bounded by the record.
// The streams see a `Codec` as they see a model's, so the skip policy, error positions and
// progress are theirs.
//
// A record's tape has no input buffer (the stream's chunks do not outlive the record): its text is
// all copied. Its errors' lines and columns are the stream's to set: a record is always read whole,
// from bytes the stream holds, and the stream places an offset in them (`StreamLines`).

import Foundation

/// Reads each record of a stream as a `T`, through a tape per record and `MagmaDecoder`'s strategies.
final class DecodableRecordCodec<T: Decodable>: Codec<T>, @unchecked Sendable {
    private let settings: DecoderSettings
    private let objects = TapeRecordOwner(.object)
    private let arrays = TapeRecordOwner(.array)

    init(_ decoder: MagmaDecoder) {
        settings = decoder.settings
    }

    override var typeName: String { Magma.typeName(T.self) }
    /// `null` is the decoder's to judge (an optional record is nil; anything else is its error).
    override var acceptsNull: Bool { true }
    override var objectOwner: ContainerOwner? { objects }
    override var arrayOwner: ContainerOwner? { arrays }

    // A scalar record: a tape of one entry. The builder places its errors, as it places any scalar's.
    override func string(_ bytes: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> T { try scalar(.string, bytes) }
    override func number(_ text: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> T { try scalar(.number, text) }
    override func bool(_ value: Bool, _ flags: CodecFlags) throws -> T { try scalar(value ? .trueValue : .falseValue) }
    override func null() throws -> T { try scalar(.null) }

    override func take(_ storage: UnsafeMutableRawPointer, from owner: ContainerOwner) throws -> T {
        try decode(Tape.record(storage.assumingMemoryBound(to: TapeWriter.self).move()), placed: true)
    }

    private func scalar(_ kind: TapeKind, _ text: UnsafeRawBufferPointer? = nil) throws -> T {
        var writer = TapeWriter.record()
        if let text { writer.text(kind, text, tokenEnd: nil) } else { writer.scalar(kind, offset: 0) }
        return try decode(Tape.record(writer), placed: false)
    }

    /// - Parameter placed: Whether the tape's offsets are the stream's (a container record's).
    private func decode(_ tape: Tape, placed: Bool) throws -> T {
        do {
            return try TapeDecoder(tape: tape, settings: settings, path: .root, value: 0).unwrap(0, as: T.self, for: .root, nil)
        } catch {
            var error = Self.recordError(tape.place(error), tape)
            if !placed { (error.offset, error.line, error.column) = (nil, nil, nil) }
            throw error
        }
    }

    /// What `TapeDecoder` threw, as a stream reports it: a ``JSONError`` with the code, message,
    /// path (in the record) and position the `DecodingError` carries, and the `DecodingError` (or
    /// whatever `init(from:)` threw) as its `underlying`. An error with no position of its own is
    /// placed at the record's start.
    static func recordError(_ error: any Error, _ tape: Tape) -> JSONError {
        let decoding = error as? DecodingError
        let context = decoding?.context, code = decoding?.jsonCode ?? .invalidValue
        if let located = context?.underlyingError as? JSONError, located.offset != nil {
            var e = JSONError(located.code, located.message, underlying: error)
            e.path = located.path
            (e.offset, e.line, e.column) = (located.offset, located.line, located.column)
            return e
        }
        var e = JSONError(code, context?.debugDescription ?? "\(T.self) cannot be decoded: \(error)", underlying: error)
        e.path = context.map { JSONPathText.render($0.codingPath) } ?? "$"
        e.offset = tape[0].offset
        if let (line, column) = tape.lineAndColumn(of: tape[0].offset) { (e.line, e.column) = (line, column) }
        return e
    }
}

/// Fills a record's tape from the EventBuilder's events: the record's own frame (its keys, its
/// end); the values inside go to a `TapeTarget`, as a whole document's do.
final class TapeRecordOwner: ContainerOwner {
    private let kind: TapeKind
    private let target = TapeTarget()

    init(_ kind: TapeKind) { self.kind = kind }

    override func start(_ starter: ValueTarget, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        let storage = b.storage(size: MemoryLayout<TapeWriter>.size, alignment: MemoryLayout<TapeWriter>.alignment)
        let writer = storage.bindMemory(to: TapeWriter.self, capacity: 1)
        let offset = (b.tokenEnd() ?? 1) - 1
        writer.initialize(to: TapeWriter.record())
        writer.pointee.startContainer(kind, offset: offset)
        b.push(kind == .object ? .dictionary : .array, owner: self, node: nil, target: target, starter: starter,
               storage: storage, parentContext: context)
    }
    override func key(_ bytes: UnsafeRawBufferPointer, _ storage: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        try target.owner.key(bytes, storage, &b)
    }
    /// Closes the tape and hands it over; an error decoding it gets the record's path in the
    /// stream before its own (`$[3]` and `.user.login`).
    override func finish(_ b: inout EventBuilder) throws {
        let frame = b.top
        frame.storage.assumingMemoryBound(to: TapeWriter.self).pointee.endContainer(elements: frame.count)
        b.pop()
        do {
            try frame.starter.unsafelyUnwrapped._withUnsafeGuaranteedRef { try $0.deliver(frame.storage, from: self, frame.parentContext, &b) }
        } catch var error as JSONError {
            error.path = b.currentPath() + error.path.dropFirst()
            throw error
        }
    }
    override func discard(_ storage: UnsafeMutableRawPointer, _ b: inout EventBuilder) {
        storage.assumingMemoryBound(to: TapeWriter.self).move().entries.deallocate()
    }
    override func currentKey(_ storage: UnsafeMutableRawPointer, fromTop: Int) -> String? {
        storage.assumingMemoryBound(to: TapeWriter.self).pointee.currentKey(fromTop: fromTop)
    }
}
