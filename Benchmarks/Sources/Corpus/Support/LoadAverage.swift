import Foundation

/// The machine's load, which the benchmarks print beside their timings: other work skews them.
public enum LoadAverage {
    /// The 1, 5 and 15 minute load averages from /proc/loadavg, as written there ("0.52 0.48 0.40");
    /// nil where /proc is unavailable.
    public static var current: String? {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ")
    }
}
