extension JSONWriter {
    /// Writes any JSONValue; object keys sorted when the options ask.
    mutating func value(_ value: JSONValue) throws {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let n): numberText(n.text)
        case .string(let s): string(s)
        case .array(let elements):
            beginArray()
            for e in elements {
                element()
                try self.value(e)
            }
            endArray()
        case .object(let members):
            beginObject()
            let keys = options.sortedKeys ? members.keys.sorted(by: JSONWriter.byteOrder) : Array(members.keys)
            for k in keys {
                key(k)
                try self.value(members[k]!)
            }
            endObject()
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON with sorted keys (`["x",1]`), as messages show it.
    public var description: String {
        var options = EncodingOptions()
        options.sortedKeys = true
        var w = JSONWriter(options: options, capacity: 64)
        // Only a number's text could fail, and a JSONNumber's text is checked when it is made.
        guard (try? w.value(self)) != nil else { return typeName }
        return w.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }
}
