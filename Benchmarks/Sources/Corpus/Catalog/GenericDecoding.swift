import Foundation
import Magma

/// Any JSON value, for files with no model: what JSONDecoder decodes them into.
public enum AnyJSON: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([AnyJSON].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: AnyJSON].self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let n): try c.encode(n)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }
}

/// The systems on a file with no model.
enum GenericDecoding {
    /// Decodes `input` as AnyJSON with `decode` (a line at a time for NDJSON) and counts values.
    private static func anyJSONCount(_ input: CorpusInput, _ decode: (Data) throws -> AnyJSON) throws -> Int {
        switch input.layout {
        case .ndjson:
            var count = 0
            try forEachLine(in: input.data) { range in
                _ = try decode(input.data[range])
                count += 1
            }
            return count
        case .array, .document:
            if case .array(let elements) = try decode(input.data) { return elements.count }
            return 1
        }
    }

    static func decodeCount(_ system: DecodeSystem, _ input: CorpusInput) throws -> Int {
        switch system {
        case .magma, .magmaMap, .magmaText, .magmaYajl, .jsonDecoderPattern:
            throw SystemUnavailable("no model for this file")
        case .msgspec, .orjson:
            throw SystemUnavailable("runs in Python (Benchmarks/scripts/peers.py)")
        case .yajl:
            try MagmaSystem.yajlScan(input)
            return 0
        case .jsonDecoder:
            let decoder = JSONDecoder()
            return try anyJSONCount(input) { try decoder.decode(AnyJSON.self, from: $0) }
        case .magmaDecoder:
            let decoder = MagmaDecoder()
            return try anyJSONCount(input) { try decoder.decode(AnyJSON.self, from: $0) }
        case .handMapping:
            switch input.layout {
            case .ndjson:
                var count = 0
                try forEachLine(in: input.data) { range in
                    _ = try JSONSerialization.jsonObject(with: input.data[range])
                    count += 1
                }
                return count
            case .array, .document:
                let value = try JSONSerialization.jsonObject(with: input.data)
                return (value as? [Any])?.count ?? 1
            }
        }
    }

    /// Every value of `input` (each line of NDJSON) decoded as AnyJSON with `decode`.
    private static func values(_ input: CorpusInput, _ decode: (Data) throws -> AnyJSON) throws -> [AnyJSON] {
        guard input.layout == .ndjson else { return [try decode(input.data)] }
        var values: [AnyJSON] = []
        try forEachLine(in: input.data) { range in values.append(try decode(input.data[range])) }
        return values
    }

    static func validate(_ input: CorpusInput, systems: [DecodeSystem]) -> Validation {
        var outcomes: [DecodeSystem: Validation.Outcome] = [:]
        var records: Int?
        for system in systems {
            switch system {
            case .magma, .magmaMap, .magmaText, .magmaYajl, .jsonDecoderPattern: outcomes[system] = .notApplicable("no model for this file")
            case .msgspec, .orjson: outcomes[system] = .notApplicable("Python objects: record count compared")
            case .yajl: outcomes[system] = .notApplicable("builds no models")
            case .handMapping: outcomes[system] = .notApplicable("no mapping: JSONSerialization only")
            case .magmaDecoder:
                do {
                    let foundation = JSONDecoder(), magma = MagmaDecoder()
                    let same = try values(input) { try magma.decode(AnyJSON.self, from: $0) }
                        == values(input) { try foundation.decode(AnyJSON.self, from: $0) }
                    outcomes[system] = same ? .same : .different("AnyJSON values differ from JSONDecoder's")
                } catch {
                    outcomes[system] = .failed(String(describing: error))
                }
            case .jsonDecoder:
                do {
                    records = try decodeCount(.jsonDecoder, input)
                    outcomes[system] = .same
                } catch {
                    outcomes[system] = .failed(String(describing: error))
                }
            }
        }
        return Validation(records: records, outcomes: outcomes)
    }
}
