// MagmaDecoder's and MagmaEncoder's date strategies: JSONDecoder's and JSONEncoder's cases under
// the same names, so `decoder.dateDecodingStrategy = .formatted(formatter)` reads as it did. They
// are types of their own because on Linux Foundation's `.formatted(_:)` is a `.custom` closure
// that hides its formatter, and DateFormatter then dominates a decode with dates. Kept, the
// formatter's pattern is compiled once into Magma's byte-level parser and printer (`DatePattern`),
// used only where it agrees with the formatter; DateFormatter decides every other date, so the
// values and errors are JSONDecoder's.
import Foundation

extension MagmaDecoder {
    /// How dates are decoded: `JSONDecoder.DateDecodingStrategy`'s cases.
    public enum DateDecodingStrategy: @unchecked Sendable {
        /// The date's own `Decodable` form (seconds since 2001-01-01).
        case deferredToDate
        /// A number of seconds since 1970-01-01.
        case secondsSince1970
        /// A number of milliseconds since 1970-01-01.
        case millisecondsSince1970
        /// An ISO 8601 string (`2021-01-28T22:17:31Z`).
        case iso8601
        /// A string the formatter reads. Its pattern is parsed on bytes where Magma's parser agrees
        /// with the formatter (fixed-width numeric fields, English names, any time zone); do not
        /// change the formatter while a decode runs.
        case formatted(DateFormatter)
        /// The date the closure decodes.
        case custom(@Sendable (_ decoder: any Decoder) throws -> Date)

        /// Foundation's strategy (its `.formatted(_:)` arrives as `.custom`).
        init(_ strategy: JSONDecoder.DateDecodingStrategy) {
            switch strategy {
            case .deferredToDate: self = .deferredToDate
            case .secondsSince1970: self = .secondsSince1970
            case .millisecondsSince1970: self = .millisecondsSince1970
            case .iso8601: self = .iso8601
            case .custom(let closure): self = .custom(closure)
            @unknown default: self = .deferredToDate
            }
        }
    }
}

extension MagmaEncoder {
    /// How dates are encoded: `JSONEncoder.DateEncodingStrategy`'s cases.
    public enum DateEncodingStrategy: @unchecked Sendable {
        /// The date's own `Encodable` form (seconds since 2001-01-01).
        case deferredToDate
        /// A number of seconds since 1970-01-01.
        case secondsSince1970
        /// A number of milliseconds since 1970-01-01.
        case millisecondsSince1970
        /// An ISO 8601 string (`2021-01-28T22:17:31Z`).
        case iso8601
        /// The formatter's string. Its pattern is printed from bytes where Magma's printer agrees
        /// with the formatter; do not change the formatter while an encode runs.
        case formatted(DateFormatter)
        /// What the closure encodes (nothing encoded gives an empty object, as `JSONEncoder` does).
        case custom(@Sendable (_ date: Date, _ encoder: any Encoder) throws -> Void)

        /// Foundation's strategy (its `.formatted(_:)` arrives as `.custom`).
        init(_ strategy: JSONEncoder.DateEncodingStrategy) {
            switch strategy {
            case .deferredToDate: self = .deferredToDate
            case .secondsSince1970: self = .secondsSince1970
            case .millisecondsSince1970: self = .millisecondsSince1970
            case .iso8601: self = .iso8601
            case .custom(let closure): self = .custom(closure)
            @unknown default: self = .deferredToDate
            }
        }
    }
}

extension MagmaEncoder.DateEncodingStrategy {
    /// `date.formatted(.iso8601)`, JSONEncoder's `.iso8601`: printed by Magma for whole seconds
    /// from 1900 to 2100, where its printer and Foundation's agree (a test compares them), and by
    /// Foundation otherwise (much slower per date).
    static func iso8601String(_ date: Date) -> String {
        let t = date.timeIntervalSince1970
        guard t >= -2_208_988_800, t < 4_102_444_800, t.rounded(.down) == t else { return date.formatted(.iso8601) }
        return ISO8601DateCoding.format(date, fractionalSeconds: false)
    }
}

/// A `.formatted` strategy's formatter with its pattern compiled, made once per decode or encode.
struct FormatterDates {
    let formatter: DateFormatter
    /// Magma's parser and printer for the formatter's pattern; nil when the formatter has settings
    /// it does not model (lenient, a default date) or the pattern has no fast path.
    private let pattern: DatePattern?

    init(_ formatter: DateFormatter) {
        self.formatter = formatter
        pattern = FormatterDates.cache.pattern(for: formatter)
    }

    /// The date in `bytes` (the text of `string`), as `formatter.date(from:)` gives it.
    func date(_ bytes: UnsafeRawBufferPointer, string: () throws -> String) rethrows -> Date? {
        if let date = pattern?.parseFast(bytes) { return date }
        return formatter.date(from: try string())
    }

    /// Foundation's `.formatted(formatter)` closure, which decides every date the fast path leaves
    /// (its values and its errors are JSONDecoder's).
    var foundationDecoding: @Sendable (any Decoder) throws -> Date {
        if case .custom(let closure) = JSONDecoder.DateDecodingStrategy.formatted(formatter) { return closure }
        let formatter = formatter
        return { decoder in
            let string = try decoder.singleValueContainer().decode(String.self)
            guard let date = formatter.date(from: string) else {
                throw DecodingError.dataCorrupted(DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "Date string does not match format expected by formatter."))
            }
            return date
        }
    }

    /// `formatter.string(from: date)`.
    func string(_ date: Date) -> String {
        pattern?.formatFast(date) ?? formatter.string(from: date)
    }

    /// Compiled patterns by the formatter settings they depend on: a formatter reused across decodes
    /// (the usual case) is compiled once, as a `.date(format:)` transformer is.
    private static let cache = PatternCache()

    private final class PatternCache: @unchecked Sendable {
        private struct Key: Hashable {
            let format: String
            let locale: String
            let timeZone: String
            let calendar: Calendar.Identifier
        }
        private let lock = Lock()
        private var patterns: [Key: DatePattern?] = [:]

        func pattern(for formatter: DateFormatter) -> DatePattern? {
            guard !formatter.isLenient, formatter.defaultDate == nil, !formatter.doesRelativeDateFormatting,
                  let format = formatter.dateFormat, !format.isEmpty else { return nil }
            let locale = formatter.locale ?? Locale.current, timeZone = formatter.timeZone ?? TimeZone.current
            let calendar = formatter.calendar ?? Calendar(identifier: .gregorian)
            let key = Key(format: format, locale: locale.identifier,
                          timeZone: timeZone.identifier, calendar: calendar.identifier)
            if let known = lock.withLock({ patterns[key] }) { return known }
            let made = DatePattern(pattern: format, locale: locale, timeZone: timeZone, calendar: calendar)
            let pattern = made.isFastPathSupported ? made : nil
            // Bounded: a program that makes a formatter per decode must not grow this forever.
            lock.withLock {
                if patterns.count >= 64 { patterns.removeAll() }
                patterns[key] = pattern
            }
            return pattern
        }
    }
}
