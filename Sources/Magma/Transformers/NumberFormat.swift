import Foundation

/// Numbers written as formatted JSON strings (`"12,345.678"`, `"$12.50"`, `"50%"`), through a
/// `NumberFormatter` of a style and locale, both ways.
///
/// Strict, unlike `NumberFormatter.number(from:)` on Linux, which reads a prefix and drops the
/// rest (`"12,345.678abc"` gives 12345.678; in `en_US`, `"12.345,678"` gives 12.345): a string is
/// accepted only if it is what the formatter writes for the number it read, with the string's
/// own count of fraction digits, with or without grouping separators.
final class NumberFormat: @unchecked Sendable {
    private let lock = NSLock()
    private let formatter: NumberFormatter      // guarded by `lock`
    private let checker: NumberFormatter        // guarded by `lock`
    private let decimalSeparator: String

    init(style: NumberFormatter.Style, locale: Locale) {
        formatter = NumberFormatter()
        formatter.locale = locale
        formatter.numberStyle = style
        checker = NumberFormatter()
        checker.locale = locale
        checker.numberStyle = style
        decimalSeparator = formatter.decimalSeparator ?? "."
    }

    func parse(_ text: String) -> Double? {
        lock.withLock { parseLocked(text) }
    }

    private func parseLocked(_ text: String) -> Double? {
        guard let number = formatter.number(from: text) else { return nil }
        let fractionDigits = text.range(of: decimalSeparator).map { text[$0.upperBound...].prefix { $0.isASCII && $0.isNumber }.count } ?? 0
        checker.minimumFractionDigits = fractionDigits
        checker.maximumFractionDigits = fractionDigits
        for grouping in [true, false] {
            checker.usesGroupingSeparator = grouping
            if checker.string(from: number) == text { return number.doubleValue }
        }
        return nil
    }

    /// The style's text for `value`; with more fraction digits than the style's own when those
    /// would not read back as `value` (1.23456 is `"1.23456"`, not `"1.235"`): nothing read is lost.
    func format(_ value: Double) throws -> String {
        try lock.withLock {
            guard value.isFinite, let text = formatter.string(from: NSNumber(value: value)) else {
                throw JSONError(.notEncodable, "\(value) has no formatted form")
            }
            if parseLocked(text) == value { return text }
            let wide = formatter.copy() as! NumberFormatter
            for digits in formatter.maximumFractionDigits + 1 ... formatter.maximumFractionDigits + 17 {
                wide.maximumFractionDigits = digits
                if let longer = wide.string(from: NSNumber(value: value)), parseLocked(longer) == value { return longer }
            }
            return text
        }
    }
}

extension Transformer where Input == JSONValue, Output == Double {
    /// Numbers written as strings formatted by a `NumberFormatter` (Mantle's number-formatter
    /// transformer): `.formattedNumber(style: .decimal, locale: Locale(identifier: "en_US"))`
    /// reads `"12,345.678"` as 12345.678 and writes it back so.
    ///
    /// A string the formatter would not write for its number (`"12,345.678abc"`, or `"12.345,678"`
    /// in `en_US`) is an ``JSONError/Code/invalidValue`` error. Writing uses the style's own
    /// fraction digits (three for `.decimal`: 2.5 is written `"2.5"`), and more where a number has
    /// more (1.23456 is written `"1.23456"`), so what was read is written back.
    /// - Parameters:
    ///   - style: The formatter's style; default `.decimal`.
    ///   - locale: The locale, which sets the separators and symbols; default `en_US_POSIX`.
    public static func formattedNumber(style: NumberFormatter.Style = .decimal,
                                       locale: Locale = Locale(identifier: "en_US_POSIX")) -> Self {
        let format = NumberFormat(style: style, locale: locale)
        return Transformer(codec: StringFormCodec("number in the form \(format.sample)", parse: { bytes throws(InvalidForm) in
            try InvalidForm.unwrap(format.parse(String(decoding: bytes, as: UTF8.self)))
        }, format: format.format))
    }
}

extension NumberFormat {
    /// How the style writes 12345.678, for messages.
    var sample: String { (try? format(12345.678)) ?? "?" }
}
