import Foundation
import Magma

/// Reads records through a mapping built from the fields and writes each row, in input order.
///
/// NDJSON is read in batches of whole lines, each decoded and written out as text on a worker
/// thread (`jobs` at once); the calling thread reads the batches, and writes their text and bad
/// records in order, placing each error in the whole input (a bad line's report quotes it, which
/// the library's stream cannot: it keeps no bytes of a skipped record). A top-level array is
/// decoded on `jobs` threads by the library's stream, which cuts it by its records' structure; the
/// calling thread writes the rows. A document is one stream, decoded on the calling thread.
final class Extractor: @unchecked Sendable {
    let rows: RowWriter
    let skipBad: Bool
    let badToStdout: Bool
    let header: Bool
    private var out = Output()
    private var bar = ProgressBar(total: nil, quiet: true)
    /// Every bad record reported: the first errors, and the counts.
    private(set) var skipped = SkippedRecords()
    private var rowCount = 0

    /// The bytes of a batch of NDJSON lines.
    static let batchBytes = 1 << 20

    init(fields: [ExtractField], format: ExtractFormat, header: Bool, skipBad: Bool, badToStdout: Bool) throws {
        rows = RowWriter(fields: fields, format: format)
        ExtractedRow.commandLineMapping = try ExtractedRow.mapping(fields)
        self.header = header
        self.skipBad = skipBad
        self.badToStdout = badToStdout
    }

    /// Extracts every record of `input`.
    /// - Returns: The bad records skipped.
    /// - Throws: The first bad record's error without `--skip-bad` (after the rows before it), a
    ///   syntax error that ends an array, or a read or write error.
    func run(_ input: Input, layout: InputLayout, jobs: Int, quiet: Bool) throws -> SkippedRecords {
        bar = ProgressBar(total: input.size, quiet: quiet)
        if header { rows.appendHeader(to: &out.bytes) }
        defer {
            bar.clear()
            try? out.flush()
        }
        switch layout {
        case .ndjson: try runBatches(input, jobs: jobs)
        case .array where jobs > 1: try runArray(input, jobs: jobs)
        default: try runStream(input, layout: layout)
        }
        try out.flush()
        return skipped
    }

    // MARK: NDJSON, in batches

    /// What a worker made of a batch: its text, its bad records (each with where its report goes
    /// in the text, and its line), and its failure, placed in the batch; its lines and records,
    /// to place the next batches' errors.
    struct Batch {
        var start = 0
        var bytes = 0
        var text: [UInt8] = []
        var bad: [(at: Int, error: JSONError, line: String)] = []
        var failure: (any Error)?
        var lines = 0
        var records = 0
        var rows = 0
    }

    private func runBatches(_ input: Input, jobs: Int) throws {
        let work = OrderedWork<Batch>(jobs: jobs, window: 2 * jobs)
        var start = 0, linesBefore = 0, recordsBefore = 0
        let deliver = { [self] (batch: Batch) throws in
            try write(batch, linesBefore: linesBefore, recordsBefore: recordsBefore)
            linesBefore += batch.lines
            recordsBefore += batch.records
        }
        while true {
            let lines = try input.readLines(atLeast: Self.batchBytes)
            if lines.isEmpty { break }
            let batchStart = start
            start += lines.count
            try work.submit({ [self] in decode(lines, start: batchStart) }, deliver: deliver)
        }
        try work.finish(deliver: deliver)
    }

    /// Decodes a batch of whole lines into rows of text (on a worker thread).
    private func decode(_ lines: [UInt8], start: Int) -> Batch {
        var batch = Batch(start: start, bytes: lines.count)
        batch.text.reserveCapacity(lines.count / 4)
        let decoder = RecordDecoder(ExtractedRow.self, layout: .ndjson, errorPolicy: skipBad ? .skip : .stop,
                                    onSkip: { error in batch.bad.append((batch.text.count, error, Self.line(of: error, in: lines))) },
                                    onRecord: { [rows] row in rows.append(row, to: &batch.text) })
        do {
            try decoder.feed(lines)
            try decoder.finish()
        } catch {
            batch.failure = error
        }
        batch.rows = decoder.progress.records
        batch.records = batch.rows + decoder.skipped.total
        batch.lines = lines.withUnsafeBytes { Self.newlines(in: $0) }
        return batch
    }

    /// Writes a batch's rows and reports, its errors placed after the lines and records before it.
    private func write(_ batch: Batch, linesBefore: Int, recordsBefore: Int) throws {
        func placed(_ error: JSONError) -> JSONError {
            var error = error
            error.offset = error.offset.map { $0 + batch.start }
            error.line = error.line.map { $0 + linesBefore }
            error.recordIndex = error.recordIndex.map { $0 + recordsBefore }
            return error
        }
        var written = 0
        for bad in batch.bad {
            out.append(contentsOf: batch.text[written..<bad.at])
            written = bad.at
            report(placed(bad.error), line: bad.line)
        }
        out.append(contentsOf: batch.text[written...])
        try out.flushIfFull()
        rowCount += batch.rows
        bar.update(bytes: batch.start + batch.bytes, records: rowCount)
        if let failure = batch.failure { throw (failure as? JSONError).map(placed) ?? failure }
    }

    /// The start of the bad line (up to 200 bytes; without the CR of a CRLF).
    private static func line(of error: JSONError, in lines: [UInt8]) -> String {
        guard let offset = error.offset, let column = error.column, column >= 1, offset - (column - 1) < lines.count else { return "" }
        var line = lines[(offset - (column - 1))...].prefix { $0 != 0x0A }.prefix(200)
        if line.last == 0x0D { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
    }

    private static func newlines(in bytes: UnsafeRawBufferPointer) -> Int {
        guard var at = bytes.baseAddress else { return 0 }
        let end = at + bytes.count
        var count = 0
        while at < end, let found = memchr(at, 0x0A, end - at) {
            count += 1
            at = UnsafeRawPointer(found) + 1
        }
        return count
    }

    // MARK: An array, on every core

    private func runArray(_ input: Input, jobs: Int) throws {
        let progress = ProgressHandle()
        try input.withRest { rest in
            _ = try JSONAdapter.forEachRecordInParallel(
                ExtractedRow.self, from: rest, layout: .array, errorPolicy: skipBad ? .skip : .stop, progress: progress,
                concurrency: jobs, onSkip: { [unowned self] in report($0, line: nil) }
            ) { [unowned self] row in
                rows.append(row, to: &out.bytes)
                rowCount += 1
                try out.flushIfFull()
                if rowCount & 1023 == 0 { bar.update(bytes: progress.current.bytes, records: rowCount) }
            }
        }
    }

    // MARK: An array (one thread) or a document, as one stream

    private func runStream(_ input: Input, layout: InputLayout) throws {
        let decoder = RecordDecoder(ExtractedRow.self, layout: layout.recordLayout(ExtractedRow.self), errorPolicy: skipBad ? .skip : .stop,
                                    onSkip: { [unowned self] error in report(error, line: nil) },
                                    onRecord: { [unowned self] row in
                                        rows.append(row, to: &out.bytes)
                                        rowCount += 1
                                    })
        var bytes = 0
        while true {
            let chunk = try input.read()
            if chunk.isEmpty { break }
            try decoder.feed(chunk)
            bytes += chunk.count
            try out.flushIfFull()
            bar.update(bytes: bytes, records: rowCount)
        }
        try decoder.finish()
    }

    // MARK: Bad records

    /// Reports a bad record: on standard output as a U+0001 line with `--bad-to-stdout`, else on
    /// standard error (the progress bar cleared first), with the start of its NDJSON line.
    private func report(_ error: JSONError, line: String?) {
        skipped.append(error)
        var report = error.report
        if let line, case .object(var fields) = report {
            fields["text"] = .string(line)
            report = .object(fields)
        }
        if badToStdout {
            out.append(0x01)
            JSONText.append(report, to: &out.bytes)
            out.append(0x0A)
        } else {
            bar.clear()
            printError("magma: bad record: \(error.text)" + (line.map { "\n  " + $0 } ?? ""))
        }
    }
}
