import ArgumentParser
import Foundation
import Magma

/// `magma extract`: the named key paths of every record, as CSV, TSV or NDJSON.
struct ExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Write the named key paths of every record as CSV, TSV or NDJSON.",
        discussion: """
            Each --field is \(ExtractField.grammar): the name defaults to the key path, the transformer to json. \
            A key path goes through nested objects (user.login) and arrays (labels.0.name). Each transformer reads \
            the JSON value (an absent or null one is an empty CSV or TSV cell, an NDJSON null) and writes what the \
            row holds:
            \(FieldTransformer.help)
            A value its transformer rejects makes the record bad, as bad syntax on its line does: a bad record stops \
            the run, or with --skip-bad is reported on standard error (with the start of its NDJSON line) and skipped.

            CSV is quoted as RFC 4180 says (a field holding a comma, a quote or a line break is quoted, quotes \
            doubled; an empty string is ""); TSV escapes a tab, a line break and a backslash as \\t, \\n, \\r and \\\\. \
            NDJSON and a top-level array are decoded on --jobs threads, in batches of whole lines or records, and \
            written in input order; a document is read on one.

            Example: magma extract --field login=user.login --field number:int --field updated=updated_at:date issues.ndjson
            Example: magma extract --format tsv --field day=day:date:dd/MM/yyyy --field t=ts:epoch log.ndjson
            """
    )

    @Option(name: .customLong("field"), help: ArgumentHelp("A field to extract: \(ExtractField.grammar).", valueName: "field"),
            transform: { try ExtractField(parsing: $0) })
    var fields: [ExtractField]

    @Option(help: "Output format: csv, tsv or ndjson.")
    var format: ExtractFormat = .csv

    @Option(help: "Threads decoding NDJSON or an array at once (default: the number of cores); a document is read on one.")
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    @Flag(help: "Skip bad records, reporting each on standard error (a syntax error in an array still ends the input).")
    var skipBad = false

    @Flag(help: "With --skip-bad, report bad records on standard output instead, each as a line that starts with U+0001 and holds a JSON object (for Spark's RDD.pipe, which keeps only standard output).")
    var badToStdout = false

    @Flag(help: "No CSV or TSV header line.")
    var noHeader = false

    @OptionGroup var input: InputOptions

    func validate() throws {
        guard !fields.isEmpty else { throw ValidationError("name at least one --field") }
        guard fields.count <= ExtractedRow.capacity else { throw ValidationError("at most \(ExtractedRow.capacity) fields") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        if badToStdout && !skipBad { throw ValidationError("--bad-to-stdout needs --skip-bad") }
        _ = try ExtractedRow.mapping(fields)
    }

    func run() throws {
        let source = try Input(input.file)
        let layout = try source.resolve(input.layout)
        let extractor = try Extractor(fields: fields, format: format, header: !noHeader, skipBad: skipBad, badToStdout: badToStdout)
        let skipped: SkippedRecords
        do {
            skipped = try extractor.run(source, layout: layout, jobs: jobs, quiet: input.quiet)
        } catch let error as JSONError {
            printError("magma: \(error.code == .io ? "" : "bad record: ")\(error.text)")
            throw ExitCode(1)
        }
        if skipped.total > 0 && !badToStdout {
            let codes = skipped.counts.sorted { $0.key.name < $1.key.name }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            printError("magma: \(skipped.total) bad record\(skipped.total == 1 ? "" : "s") skipped (\(codes))")
        }
    }
}
