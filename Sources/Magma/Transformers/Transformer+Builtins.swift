import Foundation

extension Transformer where Input == JSONValue, Output == String {
    /// JSON strings.
    public static var string: Self { Transformer(codec: StringCodec.shared) }
}

extension Transformer where Input == JSONValue, Output == Bool {
    /// JSON booleans.
    public static var bool: Self { Transformer(codec: BoolCodec.shared) }
}

extension Transformer where Input == JSONValue, Output: FixedWidthInteger {
    /// JSON numbers whose value is an integer in `Output`'s range; overflow is an error.
    public static var integer: Self {
        // Specialised where `Output` is concrete (each integer type's `jsonTransformer`).
        Transformer(codec: IntegerCodec<Output>(typedWrite: TypedWrite(.number) { text, address, form in
            guard case .value(let value) = NumberParsing.integer(text, as: Output.self) else { return false }
            form.store(value, at: address)
            return true
        }, valueWriter: Output.bitWidth == 64 ? writer64(signed: Output.isSigned) : ScalarValue { (v: Output, w) in w.integer(v) }))
    }
}

/// One writer per 64-bit layout, outside the generic getter: `Int`'s and `Int64`'s would compile
/// to one body, which the linker merges behind thunks that cost two calls per value.
private func writer64(signed: Bool) -> ScalarValue {
    signed ? ScalarValue { (v: Int64, w) in w.int64(v) } : ScalarValue { (v: UInt64, w) in w.uint64(v) }
}

extension Transformer where Input == JSONValue, Output == Double {
    /// JSON numbers, correctly rounded.
    public static var double: Self { Transformer(codec: DoubleCodec.shared) }
}

extension Transformer where Input == JSONValue, Output == Float {
    /// JSON numbers, correctly rounded to `Float`.
    public static var float: Self { Transformer(codec: FloatCodec.shared) }
}

extension Transformer where Input == JSONValue, Output == Decimal {
    /// JSON numbers, exactly (no detour through `Double`).
    public static var decimal: Self { Transformer(codec: DecimalCodec.shared) }
}

extension Transformer where Input == JSONValue, Output == URL {
    /// URLs written as JSON strings.
    public static var url: Self { Transformer(codec: URLCodec.shared) }
}

extension Transformer where Input == JSONValue, Output == UUID {
    /// UUIDs written as JSON strings (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, any case).
    public static var uuid: Self {
        Transformer(codec: StringFormCodec("UUID", parse: { bytes throws(InvalidForm) in
            try InvalidForm.unwrap(UUID(uuidString: String(checkedUTF8: bytes)))
        }, format: { $0.uuidString }))
    }
}

extension Transformer where Input == JSONValue, Output == Data {
    /// Data written as a Base64 JSON string.
    public static var base64: Self {
        Transformer(codec: StringFormCodec("Base64 data", parse: { bytes throws(InvalidForm) in
            try InvalidForm.unwrap(Data(base64Encoded: Data(bytes)))
        }, format: { $0.base64EncodedString() }))
    }
}

extension Transformer where Input == JSONValue, Output == Date {
    /// ISO 8601 / RFC 3339 dates (`2024-01-31T12:34:56Z`, with or without fractional seconds, `Z`
    /// or an offset); written back in UTC with the fraction the date has: none for whole seconds,
    /// else the fewest digits (up to nine) that read back as the same `Date`, so a decoded date
    /// survives a round trip (`…:06.123Z` stays `…:06.123Z`).
    public static var iso8601: Self { iso8601(fractionalSeconds: false) }

    /// ISO 8601 dates, as ``iso8601``; with `fractionalSeconds`, whole seconds are written with
    /// milliseconds too (`…:06.000Z`), for readers that expect a fraction in every date.
    /// - Parameter fractionalSeconds: Whether every date is written with at least three fraction
    ///   digits. Either way a date keeps the fraction it has, and decoding accepts both forms.
    public static func iso8601(fractionalSeconds: Bool) -> Self {
        let digits = fractionalSeconds ? 3 : 0
        return Transformer(codec: StringFormCodec("ISO 8601 date", parse: { bytes throws(InvalidForm) in
            try InvalidForm.unwrap(ISO8601DateCoding.parse(bytes))
        }, format: { ISO8601DateCoding.formatExact($0, minimumFractionDigits: digits) }, typedWrite: .date(ISO8601DateCoding.parse)))
    }

    /// Dates in a fixed `DateFormatter` pattern such as `yyyy-MM-dd'T'HH:mm:ss'Z'`. Common patterns
    /// are parsed from the bytes directly; others go through `DateFormatter`, with the same result.
    ///
    /// The byte-level fast path holds for a Gregorian calendar (the default, and any locale's
    /// Gregorian), any time zone, and locales whose digits (and, for month and weekday names,
    /// names) are the English ones; other calendars and locales go through `DateFormatter`.
    /// - Parameters:
    ///   - pattern: The Unicode date pattern.
    ///   - locale: The locale; default `en_US_POSIX`.
    ///   - timeZone: The time zone for patterns without a zone field; default UTC.
    ///   - calendar: The calendar the fields count in (`Calendar(identifier: .buddhist)` reads
    ///     2567-01-31 as 2024-01-31); default the locale's.
    public static func date(format pattern: String, locale: Locale = Locale(identifier: "en_US_POSIX"),
                            timeZone: TimeZone = TimeZone(identifier: "UTC")!, calendar: Calendar? = nil) -> Self {
        let parser = DatePattern(pattern: pattern, locale: locale, timeZone: timeZone, calendar: calendar)
        return Transformer(codec: StringFormCodec("date in the form \(pattern)", parse: { bytes throws(InvalidForm) in
            try InvalidForm.unwrap(parser.parse(bytes))
        }, format: parser.format, typedWrite: .date(parser.parse)))
    }

    /// Dates as a JSON number of seconds since 1970-01-01T00:00:00Z.
    public static var epochSeconds: Self { Transformer(codec: EpochCodec(unitsPerSecond: 1)) }
    /// Dates as a JSON number of milliseconds since 1970-01-01T00:00:00Z.
    public static var epochMilliseconds: Self { Transformer(codec: EpochCodec(unitsPerSecond: 1000)) }
}

extension Transformer where Input == JSONValue, Output == JSONValue {
    /// Any JSON value, captured whole.
    public static var json: Self { Transformer(codec: JSONValueCodec.shared) }
}

extension Transformer where Input == JSONValue {
    /// `null` becomes nil; anything else goes through `wrapped`.
    /// - Parameter wrapped: The transformer for non-null values.
    public static func optional<Wrapped>(_ wrapped: Transformer<JSONValue, Wrapped>) -> Self where Output == Wrapped? {
        Transformer(codec: OptionalCodec(wrapped.codec))
    }

    /// A JSON array, each element through `element`.
    /// - Parameter element: The transformer for each element.
    public static func array<Element>(_ element: Transformer<JSONValue, Element>) -> Self where Output == [Element] {
        Transformer(codec: ArrayCodec(element.codec))
    }

    /// A JSON object as a dictionary, each value through `value`.
    /// - Parameter value: The transformer for each member's value.
    public static func dictionary<Value>(_ value: Transformer<JSONValue, Value>) -> Self where Output == [String: Value] {
        Transformer(codec: DictionaryCodec(value.codec))
    }

    /// A RawRepresentable value (an enum) by its raw value; an unknown raw value is an
    /// ``JSONError/Code/invalidValue`` error naming it.
    ///
    /// Inlinable so that the model's module compiles its typed write (a `String` or `Int` raw
    /// value read and the case stored with no generic code).
    /// - Parameter type: The RawRepresentable type.
    @inlinable
    public static func rawValue(_ type: Output.Type) -> Self where Output: RawRepresentable, Output.RawValue: JSONRepresentable,
        Output.RawValue.JSONForm == Output.RawValue {
        rawValue(type, typedWrite: .rawValue(type))
    }

    @usableFromInline
    static func rawValue(_ type: Output.Type, typedWrite: TypedWrite?) -> Self where Output: RawRepresentable,
        Output.RawValue: JSONRepresentable, Output.RawValue.JSONForm == Output.RawValue {
        let raw = Output.RawValue.jsonTransformer.codec
        return Transformer(codec: MappedCodec(raw, name: typeName(Output.self), forward: { value in
            guard let v = Output(rawValue: value) else {
                throw JSONError(.invalidValue, "\(value) is not a \(Output.self) (no case has that raw value)")
            }
            return v
        }, reverse: { $0.rawValue }, typedWrite: typedWrite))
    }

    /// Maps listed JSON values to values, with defaults for the rest (Mantle's value-mapping
    /// transformer).
    /// - Parameters:
    ///   - mapping: JSON value -> property value.
    ///   - defaultValue: The value for JSON values not in `mapping`; nil makes them an error.
    ///   - reverseDefault: The JSON for values not in `mapping`; nil makes them an error when encoding.
    public static func valueMapping(_ mapping: [JSONValue: Output], default defaultValue: Output? = nil,
                                    reverseDefault: JSONValue? = nil) -> Self where Output: Equatable {
        Transformer(forward: { json in
            if let v = mapping[json] { return v }
            if let defaultValue { return defaultValue }
            throw JSONError(.invalidValue, "\(json) is not one of the mapped values")
        }, reverse: { value in
            if let json = mapping.first(where: { $0.value == value })?.key { return json }
            if let reverseDefault { return reverseDefault }
            throw JSONError(.notEncodable, "\(value) is not one of the mapped values")
        })
    }
}

// MARK: - Implicit transformers

extension String: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, String> { .string } }
extension Bool: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, Bool> { .bool } }
extension Int: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, Int> { .integer } }
extension Int8: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, Int8> { .integer } }
extension Int16: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, Int16> { .integer } }
extension Int32: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, Int32> { .integer } }
extension Int64: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, Int64> { .integer } }
extension UInt: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, UInt> { .integer } }
extension UInt8: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, UInt8> { .integer } }
extension UInt16: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, UInt16> { .integer } }
extension UInt32: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, UInt32> { .integer } }
extension UInt64: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, UInt64> { .integer } }
extension Int128: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, Int128> { .integer } }
extension UInt128: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, UInt128> { .integer } }
extension Double: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, Double> { .double } }
extension Float: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, Float> { .float } }
extension Decimal: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, Decimal> { .decimal } }
extension URL: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, URL> { .url } }
extension UUID: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, UUID> { .uuid } }
extension Data: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, Data> { .base64 } }
extension Date: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, Date> { .iso8601 } }
extension JSONValue: JSONRepresentable { public static var jsonTransformer: Transformer<JSONValue, JSONValue> { .json } }

extension Optional: JSONRepresentable where Wrapped: JSONRepresentable {
    public static var jsonTransformer: Transformer<JSONValue, Wrapped.JSONForm?> { .optional(Wrapped.jsonTransformer) }
}
extension Array: JSONRepresentable where Element: JSONRepresentable {
    public static var jsonTransformer: Transformer<JSONValue, [Element.JSONForm]> { .array(Element.jsonTransformer) }
}
extension Dictionary: JSONRepresentable where Key == String, Value: JSONRepresentable {
    public static var jsonTransformer: Transformer<JSONValue, [String: Value.JSONForm]> { .dictionary(Value.jsonTransformer) }
}

extension TypedWrite {
    /// Dates from string tokens through `parse` (nil for text it cannot read).
    static func date(_ parse: @escaping (UnsafeRawBufferPointer) -> Date?) -> TypedWrite {
        TypedWrite(.string) { bytes, address, form in
            guard let date = parse(bytes) else { return false }
            form.store(date, at: address)
            return true
        }
    }

    /// The typed write of `V` by its raw value, when that is a `String` or an `Int`. Compiled
    /// where it is called with a concrete `V` (the casts then vanish).
    @inlinable
    static func rawValue<V: RawRepresentable>(_: V.Type) -> TypedWrite? {
        if V.RawValue.self == String.self {
            return TypedWrite(.string) { bytes, address, form in
                guard let value = V(rawValue: TypedWrite.string(bytes) as! V.RawValue) else { return false }
                form.store(value, at: address)
                return true
            }
        }
        if V.RawValue.self == Int.self {
            return TypedWrite(.number) { text, address, form in
                guard let raw = TypedWrite.int(text), let value = V(rawValue: raw as! V.RawValue) else { return false }
                form.store(value, at: address)
                return true
            }
        }
        return nil
    }
}
