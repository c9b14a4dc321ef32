import Foundation
import Magma

/// The systems compared for encoding: the same models back to JSON.
public enum EncodeSystem: String, CaseIterable, Sendable, Codable {
    /// `JSONAdapter.json(from:)`, through the same mappings and the reverse transformers.
    case magma
    /// Foundation's JSONEncoder with Codable (dates configured like the decoder's).
    case jsonEncoder = "jsonencoder"
    /// Magma's drop-in `MagmaEncoder`, configured as the JSONEncoder is, on the same Codable models.
    case magmaEncoder = "magmaencoder"

    public var title: String {
        switch self {
        case .magma: "Magma"
        case .jsonEncoder: "JSONEncoder"
        case .magmaEncoder: "MagmaEncoder (Codable)"
        }
    }
}

/// Models ready to be encoded (decoded once by JSONDecoder, outside any measurement), and how
/// to encode them with each system.
public struct EncodeWorkload: @unchecked Sendable {
    /// Records in the models.
    public let records: Int
    let encodeBody: (EncodeSystem) throws -> Data
    let roundTripBody: (EncodeSystem) -> Validation.Outcome

    /// Encodes the models with `system` (NDJSON: one line per record) and returns the JSON.
    public func encode(_ system: EncodeSystem) throws -> Data { try encodeBody(system) }

    /// Whether `system`'s JSON decodes back into equal models, with JSONDecoder and with Magma.
    public func roundTrip(_ system: EncodeSystem) -> Validation.Outcome { roundTripBody(system) }
}

/// How each system encodes `Record`s.
public enum RecordEncoding<Record: CorpusRecord> {
    public static func prepare(_ input: CorpusInput) throws -> EncodeWorkload {
        let records = try RecordDecoding<Record>.jsonDecoder(input)
        let layout = input.layout
        return EncodeWorkload(
            records: RecordDecoding<Record>.count(records),
            encodeBody: { system in try encode(system, records, layout: layout) },
            roundTripBody: { system in roundTrip(system, records, layout: layout) }
        )
    }

    @inline(never)
    public static func encode(_ system: EncodeSystem, _ records: [Record], layout: Layout) throws -> Data {
        switch system {
        case .magma:
            return try MagmaSystem.encode(records, layout: layout)
        case .jsonEncoder:
            let encoder = Record.makeJSONEncoder()
            return try encode(records, layout: layout, { try encoder.encode($0) }, { try encoder.encode($0) })
        case .magmaEncoder:
            let encoder = Record.makeMagmaEncoder()
            return try encode(records, layout: layout, { try encoder.encode($0) }, { try encoder.encode($0) })
        }
    }

    /// Encodes the records as `layout` lays them out: the array with `encodeArray`, a record with `encodeOne`.
    private static func encode(_ records: [Record], layout: Layout, _ encodeArray: ([Record]) throws -> Data,
                               _ encodeOne: (Record) throws -> Data) throws -> Data {
        switch layout {
        case .array:
            return try encodeArray(records)
        case .document:
            return try encodeOne(records[0])
        case .ndjson:
            var output = Data()
            for record in records {
                output.append(try encodeOne(record))
                output.append(0x0A)
            }
            return output
        }
    }

    static func roundTrip(_ system: EncodeSystem, _ records: [Record], layout: Layout) -> Validation.Outcome {
        let json: Data
        do {
            json = try encode(system, records, layout: layout)
        } catch let unavailable as SystemUnavailable {
            return .notApplicable(unavailable.description)
        } catch {
            return .failed("encoding: \(error)")
        }
        let encoded = CorpusInput(data: json, layout: layout)
        for decoder in [DecodeSystem.jsonDecoder, .magma] where decoder == .jsonDecoder || MagmaSystem.isAvailable {
            do {
                let back = try RecordDecoding<Record>.decode(decoder, encoded)
                if back != records {
                    let where_ = firstDifference(back, records, path: "$") ?? "unequal"
                    return .different("decoded back by \(decoder.title): \(where_)")
                }
            } catch {
                return .failed("decoding the output with \(decoder.title): \(error)")
            }
        }
        return .same
    }
}

extension CorpusKind {
    /// Decodes `input` with JSONDecoder and returns the models ready for encoding.
    public func prepareEncoding(_ input: CorpusInput) throws -> EncodeWorkload {
        guard let prepare = prepareEncodingBody else { throw SystemUnavailable("no model for this file") }
        return try prepare(input)
    }
}
