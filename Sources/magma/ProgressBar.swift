import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Hand-written rather than a kept library: the mirror's candidates are console-kit's activity
// indicator (it brings swift-log and a terminal layer, and knows nothing of bytes, MB/s or ETA)
// and Rainbow (colours only). One line redrawn with "\r" at most ten times a second is all this needs.

/// A one-line progress bar on standard error: bytes, records, MB/s and, when the size is known, a
/// bar and the time left. Drawn only when standard error is a terminal (or `MAGMA_PROGRESS=always`,
/// for tests), never with `--quiet`.
final class ProgressBar {
    private let total: Int?
    private let enabled: Bool
    private let start = DispatchTime.now().uptimeNanoseconds
    private var lastDraw: UInt64 = 0
    private var drawn = false

    init(total: Int?, quiet: Bool) {
        self.total = total
        let forced = ProcessInfo.processInfo.environment["MAGMA_PROGRESS"] == "always"
        enabled = !quiet && (forced || isatty(STDERR_FILENO) == 1)
    }

    /// Redraws the line if a tenth of a second has passed since the last time.
    func update(bytes: Int, records: Int) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now &- lastDraw >= 100_000_000 else { return }
        lastDraw = now
        draw(bytes: bytes, records: records, now: now)
    }

    /// Clears the line: at the end (the bar leaves nothing behind in the terminal's scrollback),
    /// and before anything else is written to standard error (the next update draws it again).
    func clear() {
        guard enabled, drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
        drawn = false
    }

    private func draw(bytes: Int, records: Int, now: UInt64) {
        let seconds = Double(now &- start) / 1e9
        let rate = seconds > 0 ? Double(bytes) / 1e6 / seconds : 0
        var line = "\r\u{1B}[2K"
        if let total, total > 0 {
            let fraction = min(1, Double(bytes) / Double(total))
            let width = 24, filled = Int(fraction * Double(width))
            line += "[" + String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled) + "] "
            line += String(format: "%3.0f%%  ", fraction * 100) + Self.megabytes(bytes) + " / " + Self.megabytes(total)
        } else {
            line += Self.megabytes(bytes)
        }
        line += "  \(records) records  " + String(format: "%.1f MB/s", rate)
        if let total, rate > 0, bytes < total {
            let left = Int((Double(total - bytes) / 1e6 / rate).rounded())
            line += String(format: "  ETA %d:%02d", left / 60, left % 60)
        }
        FileHandle.standardError.write(Data(line.utf8))
        drawn = true
    }

    private static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }
}
