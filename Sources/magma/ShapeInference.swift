import Foundation
import Magma

/// What the samples showed at one position of a record (a member, an array element): how many
/// values of each kind, merged over every sample. A position seen both as a string and as a
/// number becomes `JSONValue`; an object, a model; an array, an array of its merged elements.
final class Shape {
    var values = 0
    var nulls = 0
    var bools = 0
    /// Integers that fit `Int` (64 bits).
    var ints = 0
    /// Numbers that are not such integers.
    var doubles = 0
    var strings = 0
    /// Strings that are ISO 8601 date-times (fractional seconds and offsets included: a `Date`
    /// keeps the instant), and absolute URLs written as `URL` writes them back (so models
    /// re-encode to the same text).
    var dates = 0
    var urls = 0
    var object: ObjectShape?
    var element: Shape?
    var arrays = 0

    /// Adds one value seen at this position.
    func add(_ value: JSONValue) {
        values += 1
        switch value {
        case .null: nulls += 1
        case .bool: bools += 1
        case .number(let n):
            if n.text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || ($0 >= 48 && $0 <= 57) }), Int(n.text) != nil { ints += 1 } else { doubles += 1 }
        case .string(let s):
            strings += 1
            if Shape.isDate(s) { dates += 1 }
            if Shape.isURL(s) { urls += 1 }
        case .object(let members):
            if object == nil { object = ObjectShape() }
            object!.add(members)
        case .array(let items):
            arrays += 1
            if element == nil { element = Shape() }
            for item in items { element!.add(item) }
        }
    }

    /// Seen, and never as null.
    var nonNull: Int { values - nulls }

    /// The kinds of non-null values seen (numbers count as one kind).
    var kindCount: Int {
        [bools > 0, ints + doubles > 0, strings > 0, object != nil, arrays > 0].filter { $0 }.count
    }

    private static let iso = Transformer<JSONValue, Date>.iso8601

    /// `2024-01-31T12:34:56Z`, `…:24.00Z`, `…:38.000-04:00`: a date and a time, as the default
    /// `Date` transformer reads them.
    static func isDate(_ s: String) -> Bool {
        let bytes = Array(s.utf8)
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T") else { return false }
        return (try? iso.transform(.string(s))) != nil
    }

    static func isURL(_ s: String) -> Bool {
        guard s.hasPrefix("http://") || s.hasPrefix("https://"), let url = URL(string: s), url.host != nil else { return false }
        return url.absoluteString == s
    }
}

/// The members of the objects seen at one position, in the order they first appeared.
final class ObjectShape {
    var count = 0
    var keys: [String] = []
    var members: [String: Shape] = [:]
    /// How many of the objects held each key.
    var present: [String: Int] = [:]

    func add(_ object: [String: JSONValue]) {
        count += 1
        // JSONValue objects are unordered: sorted, so generated code is stable.
        for key in object.keys.sorted() {
            if members[key] == nil {
                keys.append(key)
                members[key] = Shape()
            }
            members[key]!.add(object[key]!)
            present[key, default: 0] += 1
        }
    }

    /// Objects whose keys are data, not names: a dictionary, not a model. Keys that are all
    /// numbers (ids), or many keys (16 or more) whose values have one shape: one kind, and objects
    /// that hold most of the same keys (update-center.json's plugins, keyed by plugin name).
    var keysAreData: Bool {
        guard !keys.isEmpty else { return false }
        if keys.allSatisfy({ key in key.first.map { $0.isNumber } ?? true }) { return true }
        guard keys.count >= 16 else { return false }
        let values = mergedValues
        guard values.kindCount == 1 else { return false }
        guard let object = values.object, object.count > 0, !object.keys.isEmpty else { return true }
        // How full the average value is, against every key the values hold.
        let filled = object.keys.reduce(0) { $0 + Double(object.present[$1, default: 0]) } / Double(object.keys.count * object.count)
        return filled >= 0.5
    }

    /// One shape for every member's values (a dictionary's values).
    var mergedValues: Shape {
        let merged = Shape()
        for key in keys { merged.merge(members[key]!) }
        return merged
    }
}

extension Shape {
    /// Adds everything `other` saw (for a dictionary's values).
    func merge(_ other: Shape) {
        values += other.values; nulls += other.nulls; bools += other.bools; ints += other.ints
        doubles += other.doubles; strings += other.strings; dates += other.dates; urls += other.urls
        arrays += other.arrays
        if let o = other.object {
            if object == nil { object = ObjectShape() }
            object!.merge(o)
        }
        if let e = other.element {
            if element == nil { element = Shape() }
            element!.merge(e)
        }
    }
}

extension ObjectShape {
    func merge(_ other: ObjectShape) {
        count += other.count
        for key in other.keys {
            if members[key] == nil {
                keys.append(key)
                members[key] = Shape()
            }
            members[key]!.merge(other.members[key]!)
            present[key, default: 0] += other.present[key] ?? 0
        }
    }
}

/// The records of sample files: a top-level array's elements, NDJSON's lines, or one document.
enum Samples {
    static func records(in data: Data, name: String) throws -> [JSONValue] {
        if let value = try? JSONAdapter.value(from: data, .json) {
            if case .array(let items) = value { return items }
            return [value]
        }
        var records: [JSONValue] = []
        for (i, line) in data.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
        where line.contains(where: { !Input.isSpace($0) }) {
            do {
                records.append(try JSONAdapter.value(from: Data(line), .json))
            } catch let error as JSONError {
                throw ValidationErrorText("\(name): line \(i + 1) is not JSON: \(error.message)")
            }
        }
        return records
    }
}

/// An error whose text is shown as is.
struct ValidationErrorText: Error, CustomStringConvertible {
    let description: String
    init(_ text: String) { description = text }
}
