// How TapeDecoder reaches a type without asking it to decode itself: arrays and String-keyed
// dictionaries read straight from the tape, the per-decoder table of known types' routes, and
// the small helpers for paths and integers they share.

import Foundation

/// Arrays and `String`-keyed dictionaries, decoded straight from the tape (see `TapeDecoder.unwrap`).
protocol TapeDirectDecodable {
    static func decode(from decoder: TapeDecoder, _ i: Int, _ path: CodingPathNode) throws -> Any
}

extension Array: TapeDirectDecodable where Element: Decodable {
    /// The loop is here, where `Self`'s metadata is at hand: a generic function building a
    /// `[Element]` would look it up per call.
    static func decode(from decoder: TapeDecoder, _ i: Int, _ path: CodingPathNode) throws -> Any {
        let count = try decoder.checkArray(i, path)
        // Concrete loops for the common elements: unspecialized, even `Self()` and `append` look
        // up the storage class's metadata.
        if Element.self == Double.self { return try decoder.elements(i, count, path) { try decoder.unwrapFloat($0, as: Double.self, path, $1) } }
        if Element.self == Int.self { return try decoder.elements(i, count, path) { try decoder.unwrapInteger($0, as: Int.self, path, $1) } }
        if Element.self == Int64.self { return try decoder.elements(i, count, path) { try decoder.unwrapInteger($0, as: Int64.self, path, $1) } }
        if Element.self == String.self { return try decoder.elements(i, count, path) { try decoder.unwrapString($0, path, $1) } }
        var result = Self()
        result.reserveCapacity(count)
        var k = i + 1
        for index in 0..<count {
            result.append(try decoder.unwrap(k, as: Element.self, for: path, PathKey(index: index)))
            k = decoder.tape.next(after: k)
        }
        return result
    }
}

extension Dictionary: TapeDirectDecodable where Key == String, Value: Decodable {
    /// As for arrays, the loop is where `Self`'s metadata is at hand. The first of duplicate keys
    /// wins, as in JSONDecoder's keyed containers.
    static func decode(from decoder: TapeDecoder, _ i: Int, _ path: CodingPathNode) throws -> Any {
        try decoder.checkObject(i, path)
        let tape = decoder.tape
        var result = Self()
        result.reserveCapacity(tape[i].count)
        var k = i + 1
        let end = tape[i].end
        while k < end {
            let name = String(checkedUTF8: tape.text(tape[k]))
            if result[name] == nil { result[name] = try decoder.unwrap(k + 1, as: Value.self, for: path, PathKey(dictionaryKey: name)) }
            k = tape.next(after: k + 1)
        }
        return result
    }
}

/// Which types decode straight from the tape, remembered per type (see `TypeMemo`).
typealias TypeRoutes = TypeMemo<(any TapeDirectDecodable.Type)?>

private let tapeDirectTypes = TypeAnswers<(any TapeDirectDecodable.Type)?> { $0 as? any TapeDirectDecodable.Type }

extension TypeMemo where Answer == (any TapeDirectDecodable.Type)? {
    convenience init() { self.init(tapeDirectTypes) }
}

/// Coding paths as Magma's JSON paths (`$.statuses[3].user`), for `JSONError.path`.
enum JSONPathText {
    static func render(_ path: [any CodingKey]) -> String {
        var text = "$"
        for key in path {
            // The decoder's own index keys without making their "Index 3" text (each failed
            // `try?` of a generic value renders its path).
            if let index = (key as? PathKey)?.index { text += "[\(index)]"; continue }
            if let i = key.intValue, key.stringValue == "Index \(i)" { text += "[\(i)]" } else { text += JSONPath.component(key.stringValue) }
        }
        return text
    }
}

extension Tape {
    /// 1-based line and column (in bytes) of `offset`; the first call indexes the lines. Nil for
    /// a record whose stream places its errors itself.
    func lineAndColumn(of offset: Int) -> (Int, Int)? {
        if isRecord { return nil }
        let starts = lineStarts()
        // The last line start at or before offset.
        var lo = 0, hi = starts.count
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if starts[mid] <= offset { lo = mid } else { hi = mid }
        }
        return (lo + 1, offset - starts[lo] + 1)
    }
}

extension FixedWidthInteger {
    /// The integer part of a `Decimal` (JSONDecoder truncates, after its Double check has let
    /// through only values that are integers as Doubles); nil if out of range.
    init?(exactly decimal: Decimal) {
        guard decimal.isFinite else { return nil }
        var text = decimal.description
        if let point = text.firstIndex(of: ".") { text = String(text[..<point]) }
        if text == "-0" { text = "0" }
        guard let v = Self(text) else { return nil }
        self = v
    }
}
