// PLACEHOLDER until the byte-level date parsers land: same API, Foundation-based.
import Foundation

enum ISO8601DateCoding {
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Date? {
        let s = String(decoding: bytes, as: UTF8.self)
        return (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(s))
            ?? (try? Date.ISO8601FormatStyle().parse(s))
    }
    static func format(_ date: Date, fractionalSeconds: Bool) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: fractionalSeconds).format(date)
    }
}

final class DatePattern: @unchecked Sendable {
    private let formatter: DateFormatter
    private let lock = NSLock()
    init(pattern: String, locale: Locale = Locale(identifier: "en_US_POSIX"), timeZone: TimeZone = TimeZone(identifier: "UTC")!) {
        formatter = DateFormatter()
        formatter.dateFormat = pattern
        formatter.locale = locale
        formatter.timeZone = timeZone
    }
    func parse(_ bytes: UnsafeRawBufferPointer) -> Date? {
        let s = String(decoding: bytes, as: UTF8.self)
        return lock.withLock { formatter.date(from: s) }
    }
    func format(_ date: Date) -> String { lock.withLock { formatter.string(from: date) } }
    var isFastPathSupported: Bool { false }
}
