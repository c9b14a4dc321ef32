// NumberParsing+Floating.swift — Magma
//
// `Double` and `Float` from JSON number text: the decimal scan shared by both, Clinger's fast
// path, then Eisel-Lemire (NumberParsing+EiselLemire.swift). See NumberParsing.swift for the method.

extension NumberParsing {
    // MARK: - Decimal scanning (shared by Double and Float)

    /// `mantissa * 10^exponent`, mantissa holding at most 19 significant digits.
    /// `truncated`: non-zero digits beyond the 19th were dropped (the true value lies
    /// strictly between `mantissa` and `mantissa + 1` times `10^exponent`).
    private struct ScannedDecimal {
        var mantissa: UInt64
        var exponent: Int
        var negative: Bool
        var truncated: Bool
    }

    /// Fast scan: accumulates all digits (wrapping), eight fraction digits at a time
    /// where possible; only numbers with more than 19 significant digits are rescanned
    /// by `scanLongDecimal`.
    @inline(__always)
    private static func scanDecimal(_ text: UnsafeRawBufferPointer) -> ScannedDecimal {
        let n = text.count
        var i = 0
        var negative = false
        if n > 0, text[0] == UInt8(ascii: "-") { negative = true; i = 1 }
        let digitsStart = i
        var m: UInt64 = 0
        while i < n {
            let d = text[i] &- UInt8(ascii: "0")
            if d > 9 { break }
            m = m &* 10 &+ UInt64(d)
            i &+= 1
        }
        var digitCount = i &- digitsStart
        var exponent = 0
        if i < n, text[i] == UInt8(ascii: ".") {
            i &+= 1
            let fractionStart = i
            if let base = text.baseAddress {
                while n &- i >= 8 {
                    let chunk = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                    if !isEightDigits(chunk) { break }
                    m = m &* 100_000_000 &+ eightDigitsValue(chunk)
                    i &+= 8
                }
                // The last 1-7 digits in one load ending at the number's end (inside the text, as
                // n >= 8), the bytes before `i` read as '0', not a loop pass per digit. An exponent
                // after them takes the loop below.
                let rest = n &- i
                if rest > 0, rest < 8, n >= 8 {
                    let low: UInt64 = (1 << (UInt64(8 &- rest) &* 8)) &- 1
                    var chunk = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self))
                    chunk = (chunk & ~low) | (0x3030_3030_3030_3030 & low)
                    if isEightDigits(chunk) {
                        m = m &* smallPowerOfTen(rest) &+ eightDigitsValue(chunk)
                        i = n
                    }
                }
            }
            while i < n {
                let d = text[i] &- UInt8(ascii: "0")
                if d > 9 { break }
                m = m &* 10 &+ UInt64(d)
                i &+= 1
            }
            exponent = fractionStart &- i
            digitCount &+= i &- fractionStart
        }
        if digitCount > 19 {
            // Leading zeros (and the point) are not significant: "0.000…0001234".
            var j = digitsStart
            while j < n, text[j] == UInt8(ascii: "0") || text[j] == UInt8(ascii: ".") {
                if text[j] == UInt8(ascii: "0") { digitCount &-= 1 }
                j &+= 1
            }
            if digitCount > 19 { return scanLongDecimal(text) }
        }
        exponent &+= parseExponent(text, &i)
        return ScannedDecimal(mantissa: m, exponent: exponent, negative: negative, truncated: false)
    }

    /// True when all eight bytes are ASCII digits.
    @inline(__always)
    static func isEightDigits(_ chunk: UInt64) -> Bool {
        ((chunk &+ 0x4646_4646_4646_4646) | (chunk &- 0x3030_3030_3030_3030)) & 0x8080_8080_8080_8080 == 0
    }

    /// 10^k for k in 0...7, without a table lookup's bounds check.
    @inline(__always)
    private static func smallPowerOfTen(_ k: Int) -> UInt64 {
        switch k {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        default: 10_000_000
        }
    }

    /// Value of eight ASCII digits loaded little-endian (first digit in the low byte).
    @inline(__always)
    static func eightDigitsValue(_ chunk: UInt64) -> UInt64 {
        let mask: UInt64 = 0x0000_00FF_0000_00FF
        let mul1: UInt64 = 0x000F_4240_0000_0064   // 100 + (1_000_000 << 32)
        let mul2: UInt64 = 0x0000_2710_0000_0001   // 1 + (10_000 << 32)
        var v = chunk &- 0x3030_3030_3030_3030
        v = v &* 10 &+ (v >> 8)
        v = ((v & mask) &* mul1 &+ ((v >> 16) & mask) &* mul2) >> 32
        return v & 0xFFFF_FFFF
    }

    /// Careful scan for more than 19 significant digits: keeps the first 19 and notes
    /// whether any dropped digit is non-zero.
    private static func scanLongDecimal(_ text: UnsafeRawBufferPointer) -> ScannedDecimal {
        let n = text.count
        var i = 0
        var negative = false
        if n > 0, text[0] == UInt8(ascii: "-") { negative = true; i = 1 }
        var m: UInt64 = 0
        var digits = 0          // significant digits held in m (leading zeros do not count)
        var exponent = 0
        var truncated = false
        var inFraction = false
        // Digits before and after the point: a kept fraction digit lowers the exponent, a dropped
        // integer digit raises it.
        while i < n {
            if !inFraction, text[i] == UInt8(ascii: ".") { inFraction = true; i &+= 1; continue }
            let d = text[i] &- UInt8(ascii: "0")
            if d > 9 { break }
            if digits < 19 {
                m = m &* 10 &+ UInt64(d)
                if m != 0 { digits &+= 1 }
                if inFraction { exponent &-= 1 }
            } else {
                if !inFraction { exponent &+= 1 }
                if d != 0 { truncated = true }
            }
            i &+= 1
        }
        exponent &+= parseExponent(text, &i)
        return ScannedDecimal(mantissa: m, exponent: exponent, negative: negative, truncated: truncated)
    }

    // MARK: - Double

    /// Correctly rounded (round-half-to-even) `Double` value of the number.
    /// Returns nil when the (finite) text overflows to infinity (`"1e400"`, `"-1e400"`).
    /// Underflow yields 0 or a subnormal, sign kept (`"-1e-400"` -> -0.0); `"-0"` -> -0.0.
    static func double(_ text: UnsafeRawBufferPointer) -> Double? { inlinedDouble(text) }

    /// `double`, compiled into its caller: for the element loops of arrays of numbers, where the
    /// call and its register saves are a real part of a number's cost.
    @inline(__always)
    static func inlinedDouble(_ text: UnsafeRawBufferPointer) -> Double? { binaryFloat(text, DoubleFormat.self) }

    /// The correctly rounded `F.Value` of the number, shared by `Double` and `Float` and compiled
    /// for each: Clinger's fast path (the mantissa and the power of ten exact in `F.Value`, one
    /// IEEE operation), its extension (`m * 10^(e - k)` still an exact integer), then Eisel-Lemire,
    /// and the C library for a long mantissa it cannot decide. nil on overflow to infinity.
    @inline(__always)
    private static func binaryFloat<F: BinaryFormat>(_ text: UnsafeRawBufferPointer, _: F.Type) -> F.Value? {
        let dec = scanDecimal(text)
        let m = dec.mantissa
        let e = dec.exponent
        if m == 0 { return dec.negative ? -0.0 : 0.0 }
        if !dec.truncated {
            let exactMantissa: UInt64 = 1 << UInt64(F.mantissaExplicitBits + 1)
            let k = F.largestExactPowerOfTen
            if m <= exactMantissa, e >= -k, e <= k {
                var v = F.Value(m)
                if e < 0 { v /= F.exactPowerOfTen(-e) } else { v *= F.exactPowerOfTen(e) }
                return dec.negative ? -v : v
            }
            if e > k, e <= k + F.exactDecimalDigits {
                let (p, o) = m.multipliedReportingOverflow(by: integerPowersOfTen[e - k])
                if !o, p <= exactMantissa {
                    let v = F.Value(p) * F.exactPowerOfTen(k)
                    return dec.negative ? -v : v
                }
            }
        }
        let r = eiselLemire(e, m, F.self)
        if dec.truncated, r != eiselLemire(e, m &+ 1, F.self) {
            return F.correctlyRounded(text)
        }
        if r.power2 == F.infinitePower { return nil }
        return F.value(mantissa: r.mantissa, power2: r.power2, negative: dec.negative)
    }

    /// `double`, and nil too for a nonzero number that rounds to zero (`1e-400`): like an
    /// overflow, out of `Double`'s range, never rounded silently. Subnormals are values.
    @inline(__always)
    static func doubleInRange(_ text: UnsafeRawBufferPointer) -> Double? {
        guard let v = double(text), v != 0 || denotesZero(text) else { return nil }
        return v
    }

    /// `doubleInRange`, compiled into its caller (see `inlinedDouble`).
    @inline(__always)
    static func inlinedDoubleInRange(_ text: UnsafeRawBufferPointer) -> Double? {
        guard let v = inlinedDouble(text), v != 0 || denotesZero(text) else { return nil }
        return v
    }

    /// `float`, and nil too for a nonzero number that rounds to zero (`1e-50`).
    @inline(__always)
    static func floatInRange(_ text: UnsafeRawBufferPointer) -> Float? {
        guard let v = float(text), v != 0 || denotesZero(text) else { return nil }
        return v
    }

    /// Whether the number's digits are all zero (`0`, `-0.000e5`).
    @inline(never)
    static func denotesZero(_ text: UnsafeRawBufferPointer) -> Bool { scanDecimal(text).mantissa == 0 }

    // MARK: - Float

    /// Correctly rounded `Float` value, computed directly from the text (rounding via
    /// `Double` would round twice). nil on overflow to infinity.
    static func float(_ text: UnsafeRawBufferPointer) -> Float? { binaryFloat(text, FloatFormat.self) }
}
