import Foundation
import Magma

/// How each system decodes a corpus of `Record`s; one place, so every caller (compare, the
/// package-benchmark suite, validation) measures exactly the same code.
public enum RecordDecoding<Record: CorpusRecord> {
    /// Foundation's JSONDecoder (one decoder per call, reused across NDJSON lines).
    public static func jsonDecoder(_ input: CorpusInput) throws -> [Record] {
        try jsonDecoder(input, Record.makeJSONDecoder())
    }

    /// JSONDecoder reading dates through a `DateFormatter` of the mapping's pattern.
    public static func jsonDecoderPattern(_ input: CorpusInput) throws -> [Record] {
        guard let decoder = Record.makePatternJSONDecoder() else {
            throw SystemUnavailable("JSONDecoder already uses the pattern's DateFormatter (or no dates)")
        }
        return try jsonDecoder(input, decoder)
    }

    private static func jsonDecoder(_ input: CorpusInput, _ decoder: JSONDecoder) throws -> [Record] {
        switch input.layout {
        case .array:
            return try decoder.decode([Record].self, from: input.data)
        case .document:
            return [try decoder.decode(Record.self, from: input.data)]
        case .ndjson:
            var records: [Record] = []
            let data = input.data
            try forEachLine(in: data) { range in
                records.append(try decoder.decode(Record.self, from: data[range]))
            }
            return records
        }
    }

    /// MagmaDecoder configured as `Record.makeJSONDecoder()` is (reused across NDJSON lines).
    public static func magmaDecoder(_ input: CorpusInput) throws -> [Record] {
        let decoder = Record.makeMagmaDecoder()
        switch input.layout {
        case .array:
            return try decoder.decode([Record].self, from: input.data)
        case .document:
            return [try decoder.decode(Record.self, from: input.data)]
        case .ndjson:
            var records: [Record] = []
            try forEachLineBuffer(in: input.data) { line in records.append(try decoder.decode(Record.self, from: line)) }
            return records
        }
    }

    /// JSONSerialization, then the hand-written mapping (one `DateFormatter` per call).
    public static func handMapping(_ input: CorpusInput) throws -> [Record] {
        let context = HandMappingContext(datePattern: Record.handMappingDatePattern)
        switch input.layout {
        case .array:
            let array = try foundationObject(input.data, as: [Any].self)
            var records: [Record] = []
            records.reserveCapacity(array.count)
            for element in array {
                guard let object = element as? JSONDictionary else {
                    throw HandMappingError(key: "$[]", problem: "element is not an object")
                }
                records.append(try Record(handMapping: object, context))
            }
            return records
        case .document:
            return [try Record(handMapping: try foundationObject(input.data, as: JSONDictionary.self), context)]
        case .ndjson:
            var records: [Record] = []
            let data = input.data
            try forEachLine(in: data) { range in
                records.append(try Record(handMapping: try foundationObject(data[range], as: JSONDictionary.self), context))
            }
            return records
        }
    }

    /// Magma (see `MagmaSystem`).
    public static func magma(_ input: CorpusInput) throws -> [Record] {
        try MagmaSystem.decode(Record.self, input)
    }

    /// Decodes with `system` and returns the number of records, dropping the models.
    @inline(never)
    public static func decodeCount(_ system: DecodeSystem, _ input: CorpusInput) throws -> Int {
        switch system {
        case .magma: return try MagmaSystem.decodeCount(Record.self, input)
        case .magmaMap: return try MagmaSystem.decodeCount(Record.self, input, mapTwin: true)
        case .magmaText: return try MagmaSystem.decodeTextCount(Record.self, input)
        case .magmaYajl: return try MagmaSystem.decodeCount(Record.self, input, options: MagmaSystem.yajlReader)
        case .jsonDecoder: return count(try jsonDecoder(input))
        case .magmaDecoder: return count(try magmaDecoder(input))
        case .jsonDecoderPattern: return count(try jsonDecoderPattern(input))
        case .handMapping: return count(try handMapping(input))
        case .yajl:
            try MagmaSystem.yajlScan(input)
            return 0
        case .msgspec, .orjson: throw SystemUnavailable("runs in Python (Benchmarks/scripts/peers.py)")
        }
    }

    /// Decodes with `system` and returns the models (for validation).
    public static func decode(_ system: DecodeSystem, _ input: CorpusInput) throws -> [Record] {
        switch system {
        case .magma: return try magma(input)
        case .magmaMap: return try MagmaSystem.decode(Record.self, input, mapTwin: true)
        case .magmaYajl: return try MagmaSystem.decode(Record.self, input, options: MagmaSystem.yajlReader)
        case .jsonDecoder: return try jsonDecoder(input)
        case .magmaDecoder: return try magmaDecoder(input)
        case .jsonDecoderPattern: return try jsonDecoderPattern(input)
        case .handMapping: return try handMapping(input)
        case .magmaText: throw SystemUnavailable("builds the text twin (see Validation.textTwin)")
        case .yajl: throw SystemUnavailable("yajl no-op builds no models")
        case .msgspec, .orjson: throw SystemUnavailable("builds Python objects")
        }
    }

    @inline(__always)
    static func count(_ records: [Record]) -> Int {
        records.count == 1 ? records[0].recordCount : records.count
    }
}
