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
    let encodeBody: (EncodeSystem, LineBuffer) throws -> Data?
    let roundTripBody: (EncodeSystem) -> Validation.Outcome
    /// The NDJSON lines of the last encode, kept for the next.
    private let lines = LineBuffer()

    /// Encodes the models with `system` and returns the size of the JSON: the array or document
    /// in the encoder's own `Data` (dropped), NDJSON one line per record into a buffer this
    /// workload keeps from one encode to the next.
    public func encode(_ system: EncodeSystem) throws -> Int {
        try encodeBody(system, lines)?.count ?? lines.bytes.count
    }

    /// Whether `system`'s JSON decodes back into equal models, with JSONDecoder and with Magma.
    public func roundTrip(_ system: EncodeSystem) -> Validation.Outcome { roundTripBody(system) }
}

/// Where NDJSON lines are concatenated: one buffer, emptied and refilled by each encode with its
/// capacity kept, as a buffered writer keeps its buffer. (Appending into a fresh `Data` each
/// time spent ~20 ms of page faults on the 64 MB GitHub file, the same for every system: 15 %
/// of MagmaEncoder's time there, and work of the benchmark's, not of an encoder's.)
public final class LineBuffer {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// Appends `line` and a newline.
    func append(_ line: Data) {
        line.withUnsafeBytes { raw in
            bytes.append(contentsOf: UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count))
        }
        bytes.append(0x0A)
    }
}

/// How each system encodes `Record`s.
public enum RecordEncoding<Record: CorpusRecord> {
    public static func prepare(_ input: CorpusInput) throws -> EncodeWorkload {
        let records = try RecordDecoding<Record>.jsonDecoder(input)
        let layout = input.layout
        return EncodeWorkload(
            records: RecordDecoding<Record>.count(records),
            encodeBody: { system, lines in try encode(system, records, layout: layout, lines: lines) },
            roundTripBody: { system in roundTrip(system, records, layout: layout) }
        )
    }

    /// Encodes `records` as `layout` lays them out: the array or document as the returned `Data`,
    /// NDJSON into `lines` (emptied first; nil returned).
    @inline(never)
    public static func encode(_ system: EncodeSystem, _ records: [Record], layout: Layout, lines: LineBuffer) throws -> Data? {
        switch system {
        case .magma:
            return try MagmaSystem.encode(records, layout: layout, lines: lines)
        case .jsonEncoder:
            let encoder = Record.makeJSONEncoder()
            return try layout.encode(records, lines: lines, { try encoder.encode($0) }, { try encoder.encode($0) })
        case .magmaEncoder:
            let encoder = Record.makeMagmaEncoder()
            return try layout.encode(records, lines: lines, { try encoder.encode($0) }, { try encoder.encode($0) })
        }
    }

    static func roundTrip(_ system: EncodeSystem, _ records: [Record], layout: Layout) -> Validation.Outcome {
        let json: Data
        do {
            let lines = LineBuffer()
            json = try encode(system, records, layout: layout, lines: lines) ?? Data(lines.bytes)
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

extension Layout {
    /// Encodes `records` as this layout lays them out: the array with `encodeArray`, a record
    /// with `encodeOne`, NDJSON into `lines` (emptied first; nil returned).
    func encode<R>(_ records: [R], lines: LineBuffer, _ encodeArray: ([R]) throws -> Data,
                   _ encodeOne: (R) throws -> Data) throws -> Data? {
        switch self {
        case .array:
            return try encodeArray(records)
        case .document:
            return try encodeOne(records[0])
        case .ndjson:
            lines.removeAll()
            for record in records { lines.append(try encodeOne(record)) }
            return nil
        }
    }
}
