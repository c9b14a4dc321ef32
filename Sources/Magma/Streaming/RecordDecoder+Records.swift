// RecordDecoder+Records.swift — Magma
//
// A whole record read: by the scanner (or yajl, when the options ask), into the frames the stream
// stands in (the records' array of an array or envelope; the root for NDJSON lines and
// concatenated values), placed in the input (its offset, line and column). A bad record is the
// error policy's: a line's error always loses that line only; in an array or a sequence of values,
// an error in the record's text (invalid UTF-8, a token over the cap) skips it as a mapping error
// does, and an error in its syntax ends the stream, in the rest of a skipped record too.

extension RecordDecoder {
    /// NDJSON: reads one whole line (`pendingStart` its offset): one record, or one error.
    func readLine(_ line: UnsafeRawBufferPointer) throws {
        // A blank line is no record (a line holds no LF).
        guard let p = line.baseAddress, JSONScanner.blank(p, p + line.count) < p + line.count else { return }
        lineRecords += 1
        if var error = readFailure(line) {
            builder.pointee.reset()
            receiver.dropHeld()
            error.recordIndex = lineRecords - 1
            if policy == .stop { throw error }
            try sink.skipped(error)
            return
        }
        // The handler's error stops the stream as it was thrown.
        try receiver.deliverHeld()
        counters.records.store(receiver.count, ordering: .relaxed)
    }

    /// Reads one whole record of an array or a sequence of values (`pendingStart` its offset).
    /// - Parameter ends: The input ends inside the record: its error ends the stream.
    func readRecord(_ record: UnsafeRawBufferPointer, ends: Bool = false) throws {
        let events = builder.pointee.eventCount
        let depth = builder.pointee.depth
        defer {
            // A record skipped after an error (the builder's recovery) has ended with its bytes.
            builder.pointee.skipDepth = 0
            counters.records.store(receiver.count, ordering: .relaxed)
        }
        if var error = readFailure(record) {
            if let handler = error.underlying as? RecordHandlerError { throw handler.error }
            let started = builder.pointee.eventCount != events
            // Reported once: the builder recovered from an error earlier in this record.
            let reported = builder.pointee.skipDepth > 0 && builder.pointee.depth == depth
            if error.recordIndex == nil {
                error.recordIndex = recordCounter?.recordIndex(builder.pointee, valueStarted: started)
            }
            // yajl read past the record's text error into a syntax error beyond the bytes whose
            // syntax is read (`syntaxCheckedLength`): the record is skipped, as the scanner skips it.
            if reported, policy == .skip, let offset = error.offset, offset >= pendingStart + syntaxCheckedLength {
                builder.pointee.unwind(to: depth)
                return
            }
            // An error in the record's text skips it; one in its syntax does not.
            guard policy == .skip, Self.isTextError(error.code) else { throw error }
            builder.pointee.unwind(to: depth)
            if !started {
                builder.pointee.countSkippedRecord()
                (recordCounter as? RecordSequenceTarget)?.countSkipped()
            }
            if !reported { try sink.skipped(error) }
            // The rest is read for its syntax, as yajl reads past a skipped record: a syntax error
            // leaves the record's end in doubt, and ends the stream (so does an input ending in it).
            if var syntax = syntaxError(record) {
                syntax.recordIndex = error.recordIndex
                throw syntax
            }
        }
    }

    /// Reads one whole record (`pendingStart` its offset) into the builder: its error, or nil.
    func readFailure(_ record: UnsafeRawBufferPointer) -> JSONError? {
        do { try EventBuilder.read(builder, record, at: pendingStart, place: recordPlace) } catch { return error }
        return nil
    }

    /// Errors in a record's text (bad UTF-8, a token over the size cap): they skip the record.
    static func isTextError(_ code: JSONError.Code) -> Bool { code == .invalidUnicode || code == .sizeLimitExceeded }

    /// How many of a record's first bytes are read for their syntax after an error in its text:
    /// a record held in pieces is held that far, and read past beyond (an endless token is
    /// never held whole).
    var syntaxCheckedLength: Int { max(2 * options.maxTokenLength, 1 << 16) }

    /// The first error in the syntax alone (text unchecked) of a record's first
    /// `syntaxCheckedLength` bytes, placed; nil if they have none. `whole`: the record ends with
    /// the bytes (else more of it may follow, and an end inside a token is no error).
    func syntaxError(_ record: UnsafeRawBufferPointer, whole: Bool = true) -> JSONError? {
        let checked = UnsafeRawBufferPointer(rebasing: record.prefix(syntaxCheckedLength))
        guard var error = scanError(checked, checksText: false, whole: whole && checked.count == record.count) else { return nil }
        (error.line, error.column) = StreamLines.place(error.offset!, in: record, from: pendingStart, at: recordPlace)
        builder.pointee.placeHere(&error)
        return error
    }

    /// An array or envelope: the offset of the records' array's `[` in `bytes` (the input from
    /// `pendingStart`); nil while they end before it, or when they are not as the layout wants
    /// (`framing` is then `.whole`). The bytes before the `[` are a record for the size limit.
    func recordsArray(in bytes: UnsafeRawBufferPointer) throws -> Int? {
        // Held bytes may run past the `[` before a scan finds it: over the limit, scan now.
        let over = bytes.count > options.maxRecordLength
        let arrayAt: Int
        if case .nested = layout.kind {
            guard over || bytes.count >= nextFindAt else { return nil }
            nextFindAt = bytes.count * 2
            let scanner = JSONScanner(options)
            var finder = KeyPathSink(keyPath)
            switch scanner.scan(bytes, into: &finder) {
            case .stopped(let at): arrayAt = at
            case .failed(let error, _) where error.code == .unexpectedEnd && error.offset == bytes.count:
                if over { try overLimit() }
                return nil
            default:
                // The envelope is whole with no records' array, or is not JSON: read it as it is,
                // for its error, at the end.
                framing = .whole
                return nil
            }
        } else {
            let first = JSONScanner.blank(bytes.baseAddress!, bytes.baseAddress! + bytes.count) - bytes.baseAddress!
            guard first < bytes.count else {
                if over { try overLimit() }
                return nil
            }
            guard bytes[first] == UInt8(ascii: "[") else {
                framing = .whole
                return nil
            }
            arrayAt = first
        }
        if arrayAt >= options.maxRecordLength { try overLimit() }
        return arrayAt
    }

    /// Reads `prefix`, the input from `pendingStart` to the records' array's `[` (the envelope's
    /// fields before it decoded); the records come next.
    func openRecords(_ prefix: UnsafeRawBufferPointer) throws {
        let scan = OuterScan()
        outer = scan
        let completed = try builder.pointee.readPart(prefix, at: pendingStart, place: recordPlace, outer: scan)
        precondition(!completed, "the records' array is open")
        framing = .elements(first: true)
    }

    /// Held bytes of an array or envelope: once they reach the records' array, reads them up to
    /// its `[`, and cuts what follows into records.
    func findRecords() throws {
        let bytes = pending.bytes
        guard let arrayAt = try recordsArray(in: bytes) else { return }
        try openRecords(UnsafeRawBufferPointer(rebasing: bytes[...arrayAt]))
        let restStart = pendingStart + arrayAt + 1
        // The lines of the held prefix, so that the records' places count them (cutting the rest
        // counts from restStart on).
        lines.pass(bytes, at: pendingStart, to: restStart)
        let rest = Array(bytes[(arrayAt + 1)...])
        pending.removeAll()
        nextLimitCheck = 0
        try rest.withUnsafeBytes { try cut($0, at: restStart) }
    }

    /// The end of the input: the last line or record, the rest of an envelope, or the error of
    /// a stream that ended too soon.
    func end() throws {
        switch framing {
        case .lines:
            // The end ends a line (a record read past after its error included).
            if lineOpen, !skippingRecord, try !heldOverLimit() { try readLine(pending.bytes) }
            try endDeferred()
        case .values, .elements, .afterElement:
            // A record the input ends inside: its text error is the policy's (it is skipped), and
            // the end ends the stream.
            try endDeferred()
            if cutter.started, !skippingRecord {
                if try heldOverLimit() { try endDeferred() } else { try readRecord(pending.bytes, ends: !cutter.endsWithTheInput) }
            }
            if case .values = framing, !cutter.started || cutter.endsWithTheInput { return }
            var error = JSONError(.unexpectedEnd, JSONScanner.unexpectedEnd)
            error.offset = consumed
            if case .afterElement = framing { builder.pointee.placeHere(&error) } else { builder.pointee.placePending(&error, .value) }
            (error.line, error.column) = lines.place(consumed)
            error.recordIndex = recordCounter?.recordIndex(builder.pointee, valueStarted: false)
            throw error
        case .misplaced:
            try holdMisplaced(UnsafeRawBufferPointer(start: nil, count: 0), final: true)
        case .suffix:
            guard let scan = outer else { return }
            let completed = try builder.pointee.readPart(pending.bytes, at: pendingStart, place: recordPlace, outer: scan, final: true)
            precondition(completed, "a part that ends the input completes or fails")
        case .start, .whole:
            try EventBuilder.read(builder, pending.bytes, at: pendingStart, place: recordPlace)
        }
    }

    /// The grammar's error at `p` (in `bytes` at `start`), where the records' array expects
    /// `expecting`: the stream ends.
    func framingError(_ p: UnsafeRawPointer, _ base: UnsafeRawPointer, _ end: UnsafeRawPointer, _ start: Int,
                      expecting next: JSONScanner.Next, endIsFinal: Bool = true) -> JSONError {
        var scanner = builder.pointee.scanner
        scanner.endIsFinal = endIsFinal
        var error = scanner.error(at: p, base: base, end: end, expecting: next)
        error.offset = start + (error.offset ?? (p - base))
        if next == .value { builder.pointee.placePending(&error, .value) } else { builder.pointee.placeHere(&error) }
        (error.line, error.column) = lines.place(start + (p - base))
        error.recordIndex = recordCounter?.recordIndex(builder.pointee, valueStarted: false)
        return error
    }
}

/// Follows a key path through an envelope's objects as the scanner reads it, and stops at the
/// records' array: the bracket that opens the value of the path's last key.
struct KeyPathSink: ScanSink {
    let components: [[UInt8]]
    /// Per open container: how many components the path has matched to reach it, or -1 when it
    /// is off the path.
    private var levels: [Int] = []
    /// The last key read at a level on the path was the path's next component.
    private var keyMatches = false

    init(_ components: [[UInt8]]) { self.components = components }

    mutating func startContainer(object: Bool, at offset: Int) -> Bool {
        let matched = levels.isEmpty ? 0 : keyMatches ? levels.last! + 1 : -1
        keyMatches = false
        if matched == components.count, !object { return false }
        levels.append(object && matched >= 0 && matched < components.count ? matched : -1)
        return true
    }
    mutating func endContainer(object: Bool, elements: Int, at offset: Int) -> Bool {
        levels.removeLast()
        keyMatches = false
        return true
    }
    mutating func text(_ text: UnsafeRawBufferPointer, isKey: Bool, start: Int, end: Int) -> Bool {
        if isKey, let level = levels.last, level >= 0 {
            keyMatches = text.elementsEqual(components[level])
        } else {
            keyMatches = false
        }
        return true
    }
    mutating func number(_ text: UnsafeRawBufferPointer, at start: Int) -> Bool { keyMatches = false; return true }
    mutating func literal(_ value: Bool?, at offset: Int) -> Bool { keyMatches = false; return true }
    /// Values off the path are passed over unread.
    var skipsValue: Bool { !keyMatches }
}
