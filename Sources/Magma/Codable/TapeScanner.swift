// Tape.parse: a whole document in memory is read into the tape straight from its bytes by the
// scanner, without the EventBuilder. The scanner checks everything and places its errors; the
// tape places their paths (`path(pending:)`).

extension TapeWriter: ScanSink {
    @inline(__always)
    mutating func startContainer(object: Bool, at offset: Int) -> Bool {
        startContainer(object ? .object : .array, offset: offset)
        return true
    }
    @inline(__always)
    mutating func endContainer(object: Bool, elements: Int, at offset: Int) -> Bool {
        endContainer(elements: elements)
        return true
    }
    @inline(__always)
    mutating func text(_ text: UnsafeRawBufferPointer, isKey: Bool, start: Int, end: Int) -> Bool {
        self.text(isKey ? .key : .string, text, tokenEnd: end)
        return true
    }
    @inline(__always)
    mutating func number(_ text: UnsafeRawBufferPointer, at start: Int) -> Bool {
        self.text(.number, text, tokenEnd: start + text.count)
        return true
    }
    @inline(__always)
    mutating func literal(_ value: Bool?, at offset: Int) -> Bool {
        scalar(value == nil ? .null : value! ? .trueValue : .falseValue, offset: offset)
        return true
    }
    var skipsValue: Bool { false }

    /// The JSON path where the tape stands: each open container's last key or index; with
    /// `pending`, of the token not written yet (an array's next element; for a key, the object).
    func path(pending: PendingToken?) -> String {
        var components: [String] = []
        for (level, container) in open.enumerated() {
            let last = level == open.count - 1
            if entries[container.index].kind == .object {
                if last, pending == .key { continue }
                if let key = key(at: container.lastKey) { components.append(JSONPath.component(key)) }
            } else {
                // Its elements so far: whole values up to the next open container, or the end.
                var elements = 0, i = container.index + 1
                let stop = last ? count : open[level + 1].index
                while i < stop { i = entries[i].kind == .object || entries[i].kind == .array ? entries[i].end : i + 1; elements += 1 }
                if !last { elements += 1 }
                if last, pending == .value { components.append("[\(elements)]") } else if elements > 0 { components.append("[\(elements - 1)]") }
            }
        }
        return JSONPath.joined(components)
    }
}
