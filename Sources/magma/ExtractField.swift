import ArgumentParser
import Foundation
import Magma

/// One `--field`: `name=key.path:transformer`, `key.path:transformer` or `key.path` (the name is
/// then the key path).
struct ExtractField: ExpressibleByArgument {
    /// The column (CSV) or member (NDJSON) name.
    var name: String
    /// The key path in each record (`user.login`, `labels.0.name`).
    var keyPath: String
    /// How the value is read and written back.
    var kind: Kind

    /// The transformers a field may name after its key path.
    enum Kind: String, CaseIterable {
        /// The value as it is (the default).
        case json
        /// A string; anything else makes the record bad.
        case string
        /// An integer that fits 64 bits.
        case int
        /// A number, written back in its shortest form.
        case double
        /// `true` or `false`.
        case bool
        /// An ISO 8601 date, written back in UTC (`2024-01-31T12:34:56Z`).
        case date
        /// An ISO 8601 date, written as seconds since 1970.
        case epoch
        /// An absolute or relative URL, written back as parsed.
        case url

        /// Reads the JSON value and gives back the value written out: a record whose value the
        /// transformer rejects is a bad record.
        var transformer: Transformer<JSONValue, JSONValue> {
            switch self {
            case .json: return .json
            case .string: return Transformer<JSONValue, String>.string.chained(Transformer(forward: { .string($0) }))
            case .int: return Transformer<JSONValue, Int64>.integer.chained(Transformer(forward: { .number(JSONNumber($0)) }))
            case .double: return Transformer<JSONValue, Double>.double.chained(Transformer(forward: { .number(JSONNumber($0)) }))
            case .bool: return Transformer<JSONValue, Bool>.bool.chained(Transformer(forward: { .bool($0) }))
            case .date:
                let iso = Transformer<JSONValue, Date>.iso8601
                return iso.chained(Transformer(forward: { try iso.reverseTransform($0) }))
            case .epoch:
                return Transformer<JSONValue, Date>.iso8601.chained(Transformer(forward: { date in
                    let seconds = date.timeIntervalSince1970
                    return .number(seconds.rounded() == seconds ? JSONNumber(Int64(seconds)) : JSONNumber(seconds))
                }))
            case .url: return Transformer<JSONValue, URL>.url.chained(Transformer(forward: { .string($0.absoluteString) }))
            }
        }
    }

    init?(argument: String) {
        var rest = Substring(argument)
        var name: Substring?
        if let equals = rest.firstIndex(of: "=") {
            name = rest[..<equals]
            rest = rest[rest.index(after: equals)...]
        }
        var kind = Kind.json
        if let colon = rest.lastIndex(of: ":"), let named = Kind(rawValue: String(rest[rest.index(after: colon)...])) {
            kind = named
            rest = rest[..<colon]
        } else if let colon = rest.lastIndex(of: ":"), !rest[rest.index(after: colon)...].contains(".") {
            return nil  // an unknown transformer name
        }
        guard !rest.isEmpty, name?.isEmpty != true else { return nil }
        self.name = String(name ?? rest)
        keyPath = String(rest)
        self.kind = kind
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

extension ExtractedRow {
    /// The mapping of `fields` onto the row's slots, in order.
    /// - Throws: `ValidationError` for too many fields, ``JSONError`` for an illegal key path.
    static func mapping(_ fields: [ExtractField]) throws -> JSONMapping<ExtractedRow> {
        guard fields.count <= capacity else { throw ValidationError("at most \(capacity) fields (\(fields.count) given)") }
        let mapping = JSONMapping<ExtractedRow> {
            for (i, field) in fields.enumerated() {
                Map(slots[i], field.keyPath, .optional(field.kind.transformer)).named(field.name)
            }
        }
        try mapping.validate()
        return mapping
    }
}
