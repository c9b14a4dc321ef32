import Corpus
import Foundation

/// results/compare.svg: per corpus, one bar per system for throughput (linear scale) and for
/// allocations per record (log scale), with each group's axis labels above it as well as at the
/// bottom; a throughput bar ends at the best run, and a dark whisker spans from the median run to
/// it; Magma's bars say their share of yajl's rate. Plain SVG, no scripts: opens in any browser.
enum ChartReport {
    private static let colors: [String: String] = [
        "magma": "#e8590c", "magma-map": "#d9480f", "magma-text": "#ffa94d", "magma-yajl": "#f08c00", "msgspec": "#7048e8", "orjson": "#ae3ec9", "jsondecoder": "#1c7ed6", "jsondecoder-pattern": "#74c0fc", "jsonserialization": "#868e96", "yajl": "#2f9e44",
        "encode:magma": "#ffa94d", "encode:jsonencoder": "#74c0fc",
    ]

    static func svg(_ report: CompareReport) -> String {
        let labelWidth = 330.0
        let speedX = labelWidth + 10
        let speedWidth = 430.0
        let allocX = speedX + speedWidth + 150
        let allocWidth = 250.0
        let width = allocX + allocWidth + 90
        let barHeight = 16.0
        let rowGap = 4.0
        let groupHeader = 40.0
        let groupGap = 14.0
        let top = 96.0

        let rows = report.corpora.flatMap { $0.decodeSummary + ($0.encodeSummary ?? []) }
        let maxSpeed = rows.compactMap(\.megabytesPerSecond).max() ?? 1
        let speedScale = niceCeiling(maxSpeed)
        let maxAllocs = rows.compactMap(\.allocationsPerRecord).max() ?? 1
        let allocDecades = max(1, Int(ceil(log10(max(maxAllocs, 1.0)))))  // axis from 10^-1 to 10^decades

        let speedTicks = (0...4).map { i in
            (x: speedX + speedWidth * Double(i) / 4, label: String(format: "%.0f", speedScale * Double(i) / 4))
        }
        let allocTicks = (-1...allocDecades).map { decade in
            (x: allocX + allocWidth * Double(decade + 1) / Double(allocDecades + 1),
             label: decade < 0 ? "0.1" : String(format: "%.0f", pow(10, Double(decade))))
        }
        func axisLabels(_ y: Double) -> [String] {
            (speedTicks + allocTicks).map { text($0.x, y, $0.label, size: 10, anchor: "middle", fill: "#868e96") }
        }

        var y = top
        var body: [String] = []
        for corpus in report.corpora {
            let records = corpus.records.map { "\(TableReport.grouped($0)) \($0 == 1 ? corpus.recordUnit : corpus.recordUnitPlural)" } ?? ""
            body.append(text(10, y + 16, "\(corpus.name)", weight: "bold", size: 13))
            body.append(text(speedX, y + 16, "\(TableReport.megabytes(corpus.bytes)) · \(records) · \(corpus.model) · \(corpus.layout.rawValue)", size: 11, fill: "#495057"))
            // The axes' labels above the group too: a reader in the middle of the chart need not scroll.
            body.append(contentsOf: axisLabels(y + 33))
            y += groupHeader
            let decodeRows = corpus.decodeSummary.map { (key: $0.system, title: "decode · " + $0.title, summary: $0, reference: "JSONDecoder") }
            let encodeRows = (corpus.encodeSummary ?? []).map { (key: "encode:" + $0.system, title: "encode · " + $0.title, summary: $0, reference: "JSONEncoder") }
            for (key, title, summary, reference) in decodeRows + encodeRows {
                let color = colors[key] ?? "#000"
                body.append(text(labelWidth, y + barHeight - 4, title, size: 12, anchor: "end"))
                if let speed = summary.megabytesPerSecond {
                    let w = max(1, speedWidth * speed / speedScale)
                    body.append(rect(speedX, y, w, barHeight, color))
                    if let median = summary.medianMegabytesPerSecond, median < speed {
                        // The spread of the timed runs: from the median run to the best.
                        let m = speedX + max(1, speedWidth * median / speedScale)
                        body.append(whisker(m, speedX + w, y + barHeight / 2, height: barHeight - 6))
                    }
                    var label = String(format: "%.0f MB/s", speed)
                    if let ratio = summary.ratioToFoundation, !title.hasSuffix(reference) {
                        label += String(format: " · %.2f× %@", ratio, reference)
                    }
                    if key.hasPrefix("magma"), let share = summary.percentOfYajl {
                        label += String(format: " · %.0f %% of yajl", share)
                    }
                    if summary.validation.hasPrefix("✗") {
                        label += " · ✗ models differ"
                    } else if summary.validation.hasPrefix("≈") {
                        label += " · ≈ last-digit rounding"
                    }
                    body.append(text(speedX + w + 5, y + barHeight - 4, label, size: 11))
                } else {
                    body.append(text(speedX + 5, y + barHeight - 4, "n/a", size: 11, fill: "#868e96"))
                }
                if let allocs = summary.allocationsPerRecord {
                    let position = (log10(max(allocs, 0.1)) + 1) / Double(allocDecades + 1)
                    let w = max(1, allocWidth * position)
                    body.append(rect(allocX, y, w, barHeight, color))
                    body.append(text(allocX + w + 5, y + barHeight - 4, allocs >= 100 ? String(format: "%.0f", allocs) : String(format: "%.1f", allocs), size: 11))
                }
                y += barHeight + rowGap
            }
            y += groupGap
        }
        let height = y + 30

        var svg: [String] = []
        svg.append(#"<svg xmlns="http://www.w3.org/2000/svg" width="\#(Int(width))" height="\#(Int(height))" viewBox="0 0 \#(Int(width)) \#(Int(height))" font-family="Helvetica, Arial, sans-serif">"#)
        svg.append(#"<rect width="100%" height="100%" fill="white"/>"#)
        svg.append(text(10, 26, "Magma vs Foundation JSON, msgspec and orjson: the same models from the same bytes", weight: "bold", size: 18))
        svg.append(text(10, 46, "\(report.host.cpu) · \(report.host.cores) cores · load \(report.host.loadAverage) · \(report.generatedAt)", size: 11, fill: "#495057"))
        svg.append(text(10, 62, "decoding: MB of input per second; encoding: MB of JSON written per second; same bytes, same models, same run", size: 11, fill: "#495057"))
        svg.append(text(speedX, 80, "throughput, MB/s (bar: best run; whisker: median to best; higher is better)", weight: "bold", size: 12))
        svg.append(text(allocX, 80, "allocations per record (log scale; lower is better)", weight: "bold", size: 12))
        // Axes: speed gridlines at quarters, allocation gridlines at decades.
        for x in speedTicks.map(\.x) + allocTicks.map(\.x) {
            svg.append(line(x, top - 6, x, height - 30))
        }
        svg.append(contentsOf: axisLabels(height - 14))
        svg.append(contentsOf: body)
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    private static func niceCeiling(_ value: Double) -> Double {
        let magnitude = pow(10, floor(log10(max(value, 1))))
        for step in [1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0] where step * magnitude >= value { return step * magnitude }
        return 10 * magnitude
    }

    private static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ fill: String) -> String {
        String(format: #"<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%@" rx="2"/>"#, x, y, w, h, fill)
    }

    /// A horizontal whisker from `x1` to `x2` at `y`, with end ticks `height` tall.
    private static func whisker(_ x1: Double, _ x2: Double, _ y: Double, height: Double) -> String {
        String(format: ##"<path d="M%.1f %.1fH%.1fM%.1f %.1fv%.1fM%.1f %.1fv%.1f" stroke="#212529" stroke-width="1.2" fill="none"/>"##,
               x1, y, x2, x1, y - height / 2, height, x2, y - height / 2, height)
    }

    private static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> String {
        String(format: ##"<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e9ecef"/>"##, x1, y1, x2, y2)
    }

    private static func text(
        _ x: Double, _ y: Double, _ content: String, weight: String = "normal", size: Int = 12,
        anchor: String = "start", fill: String = "#212529"
    ) -> String {
        let escaped = content
            .replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        return String(format: #"<text x="%.1f" y="%.1f" font-size="%d" font-weight="%@" text-anchor="%@" fill="%@">"#, x, y, size, weight, anchor, fill)
            + escaped + "</text>"
    }
}
