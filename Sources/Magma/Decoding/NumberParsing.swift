// NumberParsing.swift — Magma
//
// Converts the raw text of a JSON number (as handed over by yajl, already
// validated against the JSON number grammar
// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`) into Swift numbers.
//
// * `integer(_:as:)`: exact integer semantics with overflow-checked digit loops.
// * `double(_:)` / `float(_:)`: correctly rounded (round-half-to-even) binary
//   floating point, computed as
//     1. Clinger's fast path (exact mantissa and power of ten both exactly
//        representable: one correctly rounded multiplication/division),
//     2. the Eisel-Lemire algorithm with a 128-bit table of truncated powers of
//        five — a port of `compute_float` from fast_float
//        (https://github.com/fastfloat/fast_float, Daniel Lemire, "Number Parsing at
//        a Gigabyte per Second", SPE 51(8), 2021; Noble Mushtak & Daniel Lemire,
//        "Fast Number Parsing Without Fallback", SPE 2023), the same algorithm as
//        Go's `strconv.eiselLemire64` and Rust's `core::num::dec2flt`,
//     3. for inputs with more than 19 significant digits where the result is not
//        decided by the mantissa bounds m and m+1: glibc `strtod`/`strtof`
//        (correctly rounded) on a NUL-terminated stack copy, in the "C" locale.
//   The table of powers of five (NumberParsing+Tables.swift) was generated with the construction of
//   fast_float's `script/table_generation.py` (5^q for q in -342...308, normalized
//   to 128 bits; truncated for q >= 0, rounded up for q < 0).

/// Parsers for JSON number text. All inputs are valid JSON number grammar.
enum NumberParsing {
    enum IntegerResult<T> { case value(T), notInteger, overflow }

    // MARK: - Integers

    /// Exact integer value of the number, range-checked for `T` (any `FixedWidthInteger`).
    ///
    /// Rule: the *exact mathematical value* of the JSON number must be an integer
    /// that `T` can represent. Fraction digits and exponents are allowed as long as
    /// they do not leave a fractional part:
    /// - `"1.0"` -> 1, `"1e2"` -> 100, `"12.300e1"` -> 123, `"-0"` -> 0, `"0e-5"` -> 0,
    ///   `"-0.0"` -> 0 (also for unsigned `T`: minus zero is zero).
    /// - `"1.5"`, `"1e-400"` -> `.notInteger` (a non-zero fractional part, however small).
    /// - Out of `T`'s range -> `.overflow` (never wraps, never rounds): `"1e400"`,
    ///   `"9223372036854775808"` for `Int64`, any negative non-zero value for unsigned `T`.
    /// - `.notInteger` is decided before the range: `"-1.5"` for `UInt` is `.notInteger`,
    ///   `"1.5e400"` (an integer, too large) is `.overflow`.
    /// Plain digit strings take a single overflow-checked digit loop; anything else
    /// (fraction, exponent, overflow on the way) takes the general path.
    static func integer<T: FixedWidthInteger>(_ text: UnsafeRawBufferPointer, as: T.Type) -> IntegerResult<T> {
        let n = text.count
        guard n > 0 else { return .notInteger }
        let negative = text[0] == UInt8(ascii: "-")
        var i = negative ? 1 : 0
        if T.bitWidth == 64, n &- i <= 18, T.isSigned || !negative, let fast = integer64(text, from: i) {
            // At most 18 digits: below 10^18 < 2^63, so no overflow check per digit (ids are short).
            return .value(T(truncatingIfNeeded: negative ? 0 &- fast : fast))
        }
        var value: T = 0
        if negative {
            while i < n {
                let d = text[i] &- UInt8(ascii: "0")
                if d > 9 { return integerGeneral(text, negative: true) }
                let (p, o1) = value.multipliedReportingOverflow(by: 10)
                let (s, o2) = p.subtractingReportingOverflow(T(truncatingIfNeeded: d))
                if o1 || o2 { return integerGeneral(text, negative: true) }
                value = s
                i &+= 1
            }
        } else {
            while i < n {
                let d = text[i] &- UInt8(ascii: "0")
                if d > 9 { return integerGeneral(text, negative: false) }
                let (p, o1) = value.multipliedReportingOverflow(by: 10)
                let (s, o2) = p.addingReportingOverflow(T(truncatingIfNeeded: d))
                if o1 || o2 { return integerGeneral(text, negative: false) }
                value = s
                i &+= 1
            }
        }
        return .value(value)
    }

    /// The value of the digits from `i` to the end (at most 18 of them), eight at a time where it
    /// can; nil at the first byte that is not a digit (a fraction or an exponent).
    @inline(__always)
    private static func integer64(_ text: UnsafeRawBufferPointer, from start: Int) -> Int64? {
        let n = text.count
        var i = start
        var value: UInt64 = 0
        if n &- i >= 8, let base = text.baseAddress {
            let chunk = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            if isEightDigits(chunk) {
                value = eightDigitsValue(chunk)
                i &+= 8
                if n &- i >= 8 {
                    let next = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                    if isEightDigits(next) {
                        value = value &* 100_000_000 &+ eightDigitsValue(next)
                        i &+= 8
                    }
                }
            }
        }
        while i < n {
            let d = text[i] &- UInt8(ascii: "0")
            if d > 9 { return nil }
            value = value &* 10 &+ UInt64(d)
            i &+= 1
        }
        return Int64(bitPattern: value)
    }

    /// General integer path: fraction and/or exponent present, or the plain digit
    /// loop overflowed (which the general path re-checks and reports).
    private static func integerGeneral<T: FixedWidthInteger>(_ text: UnsafeRawBufferPointer, negative: Bool) -> IntegerResult<T> {
        let n = text.count
        var i = negative ? 1 : 0
        let intStart = i
        while i < n, text[i] &- UInt8(ascii: "0") <= 9 { i &+= 1 }
        let intEnd = i
        var fracStart = i, fracEnd = i
        if i < n, text[i] == UInt8(ascii: ".") {
            i &+= 1
            fracStart = i
            while i < n, text[i] &- UInt8(ascii: "0") <= 9 { i &+= 1 }
            fracEnd = i
        }
        let exponent = parseExponent(text, &i)

        // First and last non-zero digit in the digit sequence int ++ frac (byte offsets).
        var first = -1
        var j = intStart
        while j < intEnd { if text[j] != UInt8(ascii: "0") { first = j; break }; j &+= 1 }
        if first < 0 {
            j = fracStart
            while j < fracEnd { if text[j] != UInt8(ascii: "0") { first = j; break }; j &+= 1 }
        }
        if first < 0 { return .value(0) }   // all digits zero: the value is 0 whatever the exponent
        var last = -1
        j = fracEnd
        while j > fracStart { j &-= 1; if text[j] != UInt8(ascii: "0") { last = j; break } }
        if last < 0 {
            j = intEnd
            while j > intStart { j &-= 1; if text[j] != UInt8(ascii: "0") { last = j; break } }
        }
        // Decimal weight (power of ten) of the last non-zero digit.
        // (Without a fraction fracStart == intEnd > last.)
        let lastWeight = last >= fracStart
            ? exponent - (last - fracStart + 1)
            : exponent + (intEnd - 1 - last)
        if lastWeight < 0 { return .notInteger }
        if negative && !T.isSigned { return .overflow }

        var value: T = 0
        j = first
        while j <= last {
            let c = text[j]
            j &+= 1
            if c == UInt8(ascii: ".") { continue }
            let d = T(truncatingIfNeeded: c &- UInt8(ascii: "0"))
            let (p, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = negative ? p.subtractingReportingOverflow(d) : p.addingReportingOverflow(d)
            if o1 || o2 { return .overflow }
            value = s
        }
        var k = 0
        while k < lastWeight {
            let (p, o) = value.multipliedReportingOverflow(by: 10)
            if o { return .overflow }
            value = p
            k &+= 1
        }
        return .value(value)
    }

    /// Parses `[eE][+-]?[0-9]+` at `i` if present (else 0). The magnitude saturates
    /// at about 10^10, far beyond anything that can change a result.
    @inline(__always)
    static func parseExponent(_ text: UnsafeRawBufferPointer, _ i: inout Int) -> Int {
        let n = text.count
        guard i < n, text[i] | 0x20 == UInt8(ascii: "e") else { return 0 }
        i &+= 1
        var negative = false
        if i < n {
            if text[i] == UInt8(ascii: "-") { negative = true; i &+= 1 }
            else if text[i] == UInt8(ascii: "+") { i &+= 1 }
        }
        var e = 0
        while i < n {
            let d = text[i] &- UInt8(ascii: "0")
            if d > 9 { break }
            if e < 1_000_000_000 { e = e &* 10 &+ Int(d) }
            i &+= 1
        }
        return negative ? 0 &- e : e
    }
}

extension NumberParsing.IntegerResult: Equatable where T: Equatable {}
