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
            records must be objects. Each bad record is reported (record index, line, column, byte offset, reason) \
            and checking goes on; in an array or a document a syntax error ends the input, so it is the last one \
            reported. Exit status 0 only when every record is valid, 1 when any is not.
            """
    )

    @OptionGroup var input: InputOptions

    @Flag(help: "Write the report as one JSON object on standard output.")
    var json = false

    @Option(help: "The deepest nesting accepted.")
    var maxDepth = DecodingOptions().maxDepth

    @Option(help: "The longest string, key or number accepted, in bytes.")
    var maxTokenLength = DecodingOptions().maxTokenLength

    func run() throws {
        let source = try Input(input.file)
        let report = try Checker(maxDepth: maxDepth, maxTokenLength: maxTokenLength)
            .check(source, layout: try source.resolve(input.layout), quiet: input.quiet)
        var out = Output()
        if json {
            out.append(report.json)
        } else {
            for problem in report.problems { out.append("\(input.file):\(problem.text)\n") }
            out.append("\(report.records) records, \(report.problems.count) bad\(report.stopped ? " (the input could not be read past the last)" : "")\n")
        }
        try out.flush()
        if !report.problems.isEmpty { throw ExitCode(1) }
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
    var problems: [JSONError] = []
    /// A syntax error ended an array or a document: nothing after it was checked.
    var stopped = false

    var json: String {
        var object: [String: JSONValue] = [
            "layout": .string(layout.rawValue), "records": .number(JSONNumber(records)),
            "bad": .number(JSONNumber(problems.count)), "valid": .bool(problems.isEmpty), "stopped": .bool(stopped),
        ]
        object["errors"] = .array(problems.map(\.report))
        var text: [UInt8] = []
        JSONText.append(.object(object), to: &text)
        return String(decoding: text, as: UTF8.self) + "\n"
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

    init(maxDepth: Int, maxTokenLength: Int) throws {
        guard maxDepth > 0, maxTokenLength > 0 else { throw ValidationError("limits must be positive") }
        options.maxDepth = maxDepth
        options.maxTokenLength = maxTokenLength
        options.duplicateKeys = .reject
        options.unknownKeys = .ignore
    }

    func check(_ input: Input, layout: InputLayout, quiet: Bool) throws -> CheckReport {
        var report = CheckReport(layout: layout)
        var problems: [JSONError] = []
        let decoder = RecordDecoder(CheckedRecord.self, layout: layout.recordLayout(CheckedRecord.self), options: options,
                                    errorPolicy: .skip, onSkip: { problems.append($0) }, onRecord: { _ in })
        let bar = ProgressBar(total: input.size, quiet: quiet)
        var bytes = 0
        do {
            while true {
                let chunk = try input.read()
                if chunk.isEmpty { break }
                try decoder.feed(chunk)
                bytes += chunk.count
                bar.update(bytes: bytes, records: decoder.progress.records + problems.count)
            }
            try decoder.finish()
        } catch let error as JSONError where error.code != .io {
            problems.append(error)
            report.stopped = true
        }
        bar.finish()
        report.problems = problems
        report.records = decoder.progress.records + problems.count
        return report
    }
}
