// RecordDecoder+Framing.swift — Magma
//
// A stream cut into records, each read whole. NDJSON: lines at their newline. Concatenated
// values, and the elements of a records' array: by their structure (`RecordCutter`). An array's
// brackets and commas, and an envelope around the array, are read by the scanner too, one part
// at a time, its place kept between them (`OuterScan`); an envelope's records' array is found by
// the scanner reading the envelope's bytes with a sink that follows the key path (`KeyPathSink`).
// A record not whole in the bytes at hand is held, up to `maxRecordLength`, its tokens checked
// against the size cap as it grows: one over a limit is reported (or, with `.skip`, skipped and
// read past without being held).

import Foundation

extension RecordDecoder {
    /// Where the stream stands between records.
    enum Framing {
        /// NDJSON.
        case lines
        /// Concatenated values.
        case values
        /// An array, or an envelope: before the records' array.
        case start
        /// In the records' array: a record next (after its `[`: or its `]`).
        case elements(first: Bool)
        /// In the records' array, after a record: `,` or `]`.
        case afterElement
        /// In the records' array, after a record, a token other than `,` or `]` that the bytes at
        /// hand end inside: held to its end, for the stream's error (a lexical one inside it, as
        /// one whole buffer reports it, or the place's).
        case misplaced
        /// After the records' array: the rest of the input, held to its end.
        case suffix
        /// Not as the layout wants (no records' array where it should be): held, read whole at the end.
        case whole
    }

    var options: DecodingOptions { builder.pointee.options }

    /// Cuts `bytes` (at `start` in the input) into records and reads each one that is whole.
    func cut(_ bytes: UnsafeRawBufferPointer, at start: Int) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let end = base + bytes.count
        var p = base
        func offset(_ q: UnsafeRawPointer) -> Int { start + (q - base) }
        defer { lines.pass(bytes, at: start, to: start + bytes.count) }
        while p < end {
            lines.pass(bytes, at: start, to: offset(p))
            switch framing {
            case .lines:
                p = try cutLine(p, end, offset(p))
            case .values, .elements:
                if !cutter.started, !skippingRecord {
                    p = JSONScanner.blank(p, end)
                    guard p < end else { continue }
                    lines.pass(bytes, at: start, to: offset(p))
                    if case .elements(let first) = framing, p.load(as: UInt8.self) == UInt8(ascii: "]") {
                        guard first else { throw framingError(p, base, end, start, expecting: .value) }
                        framing = .suffix
                        continue
                    }
                    pendingStart = offset(p)
                    recordPlace = lines.place(pendingStart)
                }
                guard let recordEnd = cutter.scan(p, end) else {
                    if !skippingRecord { try hold(UnsafeRawBufferPointer(start: p, count: end - p)) }
                    p = end
                    continue
                }
                lines.pass(bytes, at: start, to: offset(recordEnd))
                if skippingRecord {
                    try endSkipped()
                } else if offset(recordEnd) - pendingStart > options.maxRecordLength {
                    try readOverLimit(ending: UnsafeRawBufferPointer(start: p, count: recordEnd - p))
                } else if pending.count > 0 {
                    pending.append(UnsafeRawBufferPointer(start: p, count: recordEnd - p))
                    try readRecord(pending.bytes)
                } else {
                    try readRecord(UnsafeRawBufferPointer(start: p, count: recordEnd - p))
                }
                pending.removeAll()
                cutter.reset()
                p = recordEnd
                if case .elements = framing { framing = .afterElement }
            case .afterElement:
                p = JSONScanner.blank(p, end)
                guard p < end else { continue }
                switch p.load(as: UInt8.self) {
                case UInt8(ascii: ","):
                    p += 1
                    framing = .elements(first: false)
                case UInt8(ascii: "]"):
                    framing = .suffix
                default:
                    lines.pass(bytes, at: start, to: offset(p))
                    pendingStart = offset(p)
                    recordPlace = lines.place(pendingStart)
                    framing = .misplaced
                    nextLimitCheck = 0
                    try holdMisplaced(UnsafeRawBufferPointer(start: p, count: end - p))
                    p = end
                }
            case .misplaced:
                try holdMisplaced(UnsafeRawBufferPointer(start: p, count: end - p))
                p = end
            case .suffix where layout.kind == .array:
                if pending.count == 0 {
                    pendingStart = offset(p)
                    recordPlace = lines.place(pendingStart)
                }
                try holdSuffix(UnsafeRawBufferPointer(start: p, count: end - p))
                p = end
            case .start, .suffix, .whole:
                let here = UnsafeRawBufferPointer(start: p, count: end - p)
                if pending.count == 0 {
                    pendingStart = offset(p)
                    recordPlace = lines.place(pendingStart)
                    // The records' array found in the bytes at hand (a whole buffer, a chunk that
                    // holds the envelope's start) is read where it lies: nothing held or copied.
                    if case .start = framing, let arrayAt = try recordsArray(in: here) {
                        try openRecords(UnsafeRawBufferPointer(start: p, count: arrayAt + 1))
                        p += arrayAt + 1
                        continue
                    }
                }
                try holdAround(here)
                p = end
            }
        }
    }

    /// NDJSON: the line that goes on at `p` (`at` in the input), to its newline or the end.
    private func cutLine(_ p: UnsafeRawPointer, _ end: UnsafeRawPointer, _ at: Int) throws -> UnsafeRawPointer {
        let newline = memchr(p, 0x0A, end - p).map { UnsafeRawPointer($0) }
        let lineEnd = newline ?? end
        if !lineOpen {
            lineOpen = true
            lineNumber += 1
            pendingStart = at
            recordPlace = (lineNumber, 1)
        }
        var start = p
        if pending.count == 0, !skippingRecord {
            // A line's leading blanks are not held, nor counted against the limit, in whichever
            // pieces they come (a line of them only is no record).
            start = JSONScanner.blank(p, lineEnd)
            pendingStart += start - p
            recordPlace.column += start - p
        }
        let part = UnsafeRawBufferPointer(start: start, count: lineEnd - start)
        guard newline != nil else {
            // The line goes on in the next piece: held, unless it is being read past.
            if !skippingRecord, part.count > 0 { try hold(part) }
            return end
        }
        defer {
            pending.removeAll()
            nextLimitCheck = 0
            skippingRecord = false
            lineOpen = false
        }
        if skippingRecord {
            try endSkipped()
            return lineEnd + 1
        }
        if at + (lineEnd - p) - pendingStart > options.maxRecordLength {
            try readOverLimit(ending: part)
            return lineEnd + 1
        }
        if pending.count > 0 {
            pending.append(part)
            try readLine(pending.bytes)
        } else {
            try readLine(part)
        }
        return lineEnd + 1
    }

    /// Holds `bytes` of a token misplaced after a record, checked as they double: its error ends
    /// the stream once the token is known to end (or, `final`, the input does).
    func holdMisplaced(_ bytes: UnsafeRawBufferPointer, final: Bool = false) throws {
        pending.append(bytes)
        guard final || pending.count >= nextLimitCheck else { return }
        nextLimitCheck = 2 * pending.count
        let held = pending.bytes
        let base = held.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        var error = framingError(base, base, base + held.count, pendingStart, expecting: .afterValue, endIsFinal: final)
        guard final || error.code != .unexpectedEnd || error.offset != pendingStart + held.count else { return }
        (error.line, error.column) = recordPlace
        throw error
    }

    /// Holds `bytes` around the records: before the records' array (its own limit check finds
    /// it first), or after it, or of a stream not as the layout wants.
    private func holdAround(_ bytes: UnsafeRawBufferPointer) throws {
        guard case .start = framing else { return try hold(bytes) }
        pending.append(bytes)
        mostHeldBytes = max(mostHeldBytes, pending.count)
        try findRecords()
    }

    /// Holds what follows a top-level array's `]`, which must be blanks, but for the blanks at
    /// the end: those are counted, and held (as blanks of the same lines and columns) only once
    /// something follows them. However many blanks end the input, none is held.
    private func holdSuffix(_ bytes: UnsafeRawBufferPointer) throws {
        var text = bytes.count
        while text > 0, JSONScanner.isBlank(bytes[text - 1]) { text -= 1 }
        if text > 0 {
            if suffixBlanks.count > 0 {
                // Held as the limit allows: over it, the stream stops as it would holding them.
                guard pending.count + suffixBlanks.count <= options.maxRecordLength else { return try overLimit() }
                try suffixBlanks.bytes().withUnsafeBytes { try hold($0) }
                suffixBlanks = SuffixBlanks()
            }
            try hold(UnsafeRawBufferPointer(rebasing: bytes[..<text]))
        }
        suffixBlanks.count(UnsafeRawBufferPointer(rebasing: bytes[text...]))
    }

    /// Holds `bytes` of the record under way, and checks it against the limits as it grows.
    private func hold(_ bytes: UnsafeRawBufferPointer) throws {
        pending.append(bytes)
        mostHeldBytes = max(mostHeldBytes, pending.count)
        // Text around the records has no end of its own the cut checks: checked as it grows, so
        // that whole and in pieces it passes the limit at the same byte.
        if !isInRecord, pending.count > options.maxRecordLength { return try overLimit() }
        guard pending.count >= max(nextLimitCheck, firstCheck) else { return }
        // Checked as it doubles: at most twice the bytes of a long record are read.
        nextLimitCheck = 2 * pending.count
        if try heldOverLimit() { return }
        if isInRecord { _ = try readForError(pending.bytes, final: false) }
    }

    /// The held record, if it is over the limit (held past it between two checks, or until the
    /// input ended inside it), read as one over the limit is; true if it was.
    func heldOverLimit() throws -> Bool {
        guard pending.count > options.maxRecordLength else { return false }
        try readOverLimit(pending.bytes)
        return true
    }

    /// A record over the limit whose end is in `rest` (its start held, or at `rest`): read as
    /// `readOverLimit(_:)` reads it, and ended.
    private func readOverLimit(ending rest: UnsafeRawBufferPointer) throws {
        var record = rest
        if pending.count > 0 {
            let wanted = max(0, options.maxRecordLength - pending.count)
            pending.append(UnsafeRawBufferPointer(rebasing: rest.prefix(wanted)))
            record = pending.bytes
        }
        try readOverLimit(record)
        try endSkipped()
    }

    /// A record longer than the limit (`record` at least its first `maxRecordLength` bytes): an
    /// error within those bytes is its error, as if it had been held to there; past them, the
    /// limit's (`overLimit()`). Whole or in pieces, the record reports the same error.
    private func readOverLimit(_ record: UnsafeRawBufferPointer) throws {
        let first = UnsafeRawBufferPointer(rebasing: record.prefix(options.maxRecordLength))
        if try readForError(first, final: true) { return }
        try overLimit()
    }

    /// The record read past has ended: one skipped before its value began counts now (so that
    /// an end of the input inside it names it, not the next), and its error is the policy's.
    private func endSkipped() throws {
        skippingRecord = false
        if uncountedSkip {
            uncountedSkip = false
            builder.pointee.countSkippedRecord()
            (recordCounter as? RecordSequenceTarget)?.countSkipped()
        }
        try endDeferred()
    }

    /// Reads a record's first bytes, `held`, for an error in its syntax or text; true if there is
    /// one: the record is then read past (its error the policy's at its end), or the stream ends.
    /// `final`: no more of the record will be held.
    private func readForError(_ held: UnsafeRawBufferPointer, final: Bool) throws -> Bool {
        guard let error = scanError(held) else { return false }
        // An error in the text under `.skip`: the record is held on and read whole at its end
        // (readRecord), for the syntax of its rest, as far as that is read; a syntax error found
        // before then ends the stream. Past that, the record is read past.
        if policy == .skip, Self.isTextError(error.code), layout.kind != .ndjson {
            if let syntax = syntaxError(held, whole: false), syntax.offset.map({ $0 < pendingStart + held.count }) == true {
                try readRecord(held)
                return true
            }
            if !final, held.count <= syntaxCheckedLength { return false }
        }
        // An error the rest cannot mend (a token over the cap, nesting too deep, a syntax error):
        // the record is read as far as it goes, for that error, placed as one whole buffer
        // places it; the rest is read past, not held. The error is the policy's once the record
        // ends (if the input ends first, inside a record of an array or values, it ends the stream).
        deferred = try failure(reading: held)
        pending.removeAll()
        nextLimitCheck = 0
        skippingRecord = true
        guard let error = deferred else { return true }
        if policy == .stop { throw error }
        // A record's syntax, or its depth, ends the stream at once (a line's only loses the line).
        if layout.kind != .ndjson, !Self.isTextError(error.code) {
            throw error
        }
        return true
    }

    /// The held record's error, read as far as it goes; nil if it reads without one.
    private func failure(reading held: UnsafeRawBufferPointer) throws -> JSONError? {
        let events = builder.pointee.eventCount
        let depth = builder.pointee.depth
        guard var error = readFailure(held) else { return nil }
        if let handler = error.underlying as? RecordHandlerError { throw handler.error }
        // Reported already: the builder recovered from an error earlier in this record.
        let reported = builder.pointee.skipDepth > 0 && builder.pointee.depth == depth
        builder.pointee.unwind(to: depth)
        builder.pointee.skipDepth = 0
        // yajl read through the held bytes past that error: the record is read past from here.
        if reported, error.code == .unexpectedEnd, error.offset == pendingStart + held.count { return nil }
        if case .lines = framing {
            lineRecords += 1
            receiver.dropHeld()
            error.recordIndex = lineRecords - 1
        } else {
            let started = builder.pointee.eventCount != events
            error.recordIndex = error.recordIndex ?? recordCounter?.recordIndex(builder.pointee, valueStarted: started)
            if !started { uncountedSkip = true }
            if reported, Self.isTextError(error.code) { return nil }
        }
        return error
    }

    /// The record read past after an early error has ended: its error is the policy's.
    func endDeferred() throws {
        guard let error = deferred else { return }
        deferred = nil
        if policy == .stop { throw error }
        try sink.skipped(error)
    }

    /// The held bytes at which a record is first checked: 4 KiB, or past the size cap if it is less.
    private var firstCheck: Int { min(4096, options.maxTokenLength + 2) }

    /// Whether the bytes held are a record's (or a line's), not those around them.
    private var isInRecord: Bool {
        switch framing {
        case .lines, .values, .elements: return true
        default: return false
        }
    }

    /// The grammar's first error in a record's bytes (at `pendingStart`), read with no sink: with
    /// `checksText`, as the record's reader reads them; without, their syntax alone (no UTF-8
    /// check, no size cap). `whole`: the bytes end the record (else an end inside a token is no
    /// error). Its offset is the input's.
    func scanError(_ bytes: UnsafeRawBufferPointer, checksText: Bool = true, whole: Bool = false) -> JSONError? {
        var scanner = checksText ? JSONScanner(options) : JSONScanner(maxTokenLength: .max, maxDepth: options.maxDepth)
        scanner.checksText = checksText
        scanner.endIsFinal = whole
        scanner.stopsAfterOneValue = layout.kind != .ndjson
        scanner.baseDepth = builder.pointee.depth
        var sink = PassingSink()
        guard case .failed(var error, _) = scanner.scan(bytes, into: &sink),
              whole || error.code != .unexpectedEnd || error.offset != bytes.count else { return nil }
        error.offset = pendingStart + (error.offset ?? 0)
        return error
    }

    /// A record (or line) longer than `maxRecordLength`: reported at its first byte, and read
    /// past without being held; with `.stop` (or around the records), the stream stops.
    func overLimit() throws {
        var error = JSONError(.sizeLimitExceeded, "a \(layout.kind == .ndjson ? "line" : "record") longer than the limit of \(options.maxRecordLength) bytes")
        error.offset = pendingStart
        (error.line, error.column) = recordPlace
        pending.removeAll()
        nextLimitCheck = 0
        switch framing {
        case .lines:
            error.recordIndex = lineRecords
            lineRecords += 1
        case .values, .elements:
            builder.pointee.placePending(&error, .value)
            error.recordIndex = recordCounter?.recordIndex(builder.pointee, valueStarted: false)
            uncountedSkip = true
        default:
            throw error
        }
        if policy == .stop { throw error }
        skippingRecord = true
        try sink.skipped(error)
    }
}
