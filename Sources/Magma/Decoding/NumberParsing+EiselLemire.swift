// NumberParsing+EiselLemire.swift — Magma
//
// The Eisel-Lemire step (a port of fast_float's `compute_float`) and the correctly rounded
// strtod/strtof fallback for long inputs it cannot decide. See NumberParsing.swift.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension NumberParsing {
    // MARK: - Eisel-Lemire

    protocol BinaryFormat {
        associatedtype Value: BinaryFloatingPoint
        static var mantissaExplicitBits: Int { get }
        static var minimumExponent: Int { get }
        static var infinitePower: Int { get }
        static var minExponentRoundToEven: Int { get }
        static var maxExponentRoundToEven: Int { get }
        static var smallestPowerOfTen: Int { get }
        static var largestPowerOfTen: Int { get }
        /// The largest `k` whose `10^k` is exact in `Value` (Clinger's fast path).
        static var largestExactPowerOfTen: Int { get }
        /// Decimal digits every integer below `2^(mantissaExplicitBits + 1)` has room for.
        static var exactDecimalDigits: Int { get }
        /// `10^k`, `k` at most `largestExactPowerOfTen`.
        static func exactPowerOfTen(_ k: Int) -> Value
        /// The value of an `AdjustedMantissa`, with its sign.
        static func value(mantissa: UInt64, power2: Int, negative: Bool) -> Value
        /// The C library's correctly rounded reading (for what Eisel-Lemire cannot decide).
        static func correctlyRounded(_ text: UnsafeRawBufferPointer) -> Value?
    }
    enum DoubleFormat: BinaryFormat {
        static var mantissaExplicitBits: Int { 52 }
        static var minimumExponent: Int { -1023 }
        static var infinitePower: Int { 0x7FF }
        static var minExponentRoundToEven: Int { -4 }
        static var maxExponentRoundToEven: Int { 23 }
        static var smallestPowerOfTen: Int { -342 }
        static var largestPowerOfTen: Int { 308 }
        static var largestExactPowerOfTen: Int { 22 }
        static var exactDecimalDigits: Int { 15 }
        @inline(__always)
        static func exactPowerOfTen(_ k: Int) -> Double { doublePowersOfTen[k] }
        @inline(__always)
        static func value(mantissa: UInt64, power2: Int, negative: Bool) -> Double {
            Double(bitPattern: mantissa | UInt64(truncatingIfNeeded: power2) << 52 | (negative ? 1 << 63 : 0))
        }
        static func correctlyRounded(_ text: UnsafeRawBufferPointer) -> Double? { strtodFallback(text) }
    }
    enum FloatFormat: BinaryFormat {
        static var mantissaExplicitBits: Int { 23 }
        static var minimumExponent: Int { -127 }
        static var infinitePower: Int { 0xFF }
        static var minExponentRoundToEven: Int { -17 }
        static var maxExponentRoundToEven: Int { 10 }
        static var smallestPowerOfTen: Int { -64 }
        static var largestPowerOfTen: Int { 38 }
        static var largestExactPowerOfTen: Int { 10 }
        static var exactDecimalDigits: Int { 7 }
        @inline(__always)
        static func exactPowerOfTen(_ k: Int) -> Float { floatPowersOfTen[k] }
        @inline(__always)
        static func value(mantissa: UInt64, power2: Int, negative: Bool) -> Float {
            Float(bitPattern: UInt32(truncatingIfNeeded: mantissa) | UInt32(truncatingIfNeeded: power2) << 23 | (negative ? 1 << 31 : 0))
        }
        static func correctlyRounded(_ text: UnsafeRawBufferPointer) -> Float? { strtofFallback(text) }
    }

    /// Biased binary exponent and explicit mantissa bits (hidden bit cleared) of the
    /// value nearest to `w * 10^q`, `w != 0` exact. `power2 == F.infinitePower` means
    /// overflow. Port of fast_float's `compute_float` (decimal_to_binary.h).
    @inline(__always)
    static func eiselLemire<F: BinaryFormat>(_ q: Int, _ w: UInt64, _: F.Type) -> AdjustedMantissa {
        if w == 0 || q < F.smallestPowerOfTen { return AdjustedMantissa(mantissa: 0, power2: 0) }
        if q > F.largestPowerOfTen { return AdjustedMantissa(mantissa: 0, power2: F.infinitePower) }
        let lz = w.leadingZeroBitCount
        let wn = w << UInt64(lz)
        // 128-bit approximation of wn * 5^q; the second word is only needed when the
        // bits below the result precision are all ones (they might carry).
        let index = 2 &* (q &- powersOfFiveMinimumExponent)
        var (hi, lo) = wn.multipliedFullWidth(by: powerOfFive(index))
        let precisionMask = UInt64.max >> UInt64(F.mantissaExplicitBits + 3)
        if hi & precisionMask == precisionMask {
            let hi2 = wn.multipliedFullWidth(by: powerOfFive(index &+ 1)).high
            let (sum, carry) = lo.addingReportingOverflow(hi2)
            lo = sum
            if carry { hi &+= 1 }
        }
        let upperBit = Int(hi >> 63)
        let shift = UInt64(upperBit &+ 64 &- F.mantissaExplicitBits &- 3)
        var mantissa = hi >> shift
        // floor(log2(10^q)) + 63 == ((152170 + 65536) * q) >> 16 + 63
        var power2 = ((217706 &* q) >> 16) &+ 63 &+ upperBit &- lz &- F.minimumExponent
        if power2 <= 0 {
            // Subnormal (or zero). Round-to-even ties cannot occur here.
            if 1 &- power2 >= 64 { return AdjustedMantissa(mantissa: 0, power2: 0) }
            mantissa >>= UInt64(1 &- power2)
            mantissa &+= mantissa & 1
            mantissa >>= 1
            // Rounding up may reach the smallest normal number (2^52 | 1 << 52 == 2^52).
            power2 = mantissa < (1 << UInt64(F.mantissaExplicitBits)) ? 0 : 1
            return AdjustedMantissa(mantissa: mantissa, power2: power2)
        }
        // Exactly halfway between two floats (only possible when 5^q fits in 64 bits):
        // round to even instead of up.
        if lo <= 1, q >= F.minExponentRoundToEven, q <= F.maxExponentRoundToEven,
           mantissa & 3 == 1, mantissa << shift == hi {
            mantissa &= ~1
        }
        mantissa &+= mantissa & 1
        mantissa >>= 1
        if mantissa >= (2 << UInt64(F.mantissaExplicitBits)) {
            mantissa = 1 << UInt64(F.mantissaExplicitBits)
            power2 &+= 1
        }
        mantissa &= ~(1 << UInt64(F.mantissaExplicitBits))
        if power2 >= F.infinitePower { return AdjustedMantissa(mantissa: 0, power2: F.infinitePower) }
        return AdjustedMantissa(mantissa: mantissa, power2: power2)
    }

    struct AdjustedMantissa: Equatable {
        var mantissa: UInt64
        var power2: Int
    }

    // MARK: - strtod fallback (more than 19 significant digits, undecided)

    /// "C" locale so that the decimal point is "." whatever the process locale is.
    nonisolated(unsafe) private static let cLocale = newlocale(LC_NUMERIC_MASK, "C", nil)

    static func strtodFallback(_ text: UnsafeRawBufferPointer) -> Double? {
        withNulTerminatedCopy(text) { cString in
            let previous = uselocale(cLocale)
            defer { uselocale(previous) }
            let v = strtod(cString, nil)
            return v.isInfinite ? nil : v
        }
    }

    static func strtofFallback(_ text: UnsafeRawBufferPointer) -> Float? {
        withNulTerminatedCopy(text) { cString in
            let previous = uselocale(cLocale)
            defer { uselocale(previous) }
            let v = strtof(cString, nil)
            return v.isInfinite ? nil : v
        }
    }

    private static func withNulTerminatedCopy<R>(_ text: UnsafeRawBufferPointer, _ body: (UnsafePointer<CChar>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: text.count + 1) { buffer in
            let base = buffer.baseAddress!
            if let source = text.baseAddress, text.count > 0 {
                UnsafeMutableRawPointer(base).copyMemory(from: source, byteCount: text.count)
            }
            base[text.count] = 0
            return body(base)
        }
    }
}
