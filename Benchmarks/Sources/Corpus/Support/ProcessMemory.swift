import Foundation

/// Resident memory of this process, from /proc/self/status (Linux).
public enum ProcessMemory {
    /// Peak resident set size so far (VmHWM), in bytes; nil where /proc is unavailable.
    public static var peakResident: Int? { field("VmHWM:") }
    /// Current resident set size (VmRSS), in bytes; nil where /proc is unavailable.
    public static var resident: Int? { field("VmRSS:") }

    private static func field(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            let digits = line.dropFirst(name.count).trimmingCharacters(in: .whitespaces).split(separator: " ").first
            return digits.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }
}
