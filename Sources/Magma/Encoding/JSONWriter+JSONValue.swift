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
