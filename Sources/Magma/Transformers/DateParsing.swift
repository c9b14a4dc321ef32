// Dates read straight from a JSON string's UTF-8 bytes.
//
// Foundation on Linux is slow per value (ISO8601DateFormatter and DateFormatter most of all, then
// Date.ISO8601FormatStyle), so the common shapes are parsed and formatted here. The rule:
// the fast path only answers for inputs it fully understands, and then its `Date` is bit-identical
// to Foundation's; everything else (lenient forms, odd widths, out-of-range fields, trailing text)
// goes to Foundation, so callers always get Foundation's answer.
//
// Which Foundation, and how it computes (swift-foundation / swift-corelibs-foundation 6.3.1):
// - ISO parsing follows `Date.ISO8601FormatStyle` (what `JSONDecoder`'s `.iso8601` uses): full
//   nanosecond precision, built as `((jd - 2451910.5) * 86400 - 43200 + (secs + ns / 1e9)) - offset`
//   in Double, in that order. (`ISO8601DateFormatter` instead truncates to milliseconds and
//   computes `ms / 1000 - 978307200`; the two differ in the last bit for ~2 % of `.SSS` inputs.)
// - Formatting follows ICU (`ISO8601DateFormatter`, `DateFormatter`): CF hands ICU
//   `(t + 978307200) * 1000 + 0.5` milliseconds and ICU floors, so output is rounded to the
//   nearest millisecond (0.9995 s formats as "…:01.000", and as "…:01" without fractions).
// - Both calendars are Gregorian from 1582-10-15 and Julian before (proleptic, year 0 = 1 BC);
//   ICU prints the era year for years <= 0 ("0001" for 1 BC) and all digits past 9999.

import Foundation

/// Julian/Gregorian calendar arithmetic as Foundation's Gregorian calendar does it.
enum CivilCalendar {
    /// Julian day number of 1582-10-15, the first Gregorian day.
    static let gregorianCutoverJulianDay = 2_299_161
    /// Julian day number of 1970-01-01.
    static let unixEpochJulianDay = 2_440_588

    static func isLeapYear(_ year: Int) -> Bool {
        if year < 1582 { return year % 4 == 0 }
        return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Julian day number of a valid calendar date (Julian calendar before 1582-10-15). Year >= -4800.
    static func julianDay(year: Int, month: Int, day: Int) -> Int {
        let a = (14 - month) / 12
        let y = year + 4800 - a
        let m = month + 12 * a - 3
        let base = day + (153 * m + 2) / 5 + 365 * y + y / 4
        let gregorian = year > 1582 || (year == 1582 && (month > 10 || (month == 10 && day >= 15)))
        return gregorian ? base - y / 100 + y / 400 - 32045 : base - 32083
    }

    /// Calendar date of a Julian day number >= 0.
    static func date(julianDay jd: Int) -> (year: Int, month: Int, day: Int) {
        var c: Int
        var centuries = 0
        if jd >= gregorianCutoverJulianDay {
            let a = jd + 32044
            centuries = (4 * a + 3) / 146_097
            c = a - 146_097 * centuries / 4
        } else {
            c = jd + 32082
        }
        let d = (4 * c + 3) / 1461
        c -= 1461 * d / 4
        let m = (5 * c + 2) / 153
        return (100 * centuries + d - 4800 + m / 10, m + 3 - 12 * (m / 10), c - (153 * m + 2) / 5 + 1)
    }

    /// Milliseconds since 1970 as ICU derives them when formatting `date` (rounded to the nearest ms,
    /// then shifted by `offsetSeconds` in Double as ICU does), or nil outside the years -4000...30000.
    static func icuLocalMilliseconds(_ date: Date, offsetSeconds: Int = 0) -> Int64? {
        let udate = (date.timeIntervalSinceReferenceDate + 978_307_200.0) * 1000.0 + 0.5
        let local = (udate + Double(offsetSeconds) * 1000.0).rounded(.down)
        guard local > -1.9e14, local < 8.8e14 else { return nil }   // also false for NaN
        return Int64(local)
    }

    /// ICU's UTC instant (whole seconds since 1970, floored) of `date`; the key for offset look-ups.
    static func icuUnixSeconds(_ date: Date) -> Int64? {
        guard let ms = icuLocalMilliseconds(date) else { return nil }
        return floorDivide(ms, 1000)
    }

    /// Day of the week of a Julian day number >= 0: 0 is Sunday ... 6 Saturday (index into `DateNames`).
    static func weekday(julianDay jd: Int) -> Int { (jd + 1) % 7 }

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b < 0) ? q - 1 : q
    }
}

/// Broken-down local time, as ICU prints it.
struct CivilFields {
    var year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, millisecond = 0
    var weekday = 0   // 0 is Sunday

    init(localMilliseconds ms: Int64) {
        let days = CivilCalendar.floorDivide(ms, 86_400_000)
        var inDay = Int(ms - days * 86_400_000)
        let jd = Int(days) + CivilCalendar.unixEpochJulianDay
        (year, month, day) = CivilCalendar.date(julianDay: jd)
        weekday = CivilCalendar.weekday(julianDay: jd)
        millisecond = inDay % 1000; inDay /= 1000
        second = inDay % 60; inDay /= 60
        minute = inDay % 60
        hour = inDay / 60
    }
}

/// Byte-level helpers shared by the ISO and pattern parsers and formatters.
enum DateBytes {
    static let zero = UInt8(ascii: "0")

    /// Value of `count` ASCII digits at `offset`, or -1.
    @inline(__always)
    static func digits(_ bytes: UnsafeRawBufferPointer, _ offset: Int, _ count: Int) -> Int {
        var value = 0
        for i in offset..<(offset + count) {
            let d = Int(bytes[i]) &- 48
            guard UInt(bitPattern: d) < 10 else { return -1 }
            value = value &* 10 &+ d
        }
        return value
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- zero < 10 }

    /// Writes `value` zero-padded to `width` digits (more if needed) at `i`; returns the new index.
    @inline(__always)
    static func write(_ value: Int, width: Int, into out: UnsafeMutableBufferPointer<UInt8>, at i: Int) -> Int {
        var digits = width
        var v = value / 10
        var n = 1
        while v > 0 { n += 1; v /= 10 }
        if n > digits { digits = n }
        v = value
        for k in stride(from: i + digits - 1, through: i, by: -1) {
            out[k] = zero &+ UInt8(truncatingIfNeeded: v % 10)
            v /= 10
        }
        return i + digits
    }

    /// "Z", "+hh", "+hhmm" or "+hh:mm" at `i` ending exactly at the end of `bytes`, hours 0...`maxHours`,
    /// minutes 0...59. Returns the offset in seconds east of UTC, or nil for any other shape.
    static func zoneOffset(_ bytes: UnsafeRawBufferPointer, at i: Int, maxHours: Int, allowLowercaseZ: Bool = true) -> Int? {
        let remaining = bytes.count - i
        guard remaining > 0 else { return nil }
        let sign = bytes[i]
        if remaining == 1 {
            return sign == UInt8(ascii: "Z") || (allowLowercaseZ && sign == UInt8(ascii: "z")) ? 0 : nil
        }
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), remaining == 3 || remaining == 5 || remaining == 6 else { return nil }
        let hours = digits(bytes, i + 1, 2)
        var minutes = 0
        switch remaining {
        case 3: break
        case 5: minutes = digits(bytes, i + 3, 2)
        case 6:
            guard bytes[i + 3] == UInt8(ascii: ":") else { return nil }
            minutes = digits(bytes, i + 4, 2)
        default: return nil
        }
        guard hours >= 0, hours <= maxHours, minutes >= 0, minutes < 60 else { return nil }
        let seconds = hours * 3600 + minutes * 60
        return sign == UInt8(ascii: "-") ? -seconds : seconds
    }
}

/// English month and weekday names as ICU prints them for `en` locales (`MMM` `MMMM` `EEE` `EEEE`).
///
/// Every abbreviation is the first three letters of its full name, and no two names share those
/// three letters, so a name is found from a 3-byte key and, for full names, checked to the end.
/// ICU matches names case-insensitively, so the key folds ASCII case: `b | 0x20` lands on a
/// lowercase letter only when `b` is a letter, and every name byte is one.
enum DateNames {
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]   // CivilCalendar.weekday order

    static let monthBytes = months.map { Array($0.utf8) }
    static let weekdayBytes = weekdays.map { Array($0.utf8) }
    private static let monthKeys = monthBytes.map(key)
    private static let weekdayKeys = weekdayBytes.map(key)

    /// Lowercased first three bytes, packed.
    private static func key(_ name: [UInt8]) -> UInt32 {
        (UInt32(name[0] | 0x20) << 16) | (UInt32(name[1] | 0x20) << 8) | UInt32(name[2] | 0x20)
    }

    /// The month (1-12) named at `i`, abbreviated or `wide`, and the index after the name; nil if none.
    @inline(__always)
    static func month(_ b: UnsafeRawBufferPointer, at i: Int, wide: Bool) -> (month: Int, end: Int)? {
        guard let (k, end) = find(b, at: i, wide: wide, keys: monthKeys, names: monthBytes) else { return nil }
        return (k + 1, end)
    }

    /// The index after a weekday name at `i` (abbreviated or `wide`); nil if none.
    @inline(__always)
    static func weekdayEnd(_ b: UnsafeRawBufferPointer, at i: Int, wide: Bool) -> Int? {
        find(b, at: i, wide: wide, keys: weekdayKeys, names: weekdayBytes)?.end
    }

    private static func find(_ b: UnsafeRawBufferPointer, at i: Int, wide: Bool, keys: [UInt32], names: [[UInt8]]) -> (index: Int, end: Int)? {
        guard b.count - i >= 3 else { return nil }
        let key = (UInt32(b[i] | 0x20) << 16) | (UInt32(b[i + 1] | 0x20) << 8) | UInt32(b[i + 2] | 0x20)
        guard let k = keys.firstIndex(of: key) else { return nil }
        guard wide else { return (k, i + 3) }
        let name = names[k]
        guard b.count - i >= name.count else { return nil }
        for j in 3..<name.count where b[i + j] | 0x20 != name[j] | 0x20 { return nil }
        return (k, i + name.count)
    }

    /// Writes the name (its first three bytes unless `wide`) at `i`; returns the new index.
    @inline(__always)
    static func write(_ name: [UInt8], wide: Bool, into out: UnsafeMutableBufferPointer<UInt8>, at i: Int) -> Int {
        let count = wide ? name.count : 3
        for j in 0..<count { out[i + j] = name[j] }
        return i + count
    }
}

/// ISO 8601 / RFC 3339 dates such as `2024-01-31T12:34:56Z`, `…56.123456789+05:30`.
///
/// The fast path takes exactly `yyyy-MM-ddTHH:mm:ss[.f{1,9}](Z|z|±hh|±hhmm|±hh:mm)` with every field
/// in range (years 0000-9999, hours 00-23, seconds 00-59, offsets up to ±17:59) and nothing after it.
/// An input in that layout with a field out of range (Feb 30, 24:00, 25:00, 23:60, `+25:00`, a
/// second fraction of 10+ digits) or with text after it is rejected: `Date.ISO8601FormatStyle`
/// would roll it over into another date, and Magma never delivers a silently different value.
/// Any other layout (years of 1-10 digits, `GMT`/`UTC`, ...) is answered by
/// `Date.ISO8601FormatStyle`. So every date this returns is the one Foundation gives.
enum ISO8601DateCoding {
    /// The date in `bytes`, as `Date.ISO8601FormatStyle().parse` would give it; nil if not a
    /// date, or if it is in the canonical layout with a field out of range (see above).
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Date? {
        if let t = parseFast(bytes) { return Date(timeIntervalSinceReferenceDate: t) }
        if hasCanonicalLayout(bytes) { return nil }
        return try? foundationStyle.parse(String(decoding: bytes, as: UTF8.self))
    }

    /// `dddd-dd-ddTdd:dd:dd` at the start: the layout whose every field the fast path checks.
    static func hasCanonicalLayout(_ b: UnsafeRawBufferPointer) -> Bool {
        guard b.count >= 19 else { return false }
        for i in 0..<19 {
            switch i {
            case 4, 7: if b[i] != UInt8(ascii: "-") { return false }
            case 10: if b[i] != UInt8(ascii: "T") { return false }
            case 13, 16: if b[i] != UInt8(ascii: ":") { return false }
            default: if !DateBytes.isDigit(b[i]) { return false }
            }
        }
        return true
    }

    /// The string `ISO8601DateFormatter` gives with `[.withInternetDateTime]` (plus
    /// `.withFractionalSeconds`): UTC, `Z`, milliseconds rounded to nearest.
    static func format(_ date: Date, fractionalSeconds: Bool) -> String {
        guard let ms = CivilCalendar.icuLocalMilliseconds(date) else {
            return FoundationISOFormatters.shared.string(from: date, fractionalSeconds: fractionalSeconds)
        }
        let f = CivilFields(localMilliseconds: ms)
        return String(unsafeUninitializedCapacity: 32) { out in
            var i = DateBytes.write(f.year > 0 ? f.year : 1 - f.year, width: 4, into: out, at: 0)
            out[i] = UInt8(ascii: "-")
            i = DateBytes.write(f.month, width: 2, into: out, at: i + 1)
            out[i] = UInt8(ascii: "-")
            i = DateBytes.write(f.day, width: 2, into: out, at: i + 1)
            out[i] = UInt8(ascii: "T")
            i = DateBytes.write(f.hour, width: 2, into: out, at: i + 1)
            out[i] = UInt8(ascii: ":")
            i = DateBytes.write(f.minute, width: 2, into: out, at: i + 1)
            out[i] = UInt8(ascii: ":")
            i = DateBytes.write(f.second, width: 2, into: out, at: i + 1)
            if fractionalSeconds {
                out[i] = UInt8(ascii: ".")
                i = DateBytes.write(f.millisecond, width: 3, into: out, at: i + 1)
            }
            out[i] = UInt8(ascii: "Z")
            return i + 1
        }
    }

    /// The shortest text in the strict grammar above (UTC, `Z`) that `parse` reads back as `date`
    /// exactly: whole seconds bare (unless `minimumFractionDigits` asks for digits), else the
    /// fewest fraction digits, up to nine, that give the same `Date`. A decoded date always has
    /// such a text; an arbitrary one gets its nearest nanosecond. Years outside 0000-9999 are
    /// written as `ISO8601DateFormatter` writes them (milliseconds).
    static func formatExact(_ date: Date, minimumFractionDigits: Int) -> String {
        let t = date.timeIntervalSinceReferenceDate
        let whole = t.rounded(.down)
        // 0000-01-01 to 9999-12-31 in seconds since 2001: the fast parser's years.
        guard whole >= -63_113_904_000, whole < 252_423_993_600 else {
            return format(date, fractionalSeconds: minimumFractionDigits > 0)
        }
        let fraction = t - whole
        var text = ""
        for digits in max(0, minimumFractionDigits)...9 {
            let scale = Int(pow(10.0, Double(digits)))
            var seconds = Int64(whole), units = Int((fraction * Double(scale)).rounded())
            if units >= scale { seconds += 1; units -= scale }
            text = String(unsafeUninitializedCapacity: 32) { write(seconds: seconds, units: units, digits: digits, into: $0) }
            if digits == 9 { break }
            let exact = text.utf8.withContiguousStorageIfAvailable { parseFast(UnsafeRawBufferPointer($0)) == t } ?? false
            if exact { break }
        }
        return text
    }

    /// Writes `seconds` since 2001 (UTC) and a fraction of `units` in `digits` digits.
    private static func write(seconds: Int64, units: Int, digits: Int, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let f = CivilFields(localMilliseconds: (seconds + 978_307_200) * 1000)
        var i = DateBytes.write(f.year, width: 4, into: out, at: 0)
        out[i] = UInt8(ascii: "-")
        i = DateBytes.write(f.month, width: 2, into: out, at: i + 1)
        out[i] = UInt8(ascii: "-")
        i = DateBytes.write(f.day, width: 2, into: out, at: i + 1)
        out[i] = UInt8(ascii: "T")
        i = DateBytes.write(f.hour, width: 2, into: out, at: i + 1)
        out[i] = UInt8(ascii: ":")
        i = DateBytes.write(f.minute, width: 2, into: out, at: i + 1)
        out[i] = UInt8(ascii: ":")
        i = DateBytes.write(f.second, width: 2, into: out, at: i + 1)
        if digits > 0 {
            out[i] = UInt8(ascii: ".")
            i = DateBytes.write(units, width: digits, into: out, at: i + 1)
        }
        out[i] = UInt8(ascii: "Z")
        return i + 1
    }

    /// Seconds since 2001 for inputs in the strict grammar above; nil means "ask Foundation".
    static func parseFast(_ b: UnsafeRawBufferPointer) -> TimeInterval? {
        let n = b.count
        guard n >= 20,
              b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":") else { return nil }
        let year = DateBytes.digits(b, 0, 4), month = DateBytes.digits(b, 5, 2), day = DateBytes.digits(b, 8, 2)
        let hour = DateBytes.digits(b, 11, 2), minute = DateBytes.digits(b, 14, 2), second = DateBytes.digits(b, 17, 2)
        guard year >= 0, month >= 1, month <= 12, day >= 1, day <= CivilCalendar.daysInMonth(month, year: year),
              hour >= 0, hour < 24, minute >= 0, minute < 60, second >= 0, second < 60 else { return nil }
        var i = 19
        var nanoseconds = 0
        if b[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < n, DateBytes.isDigit(b[i]) {
                // Accumulate nine digits at most: longer fractions are rejected below, and summing
                // them all would overflow Int (a fuzzer-found crash).
                if i - start < 9 { nanoseconds = nanoseconds * 10 + Int(b[i] &- DateBytes.zero) }
                i += 1
            }
            let count = i - start
            guard count >= 1, count <= 9 else { return nil }
            for _ in count..<9 { nanoseconds *= 10 }
        }
        guard let offset = DateBytes.zoneOffset(b, at: i, maxHours: 17) else { return nil }
        // Same operations, same order, as swift-foundation's Gregorian `date(from:)`.
        let jd = CivilCalendar.julianDay(year: year, month: month, day: day)
        let secondsInDay = Double(hour * 3600 + minute * 60 + second) + Double(nanoseconds) / 1_000_000_000.0
        var t = (Double(jd) - 2_451_910.5) * 86400.0
        t -= 43200.0
        t += secondsInDay
        return t - Double(offset)
    }

    private static let foundationStyle = Date.ISO8601FormatStyle()
}

/// `ISO8601DateFormatter`s for dates outside the fast formatter's range (they are not thread-safe).
final class FoundationISOFormatters: @unchecked Sendable {
    static let shared = FoundationISOFormatters()
    private let lock = NSLock()
    private let plain = ISO8601DateFormatter()
    private let fractional = ISO8601DateFormatter()

    private init() {
        plain.formatOptions = [.withInternetDateTime]
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    }

    func string(from date: Date, fractionalSeconds: Bool) -> String {
        lock.withLock { (fractionalSeconds ? fractional : plain).string(from: date) }
    }
}
