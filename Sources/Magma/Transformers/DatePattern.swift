// A DateFormatter-style pattern compiled once into a flat list of steps that read or write bytes.
//
// Fast path (everything else is handed to a DateFormatter with the same pattern/locale/time zone):
// - fields `yyyy` `MM` `dd` `HH` `mm` `ss` (fixed width, each at most once; year, month and day
//   required), `S`…`SSSSSSSSS`, names `MMM` `MMMM` (month) and `E` `EE` `EEE` `EEEE` (weekday), and
//   one zone field `Z` `ZZ` `ZZZ` `ZZZZZ` `X` `XX` `XXX` `XXXXX` `x` `xx` `xxx`, last or followed by
//   a literal that cannot continue an offset (Twitter's `EEE MMM dd HH:mm:ss Z yyyy`);
// - literals: quoted text (`'T'`, `''` for a quote) and unquoted ASCII punctuation or space; no digits;
//   after a name, no letter (ICU tries full names first: `EEE'day'` must not read "Sunday");
// - a Gregorian locale whose output matches ours on a few sample dates (checked in `init`) and, for
//   names, an `en` locale whose month and weekday symbols are the English ones;
// - any time zone: fixed-offset zones use their constant offset; zones with transitions look the
//   offset up per date and, when parsing a wall time, defer to DateFormatter within 31 h of a
//   transition (skipped and repeated hours are DateFormatter's to decide).
//
// Parsing accepts only the canonical shape: exact digit counts, exact literals, the whole input, a
// zone of `Z`, `z`, `±hh`, `±hhmm` or `±hh:mm` (ICU accepts all of them for every zone style, up to
// ±23:59), names in full for `MMMM`/`EEEE` and abbreviated otherwise (ICU takes either, and `Su`),
// in any ASCII case, as ICU matches them. The weekday is read and ignored: DateFormatter takes the
// day of the month over it (`Mon Aug 31 2014` is Sunday the 31st). Values must be in range: years
// 0001-9999, real month lengths (Julian before 1582-10-15), hours 00-23, seconds 00-59.
// DateFormatter (non-lenient ICU) is looser — it takes `2024-1-5`, `1:2:3`, two-digit years as
// years 1-99, surrounding or doubled spaces, any Unicode digits, a missing trailing literal (`…56`
// for `…ss'Z'`), more fraction digits than `S`s, `Su` or `Sunday` for `EEE` — so all of those
// fall back. It rejects Feb 30, 24:00, :60, year 0000 and trailing text, as the fast path does.
// Dates are built as CF does: integer milliseconds (ICU truncates extra fraction digits)
// then `ms / 1000 - 978307200`.

import Foundation

final class DatePattern: @unchecked Sendable {
    let pattern: String
    let locale: Locale
    let timeZone: TimeZone

    private let program: CompiledDatePattern?
    private let zone: UTCOffsetRule
    private let lock = NSLock()
    private let formatter: DateFormatter   // guarded by `lock`

    /// Whether parse/format run on bytes here rather than through DateFormatter.
    var isFastPathSupported: Bool { program != nil }

    init(pattern: String, locale: Locale = Locale(identifier: "en_US_POSIX"), timeZone: TimeZone = TimeZone(identifier: "UTC")!,
         calendar: Calendar? = nil) {
        self.pattern = pattern
        self.locale = locale
        self.timeZone = timeZone
        let formatter = DateFormatter()
        formatter.locale = locale          // first: setting the locale resets the calendar
        if var calendar {
            calendar.timeZone = timeZone
            formatter.calendar = calendar
        }
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        self.formatter = formatter
        if formatter.calendar.identifier == .gregorian, let program = CompiledDatePattern(pattern: pattern),
           !program.hasNames || Self.hasEnglishNames(formatter) {
            let zone = UTCOffsetRule(timeZone)
            self.zone = zone
            self.program = Self.agree(program, zone: zone, with: formatter) ? program : nil
        } else {
            self.zone = .fixed(0)   // unused: everything goes to the formatter
            self.program = nil
        }
    }

    /// The date in `bytes` as DateFormatter would parse it (nil where it gives nil).
    ///
    /// Text whose characters are not one UTF-16 unit each is not handed to DateFormatter, and no
    /// date pattern in practice matches it. Found by fuzzing, reproduced without Magma
    /// (swift-corelibs-foundation, Swift 6.3.1): characters outside the Basic Multilingual Plane
    /// (4-byte UTF-8, such as emoji) leak 128 bytes per call, and a combining mark traps
    /// ("Incorrect range CFRange": `"2024-02-29T23:59:5\u{365}"` took the process down).
    func parse(_ bytes: UnsafeRawBufferPointer) -> Date? {
        if let program, let t = program.parse(bytes, zone: zone) { return Date(timeIntervalSinceReferenceDate: t) }
        let string = String(decoding: bytes, as: UTF8.self)
        if bytes.contains(where: { $0 >= 0x80 }), string.count != string.utf16.count { return nil }
        return lock.withLock { formatter.date(from: string) }
    }

    /// The string DateFormatter would produce.
    func format(_ date: Date) -> String {
        if let program, let s = program.format(date, zone: zone) { return s }
        return lock.withLock { formatter.string(from: date) }
    }

    /// Fast-path-only parse: nil means "DateFormatter decides". For tests.
    func parseFast(_ bytes: UnsafeRawBufferPointer) -> Date? {
        program?.parse(bytes, zone: zone).map { Date(timeIntervalSinceReferenceDate: $0) }
    }

    /// Fast-path-only format: nil means "DateFormatter decides". For tests.
    func formatFast(_ date: Date) -> String? { program?.format(date, zone: zone) }

    /// Whether ICU reads and prints exactly `DateNames` for this formatter's locale.
    private static func hasEnglishNames(_ formatter: DateFormatter) -> Bool {
        guard formatter.locale.language.languageCode?.identifier == "en" else { return false }
        let months = DateNames.months, weekdays = DateNames.weekdays
        let short = { (names: [String]) in names.map { String($0.prefix(3)) } }
        return formatter.monthSymbols == months && formatter.standaloneMonthSymbols == months
            && formatter.shortMonthSymbols == short(months) && formatter.shortStandaloneMonthSymbols == short(months)
            && formatter.weekdaySymbols == weekdays && formatter.standaloneWeekdaySymbols == weekdays
            && formatter.shortWeekdaySymbols == short(weekdays) && formatter.shortStandaloneWeekdaySymbols == short(weekdays)
    }

    /// Guards against locales that print other digits or differ in ways the compiler cannot see.
    private static func agree(_ program: CompiledDatePattern, zone: UTCOffsetRule, with formatter: DateFormatter) -> Bool {
        let samples: [TimeInterval] = [0, 728_397_296.789, -978_307_200.5, -63_114_076_800, -13_197_600_000.25, 252_423_993_599.999, 86_399.0]
        for t in samples {
            let date = Date(timeIntervalSinceReferenceDate: t)
            let expected = formatter.string(from: date)
            if let ours = program.format(date, zone: zone), ours != expected { return false }
            let reference = formatter.date(from: expected)?.timeIntervalSinceReferenceDate
            var copy = expected
            let parsed = copy.withUTF8 { program.parse(UnsafeRawBufferPointer($0), zone: zone) }
            if let parsed, parsed.bitPattern != reference?.bitPattern { return false }
        }
        return true
    }
}
