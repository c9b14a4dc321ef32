import Foundation
@_spi(Benchmarks) import Magma

/// Magma's rows of the comparison, and yajl's no-op ceiling (which Magma exposes for benchmarks).
///
/// Records are decoded the way a user would: `JSONAdapter.models` for a top-level array,
/// `JSONAdapter.model` for one document, `JSONAdapter.forEachRecord` for NDJSON (Magma frames
/// the lines itself, with `memchr` as the other systems do, and reuses one decoder for all).
public enum MagmaSystem {
    public static let isAvailable = true

    /// Decodes `input` into `Record`s: through its `@JSONModel` form (the type itself, or for the
    /// seed model its `Declared` form, converted for validation), or with `mapTwin` through the
    /// `Map`-declared type (only the seed model has one: see MagmaModels.swift).
    /// With `options`, the reader and limits (`.yajl` for the "Magma on yajl" row).
    public static func decode<Record: CorpusRecord>(_ type: Record.Type, _ input: CorpusInput, mapTwin: Bool = false,
                                                    options: DecodingOptions = .init()) throws -> [Record] {
        if let twinned = Record.self as? any DeclaredTwin.Type, !mapTwin {
            return try convertDeclared(twinned, input, options) as! [Record]
        }
        return try decodeAny(model(Record.self, mapTwin: mapTwin), input, options) as! [Record]
    }

    /// Decodes `input` as ``decode(_:_:mapTwin:)`` does and returns the number of records,
    /// dropping the models.
    public static func decodeCount<Record: CorpusRecord>(_ type: Record.Type, _ input: CorpusInput, mapTwin: Bool = false,
                                                         options: DecodingOptions = .init()) throws -> Int {
        if let twinned = Record.self as? any DeclaredTwin.Type, !mapTwin {
            return try countDeclared(twinned, input, options)
        }
        return try count(model(Record.self, mapTwin: mapTwin), input, options)
    }

    /// The options of the "Magma on yajl" row.
    public static let yajlReader: DecodingOptions = { var options = DecodingOptions(); options.reader = .yajl; return options }()

    /// `Record` as the model Magma decodes: a `@JSONModel` type, or (`mapTwin`) a `Map`-declared one.
    private static func model<Record>(_ type: Record.Type, mapTwin: Bool) throws -> any JSONObjectModel.Type {
        if mapTwin {
            guard Record.self is any DeclaredTwin.Type, let model = Record.self as? any JSONModel.Type else {
                throw SystemUnavailable("\(Record.self) has no Map-declared twin")
            }
            return model
        }
        guard let model = Record.self as? any JSONObjectModel.Type else {
            throw SystemUnavailable("\(Record.self) is not a Magma model")
        }
        return model
    }

    /// Decodes `input` into `Record`'s text twin and returns the number of records.
    public static func decodeTextCount<Record: CorpusRecord>(_ type: Record.Type, _ input: CorpusInput) throws -> Int {
        guard let twinned = Record.self as? any TextTwinned.Type else {
            throw SystemUnavailable("\(Record.self) has no text twin")
        }
        return try countText(twinned, input)
    }

    /// Decodes `input` into `Twin`s (for validation).
    public static func decodeText<Twin: CorpusTextTwin>(_ type: Twin.Type, _ input: CorpusInput) throws -> [Twin] {
        try decodeTyped(Twin.self, input)
    }

    private static func countText<T: TextTwinned>(_ type: T.Type, _ input: CorpusInput) throws -> Int {
        let records = try decodeTyped(T.Text.self, input)
        return records.count == 1 ? records[0].recordCount : records.count
    }

    private static func convertDeclared<T: DeclaredTwin>(_ type: T.Type, _ input: CorpusInput, _ options: DecodingOptions) throws -> Any {
        try decodeTyped(T.Declared.self, input, options).map(T.init(declared:))
    }

    private static func countDeclared<T: DeclaredTwin>(_ type: T.Type, _ input: CorpusInput, _ options: DecodingOptions) throws -> Int {
        try decodeTyped(T.Declared.self, input, options).count
    }

    /// Tokenizes `input` with yajl and no-op callbacks (NDJSON: line by line, like the others).
    @inline(never)
    public static func yajlScan(_ input: CorpusInput) throws {
        switch input.layout {
        case .array, .document:
            try input.data.withUnsafeBytes { _ = try YajlBaseline.scan($0) }
        case .ndjson:
            try forEachLineBuffer(in: input.data) { _ = try YajlBaseline.scan($0) }
        }
    }

    /// Encodes models with `JSONAdapter.json(from:)` (NDJSON: one line per model into `lines`).
    public static func encode<Record: CorpusRecord>(_ records: [Record], layout: Layout, lines: LineBuffer) throws -> Data? {
        guard let model = Record.self as? any JSONObjectModel.Type else {
            throw SystemUnavailable("\(Record.self) is not a Magma model")
        }
        return try encodeTyped(model, records, layout: layout, lines: lines)
    }

    @inline(never)
    private static func encodeTyped<M: JSONObjectModel>(_ type: M.Type, _ records: Any, layout: Layout, lines: LineBuffer) throws -> Data? {
        try layout.encode(records as! [M], lines: lines, { try JSONAdapter.json(from: $0) }, { try JSONAdapter.json(from: $0) })
    }

    // The existential is opened once per call; inside, everything is statically typed.

    @inline(never)
    private static func decodeTyped<M: JSONObjectModel>(_ type: M.Type, _ input: CorpusInput,
                                                        _ options: DecodingOptions = .init()) throws -> [M] {
        switch input.layout {
        case .array:
            return try JSONAdapter.models(M.self, from: input.data, options: options)
        case .document:
            return [try JSONAdapter.model(M.self, from: input.data, options: options)]
        case .ndjson:
            var records: [M] = []
            try JSONAdapter.forEachRecord(M.self, from: input.data, layout: .ndjson, options: options) { records.append($0) }
            return records
        }
    }

    private static func decodeAny<M: JSONObjectModel>(_ type: M.Type, _ input: CorpusInput, _ options: DecodingOptions) throws -> Any {
        try decodeTyped(M.self, input, options)
    }

    private static func count<M: JSONObjectModel>(_ type: M.Type, _ input: CorpusInput, _ options: DecodingOptions) throws -> Int {
        let records = try decodeTyped(M.self, input, options)
        if records.count == 1, let record = records[0] as? any CorpusRecord {
            return record.recordCount
        }
        return records.count
    }
}
