import Testing
import Foundation
@testable import Magma

// Side-by-side checks of the byte-level date parsers/formatters against Foundation.
// The rule under test: whenever the fast path answers, its Date is bit-identical to Foundation's;
// whatever it leaves alone, parse() still returns Foundation's answer (via the fallback).
// References: Date.ISO8601FormatStyle for ISO parsing (what JSONDecoder's .iso8601 uses),
// ISO8601DateFormatter for ISO formatting, DateFormatter (same pattern/locale/zone) for patterns.


private func bits(_ date: Date?) -> UInt64? { date?.timeIntervalSinceReferenceDate.bitPattern }

private func withBytes<R>(_ string: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    var copy = string
    return copy.withUTF8 { body(UnsafeRawBufferPointer($0)) }
}

private func pad(_ value: Int, _ width: Int) -> String {
    let s = String(value)
    return String(repeating: "0", count: max(0, width - s.count)) + s
}

/// Random date-time parts, biased toward the edges: leap days, 1582, 1970, years 1 and 9999, ends of day.
fileprivate struct Parts {
    var year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0
    var fraction = ""          // digits after the point
    var offsetMinutes = 0      // -14:00 ... +14:00 in 15-minute steps

    static func isLeap(_ y: Int) -> Bool { y < 1582 ? y % 4 == 0 : (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) }
    static func daysIn(_ m: Int, _ y: Int) -> Int { m == 2 ? (isLeap(y) ? 29 : 28) : ([4, 6, 9, 11].contains(m) ? 30 : 31) }

    static func random(using g: inout SeededGenerator, fractionDigits: ClosedRange<Int> = 0...9, minYear: Int = 1) -> Parts {
        var p = Parts()
        switch Int.random(in: 0..<10, using: &g) {
        case 0: p.year = Int.random(in: 1969...1971, using: &g)
        case 1: p.year = 1582; p.month = Int.random(in: 9...11, using: &g)
        case 2: p.year = Bool.random(using: &g) ? Int.random(in: minYear...12, using: &g) : Int.random(in: 9988...9999, using: &g)
        case 3: p.year = [1500, 1600, 1700, 1900, 2000, 2100, 2400, 4000].randomElement(using: &g)!
        default: p.year = Int.random(in: minYear...9999, using: &g)
        }
        if p.year != 1582 { p.month = Int.random(in: 1...12, using: &g) }
        let dim = daysIn(p.month, p.year)
        p.day = Int.random(in: 0..<8, using: &g) == 0 ? dim : Int.random(in: 1...dim, using: &g)
        if Int.random(in: 0..<8, using: &g) == 0 {
            (p.hour, p.minute, p.second) = Bool.random(using: &g) ? (23, 59, 59) : (0, 0, 0)
        } else {
            p.hour = Int.random(in: 0...23, using: &g); p.minute = Int.random(in: 0...59, using: &g); p.second = Int.random(in: 0...59, using: &g)
        }
        let digits = Int.random(in: fractionDigits, using: &g)
        p.fraction = String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &g))) })
        if digits > 0, Int.random(in: 0..<6, using: &g) == 0 { p.fraction = String(repeating: Bool.random(using: &g) ? "9" : "0", count: digits) }
        p.offsetMinutes = Int.random(in: 0..<4, using: &g) == 0 ? 0 : Int.random(in: -56...56, using: &g) * 15
        return p
    }

    var date: String { "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))" }

    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    var monthName: String { Self.months[month - 1] }

    /// The weekday's name: Fliegel-Van Flandern day number (Julian calendar before 1582-10-15), 0 = Sunday.
    var weekdayName: String {
        let a = (14 - month) / 12, y = year + 4800 - a, m = month + 12 * a - 3
        let gregorian = (year, month, day) >= (1582, 10, 15)
        let jdn = day + (153 * m + 2) / 5 + 365 * y + y / 4 + (gregorian ? -y / 100 + y / 400 - 32045 : -32083)
        return Self.weekdays[(jdn + 1) % 7]
    }

    /// The right weekday, or one in 8 times any other (DateFormatter ignores it).
    func weekdayName(using g: inout SeededGenerator) -> String {
        Int.random(in: 0..<8, using: &g) == 0 ? Self.weekdays.randomElement(using: &g)! : weekdayName
    }
    var time: String { "\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))" }
    func fraction(_ width: Int) -> String { String((fraction + String(repeating: "0", count: width)).prefix(width)) }

    /// The offset as "Z"/"z" or one of the shapes ICU and ISO8601FormatStyle both read.
    func zone(using g: inout SeededGenerator) -> String {
        let sign = offsetMinutes < 0 ? "-" : "+"
        let hh = pad(abs(offsetMinutes) / 60, 2), mm = pad(abs(offsetMinutes) % 60, 2)
        switch Int.random(in: 0..<6, using: &g) {
        case 0 where offsetMinutes == 0: return Bool.random(using: &g) ? "Z" : "z"
        case 1: return sign + hh + mm
        case 2 where mm == "00": return sign + hh
        default: return offsetMinutes == 0 && Bool.random(using: &g) ? "Z" : sign + hh + ":" + mm
        }
    }
}

/// Random instants for formatting, including millisecond-rounding edges, 1970, 1582 and far years.
private func randomInstant(using g: inout SeededGenerator) -> Date {
    let first = -63_114_076_800.0, last = 252_423_993_599.0    // 0001-01-01 ... 9999-12-31
    var t: Double
    switch Int.random(in: 0..<8, using: &g) {
    case 0: t = Double(Int.random(in: Int(first)...Int(last), using: &g))
    case 1: t = Double(Int.random(in: -63_114_076_800_000...252_423_993_599_999, using: &g)) / 1000
    case 2: t = (Double(Int.random(in: -2_000_000_000...2_000_000_000, using: &g)) + 0.5) / 1000 + Double.random(in: -1e-6...1e-6, using: &g)
    case 3: t = -978_307_200 + Double.random(in: -200_000...200_000, using: &g)    // around 1970
    case 4: t = -13_197_600_000 + Double.random(in: -2e7...2e7, using: &g)           // around 1582-10-15
    case 5: t = Double(Int.random(in: Int(first)...Int(last), using: &g)) + [0.9995, 0.99949, 0.0005, 0.9999999].randomElement(using: &g)!
    default: t = Double.random(in: first...last, using: &g)
    }
    return Date(timeIntervalSinceReferenceDate: t)
}

@Suite struct DateParsingTests {
    static let generated = 20_000

    // MARK: ISO 8601

    @Test func isoParse_matchesISO8601FormatStyle_onGeneratedDates() {
        var g = SeededGenerator(seed: 0x15_08_601)
        let style = Date.ISO8601FormatStyle()
        let icu = ISO8601DateFormatter()
        icu.formatOptions = [.withInternetDateTime]
        var fast = 0, checkedWithICU = 0
        for _ in 0..<Self.generated {
            let p = Parts.random(using: &g, minYear: 0)
            let s = p.date + "T" + p.time + (p.fraction.isEmpty ? "" : "." + p.fraction) + p.zone(using: &g)
            let reference = try? style.parse(s)
            let ours = withBytes(s) { ISO8601DateCoding.parseFast($0) }
            if let ours {
                fast += 1
                #expect(ours.bitPattern == bits(reference), "\(s): \(ours) vs \(String(describing: reference))")
                if p.fraction.isEmpty, p.year > 0, checkedWithICU < 2000 {   // whole seconds: ISO8601DateFormatter agrees too
                    checkedWithICU += 1
                    #expect(ours.bitPattern == bits(icu.date(from: s)), "\(s)")
                }
            }
            expectAgreesOrRejects(s, reference)
        }
        #expect(fast == Self.generated, "every generated input is canonical and in range")
    }

    /// Near ±2^k seconds from 2001 the Double's exponent changes, so only the exact order of
    /// Foundation's operations (day start + time of day, then - offset) gives the same last bit.
    @Test func isoParse_nearBinadeBoundaries_matchesISO8601FormatStyle() {
        var g = SeededGenerator(seed: 0xB1_4ADE)
        let style = Date.ISO8601FormatStyle()
        for k in 16...37 {
            for sign in k <= 35 ? [-1.0, 1.0] : [1.0] {   // -2^36 s is before year 1
                for _ in 0..<100 {
                    let offset = Int.random(in: -56...56, using: &g) * 900
                    let utc = (sign * pow(2, Double(k)) + Double.random(in: -50_000...50_000, using: &g)).rounded(.down)
                    let local = Date.ISO8601FormatStyle(timeZone: TimeZone(secondsFromGMT: offset)!).format(Date(timeIntervalSinceReferenceDate: utc))
                    let digits = String((0..<9).map { _ in Character(String(Int.random(in: 0...9, using: &g))) })
                    let s = local.prefix(19) + "." + digits + local.dropFirst(19)
                    let ours = withBytes(s) { ISO8601DateCoding.parseFast($0) }
                    #expect(ours != nil && ours?.bitPattern == bits(try? style.parse(s)), "\(s)")
                }
            }
        }
    }

    @Test func isoFormat_matchesISO8601DateFormatter_onGeneratedDates() {
        var g = SeededGenerator(seed: 0xF0_12_A7)
        let plain = ISO8601DateFormatter(), fractional = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var instants = (0..<Self.generated).map { _ in randomInstant(using: &g) }
        instants += [-80_000_000_000_000, -1e14, 7e11, 9e11, 2e12].map { Date(timeIntervalSinceReferenceDate: $0) }   // BC, beyond 9999, fallback range
        for (k, d) in instants.enumerated() {
            let useFraction = k % 2 == 0
            let expected = (useFraction ? fractional : plain).string(from: d)
            #expect(ISO8601DateCoding.format(d, fractionalSeconds: useFraction) == expected, "\(d.timeIntervalSinceReferenceDate)")
        }
    }

    @Test func isoParse_edgeCases_agreeWithFoundation() {
        let style = Date.ISO8601FormatStyle()
        let inputs = [
            "", "2024", "2024-01-31", "2024-01-31T12:34:56", "2024-01-31T12:34Z", "2024-01-31T12:34:5Z", "2024-01-31T12:34:56.Z",
            "2024-01-31T12:34:56.1234567890Z", "2024-01-31t12:34:56Z", "2024-01-31 12:34:56Z", "2024-01-31T12:34:56,5Z",
            "2024-13-01T00:00:00Z", "2024-00-10T00:00:00Z", "2024-01-32T00:00:00Z", "2024-01-00T00:00:00Z", "2023-02-29T00:00:00Z",
            "1900-02-29T00:00:00Z", "1500-02-29T00:00:00Z", "2024-02-30T00:00:00Z", "2024-01-31T24:00:00Z", "2024-01-31T25:00:00Z",
            "2024-01-31T23:60:00Z", "2024-01-31T23:59:60Z", "2024-01-31T12:34:56+25:00", "2024-01-31T12:34:56+18:00",
            "2024-01-31T12:34:56+01:60", "2024-01-31T12:34:56+1:00", "2024-01-31T12:34:56+01:0", "2024-01-31T12:34:56+013",
            "2024-01-31T12:34:56+01:30:15", "2024-01-31T12:34:56Zjunk", "2024-01-31T12:34:56Z ", " 2024-01-31T12:34:56Z",
            "2024-01-31T12:34:56GMT", "2024-01-31T12:34:56UTC+01:00", "24-01-31T12:34:56Z", "02024-01-31T12:34:56Z",
            "2024-1-31T12:34:56Z", "-0001-01-01T00:00:00Z", "+2024-01-31T12:34:56Z", "2O24-01-31T12:34:56Z", "2024-01-3lT12:34:56Z",
            "1582-10-04T23:59:59Z", "1582-10-10T00:00:00Z", "1582-10-15T00:00:00Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
            "1969-12-31T23:59:59.999999999Z", "1970-01-01T00:00:00.000000001Z", "2024-01-31T12:34:56.123456789-14:00",
        ]
        for s in inputs {
            let reference = try? style.parse(s)
            if let fast = withBytes(s, { ISO8601DateCoding.parseFast($0) }) {
                #expect(fast.bitPattern == bits(reference), "\(s)")
            }
            expectAgreesOrRejects(s, reference)
        }
        // Every offset from -14:00 to +14:00 in 15-minute steps, in each shape.
        for minutes in stride(from: -14 * 60, through: 14 * 60, by: 15) {
            let sign = minutes < 0 ? "-" : "+", hh = pad(abs(minutes) / 60, 2), mm = pad(abs(minutes) % 60, 2)
            for zone in [sign + hh + ":" + mm, sign + hh + mm] + (mm == "00" ? [sign + hh] : []) {
                for body in ["2024-02-29T23:59:59.999999999", "1970-01-01T00:00:00", "0001-01-01T00:00:00.5", "9999-12-31T23:59:59.99"] {
                    let s = body + zone
                    let fast = withBytes(s) { ISO8601DateCoding.parseFast($0) }
                    #expect(fast != nil && fast?.bitPattern == bits(try? style.parse(s)), "\(s)")
                }
            }
        }
        // Other layouts the fast path leaves to Foundation still come back, with Foundation's value.
        for s in ["02024-01-31T12:34:56Z", "24-01-31T12:34:56Z", "2024-1-31T12:34:56Z"] where (try? style.parse(s)) != nil {
            #expect(withBytes(s) { ISO8601DateCoding.parseFast($0) } == nil)
            #expect(withBytes(s) { bits(ISO8601DateCoding.parse($0)) } == bits(try? style.parse(s)), "\(s)")
        }
        // The canonical layout with a field out of range is rejected, where Foundation rolls it over.
        for s in ["", "2024-13-01T00:00:00Z", "2024-01-32T00:00:00Z", "2024-01-31T12:34:56+25:00", "2024-01-31t12:34:56Z",
                  "2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "2024-01-31T24:00:00Z", "2024-01-31T25:00:00Z",
                  "2024-01-31T23:60:00Z", "2024-01-31T12:34:56Zjunk", "2024-01-31T12:34:56+01:60"] {
            #expect(withBytes(s) { ISO8601DateCoding.parse($0) } == nil, "\(s)")
        }
    }

    /// `parse` gives Foundation's date or rejects the input: never another date. Only the canonical
    /// layout may be rejected where Foundation accepts (it rolls impossible fields over).
    private func expectAgreesOrRejects(_ s: String, _ reference: Date?, sourceLocation: SourceLocation = #_sourceLocation) {
        let ours = withBytes(s) { ISO8601DateCoding.parse($0) }
        if let ours {
            #expect(ours.timeIntervalSinceReferenceDate.bitPattern == bits(reference), "\(s)", sourceLocation: sourceLocation)
        } else if reference != nil {
            #expect(withBytes(s) { ISO8601DateCoding.hasCanonicalLayout($0) }, "\(s) rejected, but Foundation accepts it",
                    sourceLocation: sourceLocation)
        }
    }

    @Test func isoParse_mutatedInputs_agreeWithFoundation() {
        var g = SeededGenerator(seed: 0xBAD_DA7E)
        let style = Date.ISO8601FormatStyle()
        for _ in 0..<5000 {
            let p = Parts.random(using: &g)
            let s = mutate(p.date + "T" + p.time + (p.fraction.isEmpty ? "" : "." + p.fraction) + p.zone(using: &g), using: &g)
            let reference = try? style.parse(s)
            if let fast = withBytes(s, { ISO8601DateCoding.parseFast($0) }) {
                #expect(fast.bitPattern == bits(reference), "\(s)")
            }
            expectAgreesOrRejects(s, reference)
        }
    }

    // MARK: Patterns

    fileprivate struct PatternCase: CustomTestStringConvertible, Sendable {
        let pattern: String
        let zone: String
        let count: Int
        let render: @Sendable (Parts, inout SeededGenerator) -> String
        var testDescription: String { "\(pattern) @ \(zone)" }
        var timeZone: TimeZone { Int(zone).map { TimeZone(secondsFromGMT: $0)! } ?? TimeZone(identifier: zone)! }
    }

    fileprivate static let patternCases: [PatternCase] = [
        .init(pattern: "yyyy-MM-dd'T'HH:mm:ss'Z'", zone: "UTC", count: generated) { p, _ in p.date + "T" + p.time + "Z" },
        .init(pattern: "yyyy-MM-dd'T'HH:mm:ss.SSSZ", zone: "UTC", count: generated) { p, g in p.date + "T" + p.time + "." + p.fraction(3) + p.zone(using: &g) },
        .init(pattern: "yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX", zone: "GMT", count: generated) { p, g in p.date + "T" + p.time + "." + p.fraction(6) + p.zone(using: &g) },
        .init(pattern: "yyyy-MM-dd HH:mm:ss", zone: "America/New_York", count: generated) { p, _ in p.date + " " + p.time },
        .init(pattern: "dd/MM/yyyy HH:mm", zone: "Asia/Kolkata", count: 4000) { p, _ in "\(pad(p.day, 2))/\(pad(p.month, 2))/\(pad(p.year, 4)) \(p.time.prefix(5))" },
        .init(pattern: "yyyyMMddHHmmssSSS", zone: "+19800", count: 4000) { p, _ in (p.date + p.time).filter(\.isNumber) + p.fraction(3) },
        .init(pattern: "yyyy-MM-dd'T'HH:mm:ss.SZZZZZ", zone: "UTC", count: 3000) { p, g in p.date + "T" + p.time + "." + p.fraction(1) + p.zone(using: &g) },
        .init(pattern: "yyyy-MM-dd'T'HH:mm:ss.SSxxx", zone: "Australia/Lord_Howe", count: 3000) { p, g in p.date + "T" + p.time + "." + p.fraction(2) + p.zone(using: &g) },
        .init(pattern: "yyyy-MM-dd'T'HH:mm:ssX", zone: "Asia/Kathmandu", count: 3000) { p, g in p.date + "T" + p.time + p.zone(using: &g) },
        .init(pattern: "yyyy-MM-dd'T'HH:mm:ssXX", zone: "America/St_Johns", count: 2000) { p, g in p.date + "T" + p.time + p.zone(using: &g) },
        .init(pattern: "yyyy-MM-dd HH:mm:ss.SSSSSSSSS x", zone: "Pacific/Chatham", count: 2000) { p, g in p.date + " " + p.time + "." + p.fraction(9) + " " + p.zone(using: &g) },
        .init(pattern: "yyyy-MM-dd'T'HH:mm:ssxx", zone: "-37800", count: 2000) { p, g in p.date + "T" + p.time + p.zone(using: &g) },
        .init(pattern: "yyyy-MM-dd", zone: "Europe/London", count: 3000) { p, _ in p.date },
        .init(pattern: "yyyy.MM.dd, HH:mm 'at' ''ss''", zone: "Pacific/Apia", count: 2000) { p, _ in "\(p.date.replacingOccurrences(of: "-", with: ".")), \(p.time.prefix(5)) at '\(pad(p.second, 2))'" },
        // Names (weekday sometimes wrong: DateFormatter ignores it); Twitter's zone before the year.
        .init(pattern: "EEE MMM dd HH:mm:ss Z yyyy", zone: "UTC", count: generated) { p, g in
            "\(p.weekdayName(using: &g).prefix(3)) \(p.monthName.prefix(3)) \(pad(p.day, 2)) \(p.time) \(p.zone(using: &g)) \(pad(p.year, 4))"
        },
        .init(pattern: "dd MMM yyyy", zone: "Europe/London", count: generated) { p, _ in "\(pad(p.day, 2)) \(p.monthName.prefix(3)) \(pad(p.year, 4))" },
        .init(pattern: "EEEE, MMMM dd, yyyy 'at' HH:mm:ss.SSS xxx", zone: "America/Los_Angeles", count: generated) { p, g in
            "\(p.weekdayName(using: &g)), \(p.monthName) \(pad(p.day, 2)), \(pad(p.year, 4)) at \(p.time).\(p.fraction(3)) \(p.zone(using: &g))"
        },
    ]

    @Test(arguments: patternCases)
    fileprivate func patternParse_matchesDateFormatter_onGeneratedDates(_ c: PatternCase) {
        var g = SeededGenerator(seed: UInt64(truncatingIfNeeded: c.pattern.utf8.reduce(5381) { $0 &* 33 &+ Int($1) }))
        let ours = DatePattern(pattern: c.pattern, timeZone: c.timeZone)
        let reference = formatter(c.pattern, c.timeZone)
        #expect(ours.isFastPathSupported)
        var fast = 0
        for _ in 0..<c.count {
            let s = c.render(Parts.random(using: &g, fractionDigits: 0...9), &g)
            let expected = reference.date(from: s)
            if let date = withBytes(s, { ours.parseFast($0) }) {
                fast += 1
                #expect(bits(date) == bits(expected), "\(s)")
            }
            #expect(withBytes(s) { bits(ours.parse($0)) } == bits(expected), "\(s)")
        }
        // Every generated input is canonical; only wall times within 31 h of a zone transition
        // (no zone field, zone with transitions) may be left to DateFormatter.
        let zoneField = c.pattern.contains { "ZXx".contains($0) }
        #expect(Double(fast) >= Double(c.count) * (zoneField || UTCOffsetRule(c.timeZone).isFixed ? 1.0 : 0.9), "\(fast) of \(c.count)")
    }

    @Test(arguments: patternCases)
    fileprivate func patternFormat_matchesDateFormatter_onGeneratedDates(_ c: PatternCase) {
        var g = SeededGenerator(seed: 0xF0F0 &+ UInt64(c.count) &+ UInt64(c.pattern.utf8.count))
        let ours = DatePattern(pattern: c.pattern, timeZone: c.timeZone)
        let reference = formatter(c.pattern, c.timeZone)
        var fast = 0
        for _ in 0..<(c.count / 2) {
            let d = randomInstant(using: &g)
            let expected = reference.string(from: d)
            if let string = ours.formatFast(d) {
                fast += 1
                #expect(string == expected, "\(d.timeIntervalSinceReferenceDate)")
            }
            #expect(ours.format(d) == expected, "\(d.timeIntervalSinceReferenceDate)")
        }
        // A zone field falls back only for offsets with seconds (local mean time before ~1900).
        #expect(fast * 2 >= c.count / 2, "\(fast) of \(c.count / 2)")
    }

    @Test func patternParse_edgeCasesAndMutations_agreeWithDateFormatter() {
        var g = SeededGenerator(seed: 0x5EED)
        let pattern = "yyyy-MM-dd'T'HH:mm:ss'Z'"
        let ours = DatePattern(pattern: pattern)
        let reference = formatter(pattern, TimeZone(identifier: "UTC")!)
        var inputs = [
            "", "2024-01-31T12:34:56", "2024-1-31T12:34:56Z", "2024-01-5T12:34:56Z", "2024-01-31T1:2:3Z", "24-01-31T12:34:56Z",
            "0024-01-31T12:34:56Z", "02024-01-31T12:34:56Z", " 2024-01-31T12:34:56Z", "2024-01-31T12:34:56Z ", "2024-01-31T12:34:56Zjunk",
            "2024-13-01T00:00:00Z", "2024-01-32T00:00:00Z", "2023-02-29T00:00:00Z", "1500-02-29T00:00:00Z", "1700-02-29T00:00:00Z",
            "2024-01-31T24:00:00Z", "2024-01-31T25:00:00Z", "2024-01-31T23:60:00Z", "2024-01-31T23:59:60Z", "0000-01-01T00:00:00Z",
            "2024-01-31t12:34:56z", "2024-01-31T12:34:056Z", "2O24-01-31T12:34:56Z", "2024-01-31T12:34:56.5Z", "1582-10-10T00:00:00Z",
        ]
        inputs += (0..<3000).map { _ in let p = Parts.random(using: &g); return mutate(p.date + "T" + p.time + "Z", using: &g) }
        for s in inputs {
            let expected = reference.date(from: s)
            if let date = withBytes(s, { ours.parseFast($0) }) { #expect(bits(date) == bits(expected), "\(s)") }
            #expect(withBytes(s) { bits(ours.parse($0)) } == bits(expected), "\(s)")
        }
        // DateFormatter's leniencies come back through the fallback.
        let dayOnly = DatePattern(pattern: "yyyy-MM-dd")
        #expect(withBytes("2024-1-5") { dayOnly.parseFast($0) } == nil)
        #expect(withBytes("2024-1-5") { dayOnly.parse($0) } == formatter("yyyy-MM-dd", TimeZone(identifier: "UTC")!).date(from: "2024-1-5"))
        // Zone offsets: every shape ICU reads, up to ±23:59, for every zone style.
        for style in ["Z", "ZZ", "ZZZ", "ZZZZZ", "X", "XX", "XXX", "XXXXX", "x", "xx", "xxx"] {
            let p = "yyyy-MM-dd'T'HH:mm:ss" + style
            let zoned = DatePattern(pattern: p), ref = formatter(p, TimeZone(identifier: "UTC")!)
            for z in ["Z", "z", "+01", "-0130", "+01:30", "-00:00", "+23:59", "-2359", "+24:00", "+1:30", "+01:3", "GMT", "+05:30 "] {
                let s = "2024-01-31T12:34:56" + z
                if let date = withBytes(s, { zoned.parseFast($0) }) { #expect(bits(date) == bits(ref.date(from: s)), "\(p) \(s)") }
                #expect(withBytes(s) { bits(zoned.parse($0)) } == bits(ref.date(from: s)), "\(p) \(s)")
            }
        }
    }

    @Test func patternParse_fixedLayout_agreesWithTheSteps() throws {
        // Patterns of fixed-width digit fields and literals take a path of their own; it must give
        // the steps' answer for every input, valid or not, in every zone rule.
        var g = SeededGenerator(seed: 0xF1ED)
        let cases: [(String, TimeZone, (Parts) -> String)] = [
            ("yyyy-MM-dd'T'HH:mm:ss'Z'", TimeZone(identifier: "UTC")!, { $0.date + "T" + $0.time + "Z" }),
            ("yyyy-MM-dd HH:mm:ss", TimeZone(identifier: "America/New_York")!, { $0.date + " " + $0.time }),
            ("yyyyMMddHHmmssSSS", TimeZone(secondsFromGMT: 19800)!, { ($0.date + $0.time).filter(\.isNumber) + $0.fraction(3) }),
            ("yyyy-MM-dd'T'HH:mm:ss.S", TimeZone(identifier: "UTC")!, { $0.date + "T" + $0.time + "." + $0.fraction(1) }),
            ("yyyy-MM-dd'T'HH:mm:ss.SS", TimeZone(identifier: "UTC")!, { $0.date + "T" + $0.time + "." + $0.fraction(2) }),
            ("dd.MM.yyyy, HH:mm 'at' ''ss''", TimeZone(identifier: "Pacific/Apia")!, { p in
                "\(pad(p.day, 2)).\(pad(p.month, 2)).\(pad(p.year, 4)), \(p.time.prefix(5)) at '\(pad(p.second, 2))'" }),
            ("yyyy-MM-dd", TimeZone(identifier: "Europe/London")!, { $0.date }),
        ]
        for (pattern, zone, make) in cases {
            let program = try #require(CompiledDatePattern(pattern: pattern))
            #expect(program.hasFixedLayout, "\(pattern)")
            let rule = UTCOffsetRule(zone)
            let reference = formatter(pattern, zone)
            for k in 0..<1500 {
                let valid = make(Parts.random(using: &g))
                let s = k % 3 == 0 ? valid : mutate(valid, using: &g)
                let fixed = withBytes(s) { program.parse($0, zone: rule) }
                #expect(fixed?.bitPattern == withBytes(s) { program.parseBySteps($0, zone: rule) }?.bitPattern, "\(pattern) \(s)")
                if let fixed { #expect(fixed.bitPattern == reference.date(from: s)?.timeIntervalSinceReferenceDate.bitPattern, "\(pattern) \(s)") }
            }
        }
        for pattern in ["yyyy-MM-dd'T'HH:mm:ssXXX", "dd MMM yyyy", "EEE, dd MMM yyyy HH:mm:ss Z"] {
            #expect(CompiledDatePattern(pattern: pattern)?.hasFixedLayout == false, "\(pattern)")
        }
    }

    @Test func patternParse_dstTransitions_matchDateFormatter() {
        let zone = TimeZone(identifier: "America/New_York")!
        let ours = DatePattern(pattern: "yyyy-MM-dd HH:mm:ss", timeZone: zone)
        let reference = formatter("yyyy-MM-dd HH:mm:ss", zone)
        var inputs: [String] = []
        for year in [1918, 1945, 1974, 2006, 2007, 2024, 2037, 2100] {
            for (month, days) in [(3, 7...16), (4, 23...30), (10, 24...31), (11, 1...8)] {
                for day in days { for hour in [0, 1, 2, 3, 12, 23] { inputs.append("\(year)-\(pad(month, 2))-\(pad(day, 2)) \(pad(hour, 2)):30:00") } }
            }
        }
        inputs += ["2024-03-10 02:30:00", "2024-11-03 01:30:00", "1883-11-18 12:00:00", "1883-11-18 11:59:59"]
        for s in inputs {
            let expected = reference.date(from: s)
            if let date = withBytes(s, { ours.parseFast($0) }) { #expect(bits(date) == bits(expected), "\(s)") }
            #expect(withBytes(s) { bits(ours.parse($0)) } == bits(expected), "\(s)")
        }
        #expect(withBytes("2024-03-10 02:30:00") { ours.parse($0) } == nil, "skipped wall time")
    }

    /// DateFormatter ignores the weekday (the day of the month wins), matches names in any case,
    /// and also takes full names for `EEE`/`MMM`, `Su` for `EEE` and both forms for `MMMM`: the fast
    /// path takes the exact-width ASCII names in any case and leaves the rest to DateFormatter.
    @Test func patternParse_namesWrongWeekdayCaseTruncation_agreeWithDateFormatter() {
        var g = SeededGenerator(seed: 0x7_817_7E2)
        func check(_ pattern: String, _ inputs: [String], fast expectFast: Bool? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
            let ours = DatePattern(pattern: pattern), reference = formatter(pattern, TimeZone(identifier: "UTC")!)
            for s in inputs {
                let expected = reference.date(from: s)
                let fast = withBytes(s) { ours.parseFast($0) }
                if let fast { #expect(bits(fast) == bits(expected), "\(pattern) \(s)", sourceLocation: sourceLocation) }
                if let expectFast { #expect((fast != nil) == expectFast, "\(pattern) \(s)", sourceLocation: sourceLocation) }
                #expect(withBytes(s) { bits(ours.parse($0)) } == bits(expected), "\(pattern) \(s)", sourceLocation: sourceLocation)
            }
        }
        let twitter = "EEE MMM dd HH:mm:ss Z yyyy"
        // Every weekday on a Sunday, and Twitter's zone in each shape.
        check(twitter, Parts.weekdays.map { "\($0.prefix(3)) Aug 31 00:29:15 +0000 2014" }, fast: true)
        check(twitter, ["+0000", "-0000", "+00:00", "+01", "-0130", "+01:30", "Z", "z", "+23:59", "-2359"].map { "Sun Aug 31 00:29:15 \($0) 2014" }, fast: true)
        #expect(formatter(twitter, TimeZone(identifier: "UTC")!).date(from: "Mon Aug 31 00:29:15 +0000 2014") != nil, "DateFormatter ignores the weekday")
        // Any case, in weekday and month.
        check(twitter, ["sun aug 31 00:29:15 +0000 2014", "SUN AUG 31 00:29:15 +0000 2014", "sUn aUg 31 00:29:15 +0000 2014", "WED JAN 01 12:00:00 +0000 2014"], fast: true)
        check("E, dd MMM yyyy HH:mm:ss Z", ["Sun, 31 Aug 2014 00:29:15 +0000", "Mon, 31 Aug 2014 00:29:15 -0800"], fast: true)
        check("dd MMMM yyyy EEEE", ["31 AUGUST 2014 SUNDAY", "31 august 2014 monday", "03 sEPTEMBER 2014 wEDNESDAY"], fast: true)
        // Shapes DateFormatter also reads, or rejects, all left to it.
        check(twitter, [
            "Sunday Aug 31 00:29:15 +0000 2014", "Sun August 31 00:29:15 +0000 2014", "Su Aug 31 00:29:15 +0000 2014", "Xyz Aug 31 00:29:15 +0000 2014",
            "ſun Aug 31 00:29:15 +0000 2014", "Sun Sept 30 00:29:15 +0000 2014", "Sun Aug 31 00:29:15 +0000 14", "Sun Aug 31 00:29:15 +0000 02014",
            "Sun Aug 31 00:29:15 +0000 2014 ", "Sun Aug  31 00:29:15 +0000 2014", "Sun. Aug 31 00:29:15 +0000 2014", "Sun Aug 31 00:29:15 GMT 2014",
            "Sun Aug 31 00:29:15 +013 2014", "Sun Aug 31 00:29:15 +1:30 2014", "Sun Aug 31 00:29:15 +24:00 2014", "Sun Aug 31 00:29:15 +0130  2014",
            "Sun Aug 31 00:29:15 +01:30:00 2014", "Sun Sep 31 00:29:15 +0000 2014", "Sun Feb 29 00:29:15 +0000 2023", "Sun Aug 31 00:29:15 +0000 0000",
            "Sun Aug 31 00:29:15 +0000 20144", "Sun Aug 31 24:00:00 +0000 2014", "Su\u{0}Aug 31 00:29:15 +0000 2014",
        ], fast: false)
        check("dd MMM yyyy", ["31 August 2014", "31 Augu 2014", "31 Sept 2014", "1 Aug 2014", "31 Aug 14", "31 Au 2014", "31 Sep 2014"], fast: false)
        check("dd MMMM yyyy EEEE", ["31 Aug 2014 Sunday", "31 August 2014 Sun", "31 August 2014 Mo", "31 August 2014 M"], fast: false)
        check("dd MMM yyyy EEE", ["31 Aug 2014 Mon", "31 Aug 2014 sat", "29 Feb 2024 Xyz"])
        // Every truncation of a Twitter date, and random one-spot mutations.
        let full = "Wed Sep 03 23:59:07 -0130 2014"
        check(twitter, (0..<full.count).map { String(full.prefix($0)) }, fast: false)
        var mutated: [String] = []
        for _ in 0..<3000 {
            let p = Parts.random(using: &g)
            let s = "\(p.weekdayName(using: &g).prefix(3)) \(p.monthName.prefix(3)) \(pad(p.day, 2)) \(p.time) \(p.zone(using: &g)) \(pad(p.year, 4))"
            mutated.append(mutateWithLetters(s, using: &g))
        }
        check(twitter, mutated)
    }

    @Test func patternCompilation_fastPathSupport() {
        let supported = [
            "yyyy-MM-dd'T'HH:mm:ss'Z'", "yyyy-MM-dd'T'HH:mm:ss.SSSZ", "yyyy-MM-dd'T'HH:mm:ss.SSSSSSSSSZZZZZ", "yyyy-MM-dd'T'HH:mm:ssXXX",
            "yyyy-MM-dd'T'HH:mm:ssxxx", "yyyy-MM-dd'T'HH:mm:ssX", "yyyy-MM-dd'T'HH:mm:ssXX", "yyyy-MM-dd", "dd/MM/yyyy", "yyyyMMdd",
            "yyyy-MM-dd HH:mm", "dd.MM.yyyy, HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ss.S", "yyyy-MM-dd'''T'''HH",
            "EEE MMM dd HH:mm:ss Z yyyy", "dd MMM yyyy", "yyyy-MMM-dd", "ddMMMyyyy", "EEEE, dd MMMM yyyy", "E, dd MMM yyyy HH:mm:ss Z",
            "EE dd MMM yyyy", "HH:mm:ss Z, yyyy-MM-dd", "HH:mm:ssXXX dd/MM/yyyy",
        ]
        let unsupported = [
            "EEE, dd MMM yyyy HH:mm:ss zzz", "yyyy-MM-dd hh:mm a", "yyyy-M-d", "yy-MM-dd", "y-MM-dd", "yyyyy-MM-dd",
            "yyyy-MM-dd'T'H:mm", "HH:mm:ss", "yyyy-MM", "yyyy-MM-dd'T'HH:mm:ss.SSSSSSSSSS", "yyyy-MM-dd'T'HH:mm:ssZZZZ",
            "yyyy-MM-dd'T'HH:mm:ssZ'Z'", "yyyy-MM-dd'T'HH:mm:ssz", "yyyy-MM-dd'T'HH:mm:ssVV", "yyyy-MM-dd 'unterminated", "yyyy-MM-dd'1'",
            "yyyy-MM-dd yyyy", "yyyy-DDD", "uuuu-MM-dd", "yyyy-MM-dd'T'HH:mm:ss.SSSXXXX", "yyyy年MM月dd日", "YYYY-MM-dd",
            "dd MMMMM yyyy", "EEEEE dd MMM yyyy", "EEEEEE dd MMM yyyy", "LLL dd yyyy", "ccc dd MMM yyyy", "dd MM MMM yyyy",
            "EEE'day' dd MMM yyyy", "EEEMMM dd yyyy", "dd MMMZ yyyy", "HH:mmZyyyy-MM-dd", "HH:mmZ-yyyy-MM-dd", "HH:mmZ:dd.MM.yyyy",
        ]
        for p in supported { #expect(DatePattern(pattern: p).isFastPathSupported, "\(p)") }
        for p in unsupported { #expect(!DatePattern(pattern: p).isFastPathSupported, "\(p)") }
        // Supported shapes still fall back when the locale is not Gregorian or prints other digits.
        #expect(!DatePattern(pattern: "yyyy-MM-dd", locale: Locale(identifier: "th_TH")).isFastPathSupported)
        #expect(!DatePattern(pattern: "yyyy-MM-dd", locale: Locale(identifier: "ar_EG")).isFastPathSupported)
        #expect(DatePattern(pattern: "yyyy-MM-dd", locale: Locale(identifier: "en_GB")).isFastPathSupported)
        // Names need English symbols: every `en` locale on Gregorian has them; others fall back.
        let twitter = "EEE MMM dd HH:mm:ss Z yyyy"
        for id in ["en_US", "en_GB", "en_AU", "en_IN", "en_001", "en"] { #expect(DatePattern(pattern: twitter, locale: Locale(identifier: id)).isFastPathSupported, "\(id)") }
        for id in ["de_DE", "fr_FR", "nl_NL", "en_SA", "ja_JP"] { #expect(!DatePattern(pattern: twitter, locale: Locale(identifier: id)).isFastPathSupported, "\(id)") }
        #expect(UTCOffsetRule(TimeZone(identifier: "UTC")!).isFixed && UTCOffsetRule(TimeZone(secondsFromGMT: 3600)!).isFixed)
        #expect(!UTCOffsetRule(TimeZone(identifier: "America/New_York")!).isFixed)
    }

    @Test func patternFallback_isSafeFromManyTasks() async {
        let shared = DatePattern(pattern: "yyyy-MM-dd")
        await withTaskGroup(of: Int.self) { group in
            for task in 0..<4 {
                group.addTask {
                    var found = 0
                    for k in 0..<200 where withBytes("2024-\(task + 1)-\(k % 28 + 1)", { shared.parse($0) }) != nil { found += 1 }
                    return found
                }
            }
            for await found in group { #expect(found == 200) }
        }
    }
}

private func formatter(_ pattern: String, _ zone: TimeZone) -> DateFormatter {
    let f = DateFormatter()
    f.locale = Locale(identifier: "en_US_POSIX")
    f.timeZone = zone
    f.dateFormat = pattern
    return f
}

/// Truncate, delete, insert, replace or duplicate one spot of `s`.
private func mutate(_ s: String, using g: inout SeededGenerator) -> String {
    mutate(s, alphabet: Array("0123456789-:+.TZzt xO"), using: &g)
}

/// `mutate`, with letters that make or break month and weekday names.
private func mutateWithLetters(_ s: String, using g: inout SeededGenerator) -> String {
    mutate(s, alphabet: Array("0123456789-:+ ZzaAeEnNuUyYsSdD"), using: &g)
}

private func mutate(_ s: String, alphabet: [Character], using g: inout SeededGenerator) -> String {
    var chars = Array(s)
    let at = Int.random(in: 0..<chars.count, using: &g)
    switch Int.random(in: 0..<5, using: &g) {
    case 0: chars.removeSubrange(at...)
    case 1: chars.remove(at: at)
    case 2: chars.insert(alphabet.randomElement(using: &g)!, at: at)
    case 3: chars[at] = alphabet.randomElement(using: &g)!
    default: chars.insert(chars[at], at: at)
    }
    return String(chars)
}

fileprivate extension UTCOffsetRule {
    var isFixed: Bool { if case .fixed = self { return true } else { return false } }
}
