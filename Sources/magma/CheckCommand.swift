import ArgumentParser
import Foundation
import Magma

/// `magma check`: validates every record and reports each bad one without stopping.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a JSON document, an array of records or NDJSON with Magma's strict rules and limits.",
        discussion: """
            Every record is read in full: its syntax, its strings' UTF-8 and escapes, its depth and token sizes; \
            records must be objects. The first bad records are listed (record index, line, column, byte offset, \
            reason; --list, default 100) and checking goes on; every bad record is counted, by error code, and the \
            report says how many were not listed. In an array or a document a syntax error ends the input, so it is \
            the last one reported. Exit status 0 only when every record is valid, 1 when any is not.
            """
    )

    @OptionGroup var input: InputOptions

    @Flag(help: "Write the report as one JSON object on standard output.")
    var json = false

    @Option(help: "The deepest nesting accepted.")
    var maxDepth = DecodingOptions().maxDepth

    @Option(help: "The longest string, key or number accepted, in bytes.")
    var maxTokenLength = DecodingOptions().maxTokenLength

    @Option(help: "List at most this many bad records, the first ones (all are counted, by error code).")
    var list = DecodingOptions().keptSkippedErrors

    func run() throws {
        let source = try Input(input.file)
        let report = try Checker(maxDepth: maxDepth, maxTokenLength: maxTokenLength, list: list)
            .check(source, layout: try source.resolve(input.layout), quiet: input.quiet)
        var out = Output()
        if json {
            out.append(report.json)
        } else {
            out.append(report.text(file: input.file))
        }
        try out.flush()
        if report.problems.total > 0 { throw ExitCode(1) }
    }
}

/// A record that maps nothing: decoding it reads and checks every byte and keeps none.
struct CheckedRecord: JSONModel {
    static let jsonMapping = JSONMapping<CheckedRecord> {}
}

/// What `check` found.
struct CheckReport {
    var layout: InputLayout
    var records = 0
    /// The first bad records' errors, and every bad record counted by code.
    var problems: SkippedRecords
    /// A syntax error ended an array or a document: nothing after it was checked.
    var stopped = false

    /// The counts by code, the most frequent first: `syntax 12, typeMismatch 3`.
    var counts: [(code: String, count: Int)] {
        problems.counts.map { ($0.key.name, $0.value) }.sorted { ($1.count, $0.code) < ($0.count, $1.code) }
    }

    /// One line per listed problem, then the counts and what was not listed.
    func text(file: String) -> String {
        var text = problems.map { "\(file):\($0.text)\n" }.joined()
        if problems.total > 0 {
            text += "bad records by code: " + counts.map { "\($0.code) \($0.count)" }.joined(separator: ", ") + "\n"
        }
        text += "\(records) records, \(problems.total) bad"
        if problems.unlisted > 0 { text += ", \(problems.unlisted) not listed (--list N lists more)" }
        return text + (stopped ? " (the input could not be read past the last)" : "") + "\n"
    }

    var json: String {
        let object: [String: JSONValue] = [
            "layout": .string(layout.rawValue), "records": .number(JSONNumber(records)),
            "bad": .number(JSONNumber(problems.total)), "valid": .bool(problems.total == 0), "stopped": .bool(stopped),
            "errors": .array(problems.map(\.report)), "unlisted": .number(JSONNumber(problems.unlisted)),
            "counts": .object(Dictionary(uniqueKeysWithValues: counts.map { ($0.code, .number(JSONNumber($0.count))) })),
        ]
        return JSONText.text(.object(object)) + "\n"
    }
}

extension JSONError {
    /// The error as one JSON object: record, line, column, offset, code, path, reason.
    var report: JSONValue {
        var fields: [String: JSONValue] = ["code": .string(code.name), "reason": .string(message), "path": .string(path)]
        if let recordIndex { fields["record"] = .number(JSONNumber(recordIndex)) }
        if let line { fields["line"] = .number(JSONNumber(line)) }
        if let column { fields["column"] = .number(JSONNumber(column)) }
        if let offset { fields["offset"] = .number(JSONNumber(offset)) }
        return .object(fields)
    }

    /// `LINE:COLUMN: byte OFFSET, record N: code: reason (at path)`.
    var text: String {
        var where_ = "\(line ?? 0):\(column ?? 0): byte \(offset ?? 0)"
        if let recordIndex { where_ += ", record \(recordIndex)" }
        return "\(where_): \(code): \(message)" + (path == "$" ? "" : " (at \(path))")
    }
}

/// Runs the checks over an input.
struct Checker {
    var options = DecodingOptions()

    init(maxDepth: Int, maxTokenLength: Int, list: Int) throws {
        guard maxDepth > 0, maxTokenLength > 0 else { throw ValidationError("limits must be positive") }
        guard list >= 0 else { throw ValidationError("--list must be 0 or more") }
        options.keptSkippedErrors = list
        options.maxDepth = maxDepth
        options.maxTokenLength = maxTokenLength
        options.duplicateKeys = .reject
        options.unknownKeys = .ignore
    }

    func check(_ input: Input, layout: InputLayout, quiet: Bool) throws -> CheckReport {
        let decoder = RecordDecoder(CheckedRecord.self, layout: layout.recordLayout(CheckedRecord.self), options: options,
                                    errorPolicy: .skip, onRecord: { _ in })
        var report = CheckReport(layout: layout, problems: decoder.skipped)
        let bar = ProgressBar(total: input.size, quiet: quiet)
        var bytes = 0
        do {
            while true {
                let chunk = try input.read()
                if chunk.isEmpty { break }
                try decoder.feed(chunk)
                bytes += chunk.count
                bar.update(bytes: bytes, records: decoder.progress.records + decoder.progress.skipped)
            }
            try decoder.finish()
            report.problems = decoder.skipped
        } catch let error as JSONError where error.code != .io {
            report.problems = decoder.skipped
            report.problems.append(error)
            report.stopped = true
        }
        bar.clear()
        report.records = decoder.progress.records + report.problems.total
        return report
    }
}
