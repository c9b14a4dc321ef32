import Foundation

/// The systems the benchmarks compare, decoding the same bytes into the same models.
public enum DecodeSystem: String, CaseIterable, Sendable, Codable {
    /// Magma: yajl events written straight into the properties of the `@JSONModel` models.
    case magma
    /// Magma through the model's `Map`-declared twin (the Mantle-style DSL, kept for mappings built
    /// at run time), beside the `@JSONModel` form above: only the seed model has one (`DeclaredTwin`).
    case magmaMap = "magma-map"
    /// Magma into the model's text twin (TextTwinModels.swift): dates and URLs kept as `String`,
    /// as msgspec reads them. The like-for-like row against msgspec; only for models with a twin.
    case magmaText = "magma-text"
    /// Magma with `DecodingOptions.reader = .yajl`: every byte through yajl, the `@JSONModel`
    /// models of the first row. Beside yajl's no-op row, it measures what the yajl design costs.
    case magmaYajl = "magma-yajl"
    /// Foundation's JSONDecoder with Codable.
    case jsonDecoder = "jsondecoder"
    /// Magma's drop-in `MagmaDecoder`, configured as the JSONDecoder is, on the same Codable models.
    case magmaDecoder = "magmadecoder"
    /// JSONDecoder with `.formatted(DateFormatter)` of the mapping's own date pattern: the literal
    /// Codable equivalent of a pattern-date transformer (only for models whose JSONDecoder would
    /// otherwise use a faster strategy; see `CorpusRecord.makePatternJSONDecoder`).
    case jsonDecoderPattern = "jsondecoder-pattern"
    /// JSONSerialization into Foundation objects, then hand-written mapping (Mantle's architecture).
    case handMapping = "jsonserialization"
    /// yajl with no-op callbacks: tokenizing only, the ceiling for anything built on yajl.
    case yajl
    /// msgspec (Python, C extension) into typed `Struct`s of the same fields, dates and URLs as
    /// `str`; untyped on kinds with no Struct. Runs in a Python child (Benchmarks/scripts/peers.py).
    case msgspec
    /// orjson (Python, Rust extension): untyped dicts and lists. Runs in a Python child too.
    case orjson

    /// The systems measured by a Python child process rather than by `compare --child`.
    public var runsInPython: Bool { self == .msgspec || self == .orjson }

    /// The corpus kinds peers.py has msgspec `Struct`s for (its `TYPED`); msgspec decodes the
    /// others untyped.
    public static let msgspecTypedKinds: Set<String> = ["github-issues", "github-issues-seed", "twitter", "canada", "citm"]

    /// The name shown in tables and charts.
    public var title: String {
        switch self {
        case .magma: "Magma (@JSONModel)"
        case .magmaMap: "Magma (Map twin)"
        case .magmaText: "Magma (dates, URLs as text)"
        case .magmaYajl: "Magma on yajl (reader: .yajl)"
        case .jsonDecoder: "JSONDecoder"
        case .magmaDecoder: "MagmaDecoder (Codable)"
        case .jsonDecoderPattern: "JSONDecoder (DateFormatter)"
        case .handMapping: "JSONSerialization + mapping"
        case .yajl: "yajl no-op (ceiling)"
        case .msgspec: "msgspec (typed Struct)"
        case .orjson: "orjson (untyped)"
        }
    }
}

/// How a corpus file holds its records.
public enum Layout: String, Sendable, Codable {
    /// A top-level array of records.
    case array
    /// One document that is itself the model (twitter.json, canada.json, citm_catalog.json).
    case document
    /// One record per line.
    case ndjson
}

/// The bytes of one corpus and how they are laid out. Loading happens before any measurement.
public struct CorpusInput: @unchecked Sendable {
    public let data: Data
    public let layout: Layout

    public init(data: Data, layout: Layout) {
        self.data = data
        self.layout = layout
    }
}

/// A system has no implementation for this corpus (for example Magma on a file with no model).
public struct SystemUnavailable: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}

// MARK: - NDJSON lines

/// Calls `body` with the byte range of every non-blank line of `data` (offsets from 0).
///
/// Splitting is part of the measured work of every system on NDJSON; it is a `memchr` scan.
@inline(__always)
public func forEachLine(in data: Data, _ body: (Range<Int>) throws -> Void) throws {
    try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
        guard let base = buffer.baseAddress else { return }
        var start = 0
        let end = buffer.count
        while start < end {
            let newline = memchr(base + start, 0x0A, end - start)
            let lineEnd = newline.map { base.distance(to: UnsafeRawPointer($0)) } ?? end
            if !isBlank(buffer, start..<lineEnd) { try body(start..<lineEnd) }
            start = lineEnd + 1
        }
    }
}

/// Like `forEachLine(in:_:)`, handing each line over as raw bytes (no `Data` slice).
@inline(__always)
public func forEachLineBuffer(in data: Data, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
    try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
        guard let base = buffer.baseAddress else { return }
        var start = 0
        let end = buffer.count
        while start < end {
            let newline = memchr(base + start, 0x0A, end - start)
            let lineEnd = newline.map { base.distance(to: UnsafeRawPointer($0)) } ?? end
            if !isBlank(buffer, start..<lineEnd) {
                try body(UnsafeRawBufferPointer(rebasing: buffer[start..<lineEnd]))
            }
            start = lineEnd + 1
        }
    }
}

@inline(__always)
private func isBlank(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
    for i in range {
        switch buffer[i] {
        case 0x20, 0x09, 0x0D: continue
        default: return false
        }
    }
    return true
}
