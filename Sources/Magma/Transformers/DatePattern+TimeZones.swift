// How DatePattern finds a zone's UTC offset for a date: a fixed offset, or the zone's transitions
// tabulated once, so that most dates need no TimeZone call.
import Foundation

/// How to find the UTC offset when the pattern has no zone field (and for formatting).
enum UTCOffsetRule {
    case fixed(Int)
    case varying(TimeZoneTransitions)

    init(_ timeZone: TimeZone) {
        let probes = [-63_114_076_800.0, -2_000_000_000, 0, 800_000_000, 250_000_000_000].map {
            timeZone.secondsFromGMT(for: Date(timeIntervalSinceReferenceDate: $0))
        }
        if timeZone.nextDaylightSavingTimeTransition(after: .distantPast) == nil, Set(probes).count == 1 {
            self = .fixed(probes[0])
        } else {
            self = .varying(TimeZoneTransitions(timeZone))
        }
    }

    /// Offset at a UTC instant given in whole seconds since 1970.
    @inline(__always)
    func offset(atUnixSeconds s: Int64) -> Int {
        switch self {
        case .fixed(let offset): return offset
        case .varying(let table): return table.offset(atUnixSeconds: s)
        }
    }

    /// Offset for a local wall time, or nil when it could be skipped or repeated (see TimeZoneTransitions).
    @inline(__always)
    func offset(forLocalUnixSeconds local: Int64) -> Int? {
        switch self {
        case .fixed(let offset): return offset
        case .varying(let table): return table.offset(forLocalUnixSeconds: local)
        }
    }
}

/// A zone's offset transitions, tabulated for 1800-2200 so that most dates need no TimeZone call.
///
/// A local wall time gets an offset only when no transition lies within 31 h of the resulting
/// instant (more than the largest offset jump, ~26 h): then the wall time is neither skipped nor
/// repeated, its instant is unique, and ICU finds the same one. Otherwise DateFormatter decides.
final class TimeZoneTransitions: Sendable {
    private static let window: Int64 = 31 * 3600
    private static let covered: Range<Int64> = -5_364_662_400 ..< 7_258_118_400   // 1800-01-01 ..< 2200-01-01
    let zone: TimeZone
    private let initialOffset: Int
    private let instants: [Int64]      // ascending, whole seconds since 1970
    private let offsets: [Int]         // offset from instants[i] on
    private let isComplete: Bool

    init(_ zone: TimeZone) {
        self.zone = zone
        var instants: [Int64] = [], offsets: [Int] = []
        var complete = true
        var cursor = Date(timeIntervalSince1970: Double(Self.covered.lowerBound - Self.window))
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next.timeIntervalSince1970 < Double(Self.covered.upperBound + Self.window) {
            let at = next.timeIntervalSince1970.rounded(.down)
            guard next > cursor, at == next.timeIntervalSince1970 else { complete = false; break }
            instants.append(Int64(at))
            offsets.append(zone.secondsFromGMT(for: Date(timeIntervalSince1970: at + 0.5)))
            cursor = next
        }
        initialOffset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(Self.covered.lowerBound - Self.window)))
        self.instants = instants
        self.offsets = offsets
        isComplete = complete
    }

    /// Index of the last transition at or before `s`, or -1.
    private func lastTransition(atOrBefore s: Int64) -> Int {
        var low = 0, high = instants.count
        while low < high {
            let mid = (low + high) / 2
            if instants[mid] <= s { low = mid + 1 } else { high = mid }
        }
        return low - 1
    }

    private func inTable(_ s: Int64) -> Bool { isComplete && Self.covered.contains(s) }

    func offset(atUnixSeconds s: Int64) -> Int {
        guard inTable(s) else { return zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(s) + 0.5)) }
        let i = lastTransition(atOrBefore: s)
        return i < 0 ? initialOffset : offsets[i]
    }

    func offset(forLocalUnixSeconds local: Int64) -> Int? {
        let guess = offset(atUnixSeconds: local)
        let utc = local - Int64(guess)
        if inTable(utc) {
            let i = lastTransition(atOrBefore: utc)
            guard (i < 0 ? initialOffset : offsets[i]) == guess,
                  i < 0 || instants[i] < utc - Self.window,
                  i + 1 >= instants.count || instants[i + 1] > utc + Self.window else { return nil }
            return guess
        }
        guard offset(atUnixSeconds: utc) == guess else { return nil }
        if let next = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: Double(utc - Self.window))),
           next.timeIntervalSince1970 <= Double(utc + Self.window) {
            return nil
        }
        return guess
    }
}
