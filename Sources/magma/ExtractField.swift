import ArgumentParser
import Foundation
import Magma

/// One `--field`: `[NAME=]KEY.PATH[:TRANSFORMER[:ARGUMENT]]`. The name defaults to the key path,
/// the transformer to `json`.
struct ExtractField {
    /// The column (CSV, TSV) or member (NDJSON) name.
    var name: String
    /// The key path in each record (`user.login`, `labels.0.name`).
    var keyPath: String
    /// The transformer's name, and its argument (a date pattern) when one was given.
    var transformerName: String
    var argument: String?
    /// Reads the value and gives back the value written out.
    var transformer: Transformer<JSONValue, JSONValue>

    /// The grammar, for `--help` and for errors.
    static let grammar = "[NAME=]KEY.PATH[:TRANSFORMER[:ARGUMENT]]"

    /// Parses one `--field` argument.
    /// - Throws: `ValidationError` saying what is wrong with it.
    init(parsing argument: String) throws {
        func fail(_ reason: String) -> ValidationError {
            ValidationError("\(reason) (a field is \(Self.grammar); transformers: \(FieldTransformer.names))")
        }
        var rest = Substring(argument)
        var name: Substring?
        if let equals = rest.firstIndex(of: "=") {
            name = rest[..<equals]
            rest = rest[rest.index(after: equals)...]
            if name!.isEmpty { throw fail("nothing before '=': name the column, or leave out '='") }
        }
        var transformerName = "json"
        var transformerArgument: String?
        if let colon = rest.firstIndex(of: ":") {
            let spec = rest[rest.index(after: colon)...]
            rest = rest[..<colon]
            let second = spec.firstIndex(of: ":")
            transformerName = String(spec[..<(second ?? spec.endIndex)])
            if let second { transformerArgument = String(spec[spec.index(after: second)...]) }
        }
        if rest.isEmpty { throw fail("no key path in '\(argument)'") }
        guard let kind = FieldTransformer.named(transformerName) else {
            throw fail("unknown transformer '\(transformerName)' in '\(argument)'")
        }
        switch (kind.argument, transformerArgument) {
        case (nil, let given?): throw fail("'\(kind.name)' takes no argument, and '\(given)' was given")
        case (let wanted?, ""): throw fail("an empty \(wanted) after '\(kind.name):'")
        default: break
        }
        self.name = String(name ?? rest)
        keyPath = String(rest)
        self.transformerName = kind.name
        self.argument = transformerArgument
        transformer = kind.make(transformerArgument)
    }
}

/// A transformer a `--field` can name: what it reads from the JSON and what it writes out. The
/// one list of them: `--help` prints it and the field parser reads it.
struct FieldTransformer: Sendable {
    let name: String
    /// The argument it takes after a second colon, if any (`date:PATTERN`).
    let argument: String?
    /// The forward direction: what it accepts.
    let reads: String
    /// The reverse direction: what it writes.
    let writes: String
    let make: @Sendable (String?) -> Transformer<JSONValue, JSONValue>

    static let all: [FieldTransformer] = [
        FieldTransformer(name: "json", argument: nil, reads: "any value", writes: "it as it is (an array or object as JSON text)") { _ in .json },
        FieldTransformer(name: "string", argument: nil, reads: "a string", writes: "its text") { _ in
            Transformer<JSONValue, String>.string.chained(Transformer(forward: { .string($0) }))
        },
        FieldTransformer(name: "int", argument: nil, reads: "an integer that fits 64 bits", writes: "it") { _ in
            Transformer<JSONValue, Int64>.integer.chained(Transformer(forward: { .number(JSONNumber($0)) }))
        },
        FieldTransformer(name: "double", argument: nil, reads: "a number", writes: "its shortest form") { _ in
            Transformer<JSONValue, Double>.double.chained(Transformer(forward: { .number(JSONNumber($0)) }))
        },
        FieldTransformer(name: "bool", argument: nil, reads: "true or false", writes: "it") { _ in
            Transformer<JSONValue, Bool>.bool.chained(Transformer(forward: { .bool($0) }))
        },
        FieldTransformer(name: "date", argument: "PATTERN",
                         reads: "an ISO 8601 date, or with :PATTERN a date in that DateFormatter pattern (UTC unless it names a zone)",
                         writes: "it in UTC, as ISO 8601 (2024-01-31T12:34:56Z)") { pattern in
            let read = FieldTransformer.date(pattern), iso = Transformer<JSONValue, Date>.iso8601
            return read.chained(Transformer(forward: { try iso.reverseTransform($0) }))
        },
        FieldTransformer(name: "epoch", argument: "PATTERN",
                         reads: "a number of seconds since 1970, an ISO 8601 date, or with :PATTERN a date in that pattern",
                         writes: "seconds since 1970 (1706704496, or 1706704496.5)") { pattern in
            let read = FieldTransformer.date(pattern)
            return Transformer(forward: { value in
                if case .number = value { return value }
                let seconds = try read.transform(value).timeIntervalSince1970
                return .number(seconds.rounded() == seconds ? JSONNumber(Int64(seconds)) : JSONNumber(seconds))
            })
        },
        FieldTransformer(name: "url", argument: nil, reads: "a URL, absolute or relative", writes: "it as parsed") { _ in
            Transformer<JSONValue, URL>.url.chained(Transformer(forward: { .string($0.absoluteString) }))
        },
    ]

    static func named(_ name: String) -> FieldTransformer? { all.first { $0.name == name } }

    /// `json, string, ...`.
    static var names: String { all.map(\.name).joined(separator: ", ") }

    /// One line per transformer, for `--help`.
    static var help: String {
        all.map { "  \($0.name)\($0.argument.map { "[:\($0)]" } ?? ""): reads \($0.reads); writes \($0.writes)." }
            .joined(separator: "\n")
    }

    /// ISO 8601, or the pattern's dates.
    private static func date(_ pattern: String?) -> Transformer<JSONValue, Date> {
        pattern.map { .date(format: $0) } ?? .iso8601
    }
}

extension ExtractedRow {
    /// The mapping of `fields` onto the row's slots, in order.
    /// - Throws: `ValidationError` for too many fields or two of one name, ``JSONError`` for an
    ///   illegal key path.
    static func mapping(_ fields: [ExtractField]) throws -> JSONMapping<ExtractedRow> {
        guard fields.count <= capacity else { throw ValidationError("at most \(capacity) fields (\(fields.count) given)") }
        var names: Set<String> = []
        for field in fields where !names.insert(field.name).inserted {
            throw ValidationError("two fields are named '\(field.name)': name one of them (NAME=\(field.keyPath))")
        }
        let mapping = JSONMapping<ExtractedRow> {
            for (i, field) in fields.enumerated() {
                Map(slots[i], field.keyPath, .optional(field.transformer)).named(field.name)
            }
        }
        do {
            try mapping.validate()
        } catch let error as JSONError {
            throw ValidationError("a --field's key path: \(error.message)")
        }
        return mapping
    }
}
