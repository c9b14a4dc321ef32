// EventBuilder+Document.swift — Magma
//
// The builder as a JSONScanner's sink: a whole value in memory (a document, an NDJSON line, a
// record cut from a stream) read without yajl, its unmapped values passed over by the scanner,
// every error placed: the scanner's own (its path from where the builder stands) or a sink's.

extension EventBuilder: ScanSink {
    @inline(__always)
    mutating func startContainer(object: Bool, at offset: Int) -> Bool {
        scannedTokenEnd = offset + 1
        return object ? startObject() : startArray()
    }
    @inline(__always)
    mutating func endContainer(object: Bool, elements: Int, at offset: Int) -> Bool {
        scannedTokenEnd = offset + 1
        return object ? endObject() : endArray()
    }
    @inline(__always)
    mutating func text(_ text: UnsafeRawBufferPointer, isKey: Bool, start: Int, end: Int) -> Bool {
        scannedTokenEnd = end
        return isKey ? key(text) : string(text)
    }
    @inline(__always)
    mutating func number(_ text: UnsafeRawBufferPointer, at start: Int) -> Bool {
        scannedTokenEnd = start + text.count
        return number(text)
    }
    @inline(__always)
    mutating func literal(_ value: Bool?, at offset: Int) -> Bool {
        scannedTokenEnd = offset + JSONScanner.literalLength(value)
        return value.map { bool($0) } ?? null()
    }
    /// Whether the value of the key just read goes nowhere: the scanner checks it and passes over.
    @inline(__always)
    var skipsValue: Bool { options.skipsUnmappedInPlace && skipsNextValue }

    /// Reads the whole value in `input` (a document, an NDJSON line, a record): with the scanner,
    /// or with yajl when the options ask; into the frame on top (a records' array), or the root.
    /// - Parameters:
    ///   - inputOffset: Where `input` begins in the whole input (offsets of errors count from there).
    ///   - place: The line and column of `input`'s first byte.
    /// - Throws: ``JSONError`` with its path, property, offset, line and column in the whole input.
    static func read(_ builder: UnsafeMutablePointer<EventBuilder>, _ input: UnsafeRawBufferPointer, at inputOffset: Int = 0,
                     place: (line: Int, column: Int) = (1, 1)) throws(JSONError) {
        guard builder.pointee.options.readsWithYajl else {
            return try builder.pointee.scanDocument(input, at: inputOffset, place: place)
        }
        // The handles of one stream's records take their blocks from one allocator.
        if builder.pointee.yajlMemory == nil { builder.pointee.yajlMemory = YajlMemory() }
        var tokenizer = Tokenizer(builder: builder, tracksLines: false, memory: builder.pointee.yajlMemory)
        // A record inside a stream's array is not the root (a byte order mark is named only there).
        builder.pointee.position.atRoot = builder.pointee.depth == 0
        // Offsets count from the input's place in the whole; lines are placed as the scanner's are.
        tokenizer.consumedBefore = inputOffset
        builder.pointee.scanBase = inputOffset
        builder.pointee.scanPlace = (input, place)
        defer { builder.pointee.scanPlace = nil }
        do {
            try tokenizer.parseAll(input)
        } catch {
            var error = error
            (error.line, error.column) = (nil, nil)
            builder.pointee.locateScanned(&error)
            throw error
        }
    }

    /// Reads the whole value in `input` with the scanner (see `read`).
    mutating func scanDocument(_ input: UnsafeRawBufferPointer, at inputOffset: Int = 0,
                               place: (line: Int, column: Int) = (1, 1)) throws(JSONError) {
        var reading = scanner
        reading.baseDepth = depth
        var state = JSONScanner.State(next: .value, atRoot: depth == 0)
        let outcome = withUnsafeTemporaryAllocation(of: Int.self, capacity: JSONScanner.stackLevels) { local in
            var stack = JSONScanner.Stack(local)
            defer { stack.release() }
            return scan(input, with: reading, at: inputOffset, place: place, state: &state, stack: &stack)
        }
        if let error = outcome { throw error }
    }

    /// Reads `input` (part of a value: the bytes around a stream's records) from where `outer`
    /// stands, and leaves it where the scan stopped.
    /// - Parameter final: The input ends here: ending inside the value is its error.
    /// - Returns: Whether the value is complete (false: the input ended inside it, more is to come).
    mutating func readPart(_ input: UnsafeRawBufferPointer, at inputOffset: Int, place: (line: Int, column: Int),
                           outer: OuterScan, final: Bool = false) throws(JSONError) -> Bool {
        var ended = false
        let error = outer.withStack { state, stack in
            let found = scan(input, with: scanner, at: inputOffset, place: place, state: &state, stack: &stack, partial: !final)
            if found == nil, !(state.next == .afterValue && stack.isEmpty) { ended = true }
            return found
        }
        if let error { throw error }
        return !ended
    }

    /// One scan of `input` into this builder: nil when it went through, else its error, placed.
    /// With `partial`, an input that ends inside the value is no error.
    private mutating func scan(_ input: UnsafeRawBufferPointer, with scanner: JSONScanner, at inputOffset: Int,
                               place: (line: Int, column: Int), state: inout JSONScanner.State, stack: inout JSONScanner.Stack,
                               partial: Bool = false) -> JSONError? {
        // Out of self for the scan: the builder is the sink, passed inout beside it.
        var workspace = scanWorkspace
        scanWorkspace = JSONScanner.Workspace()
        position = FeedPosition()
        scanBase = inputOffset
        scanPlace = (input, place)
        defer {
            scanWorkspace = workspace
            scannedTokenEnd = -1
            scanPlace = nil
        }
        let base = input.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        var error: JSONError
        switch scanner.run(from: base, to: base + input.count, base: base, state: &state, stack: &stack, sink: &self, workspace: &workspace) {
        case .complete:
            return nil
        case .stopped(let at):
            error = takeError() ?? JSONError(.invalidValue, "the value was refused")
            if error.offset == nil { error.offset = at + inputOffset }
        case .failed(var found, let pending):
            if partial, found.code == .unexpectedEnd, found.offset == input.count { return nil }
            found.offset = (found.offset ?? 0) + inputOffset
            error = found
            if let pending { placePending(&error, pending) } else { placeHere(&error) }
        }
        locateScanned(&error)
        return error
    }

    /// The line and column of an error in the input being scanned.
    func locateScanned(_ error: inout JSONError) {
        guard error.line == nil, let offset = error.offset, let (input, place) = scanPlace else { return }
        var relative = error
        LineCounter().locate(&relative, offset: offset - scanBase, chunk: input, at: 0)
        error.line = (relative.line ?? 1) + place.line - 1
        error.column = relative.line == 1 ? (relative.column ?? 1) + place.column - 1 : relative.column
    }

    /// A record of the records' array that was skipped before it reached the frames (over a
    /// limit): counted, so the records after it have their indices.
    mutating func countSkippedRecord() {
        guard depth > 0, frames[depth - 1].kind == .array else { return }
        frames[depth - 1].count += 1
    }
}

/// The scanner's place in a value read in parts (the bytes around a stream's records): its state
/// and open containers, kept between the parts. A class, so that its stack is freed however the
/// stream ends (an error thrown mid-part included).
final class OuterScan {
    private var state = JSONScanner.State(next: .value, atRoot: true)
    private var storage = UnsafeMutableBufferPointer<Int>.allocate(capacity: JSONScanner.stackLevels)
    private var depth = 0

    /// Runs `body` with the state and a stack of the open containers, and keeps what it left.
    func withStack<R>(_ body: (inout JSONScanner.State, inout JSONScanner.Stack) -> R) -> R {
        var stack = JSONScanner.Stack(storage, depth: depth)
        let result = body(&state, &stack)
        // A stack grown onto the heap is copied back into storage of its own.
        if stack.capacity > storage.count {
            storage.deallocate()
            storage = .allocate(capacity: stack.capacity)
        }
        if stack.words != storage.baseAddress { storage.baseAddress!.update(from: stack.words, count: stack.depth) }
        depth = stack.depth
        stack.release()
        return result
    }

    deinit { storage.deallocate() }
}
