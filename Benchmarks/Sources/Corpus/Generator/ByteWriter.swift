/// An append-only byte buffer for the corpus generator.
///
/// The generator writes JSON text directly as bytes (no `JSONSerialization`, no `String`
/// building), which is what lets it produce hundreds of MB per second. Everything it appends
/// is either a `StaticString`, a pre-encoded byte array, or a decimal integer.
struct ByteWriter {
    private(set) var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    var count: Int { bytes.count }

    mutating func removeAll(keepingCapacity: Bool = true) {
        bytes.removeAll(keepingCapacity: keepingCapacity)
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inline(__always)
    mutating func append(_ other: [UInt8]) {
        bytes.append(contentsOf: other)
    }

    @inline(__always)
    mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends the decimal digits of `value`.
    mutating func append(_ value: UInt64) {
        if value < 10 {
            bytes.append(UInt8(truncatingIfNeeded: value) &+ 0x30)
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch, enough for 20 digits
        withUnsafeMutableBytes(of: &digits) { scratch in
            var index = scratch.count
            var rest = value
            while rest > 0 {
                index -= 1
                scratch[index] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
                rest /= 10
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[index...]))
        }
    }

    mutating func append(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            append(UInt64(value.magnitude))
        } else {
            append(UInt64(value))
        }
    }

    /// Appends `value` with exactly `width` digits, zero-padded (for dates).
    @inline(__always)
    mutating func append(_ value: Int, width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(truncatingIfNeeded: rest / divisor) &+ 0x30)
            rest %= divisor
            divisor /= 10
        }
    }

    /// Appends a `yyyy-MM-dd'T'HH:mm:ss'Z'` timestamp, quoted, for `seconds` since 1970 (UTC).
    mutating func appendDate(secondsSince1970 seconds: Int64) {
        let days = Int(seconds / 86_400)
        let secondOfDay = Int(seconds % 86_400)
        let (year, month, day) = civilDate(daysSince1970: days)
        append(byte: UInt8(ascii: "\""))
        append(year, width: 4)
        append(byte: UInt8(ascii: "-"))
        append(month, width: 2)
        append(byte: UInt8(ascii: "-"))
        append(day, width: 2)
        append(byte: UInt8(ascii: "T"))
        append(secondOfDay / 3600, width: 2)
        append(byte: UInt8(ascii: ":"))
        append(secondOfDay / 60 % 60, width: 2)
        append(byte: UInt8(ascii: ":"))
        append(secondOfDay % 60, width: 2)
        append("Z\"")
    }
}

/// Days since 1970-01-01 to a proleptic Gregorian (year, month, day); Howard Hinnant's algorithm.
func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
}

/// SplitMix64: small, fast, and the same sequence on every platform for a given seed.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (bound > 0); the modulo bias is irrelevant here.
    mutating func next(below bound: Int) -> Int {
        Int(truncatingIfNeeded: next() % UInt64(bound))
    }

    /// True with probability `percent` / 100.
    mutating func chance(_ percent: Int) -> Bool {
        next(below: 100) < percent
    }
}
