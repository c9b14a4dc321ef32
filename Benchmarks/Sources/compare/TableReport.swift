import Corpus
import Foundation

/// The per-corpus tables printed on stdout, and the derived numbers shared with the JSON report.
enum TableReport {
    /// How the figures were made, for the JSON report; the alternation from `policy`.
    static func methodNotes(policy: TimingPolicy) -> [String] {
        let rounds = policy.alternatingRounds
        let alternation = rounds > 1
            ? "Magma and yajl (when both run) each run in \(rounds) child processes in alternation, sharing one system's timed seconds, best kept; so do the encoders."
            : "Magma and yajl each run in 1 child process (no alternation)."
        return [
            "MB/s: 10^6 bytes per second (decoding: of input; encoding: of the JSON the system wrote), best timed run after warm-up, median in parentheses. Every system works on the same bytes and models in the same run.",
            "× JSONDecoder / × JSONEncoder: speed relative to Foundation's Codable in its fastest configuration (GitHub dates: `.iso8601`; encoding: by time, as outputs differ in size). JSONDecoder (DateFormatter) reads the same dates with a DateFormatter of the mapping's pattern, the literal Codable equivalent of Magma's pattern transformer. % of yajl: share of the yajl no-op ceiling (tokenizing with empty callbacks); " + alternation,
            "allocs/record: malloc-family calls during one run divided by the records; counted by allocator shims linked into compare (no LD_PRELOAD, no header on blocks); they agree with package-benchmark's mallocCountTotal.",
            "peak RSS: VmHWM of a child process that ran only that system; over base: peak minus the resident size before the first run (the input, and to encode, the models).",
            "NDJSON: every system finds lines with memchr; Magma frames them inside JSONAdapter.forEachRecord and reuses one decoder for every line, the yajl ceiling scans each line as raw bytes with a yajl handle allocated per line, Foundation reads each line as a Data slice; encoders write one line per record, appended to a buffer kept from one run to the next (as a buffered writer keeps its own).",
            "models: ✓ when the system built models equal (==) to JSONDecoder's from the same bytes; encoding: ✓ when its JSON decodes back (JSONDecoder and Magma) to the same models.",
        ]
    }

    /// What the columns mean, printed once before the tables (compare.json keeps the long form).
    static let legend = [
        "How to read the tables: MB/s is 10^6 bytes of input per second, best timed run (median in parentheses);",
        "× JSONDecoder is the speed ratio to Foundation's Codable; % of yajl is the share of yajl's no-op tokenizing rate",
        "(the ceiling for anything built on yajl); allocs per record are malloc-family calls in one decode; peak RSS is",
        "the high-water mark of a process that ran only that system (over base: above its size before the first run).",
        "models ✓: equal (==) to JSONDecoder's from the same bytes. Magma's rows clear its URL cache before every run.",
        "msgspec (typed Struct: the same fields, dates and URLs as str) and orjson (untyped) run in a Python child each,",
        "alternated with Magma's and yajl's; \"Magma (dates, URLs as text)\" is Magma's like-for-like row against msgspec.",
    ]

    /// Magma's rows that threw or built other models than JSONDecoder's (the run then fails).
    static func magmaFailures(_ report: CorpusReport) -> [String] {
        guard CorpusKind.named(report.kind)?.hasModel == true else { return [] }
        let magma: Set<DecodeSystem> = [.magma, .magmaMap, .magmaText, .magmaYajl, .magmaDecoder]
        return report.decodeSummary.compactMap { row in
            guard let system = DecodeSystem(rawValue: row.system), magma.contains(system) else { return nil }
            if let error = row.error { return "\(report.name): \(row.title) threw: \(error)" }
            if row.validation.hasPrefix("✗") { return "\(report.name): \(row.title): \(row.validation)" }
            return nil
        }
    }

    /// The ratios to msgspec, one line per corpus that has them, for the end of the output.
    static func peerRatios(_ reports: [CorpusReport]) -> [String] {
        reports.compactMap { report in peerLine(report).map { "\(report.name) (\(report.model.split(separator: " ").first ?? "")): \($0)" } }
    }

    private static func peerLine(_ report: CorpusReport) -> String? {
        let speed = { (system: DecodeSystem) in report.decodeSummary.first { $0.system == system.rawValue }?.megabytesPerSecond }
        guard let msgspec = speed(.msgspec) else { return nil }
        var parts: [String] = []
        if let magma = speed(.magma) { parts.append(String(format: "Magma %.0f %% of msgspec", 100 * magma / msgspec)) }
        if let text = speed(.magmaText) { parts.append(String(format: "like-for-like (dates, URLs as text) %.0f %%", 100 * text / msgspec)) }
        if let orjson = speed(.orjson), let magma = speed(.magma) { parts.append(String(format: "Magma %.0f %% of orjson", 100 * magma / orjson)) }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    static func summarizeDecode(_ report: CorpusReport, validation: [String: String]) -> [RowSummary] {
        let bytes = report.bytes
        let decoder = report.decode.first { $0.system == DecodeSystem.jsonDecoder.rawValue }?.megabytesPerSecond(bytes: bytes)
        let yajl = report.decode.first { $0.system == DecodeSystem.yajl.rawValue }?.megabytesPerSecond(bytes: bytes)
        return report.decode.map { result in
            let system = DecodeSystem(rawValue: result.system)
            let speed = result.megabytesPerSecond(bytes: bytes)
            var title = system?.title ?? result.system
            if system == .handMapping && report.kind == CorpusKind.generic.id { title = "JSONSerialization (no mapping)" }
            if system == .msgspec && !DecodeSystem.msgspecTypedKinds.contains(report.kind) { title = "msgspec (untyped)" }
            return summary(
                result, title: title, bytes: bytes, records: report.records,
                ratio: speed.flatMap { s in decoder.map { s / $0 } },
                percentOfYajl: speed.flatMap { s in yajl.map { 100 * s / $0 } },
                validation: validation[result.system] ?? "not checked"
            )
        }
    }

    static func summarizeEncode(_ report: CorpusReport, validation: [String: String]) -> [RowSummary] {
        let encode = report.encode ?? []
        let reference = encode.first { $0.system == EncodeSystem.jsonEncoder.rawValue }
        return encode.map { result in
            let ratio = result.error == nil && reference?.error == nil && result.bestSeconds > 0
                ? (reference?.bestSeconds).map { $0 / result.bestSeconds } : nil
            return summary(
                result, title: EncodeSystem(rawValue: result.system)?.title ?? result.system,
                bytes: result.outputBytes ?? 0, records: report.records ?? result.records,
                ratio: ratio, percentOfYajl: nil,
                validation: validation[result.system] ?? "not checked"
            )
        }
    }

    private static func summary(
        _ result: SystemResult, title: String, bytes: Int, records: Int?, ratio: Double?, percentOfYajl: Double?,
        validation: String
    ) -> RowSummary {
        let ok = result.error == nil
        let records = records ?? result.records
        return RowSummary(
            system: result.system,
            title: title,
            megabytesPerSecond: result.megabytesPerSecond(bytes: bytes),
            medianMegabytesPerSecond: ok && result.medianSeconds > 0 ? Double(bytes) / 1e6 / result.medianSeconds : nil,
            ratioToFoundation: ratio,
            percentOfYajl: percentOfYajl,
            allocationsPerRecord: ok ? result.allocations.flatMap { a in records.flatMap { $0 > 0 ? Double(a) / Double($0) : nil } } : nil,
            peakResidentBytes: ok ? result.peakResidentBytes : nil,
            peakOverBaselineBytes: ok ? result.peakResidentBytes.flatMap { p in result.baselineResidentBytes.map { max(0, p - $0) } } : nil,
            validation: validation,
            error: result.error
        )
    }

    static func render(_ report: CorpusReport) -> String {
        var lines: [String] = []
        let records = report.records.map { "\(grouped($0)) \($0 == 1 ? report.recordUnit : report.recordUnitPlural)" } ?? "? records"
        lines.append("")
        lines.append("\(report.name) · \(megabytes(report.bytes)) · \(records) · \(report.model) · \(report.layout.rawValue)")
        lines.append(contentsOf: rows(
            report.decodeSummary, unit: report.recordUnit,
            header: ["decode", "MB/s", "(median)", "× JSONDecoder", "% of yajl", "allocs/\(report.recordUnit)", "peak RSS", "over base", "models"],
            percent: true
        ))
        let summary = report.decodeSummary
        if let magma = summary.first(where: { $0.system == DecodeSystem.magma.rawValue })?.megabytesPerSecond,
           let pattern = summary.first(where: { $0.system == DecodeSystem.jsonDecoderPattern.rawValue })?.megabytesPerSecond {
            lines.append(String(format: "Magma vs JSONDecoder reading the same date pattern with a DateFormatter: %.2f×", magma / pattern))
        }
        if let peers = peerLine(report) { lines.append(peers) }
        if let encode = report.encodeSummary {
            lines.append("")
            lines.append(contentsOf: rows(
                encode, unit: report.recordUnit,
                header: ["encode", "MB/s", "(median)", "× JSONEncoder", "output", "allocs/\(report.recordUnit)", "peak RSS", "over base", "round trip"],
                percent: false, outputs: report.encode
            ))
        }
        return lines.joined(separator: "\n")
    }

    private static func rows(
        _ summaries: [RowSummary], unit: String, header: [String], percent: Bool, outputs: [SystemResult]? = nil
    ) -> [String] {
        var rows: [[String]] = []
        var details: [String] = []
        for summary in summaries {
            if let error = summary.error {
                rows.append([summary.title, "–", "", "", "", "", "", "", shortError(error)])
                continue
            }
            let valid = summary.validation == "same" ? "✓ same" : summary.validation.components(separatedBy: ":").first ?? ""
            if summary.validation != "same", let detail = summary.validation.split(separator: ":", maxSplits: 1).last,
               summary.validation.contains(":"), !summary.validation.hasPrefix("–") {
                details.append("  \(summary.title): \(detail.trimmingCharacters(in: .whitespaces))")
            }
            let output = outputs?.first { $0.system == summary.system }?.outputBytes
            rows.append([
                summary.title,
                summary.megabytesPerSecond.map { String(format: "%.1f", $0) } ?? "–",
                summary.medianMegabytesPerSecond.map { String(format: "(%.1f)", $0) } ?? "",
                summary.ratioToFoundation.map { String(format: "%.2f×", $0) } ?? "–",
                percent ? summary.percentOfYajl.map { String(format: "%.0f %%", $0) } ?? "–" : output.map(megabytes) ?? "–",
                summary.allocationsPerRecord.map { $0 >= 100 ? String(format: "%.0f", $0) : String(format: "%.1f", $0) } ?? "–",
                summary.peakResidentBytes.map(megabytes) ?? "–",
                summary.peakOverBaselineBytes.map(megabytes) ?? "–",
                valid,
            ])
        }
        return table(header: header, rows: rows) + details
    }

    private static func table(header: [String], rows: [[String]]) -> [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                // First and last columns left-aligned, numbers right-aligned.
                return column == 0 || column == cells.count - 1 ? cell + padding : padding + cell
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        return [line(header), String(repeating: "─", count: widths.reduce(0, +) + 2 * (widths.count - 1))] + rows.map(line)
    }

    static func megabytes(_ bytes: Int) -> String {
        if bytes >= 10_000_000 { return String(format: "%.0f MB", Double(bytes) / 1e6) }
        if bytes >= 1_000_000 { return String(format: "%.1f MB", Double(bytes) / 1e6) }
        return String(format: "%.0f kB", Double(bytes) / 1e3)
    }

    static func grouped(_ n: Int) -> String {
        var digits = String(n)
        var result = ""
        while digits.count > 3 {
            result = "," + digits.suffix(3) + result
            digits.removeLast(3)
        }
        return digits + result
    }

    private static func shortError(_ error: String) -> String {
        let firstLine = error.split(separator: "\n").first.map(String.init) ?? error
        return firstLine.count > 70 ? String(firstLine.prefix(67)) + "..." : firstLine
    }
}
