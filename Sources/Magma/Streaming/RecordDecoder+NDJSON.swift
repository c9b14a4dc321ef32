// NDJSON in RecordDecoder: each line parsed with a yajl handle of its own (from one YajlMemory), so
// that a syntax error loses that line only.

import Foundation
import Synchronization

extension RecordDecoder {

    /// A line that ends in this feed and began in it is parsed in place, whole; a line a feed
    /// ends inside goes to `continueLine`, part by part.
    func feedLines(_ bytes: UnsafeRawBufferPointer) throws {
        var start = 0
        while start < bytes.count {
            let newline = memchr(bytes.baseAddress! + start, 0x0A, bytes.count - start)
            let end = newline.map { UnsafeRawPointer($0) - bytes.baseAddress! } ?? bytes.count
            let part = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            if newline != nil, !lineOpen {
                try parseLine(part, start: consumed + start)
            } else {
                try continueLine(part, at: consumed + start, ends: newline != nil)
            }
            start = end + 1
        }
    }

    /// Parses one line with a handle of its own: a syntax error loses this line only.
    func parseLine(_ line: UnsafeRawBufferPointer, start: Int) throws {
        lineNumber += 1
        if line.allSatisfy(isBlank) { return }
        lineRecords += 1
        if scanLine(line) { return try deliverLineRecord() }
        var lineTokenizer = Tokenizer(builder: builder, tracksLines: false, memory: lineMemory)
        if try !parsingLine(start: start, { try lineTokenizer.parseAll(line) }) { try deliverLineRecord() }
    }

    /// Reads a whole line without yajl (`DocumentScanner`); false when the scanner gave up on it
    /// (anything outside its subset, errors included), the builder and the held record then
    /// dropped so that yajl reads the line from its start, errors at their yajl positions.
    private func scanLine(_ line: UnsafeRawBufferPointer) -> Bool {
        if builder.pointee.scanDocument(line) { return true }
        builder.pointee.reset()
        receiver.dropHeld()
        return false
    }

    /// Begins a new input, counted from its own first byte and line, with the same handler, policy
    /// and options, and the builder, the yajl memory and the caches kept: for a worker of
    /// `forEachRecordInParallel` that decodes batch after batch. Read `skipped` and `lineCounts`
    /// of the last input first.
    func restart() {
        closeLine()
        receiver.dropHeld()
        builder.pointee.reset()
        sink.errors.removeAll()
        finished = false
        lineNumber = 0
        lineRecords = 0
        consumed = 0
    }

    /// The line has ended without an error: its record goes to the caller.
    func deliverLineRecord() throws {
        defer { counters.records.store(receiver.count, ordering: .relaxed) }
        try receiver.deliverHeld()
    }

    /// Parses the part of a line in this feed (`ends`: up to its newline, or the end of the
    /// input) with the line's own Tokenizer, fed part by part: it holds O(cap) bytes of a token
    /// that spans parts and fails one over the cap as soon as it passes it, and any split gives the
    /// events and the error one whole line gives. (Holding the line until its newline, as a whole
    /// line is parsed, would hold an endless line whole.) After an error, with `.skip`, the rest
    /// of the line is read past.
    func continueLine(_ part: UnsafeRawBufferPointer, at offset: Int, ends: Bool) throws {
        if !lineOpen {
            lineOpen = true
            lineStart = offset
            lineBlanks = 0
            lineNumber += 1
        }
        defer { if ends { closeLine() } }
        if lineSkipped { return }
        var part = part
        if lineTokenizer == nil {
            // Leading blanks are counted, not fed: a line of them only is no record (and is not held).
            guard let first = part.firstIndex(where: { !isBlank($0) }) else { lineBlanks += part.count; return }
            lineBlanks += first
            part = UnsafeRawBufferPointer(rebasing: part[first...])
            lineRecords += 1
            lineTokenizer = Tokenizer(builder: builder, tracksLines: false, memory: lineMemory)
        }
        let failed = try parsingLine(start: lineStart, blanks: lineBlanks) {
            try lineTokenizer!.feed(part)
            if ends { try lineTokenizer!.finish() }
        }
        if failed {
            closeLineTokenizer()
            lineSkipped = true
        } else if ends {
            try deliverLineRecord()
        }
    }

    /// The open line has ended.
    func closeLine() {
        closeLineTokenizer()
        lineOpen = false
        lineSkipped = false
    }

    func closeLineTokenizer() {
        mostHeldInLines = max(mostHeldInLines, lineTokenizer?.mostHeld ?? 0)
        lineTokenizer = nil
    }

    /// Runs `body`, which parses line `lineNumber` (record `lineRecords - 1`, beginning at `start`
    /// in the input, with `blanks` bytes before the first the Tokenizer was given), and places an
    /// error it throws in the input. The line's error stops the stream or, with `.skip`, is
    /// reported. An error `onRecord` threw stops the stream as it was thrown (not through `run`,
    /// which would hand one that is a `JSONError` to the catch here as the line's).
    /// - Returns: Whether the line failed (and was skipped).
    @discardableResult
    func parsingLine(start: Int, blanks: Int = 0, _ body: () throws -> Void) throws -> Bool {
        defer { counters.records.store(receiver.count, ordering: .relaxed) }
        do {
            try body()
            return false
        } catch var error as JSONError {
            if let handler = error.underlying as? RecordHandlerError { throw handler.error }
            builder.pointee.reset()
            receiver.dropHeld()
            let offsetInLine = error.offset.map { $0 + blanks }
            error.recordIndex = lineRecords - 1
            error.column = offsetInLine.map { $0 + 1 }
            error.offset = offsetInLine.map { start + $0 }
            error.line = lineNumber
            if policy == .stop { throw error }
            try sink.skipped(error)
            return true
        }
    }
}

/// Space, tab, CR: an NDJSON line of only these is blank.
private func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
