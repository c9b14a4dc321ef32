// Tests for NumberParsing (JSON number text -> integers, Double, Float).
import Foundation
import Testing
@testable import Magma

#if canImport(Glibc)
import Glibc
#endif

/// Iteration counts: the random suites run these many cases in every configuration
/// (debug `swift test` included).
private enum NumberParsingIterations {
    static let doubleRoundTrip = 1_000_000      // random bit patterns, x2 renderings each
    static let subnormalRoundTrip = 100_000     // random subnormal bit patterns, x2 renderings
    static let decimalVersusStrtod = 200_000    // random decimal strings
    static let doubleTies = 20_000              // exact halfway points (and neighbours)
    static let floatRoundTrip = 300_000
    static let floatVersusStrtof = 200_000
    static let floatTies = 20_000
    static let integers = 100_000
}


/// Runs `body` on the UTF-8 bytes of `text`, placed inside a larger buffer followed by
/// more number-like bytes, so that reading past `count` would change the result.
private func withNumberText<R>(_ text: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    var bytes = Array(text.utf8)
    let count = bytes.count
    bytes.append(contentsOf: Array("9.9e99".utf8))
    return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
}

private func parseInteger<T: FixedWidthInteger>(_ text: String, as type: T.Type) -> NumberParsing.IntegerResult<T> {
    withNumberText(text) { NumberParsing.integer($0, as: type) }
}
private func parseDouble(_ text: String) -> Double? { withNumberText(text) { NumberParsing.double($0) } }
private func parseFloat(_ text: String) -> Float? { withNumberText(text) { NumberParsing.float($0) } }

/// glibc's strtod/strtof (correctly rounded); nil where they overflow to infinity.
private func referenceDouble(_ text: String) -> Double? {
    let v = text.withCString { strtod($0, nil) }
    return v.isInfinite ? nil : v
}
private func referenceFloat(_ text: String) -> Float? {
    let v = text.withCString { strtof($0, nil) }
    return v.isInfinite ? nil : v
}

private func formatG17(_ value: Double) -> String { String(format: "%.17g", value) }

/// Random JSON number text: 1-`maxDigits` digit mantissa (leading digit non-zero unless
/// it is the single digit 0), a random decimal point position, and an exponent in `exponents`.
private func randomDecimalText(_ rng: inout SeededGenerator, maxDigits: Int, exponents: ClosedRange<Int>) -> String {
    let digitCount = Int.random(in: 1...maxDigits, using: &rng)
    var digits: [UInt8] = []
    digits.reserveCapacity(digitCount)
    for k in 0..<digitCount {
        let d = k == 0 && digitCount > 1 ? UInt8.random(in: 1...9, using: &rng) : UInt8.random(in: 0...9, using: &rng)
        digits.append(UInt8(ascii: "0") + d)
    }
    var text = Bool.random(using: &rng) ? "-" : ""
    let point = Int.random(in: 0...digitCount, using: &rng)   // digits before the point
    if point == 0 {
        text += "0." + String(decoding: digits, as: UTF8.self)
    } else if point == digitCount {
        text += String(decoding: digits, as: UTF8.self)
    } else {
        text += String(decoding: digits[..<point], as: UTF8.self) + "." + String(decoding: digits[point...], as: UTF8.self)
    }
    switch Int.random(in: 0..<4, using: &rng) {
    case 0: break
    case 1: text += "e\(Int.random(in: exponents, using: &rng))"
    case 2: text += "E+\(abs(Int.random(in: exponents, using: &rng)))"
    default: text += "e\(Int.random(in: exponents, using: &rng))"
    }
    return text
}

/// Exact decimal expansion of a binary floating-point value (glibc printf prints exact
/// expansions). `format` is "%.1000e" for Double, "%.1000Le" for Float80.
private func exactDecimal(_ value: CVarArg, format: String) -> String {
    var buffer = [CChar](repeating: 0, count: 1100)
    let n = withVaList([value]) { vsnprintf(&buffer, buffer.count, format, $0) }
    precondition(n > 0 && n < buffer.count)
    var text = String(decoding: buffer[..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // Trim trailing zeros of the mantissa (keeps the text short, value unchanged).
    if let e = text.firstIndex(of: "e") {
        var mantissa = text[..<e]
        while mantissa.last == "0" { mantissa.removeLast() }
        if mantissa.last == "." { mantissa.removeLast() }
        text = String(mantissa) + String(text[e...])
    }
    return text
}

/// Variants around an exact halfway text: the tie itself, slightly above, slightly below.
private func tieVariants(_ tie: String) -> [String] {
    guard let e = tie.firstIndex(of: "e") else { return [tie] }
    let mantissa = String(tie[..<e]), exponent = String(tie[e...])
    let withPoint = mantissa.contains(".") ? mantissa : mantissa + "."
    var below = withPoint
    // Decrement: the tie ends in a non-zero digit; lowering it and appending 9s stays below.
    if let last = below.last, let d = last.wholeNumberValue, d > 0, last != "." {
        below.removeLast()
        below += String(d - 1) + "99999999999999999999"
    }
    return [tie, withPoint + "00000000000000000001" + exponent, below + exponent]
}

@Suite struct NumberParsingTests {

    // MARK: Buffer bounds

    @Test func parsers_neverReadPastCount() {
        // The text is followed by more digits in memory; only `count` bytes may be read.
        let bytes = Array("-1.234567890123456789012345e-5".utf8)
        bytes.withUnsafeBytes { all in
            let prefix = UnsafeRawBufferPointer(rebasing: all[0..<11])   // "-1.23456789"
            #expect(NumberParsing.double(prefix) == -1.23456789)
            #expect(NumberParsing.float(prefix) == -1.23456789 as Float)
            #expect(NumberParsing.integer(UnsafeRawBufferPointer(rebasing: all[0..<2]), as: Int.self) == .value(-1))
            #expect(NumberParsing.integer(prefix, as: Int.self) == .notInteger)
        }
    }

    // MARK: Integers

    @Test func integer_plainDigits() {
        #expect(parseInteger("0", as: Int.self) == .value(0))
        #expect(parseInteger("7", as: Int.self) == .value(7))
        #expect(parseInteger("123456789", as: Int.self) == .value(123_456_789))
        #expect(parseInteger("-123456789", as: Int.self) == .value(-123_456_789))
        #expect(parseInteger("-0", as: Int.self) == .value(0))
        #expect(parseInteger("-0", as: UInt.self) == .value(0))
    }

    @Test func integer_fractionAndExponentWithIntegralValue() {
        #expect(parseInteger("1.0", as: Int.self) == .value(1))
        #expect(parseInteger("1.000000000000000000000000000000", as: Int.self) == .value(1))
        #expect(parseInteger("1e2", as: Int.self) == .value(100))
        #expect(parseInteger("1E+2", as: Int.self) == .value(100))
        #expect(parseInteger("12.300e1", as: Int.self) == .value(123))
        #expect(parseInteger("1.23e2", as: Int.self) == .value(123))
        #expect(parseInteger("100e-2", as: Int.self) == .value(1))
        #expect(parseInteger("0.000001e6", as: Int.self) == .value(1))
        #expect(parseInteger("-2.5e1", as: Int.self) == .value(-25))
        #expect(parseInteger("1000000000000000000000e-3", as: Int.self) == .value(1_000_000_000_000_000_000))
        #expect(parseInteger("1e18", as: Int64.self) == .value(1_000_000_000_000_000_000))
        #expect(parseInteger("1e19", as: UInt64.self) == .value(10_000_000_000_000_000_000))
    }

    @Test func integer_zeroInAnyForm() {
        for text in ["0e-5", "0e400", "0.0", "-0.0", "0.000e-99999999999999999999", "-0E+7", "0.0e1000000"] {
            #expect(parseInteger(text, as: Int.self) == .value(0), "\(text)")
            #expect(parseInteger(text, as: UInt8.self) == .value(0), "\(text)")
        }
    }

    @Test func integer_fractionalValueIsNotInteger() {
        for text in ["1.5", "-1.5", "0.1", "1e-400", "-1e-400", "123e-1", "1.234e2", "12.3001e2",
                     "9223372036854775808e-1", "1.00000000000000000000000001", "5e-1"] {
            #expect(parseInteger(text, as: Int.self) == .notInteger, "\(text)")
        }
        // notInteger takes precedence over the sign check for unsigned types.
        #expect(parseInteger("-1.5", as: UInt.self) == .notInteger)
    }

    @Test func integer_int64Limits() {
        #expect(parseInteger("9223372036854775807", as: Int64.self) == .value(Int64.max))
        #expect(parseInteger("-9223372036854775808", as: Int64.self) == .value(Int64.min))
        #expect(parseInteger("9223372036854775808", as: Int64.self) == .overflow)
        #expect(parseInteger("-9223372036854775809", as: Int64.self) == .overflow)
        #expect(parseInteger("922337203685477580.7e1", as: Int64.self) == .value(Int64.max))
        #expect(parseInteger("-92233720368547758080e-1", as: Int64.self) == .value(Int64.min))
        #expect(parseInteger("-9.223372036854775808e18", as: Int64.self) == .value(Int64.min))
        #expect(parseInteger("92233720368547758080e-1", as: Int64.self) == .overflow)
        #expect(parseInteger("9223372036854775807", as: Int.self) == .value(Int.max))
        #expect(parseInteger("-9223372036854775808", as: Int.self) == .value(Int.min))
        #expect(parseInteger("99999999999999999999999999", as: Int64.self) == .overflow)
        #expect(parseInteger("-99999999999999999999999999", as: Int64.self) == .overflow)
    }

    @Test func integer_uint64Limits() {
        #expect(parseInteger("18446744073709551615", as: UInt64.self) == .value(UInt64.max))
        #expect(parseInteger("18446744073709551616", as: UInt64.self) == .overflow)
        #expect(parseInteger("1.8446744073709551615e19", as: UInt64.self) == .value(UInt64.max))
        #expect(parseInteger("1.8446744073709551616e19", as: UInt64.self) == .overflow)
        #expect(parseInteger("18446744073709551615", as: UInt.self) == .value(UInt.max))
    }

    /// Up to 18 digits take an unchecked path for 64-bit types (eight digits at a time): every
    /// length around it, both signs, against the checked parse of the standard library.
    @Test func integer_everyDigitCountFor64BitTypes() {
        for length in 1...20 {
            let digits = String("98765432109876543210".suffix(length))
            for text in [digits, "-" + digits, String(digits.reversed()), "-" + String(digits.reversed())] {
                let int64: NumberParsing.IntegerResult<Int64> = Int64(text).map { .value($0) } ?? .overflow
                let uint64: NumberParsing.IntegerResult<UInt64> = UInt64(text).map { .value($0) } ?? .overflow
                #expect(parseInteger(text, as: Int64.self) == int64, "\(text)")
                let int: NumberParsing.IntegerResult<Int> = Int(text).map { .value($0) } ?? .overflow
                #expect(parseInteger(text, as: Int.self) == int, "\(text)")
                #expect(parseInteger(text, as: UInt64.self) == uint64, "\(text)")
            }
        }
        #expect(parseInteger("-0", as: UInt64.self) == .value(0))
        #expect(parseInteger("-1", as: UInt64.self) == .overflow)
        #expect(parseInteger("12345678.5", as: Int64.self) == .notInteger)
        #expect(parseInteger("1234567890123456e2", as: Int64.self) == .value(123456789012345600))
    }

    @Test func integer_smallTypeEdges() {
        #expect(parseInteger("127", as: Int8.self) == .value(127))
        #expect(parseInteger("128", as: Int8.self) == .overflow)
        #expect(parseInteger("-128", as: Int8.self) == .value(-128))
        #expect(parseInteger("-129", as: Int8.self) == .overflow)
        #expect(parseInteger("1.27e2", as: Int8.self) == .value(127))
        #expect(parseInteger("-1.28e2", as: Int8.self) == .value(-128))
        #expect(parseInteger("255", as: UInt8.self) == .value(255))
        #expect(parseInteger("256", as: UInt8.self) == .overflow)
        #expect(parseInteger("2.55e2", as: UInt8.self) == .value(255))
        #expect(parseInteger("1000", as: UInt8.self) == .overflow)
        #expect(parseInteger("32767", as: Int16.self) == .value(Int16.max))
        #expect(parseInteger("-32769", as: Int16.self) == .overflow)
        #expect(parseInteger("4294967295", as: UInt32.self) == .value(UInt32.max))
        #expect(parseInteger("4294967296", as: UInt32.self) == .overflow)
        #expect(parseInteger("-2147483648", as: Int32.self) == .value(Int32.min))
    }

    @Test func integer_negativeForUnsignedOverflows() {
        #expect(parseInteger("-1", as: UInt8.self) == .overflow)
        #expect(parseInteger("-1", as: UInt.self) == .overflow)
        #expect(parseInteger("-1e2", as: UInt64.self) == .overflow)
        #expect(parseInteger("-18446744073709551615", as: UInt64.self) == .overflow)
        #expect(parseInteger("-0", as: UInt64.self) == .value(0))
        #expect(parseInteger("-0.0e5", as: UInt32.self) == .value(0))
    }

    @Test func integer_bigExponentsOverflowWithoutWrapping() {
        #expect(parseInteger("1e400", as: Int.self) == .overflow)
        #expect(parseInteger("-1e400", as: Int.self) == .overflow)
        #expect(parseInteger("1e19", as: Int64.self) == .overflow)
        #expect(parseInteger("1e20", as: UInt64.self) == .overflow)
        #expect(parseInteger("1e99999999999999999999", as: Int.self) == .overflow)
        #expect(parseInteger("1e3", as: Int8.self) == .overflow)
        #expect(parseInteger("2e2", as: Int8.self) == .overflow)
        #expect(parseInteger("1.5e400", as: Int.self) == .overflow)
    }

    @Test func integer_int128() {
        guard #available(macOS 15.0, iOS 18.0, *) else { return }
        #expect(parseInteger("170141183460469231731687303715884105727", as: Int128.self) == .value(Int128.max))
        #expect(parseInteger("-170141183460469231731687303715884105728", as: Int128.self) == .value(Int128.min))
        #expect(parseInteger("170141183460469231731687303715884105728", as: Int128.self) == .overflow)
        #expect(parseInteger("3.40282366920938463463374607431768211455e38", as: UInt128.self) == .value(UInt128.max))
    }

    @Test func integer_randomValuesInEveryRendering() {
        var rng = SeededGenerator(seed: 0x1234)
        for _ in 0..<NumberParsingIterations.integers {
            let v = Int64(bitPattern: rng.next()) >> Int64.random(in: 0...63, using: &rng)
            let plain = String(v)
            #expect(parseInteger(plain, as: Int64.self) == .value(v))
            #expect(parseInteger(plain + ".000", as: Int64.self) == .value(v))
            #expect(parseInteger(plain + "000e-3", as: Int64.self) == .value(v))
            #expect(parseInteger(plain + "e0", as: Int64.self) == .value(v))
            let u = UInt64(truncatingIfNeeded: v)
            #expect(parseInteger(String(u), as: UInt64.self) == .value(u))
            if v != 0 && v != Int64.min {
                #expect(parseInteger(plain + "5e-1", as: Int64.self) == .notInteger)
            }
            // Scientific: d.ddd e k
            let digits = String(v.magnitude)
            let sci = (v < 0 ? "-" : "") + digits.prefix(1) + "." + digits.dropFirst() + "e\(digits.count - 1)"
            #expect(parseInteger(sci, as: Int64.self) == .value(v), "\(sci)")
            let narrow = Int16(truncatingIfNeeded: v)
            #expect(parseInteger(String(narrow), as: Int16.self) == .value(narrow))
            #expect(parseInteger(plain, as: Int16.self) == (Int16(exactly: v).map { .value($0) } ?? .overflow))
        }
    }

    // MARK: Double

    @Test func double_roundTripsRandomBitPatterns() {
        var rng = SeededGenerator(seed: 42)
        var checked = 0
        while checked < NumberParsingIterations.doubleRoundTrip {
            let value = Double(bitPattern: rng.next())
            guard value.isFinite else { continue }
            checked += 1
            let a = value.description, b = formatG17(value)
            let pa = parseDouble(a), pb = parseDouble(b)
            #expect(pa?.bitPattern == value.bitPattern, "\(a)")
            #expect(pb?.bitPattern == value.bitPattern, "\(b)")
        }
    }

    @Test func double_roundTripsRandomSubnormals() {
        var rng = SeededGenerator(seed: 43)
        for _ in 0..<NumberParsingIterations.subnormalRoundTrip {
            let bits = rng.next() & ((1 << 52) - 1) | (rng.next() & (1 << 63))
            let value = Double(bitPattern: bits)
            let a = value.description, b = formatG17(value)
            #expect(parseDouble(a)?.bitPattern == value.bitPattern, "\(a)")
            #expect(parseDouble(b)?.bitPattern == value.bitPattern, "\(b)")
        }
    }

    @Test func double_randomDecimalTextAgreesWithStrtod() {
        var rng = SeededGenerator(seed: 7)
        for k in 0..<NumberParsingIterations.decimalVersusStrtod {
            // Half of the cases with exponents near the normal range, where most digits matter.
            let exponents = k % 2 == 0 ? -350...350 : -30...30
            let text = randomDecimalText(&rng, maxDigits: 30, exponents: exponents)
            let expected = referenceDouble(text)
            #expect(parseDouble(text)?.bitPattern == expected?.bitPattern, "\(text)")
        }
    }

    #if arch(x86_64) || arch(i386)
    /// Midpoints between adjacent doubles are exact in Float80 (x86 only).
    @Test func double_exactHalfwayPointsAgreeWithStrtod() {
        var rng = SeededGenerator(seed: 11)
        for k in 0..<NumberParsingIterations.doubleTies {
            var bits = rng.next() & ~(1 << 63)
            if k % 4 == 0 { bits &= (1 << 52) - 1 }                  // subnormals
            if k % 4 == 1 { bits = bits & ((1 << 60) - 1) | (0x3FF << 52) & ~(0x7 << 57) }  // moderate magnitudes
            let value = Double(bitPattern: bits)
            guard value.isFinite, value.nextUp.isFinite else { continue }
            let tie = (Float80(value) + Float80(value.nextUp)) / 2
            for text in tieVariants(exactDecimal(tie, format: "%.1000Le")) {
                #expect(parseDouble(text)?.bitPattern == referenceDouble(text)?.bitPattern, "\(text)")
                #expect(parseDouble("-" + text)?.bitPattern == referenceDouble("-" + text)?.bitPattern, "-\(text)")
            }
        }
    }
    #endif

    @Test func double_knownHardCases() {
        let cases = [
            "9007199254740993", "9007199254740992", "9007199254740995", "18014398509481993",
            "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308",
            "2.225073858507201136057409796709131975934819546351645648e-308",
            "1e23", "8.988465674311579e+307", "8.98846567431158e+307",
            "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
            "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791",
            "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
            "2.47032822920623272088e-324", "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324",
            "4.4501477170144023e-308", "2.2250738585072009e-308", "2.225073858507200889e-308",
            "1e-400", "-1e-400", "1e-324", "1e-323", "5e-324", "3e-324",
            "0.1", "0.3", "1.1", "3.14159265358979323846264338327950288419716939937510",
            "7.2057594037927933e16", "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124",
            "1.00000000000000011102230246251565404236316680908203126",
            "123456789012345678901234567890", "0.000000000000000000000000000000000123456789012345678901",
            "1448997445238699", "-65.613616999999977", "9223372036854775808", "18446744073709551616",
            "4503599627370496.5", "4503599627370497.5", "9007199254740993.0000000000000000001",
            "1e22", "1e-22", "9007199254740992e22", "9007199254740993e22", "1e37", "123e30",
            "1.2345678901234567890123e-300", "6.631236846766476e-316", "3.234408055000000e-310",
            "2.2250738585072011360574097967091319759348195463516456480234261098e-308",
            "1.9156918820264798e-56", "7.3177701707893310e+15", "5.9604644775390625e-8",
        ]
        for text in cases {
            let negated = text.hasPrefix("-") ? String(text.dropFirst()) : "-" + text
            #expect(parseDouble(text)?.bitPattern == referenceDouble(text)?.bitPattern, "\(text)")
            #expect(parseDouble(negated)?.bitPattern == referenceDouble(negated)?.bitPattern, "\(negated)")
        }
        #expect(parseDouble("9007199254740993") == 9_007_199_254_740_992)   // tie -> even
        #expect(parseDouble("9007199254740995") == 9_007_199_254_740_996)
        #expect(parseDouble("1e23") == 1e23)
        #expect(parseDouble("2.4703282292062327e-324") == 0)
        #expect(parseDouble("2.4703282292062328e-324") == Double.leastNonzeroMagnitude)
        #expect(parseDouble("4.9406564584124654e-324") == Double.leastNonzeroMagnitude)
        #expect(parseDouble("1.7976931348623157e308") == Double.greatestFiniteMagnitude)
    }

    @Test func double_overflowIsNil() {
        #expect(parseDouble("1e400") == nil)
        #expect(parseDouble("-1e400") == nil)
        #expect(parseDouble("1.8e308") == nil)
        #expect(parseDouble("1797693134862315807937289714053034150799341327100378269361737789804449682927647509466490179775872070963302864166928879109465555478519404026306574886715058206819089020007083836762738548458177115317644757302700698555713669596228429148198608349364752927190741684443655107043427115596995080930428801779041744977920") == nil)
        #expect(parseDouble("1e99999999999999999999") == nil)
    }

    @Test func double_zeroAndUnderflowKeepSign() {
        #expect(parseDouble("0")?.bitPattern == (0.0).bitPattern)
        #expect(parseDouble("-0")?.bitPattern == (-0.0).bitPattern)
        #expect(parseDouble("-0.0e10")?.bitPattern == (-0.0).bitPattern)
        #expect(parseDouble("0e400")?.bitPattern == (0.0).bitPattern)
        #expect(parseDouble("1e-400")?.bitPattern == (0.0).bitPattern)
        #expect(parseDouble("-1e-400")?.bitPattern == (-0.0).bitPattern)
        #expect(parseDouble("1e-99999999999999999999")?.bitPattern == (0.0).bitPattern)
        #expect(parseDouble("-1234567890123456789012345e-99999")?.bitPattern == (-0.0).bitPattern)
    }

    @Test func double_simpleValues() {
        #expect(parseDouble("1") == 1)
        #expect(parseDouble("-1.5") == -1.5)
        #expect(parseDouble("1E2") == 100)
        #expect(parseDouble("1e+2") == 100)
        #expect(parseDouble("0.1") == 0.1)
        #expect(parseDouble("-65.613616999999977") == -65.613616999999977)
        #expect(parseDouble("123456789012345678901234567890") == 123456789012345678901234567890.0)
    }

    /// The last 1-7 fraction digits are read in one load that ends at the number's end (digits
    /// already read masked to '0'): every tail length, after 0-2 eight-digit chunks, with an
    /// exponent (which sends the tail back to the digit loop), and texts shorter than eight bytes.
    @Test func double_fractionTailsOfEveryLength() {
        var count = 0
        for integerPart in ["0", "-7", "65", "-123456"] {
            for fractionLength in 1...23 {
                let fraction = String("98765432109876543210123".prefix(fractionLength))
                for suffix in ["", "e5", "E-12", "e+0"] {
                    for text in ["\(integerPart).\(fraction)\(suffix)", "\(integerPart).\(String(fraction.reversed()))\(suffix)"] {
                        #expect(parseDouble(text)?.bitPattern == referenceDouble(text)?.bitPattern, "\(text)")
                        #expect(parseFloat(text)?.bitPattern == referenceFloat(text)?.bitPattern, "\(text)")
                        count += 1
                    }
                }
            }
        }
        #expect(count == 4 * 23 * 4 * 2)
    }

    // MARK: Float

    @Test func float_roundTripsRandomBitPatterns() {
        var rng = SeededGenerator(seed: 99)
        var checked = 0
        while checked < NumberParsingIterations.floatRoundTrip {
            let value = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
            guard value.isFinite else { continue }
            checked += 1
            let a = value.description, b = String(format: "%.9g", Double(value))
            #expect(parseFloat(a)?.bitPattern == value.bitPattern, "\(a)")
            #expect(parseFloat(b)?.bitPattern == value.bitPattern, "\(b)")
        }
    }

    @Test func float_randomDecimalTextAgreesWithStrtof() {
        var rng = SeededGenerator(seed: 5)
        for k in 0..<NumberParsingIterations.floatVersusStrtof {
            let exponents = k % 2 == 0 ? -60...50 : -15...15
            let text = randomDecimalText(&rng, maxDigits: k % 3 == 0 ? 30 : 12, exponents: exponents)
            #expect(parseFloat(text)?.bitPattern == referenceFloat(text)?.bitPattern, "\(text)")
        }
    }

    @Test func float_exactHalfwayPointsAgreeWithStrtof() {
        var rng = SeededGenerator(seed: 13)
        for k in 0..<NumberParsingIterations.floatTies {
            var bits = UInt32(truncatingIfNeeded: rng.next()) & ~(1 << 31)
            if k % 4 == 0 { bits &= (1 << 23) - 1 }
            let value = Float(bitPattern: bits)
            guard value.isFinite, value.nextUp.isFinite else { continue }
            let tie = (Double(value) + Double(value.nextUp)) / 2   // exact in Double
            for text in tieVariants(exactDecimal(tie, format: "%.1000e")) {
                #expect(parseFloat(text)?.bitPattern == referenceFloat(text)?.bitPattern, "\(text)")
            }
        }
    }

    @Test func float_knownHardCasesAndNoDoubleRounding() {
        // Exactly halfway between 1 and 1 + 2^-23: ties to even.
        #expect(parseFloat("1.000000059604644775390625") == 1)
        // Just above the tie: rounding via Double would give 1 + 2^-24 and then 1 (wrong).
        #expect(parseFloat("1.0000000596046447753906251") == Float(1).nextUp)
        #expect(Float(1.0000000596046447753906251 as Double) == 1)   // the double-rounding trap
        let cases = ["3.4028234663852886e38", "3.4028235677973366e38", "3.4028235677973367e38",
                     "1.17549435e-38", "1.4e-45", "7.006492321624085e-46", "7.006492321624086e-46",
                     "1e-46", "16777217", "16777219", "0.1", "1e10", "1e11", "1e17", "1e18",
                     "3.4e38", "3.5e38", "1e39", "8.589973e9", "1.00000017881393432617187499",
                     "7.038531e-26", "1.1754942807573643e-38", "4.7019774032891500318749461488889827112746622270883500860350068251e-38"]
        for text in cases {
            #expect(parseFloat(text)?.bitPattern == referenceFloat(text)?.bitPattern, "\(text)")
            #expect(parseFloat("-" + text)?.bitPattern == referenceFloat("-" + text)?.bitPattern, "-\(text)")
        }
        #expect(parseFloat("1e39") == nil)
        #expect(parseFloat("-1e400") == nil)
        #expect(parseFloat("-0")?.bitPattern == (-0.0 as Float).bitPattern)
        #expect(parseFloat("-1e-400")?.bitPattern == (-0.0 as Float).bitPattern)
        #expect(parseFloat("1e-50") == 0)
    }
}
