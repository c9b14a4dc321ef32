// A DateFormatter pattern compiled into steps that parse and print bytes (see DatePattern.swift for
// what the fast path covers and where DateFormatter decides instead).
import Foundation

/// A pattern compiled to steps: fixed-width fields, names, literal bytes in one array, an optional zone.
struct CompiledDatePattern {
    enum Kind: UInt8 { case literal, year, month, day, hour, minute, second, fraction, zone, monthName, weekday }
    /// How a zone field prints: basic `+hhmm`, extended `+hh:mm`, hours `+hh` (or `+hhmm` if minutes).
    enum ZoneStyle: UInt8 { case basic, basicZ, extended, extendedZ, hours, hoursZ }

    struct Step {
        var kind: Kind
        var width: Int          // digits, literal length, or name length: 3 abbreviated, 9 full (the longest)
        var start = 0           // literal offset in `literals`
        var zoneStyle = ZoneStyle.basic
    }

    private(set) var steps: [Step] = []
    private(set) var literals: [UInt8] = []
    private var hasZone = false
    private(set) var hasNames = false
    private var outputCapacity = 0      // longest possible formatted string, in bytes
    /// For a pattern of fixed-width digit fields and literals only (`yyyy-MM-dd'T'HH:mm:ss'Z'`):
    /// every matching string has one length, with each field at one offset.
    private var fixed: FixedLayout?

    /// Where the fields and literal bytes of a fixed-width pattern sit, as offsets into every
    /// matching string (`count` bytes long); -1 for a field the pattern lacks (never year, month or
    /// day: the compiler requires them). Hours, minutes and seconds are 2 digits, years 4.
    private struct FixedLayout {
        var count = 0
        var literals: [(offset: Int, byte: UInt8)] = []
        var year = -1, month = -1, day = -1, hour = -1, minute = -1, second = -1
        var fraction = -1, fractionWidth = 0
    }

    /// nil when the pattern needs anything outside the fast path.
    init?(pattern: String) {
        var seen = Set<Kind>()
        let scalars = Array(pattern.unicodeScalars)
        var i = 0
        var pendingLiteral: [UInt8] = []
        func flush() {
            if !pendingLiteral.isEmpty {
                steps.append(Step(kind: .literal, width: pendingLiteral.count, start: literals.count))
                literals += pendingLiteral
                pendingLiteral = []
            }
        }
        while i < scalars.count {
            let c = scalars[i]
            if c == "'" {
                if i + 1 < scalars.count, scalars[i + 1] == "'" { pendingLiteral.append(UInt8(ascii: "'")); i += 2; continue }
                i += 1
                while true {
                    guard i < scalars.count else { return nil }   // unterminated quote
                    let q = scalars[i]
                    if q == "'" {
                        if i + 1 < scalars.count, scalars[i + 1] == "'" { pendingLiteral.append(UInt8(ascii: "'")); i += 2; continue }
                        i += 1
                        break
                    }
                    guard q.isASCII, q.value >= 0x20, q.value < 0x7F, !("0"..."9").contains(q) else { return nil }
                    pendingLiteral.append(UInt8(q.value))
                    i += 1
                }
                continue
            }
            guard c.isASCII, c.value >= 0x20, c.value < 0x7F, !("0"..."9").contains(c) else { return nil }
            let isLetter = ("a"..."z").contains(c) || ("A"..."Z").contains(c)
            guard isLetter else { pendingLiteral.append(UInt8(c.value)); i += 1; continue }
            var run = 1
            while i + run < scalars.count, scalars[i + run] == c { run += 1 }
            i += run
            flush()
            var step: Step
            switch (c, run) {
            case ("y", 4): step = Step(kind: .year, width: 4)
            case ("M", 2): step = Step(kind: .month, width: 2)
            case ("M", 3): step = Step(kind: .monthName, width: 3)
            case ("M", 4): step = Step(kind: .monthName, width: 9)
            case ("E", 1...3): step = Step(kind: .weekday, width: 3)
            case ("E", 4): step = Step(kind: .weekday, width: 9)
            case ("d", 2): step = Step(kind: .day, width: 2)
            case ("H", 2): step = Step(kind: .hour, width: 2)
            case ("m", 2): step = Step(kind: .minute, width: 2)
            case ("s", 2): step = Step(kind: .second, width: 2)
            case ("S", 1...9): step = Step(kind: .fraction, width: run)
            case ("Z", 1...3), ("x", 2): step = Step(kind: .zone, width: 0, zoneStyle: .basic)
            case ("X", 2): step = Step(kind: .zone, width: 0, zoneStyle: .basicZ)
            case ("x", 3): step = Step(kind: .zone, width: 0, zoneStyle: .extended)
            case ("Z", 5), ("X", 3), ("X", 5): step = Step(kind: .zone, width: 0, zoneStyle: .extendedZ)
            case ("x", 1): step = Step(kind: .zone, width: 0, zoneStyle: .hours)
            case ("X", 1): step = Step(kind: .zone, width: 0, zoneStyle: .hoursZ)
            default: return nil
            }
            guard seen.insert(step.kind == .monthName ? .month : step.kind).inserted else { return nil }
            hasZone = hasZone || step.kind == .zone
            hasNames = hasNames || step.kind == .monthName || step.kind == .weekday
            steps.append(step)
        }
        flush()
        guard seen.isSuperset(of: [.year, .month, .day]) else { return nil }
        // What follows a zone or a name must end it unambiguously (see the note at the top).
        for (k, step) in steps.enumerated() where k + 1 < steps.count {
            let next = steps[k + 1]
            let first = next.kind == .literal ? literals[next.start] : nil
            switch step.kind {
            case .zone:
                guard let first, !Self.isLetterOrDigit(first), !"+-:".utf8.contains(first) else { return nil }
            case .monthName, .weekday:
                guard next.kind != .monthName, next.kind != .weekday, next.kind != .zone, first.map(Self.isLetterOrDigit) != true else { return nil }
            default: break
            }
        }
        outputCapacity = steps.reduce(0) { $0 + $1.width } + 2 + (hasZone ? 6 : 0)   // years past 9999; "+hh:mm"
        fixed = Self.fixedLayout(steps, literals)
    }

    private static func fixedLayout(_ steps: [Step], _ literals: [UInt8]) -> FixedLayout? {
        var layout = FixedLayout()
        for step in steps {
            let offset = layout.count
            switch step.kind {
            case .literal:
                // A literal digit would read as a field here; there are none (the compiler refuses them).
                for k in 0..<step.width { layout.literals.append((offset + k, literals[step.start + k])) }
            case .year: layout.year = offset
            case .month: layout.month = offset
            case .day: layout.day = offset
            case .hour: layout.hour = offset
            case .minute: layout.minute = offset
            case .second: layout.second = offset
            case .fraction: (layout.fraction, layout.fractionWidth) = (offset, step.width)
            case .zone, .monthName, .weekday: return nil
            }
            layout.count += step.width
        }
        return layout
    }

    private static func isLetterOrDigit(_ c: UInt8) -> Bool {
        DateBytes.isDigit(c) || (c | 0x20) &- UInt8(ascii: "a") < 26
    }

    /// Seconds since 2001, or nil for "DateFormatter decides".
    func parse(_ b: UnsafeRawBufferPointer, zone: UTCOffsetRule) -> TimeInterval? {
        if let fixed { return parseFixed(b, fixed, zone: zone) }
        return parseBySteps(b, zone: zone)
    }

    /// Whether `parse` takes the fixed-layout path (for tests).
    var hasFixedLayout: Bool { fixed != nil }

    /// `parse` through the steps, whatever the layout (for tests: the fixed path must agree).
    func parseBySteps(_ b: UnsafeRawBufferPointer, zone: UTCOffsetRule) -> TimeInterval? {
        var year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, millisecond = 0
        var offset: Int?
        var i = 0
        let n = b.count
        for step in steps {
            switch step.kind {
            case .literal:
                guard n - i >= step.width else { return nil }
                for k in 0..<step.width where b[i + k] != literals[step.start + k] { return nil }
                i += step.width
                continue
            case .zone:   // up to the first byte no offset contains (the next literal's)
                var end = i
                while end < n, Self.isOffsetByte(b[end]) { end += 1 }
                guard let o = DateBytes.zoneOffset(UnsafeRawBufferPointer(rebasing: b[i..<end]), at: 0, maxHours: 23) else { return nil }
                offset = o
                i = end
                continue
            case .monthName:
                guard let (m, end) = DateNames.month(b, at: i, wide: step.width != 3) else { return nil }
                month = m
                i = end
                continue
            case .weekday:   // ignored, as DateFormatter does when the day of the month is known
                guard let end = DateNames.weekdayEnd(b, at: i, wide: step.width != 3) else { return nil }
                i = end
                continue
            case .fraction:
                guard n - i >= step.width else { return nil }
                millisecond = Self.milliseconds(b, i, step.width)
                guard millisecond >= 0 else { return nil }
                i += step.width
                continue
            default: break
            }
            guard n - i >= step.width else { return nil }
            let value = DateBytes.digits(b, i, step.width)
            guard value >= 0 else { return nil }
            i += step.width
            switch step.kind {
            case .year: year = value
            case .month: month = value
            case .day: day = value
            case .hour: hour = value
            case .minute: minute = value
            default: second = value   // every other kind continued above
            }
        }
        guard i == n else { return nil }
        return Self.interval(year, month, day, hour, minute, second, millisecond, offset: offset, zone: zone)
    }

    /// `parse` for a fixed layout, with the same answers: one length, the literal bytes in place,
    /// each field exactly its width of digits (as the steps read it). As `ISO8601DateCoding.parseFast`
    /// does, only the literal bytes are compared and each field is read where it sits.
    private func parseFixed(_ b: UnsafeRawBufferPointer, _ layout: FixedLayout, zone: UTCOffsetRule) -> TimeInterval? {
        guard b.count == layout.count else { return nil }
        for literal in layout.literals where b[literal.offset] != literal.byte { return nil }
        @inline(__always) func field(_ offset: Int) -> Int { offset < 0 ? 0 : DateBytes.digits(b, offset, 2) }
        let year = DateBytes.digits(b, layout.year, 4), month = DateBytes.digits(b, layout.month, 2)
        let day = DateBytes.digits(b, layout.day, 2)
        let hour = field(layout.hour), minute = field(layout.minute), second = field(layout.second)
        let millisecond = layout.fraction < 0 ? 0 : Self.milliseconds(b, layout.fraction, layout.fractionWidth)
        // `digits` gives -1 for a non-digit: one sign test covers every field.
        guard year | month | day | hour | minute | second | millisecond >= 0 else { return nil }
        return Self.interval(year, month, day, hour, minute, second, millisecond, offset: nil, zone: zone)
    }

    /// The milliseconds of a fraction of `width` digits at `offset` (ICU keeps milliseconds and
    /// truncates the rest), or -1 if any of them is not a digit.
    @inline(__always)
    private static func milliseconds(_ b: UnsafeRawBufferPointer, _ offset: Int, _ width: Int) -> Int {
        let value = DateBytes.digits(b, offset, width)
        guard value >= 0 else { return -1 }
        switch width {
        case 1: return value * 100
        case 2: return value * 10
        default: return DateBytes.digits(b, offset, 3)
        }
    }

    /// Seconds since 2001 of a local date and time read from a string; nil when the fields are out
    /// of range or the zone leaves the instant to DateFormatter.
    @inline(__always)
    private static func interval(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int,
                                 _ millisecond: Int, offset: Int?, zone: UTCOffsetRule) -> TimeInterval? {
        guard year >= 1, month >= 1, month <= 12, day >= 1, day <= CivilCalendar.daysInMonth(month, year: year),
              hour < 24, minute < 60, second < 60 else { return nil }
        let days = Int64(CivilCalendar.julianDay(year: year, month: month, day: day) - CivilCalendar.unixEpochJulianDay)
        let localSeconds = days * 86400 + Int64(hour * 3600 + minute * 60 + second)
        guard let offset = offset ?? zone.offset(forLocalUnixSeconds: localSeconds) else { return nil }
        let milliseconds = (localSeconds - Int64(offset)) * 1000 + Int64(millisecond)
        return Double(milliseconds) / 1000.0 - 978_307_200.0
    }

    @inline(__always)
    private static func isOffsetByte(_ c: UInt8) -> Bool {
        DateBytes.isDigit(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") || c == UInt8(ascii: ":") || c | 0x20 == UInt8(ascii: "z")
    }

    /// The DateFormatter string, or nil for "DateFormatter decides".
    func format(_ date: Date, zone: UTCOffsetRule) -> String? {
        guard let utc = CivilCalendar.icuUnixSeconds(date) else { return nil }
        let offset = zone.offset(atUnixSeconds: utc)
        if hasZone, offset % 60 != 0 { return nil }   // ICU prints seconds or truncates, style by style
        guard let ms = CivilCalendar.icuLocalMilliseconds(date, offsetSeconds: offset) else { return nil }
        let f = CivilFields(localMilliseconds: ms)
        return String(unsafeUninitializedCapacity: outputCapacity) { out in
            var i = 0
            for step in steps {
                switch step.kind {
                case .literal:
                    for k in 0..<step.width { out[i + k] = literals[step.start + k] }
                    i += step.width
                case .year: i = DateBytes.write(f.year > 0 ? f.year : 1 - f.year, width: 4, into: out, at: i)
                case .month: i = DateBytes.write(f.month, width: 2, into: out, at: i)
                case .monthName: i = DateNames.write(DateNames.monthBytes[f.month - 1], wide: step.width != 3, into: out, at: i)
                case .weekday: i = DateNames.write(DateNames.weekdayBytes[f.weekday], wide: step.width != 3, into: out, at: i)
                case .day: i = DateBytes.write(f.day, width: 2, into: out, at: i)
                case .hour: i = DateBytes.write(f.hour, width: 2, into: out, at: i)
                case .minute: i = DateBytes.write(f.minute, width: 2, into: out, at: i)
                case .second: i = DateBytes.write(f.second, width: 2, into: out, at: i)
                case .fraction:
                    switch step.width {
                    case 1: i = DateBytes.write(f.millisecond / 100, width: 1, into: out, at: i)
                    case 2: i = DateBytes.write(f.millisecond / 10, width: 2, into: out, at: i)
                    default:
                        i = DateBytes.write(f.millisecond, width: 3, into: out, at: i)
                        for _ in 3..<step.width { out[i] = DateBytes.zero; i += 1 }
                    }
                case .zone: i = Self.writeZone(offset, style: step.zoneStyle, into: out, at: i)
                }
            }
            return i
        }
    }

    private static func writeZone(_ offset: Int, style: ZoneStyle, into out: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        if offset == 0, style == .basicZ || style == .extendedZ || style == .hoursZ {
            out[start] = UInt8(ascii: "Z")
            return start + 1
        }
        out[start] = offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
        let minutes = abs(offset) / 60
        var i = DateBytes.write(minutes / 60, width: 2, into: out, at: start + 1)
        switch style {
        case .hours where minutes % 60 == 0, .hoursZ where minutes % 60 == 0: return i
        case .extended, .extendedZ: out[i] = UInt8(ascii: ":"); i += 1
        default: break
        }
        return DateBytes.write(minutes % 60, width: 2, into: out, at: i)
    }
}
