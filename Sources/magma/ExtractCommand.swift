import ArgumentParser
import Foundation
import Magma

/// `magma extract`: the named key paths of every record, as CSV or NDJSON.
struct ExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Write the named key paths of every record as CSV or NDJSON.",
        discussion: """
            Each --field is name=key.path:transformer; the name defaults to the key path and the transformer to \
            json (the value as it is). Transformers: \(ExtractField.Kind.allCases.map(\.rawValue).joined(separator: ", ")). \
            A key path goes through nested objects (user.login) and arrays (labels.0.name). Records are read \
            through Magma's mapping engine with a mapping built from the fields. An absent or null value is an \
            empty CSV cell or an NDJSON null. A bad record (bad syntax on its line, a value its transformer \
            rejects) stops the run, or with --skip-bad is reported on standard error and skipped.

            Example: magma extract --field login=user.login --field number --field updated=updated_at:date issues.ndjson
            """
    )

    @Option(name: .customLong("field"), help: ArgumentHelp("A field to extract: name=key.path:transformer.", valueName: "field"))
    var fields: [ExtractField]

    @Option(help: "Output format: csv or ndjson.")
    var format: ExtractFormat = .csv

    @Flag(help: "Skip bad records, reporting each on standard error (a syntax error in an array still ends the input).")
    var skipBad = false

    @Flag(help: "With --skip-bad, report bad records on standard output instead, each as a line that starts with U+0001 and holds a JSON object (for Spark's RDD.pipe, which keeps only standard output).")
    var badToStdout = false

    @Flag(help: "No CSV header line.")
    var noHeader = false

    @OptionGroup var input: InputOptions

    func validate() throws {
        guard !fields.isEmpty else { throw ValidationError("name at least one --field") }
        guard fields.count <= ExtractedRow.capacity else { throw ValidationError("at most \(ExtractedRow.capacity) fields") }
        if badToStdout && !skipBad { throw ValidationError("--bad-to-stdout needs --skip-bad") }
    }

    func run() throws {
        let source = try Input(input.file)
        let layout = try source.resolve(input.layout)
        let extractor = try Extractor(fields: fields, format: format, header: !noHeader, badToStdout: badToStdout)
        let skipped: Int
        do {
            skipped = try extractor.run(source, layout: layout, skipBad: skipBad, quiet: input.quiet)
        } catch let error as JSONError {
            printError("magma: \(error.code == .io ? "" : "bad record: ")\(error.text)")
            throw ExitCode(1)
        }
        if skipped > 0 && !badToStdout { printError("magma: \(skipped) bad record\(skipped == 1 ? "" : "s") skipped") }
    }
}

/// `--format`.
enum ExtractFormat: String, ExpressibleByArgument, CaseIterable {
    case csv, ndjson
}

/// Reads records through a mapping built from the fields and writes each row.
final class Extractor {
    let fields: [ExtractField]
    let format: ExtractFormat
    let header: Bool
    let badToStdout: Bool
    let mapping: JSONMapping<ExtractedRow>
    private var out = Output()
    /// The row's slot offsets, read in order (no key path applied per value).
    private let offsets: [Int]
    /// Each NDJSON member's `"name":`, escaped once.
    private let memberPrefixes: [[UInt8]]
    /// The last bytes of the chunks before the one being decoded, kept to quote a bad NDJSON line,
    /// and where they start in the input.
    private var recent: [UInt8] = []
    private var recentStart = 0
    /// The chunk being decoded and where it starts in the input (valid during `feed` only).
    private var current: (bytes: UnsafeRawBufferPointer, start: Int)?

    init(fields: [ExtractField], format: ExtractFormat, header: Bool, badToStdout: Bool) throws {
        self.fields = fields
        self.format = format
        self.header = header
        self.badToStdout = badToStdout
        mapping = try ExtractedRow.mapping(fields)
        offsets = ExtractedRow.slots.prefix(fields.count).map { MemoryLayout<ExtractedRow>.offset(of: $0)! }
        memberPrefixes = fields.enumerated().map { i, field in
            var bytes: [UInt8] = i == 0 ? [UInt8(ascii: "{")] : [UInt8(ascii: ",")]
            JSONText.appendString(field.name, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            return bytes
        }
    }

    /// Extracts every record of `input`.
    /// - Returns: How many bad records were skipped.
    func run(_ input: Input, layout: InputLayout, skipBad: Bool, quiet: Bool) throws -> Int {
        if format == .csv && header {
            for (i, field) in fields.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                CSVText.appendField(field.name, to: &out)
            }
            out.append(0x0A)
        }
        var skipped = 0
        let quotesLines = layout == .ndjson
        let decoder = RecordDecoder(ExtractedRow.self, layout: layout.recordLayout(ExtractedRow.self), mapping: mapping,
                                    errorPolicy: skipBad ? .skip : .stop,
                                    onSkip: { [unowned self] error in
                                        skipped += 1
                                        self.reportBad(error, quoting: quotesLines)
                                    },
                                    onRecord: { [unowned self] row in try self.write(row) })
        let bar = ProgressBar(total: input.size, quiet: quiet)
        var bytes = 0
        do {
            while true {
                let chunk = try input.read()
                if chunk.isEmpty { break }
                current = (chunk, bytes)
                try decoder.feed(chunk)
                current = nil
                if quotesLines { keep(chunk, at: bytes) }
                bytes += chunk.count
                try out.flushIfFull()
                bar.update(bytes: bytes, records: decoder.progress.records)
            }
            try decoder.finish()
        } catch {
            bar.finish()
            try? out.flush()
            throw error
        }
        bar.finish()
        try out.flush()
        return skipped
    }

    /// Keeps the tail of the chunk (and of the one before, when it is short) to quote a bad line from.
    private func keep(_ chunk: UnsafeRawBufferPointer, at offset: Int) {
        let keep = 1 << 16
        if chunk.count >= keep {
            recent = Array(chunk[(chunk.count - keep)...])
            recentStart = offset + chunk.count - keep
        } else {
            recent.append(contentsOf: chunk)
            if recent.count > 2 * keep { recent.removeFirst(recent.count - keep) }
            recentStart = offset + chunk.count - recent.count
        }
    }

    /// The start of the bad NDJSON line (up to 200 bytes), when it is still at hand: in the chunk
    /// being decoded, or in the kept tail of those before (for a line that began there).
    private func quote(_ error: JSONError) -> String? {
        guard let offset = error.offset, let column = error.column else { return nil }
        let lineStart = offset - (column - 1)
        var line: [UInt8] = []
        if lineStart >= recentStart, lineStart - recentStart < recent.count {
            line = Array(recent[(lineStart - recentStart)...].prefix { $0 != 0x0A }.prefix(200))
            if line.count == recent.count - (lineStart - recentStart), let current {
                line += current.bytes.prefix { $0 != 0x0A }.prefix(200 - line.count)
            }
        } else if let current, lineStart >= current.start, lineStart - current.start < current.bytes.count {
            line = Array(current.bytes[(lineStart - current.start)...].prefix { $0 != 0x0A }.prefix(200))
        } else {
            return nil
        }
        return String(decoding: line, as: UTF8.self)
    }

    private func reportBad(_ error: JSONError, quoting: Bool) {
        var report = error.report
        if quoting, let text = quote(error), case .object(var fields) = report {
            fields["text"] = .string(text)
            report = .object(fields)
        }
        if badToStdout {
            out.append(0x01)
            JSONText.append(report, to: &out.bytesForAppending)
            out.append(0x0A)
        } else {
            var text = "magma: bad record: \(error.text)"
            if quoting, let line = quote(error) { text += "\n  " + line }
            printError(text)
        }
    }

    private func write(_ row: ExtractedRow) throws {
        withUnsafeBytes(of: row) { storage in
            switch format {
            case .csv:
                for (i, offset) in offsets.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    if let value = storage.load(fromByteOffset: offset, as: JSONValue?.self) { CSVText.appendValue(value, to: &out) }
                }
                out.append(0x0A)
            case .ndjson:
                for (i, offset) in offsets.enumerated() {
                    out.append(contentsOf: memberPrefixes[i])
                    if let value = storage.load(fromByteOffset: offset, as: JSONValue?.self) {
                        JSONText.append(value, to: &out.bytesForAppending)
                    } else {
                        out.append(contentsOf: "null".utf8)
                    }
                }
                out.append(contentsOf: "}\n".utf8)
            }
        }
        try out.flushIfFull()
    }
}
