// PLACEHOLDER until the exact parser lands: same API, strtod-based.
import Foundation

enum NumberParsing {
    enum IntegerResult<T> { case value(T), notInteger, overflow }

    static func integer<T: FixedWidthInteger>(_ text: UnsafeRawBufferPointer, as: T.Type) -> IntegerResult<T> {
        var i = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { i = 1 }
        var value: T = 0
        while i < text.count, text[i] >= 48, text[i] <= 57 {
            let d = T(text[i] - 48)
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = negative ? m.subtractingReportingOverflow(d) : m.addingReportingOverflow(d)
            if o1 || o2 { return .overflow }
            value = s
            i += 1
        }
        if i < text.count { return .notInteger }
        return .value(value)
    }

    static func double(_ text: UnsafeRawBufferPointer) -> Double? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: text.count + 1) { buf in
            for i in 0..<text.count { buf[i] = CChar(bitPattern: text[i]) }
            buf[text.count] = 0
            let v = strtod(buf.baseAddress!, nil)
            return v.isInfinite ? nil : v
        }
    }

    static func float(_ text: UnsafeRawBufferPointer) -> Float? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: text.count + 1) { buf in
            for i in 0..<text.count { buf[i] = CChar(bitPattern: text[i]) }
            buf[text.count] = 0
            let v = strtof(buf.baseAddress!, nil)
            return v.isInfinite ? nil : v
        }
    }
}
