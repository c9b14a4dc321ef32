// The front door's spellings from before `JSONInput`, kept for one release as forwards: a label
// per kind of source (`fromChunks:`, `contentsOf:`, `in:`, `atPath:`) is now one `from:` input.
import Foundation

extension JSONAdapter {
    @available(*, deprecated, message: "use model(_:from: .chunks(chunks))")
    public static func model<M: JSONObjectModel, C: Sequence>(_ type: M.Type, fromChunks chunks: C, options: DecodingOptions = .init()) throws -> M
    where C.Element: ContiguousBytes { try model(type, from: JSONInput(chunks: chunks), options: options) }

    @available(*, deprecated, message: "use model(_:from: .chunks(chunks), report: report), the report without &")
    public static func model<M: JSONObjectModel, C: Sequence>(_ type: M.Type, fromChunks chunks: C, options: DecodingOptions = .init(),
                                                              report: inout DecodingReport) throws -> M
    where C.Element: ContiguousBytes { try model(type, from: JSONInput(chunks: chunks), options: options, report: report) }

    @available(*, deprecated, renamed: "model(_:from:options:)")
    public static func model<M: JSONObjectModel>(_ type: M.Type, contentsOf url: URL, options: DecodingOptions = .init()) throws -> M {
        try model(type, from: url, options: options)
    }

    @available(*, deprecated, message: "use models(_:from: .chunks(chunks))")
    public static func models<M: JSONObjectModel, C: Sequence>(_ type: M.Type, fromChunks chunks: C, options: DecodingOptions = .init()) throws -> [M]
    where C.Element: ContiguousBytes { try models(type, from: JSONInput(chunks: chunks), options: options) }

    @available(*, deprecated, message: "use models(_:from: .chunks(chunks), report: report), the report without &")
    public static func models<M: JSONObjectModel, C: Sequence>(_ type: M.Type, fromChunks chunks: C, options: DecodingOptions = .init(),
                                                               report: inout DecodingReport) throws -> [M]
    where C.Element: ContiguousBytes { try models(type, from: JSONInput(chunks: chunks), options: options, report: report) }

    @available(*, deprecated, renamed: "models(_:from:options:)")
    public static func models<M: JSONObjectModel>(_ type: M.Type, contentsOf url: URL, options: DecodingOptions = .init()) throws -> [M] {
        try models(type, from: url, options: options)
    }

    @available(*, deprecated, message: "use value(from: .chunks(chunks), .dictionary(.model(type)))")
    public static func modelsByKey<M: JSONObjectModel, C: Sequence>(_ type: M.Type, fromChunks chunks: C,
                                                                    options: DecodingOptions = .init()) throws -> [String: M]
    where C.Element: ContiguousBytes { try modelsByKey(type, from: JSONInput(chunks: chunks), options: options) }

    @available(*, deprecated, message: "use value(from: .chunks(chunks), .array(.double)), with the element type's transformer")
    public static func values<V: JSONRepresentable, C: Sequence>(_ type: V.Type, fromChunks chunks: C, options: DecodingOptions = .init()) throws -> [V]
    where V.JSONForm == V, C.Element: ContiguousBytes { try values(type, from: JSONInput(chunks: chunks), options: options) }

    @available(*, deprecated, message: "use value(from: .chunks(chunks), _:)")
    public static func value<V, C: Sequence>(fromChunks chunks: C, _ transformer: Transformer<JSONValue, V>,
                                             options: DecodingOptions = .init()) throws -> V
    where C.Element: ContiguousBytes { try value(from: JSONInput(chunks: chunks), transformer, options: options) }

    @available(*, deprecated, message: "use update(_:from: .chunks(chunks))")
    public static func update<M: JSONObjectModel, C: Sequence>(_ model: inout M, fromChunks chunks: C, options: DecodingOptions = .init()) throws
    where C.Element: ContiguousBytes { try update(&model, from: JSONInput(chunks: chunks), options: options) }

    @available(*, deprecated, renamed: "forEachRecord(_:from:layout:options:errorPolicy:progress:_:)")
    @discardableResult
    public static func forEachRecord<M: JSONObjectModel>(_ type: M.Type, in data: Data, layout: RecordDecoder<M>.Layout,
                                                         options: DecodingOptions = .init(), errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop,
                                                         progress: ProgressHandle? = nil,
                                                         _ body: @escaping (M) throws -> Void) throws -> SkippedRecords {
        try forEachRecord(type, from: data, layout: layout, options: options, errorPolicy: errorPolicy, progress: progress, body)
    }

    @available(*, deprecated, message: "use forEachRecord(_:from: .file(path), layout:...)")
    @discardableResult
    public static func forEachRecord<M: JSONObjectModel>(_ type: M.Type, atPath path: String, layout: RecordDecoder<M>.Layout,
                                                         options: DecodingOptions = .init(), errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop,
                                                         progress: ProgressHandle? = nil,
                                                         _ body: @escaping (M) throws -> Void) throws -> SkippedRecords {
        try forEachRecord(type, from: .file(path), layout: layout, options: options, errorPolicy: errorPolicy, progress: progress, body)
    }

    @available(*, deprecated, message: "use forEachRecord(_:from:layout: .array(at: keyPath, envelope: Envelope(E.self)))")
    @discardableResult
    public static func forEachRecord<M: JSONObjectModel, E: JSONObjectModel>(
        _ type: M.Type, in data: Data, at keyPath: String, envelope: E.Type, options: DecodingOptions = .init(),
        errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop, progress: ProgressHandle? = nil, _ body: @escaping (M) throws -> Void
    ) throws -> (envelope: E, skipped: SkippedRecords) {
        try forEachRecord(type, from: data, at: keyPath, envelope: envelope, options: options, errorPolicy: errorPolicy,
                          progress: progress, body)
    }

    @available(*, deprecated, renamed: "forEachRecord(_:from:layout:decoder:errorPolicy:progress:_:)")
    @discardableResult
    public static func forEachRecord<T: Decodable>(_ type: T.Type, in data: Data, layout: RecordDecoder<T>.Layout, decoder: MagmaDecoder,
                                                   errorPolicy: RecordDecoder<T>.ErrorPolicy = .stop, progress: ProgressHandle? = nil,
                                                   _ body: @escaping (T) throws -> Void) throws -> SkippedRecords {
        try forEachRecord(type, from: data, layout: layout, decoder: decoder, errorPolicy: errorPolicy, progress: progress, body)
    }

    @available(*, deprecated, message: "use forEachRecord(_:from: .file(path), layout:decoder:...)")
    @discardableResult
    public static func forEachRecord<T: Decodable>(_ type: T.Type, atPath path: String, layout: RecordDecoder<T>.Layout, decoder: MagmaDecoder,
                                                   errorPolicy: RecordDecoder<T>.ErrorPolicy = .stop, progress: ProgressHandle? = nil,
                                                   _ body: @escaping (T) throws -> Void) throws -> SkippedRecords {
        try forEachRecord(type, from: .file(path), layout: layout, decoder: decoder, errorPolicy: errorPolicy, progress: progress, body)
    }

    @available(*, deprecated, message: "use records(_:from: FileChunks(handle), layout:...)")
    public static func records<M: JSONObjectModel>(
        _ type: M.Type, from handle: FileHandle, layout: RecordDecoder<M>.Layout, options: DecodingOptions = .init(),
        errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop, progress: ProgressHandle? = nil, onSkip: ((JSONError) -> Void)? = nil
    ) -> AsyncRecords<M, FileChunks> {
        records(type, from: FileChunks(handle), layout: layout, options: options, errorPolicy: errorPolicy, progress: progress, onSkip: onSkip)
    }

    @available(*, deprecated, message: "use records(_:from: FileChunks(path: path), layout:...)")
    public static func records<M: JSONObjectModel>(
        _ type: M.Type, atPath path: String, layout: RecordDecoder<M>.Layout, options: DecodingOptions = .init(),
        errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop, progress: ProgressHandle? = nil, onSkip: ((JSONError) -> Void)? = nil
    ) -> AsyncRecords<M, FileChunks> {
        records(type, from: FileChunks(path: path), layout: layout, options: options, errorPolicy: errorPolicy, progress: progress, onSkip: onSkip)
    }

    @available(*, deprecated, message: "use records(_:from: FileChunks(handle), layout:decoder:...)")
    public static func records<T: Decodable>(
        _ type: T.Type, from handle: FileHandle, layout: RecordDecoder<T>.Layout, decoder: MagmaDecoder,
        errorPolicy: RecordDecoder<T>.ErrorPolicy = .stop, progress: ProgressHandle? = nil, onSkip: ((JSONError) -> Void)? = nil
    ) -> AsyncRecords<T, FileChunks> {
        records(type, from: FileChunks(handle), layout: layout, decoder: decoder, errorPolicy: errorPolicy, progress: progress, onSkip: onSkip)
    }

    @available(*, deprecated, message: "use records(_:from: FileChunks(path: path), layout:decoder:...)")
    public static func records<T: Decodable>(
        _ type: T.Type, atPath path: String, layout: RecordDecoder<T>.Layout, decoder: MagmaDecoder,
        errorPolicy: RecordDecoder<T>.ErrorPolicy = .stop, progress: ProgressHandle? = nil, onSkip: ((JSONError) -> Void)? = nil
    ) -> AsyncRecords<T, FileChunks> {
        records(type, from: FileChunks(path: path), layout: layout, decoder: decoder, errorPolicy: errorPolicy, progress: progress, onSkip: onSkip)
    }

    @available(*, deprecated, message: "use forEachRecordInParallel(_:from: .file(path), ...)")
    @discardableResult
    public static func forEachRecordInParallel<M: JSONObjectModel & Sendable>(
        _ type: M.Type, atPath path: String, options: DecodingOptions = .init(), errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop,
        progress: ProgressHandle? = nil, ordered: Bool = true, windowBytes: Int = 8 << 20,
        concurrency: Int = ProcessInfo.processInfo.activeProcessorCount, _ body: (M) throws -> Void
    ) throws -> SkippedRecords {
        try forEachRecordInParallel(type, from: .file(path), options: options, errorPolicy: errorPolicy, progress: progress,
                                    ordered: ordered, windowBytes: windowBytes, concurrency: concurrency, body)
    }

    @available(*, deprecated, message: "use forEachRecordInParallel(_:from: .file(path), ..., makeState:)")
    public static func forEachRecordInParallel<M: JSONObjectModel & SendableMetatype, State>(
        _ type: M.Type, atPath path: String, options: DecodingOptions = .init(), errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop,
        progress: ProgressHandle? = nil, windowBytes: Int = 8 << 20, concurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
        makeState: @escaping @Sendable () -> State, _ body: @escaping @Sendable (inout State, M) throws -> Void
    ) throws -> (states: [State], skipped: SkippedRecords) {
        try forEachRecordInParallel(type, from: .file(path), options: options, errorPolicy: errorPolicy, progress: progress,
                                    windowBytes: windowBytes, concurrency: concurrency, makeState: makeState, body)
    }

    @available(*, deprecated, message: "use forEachRecordInParallel(_:from: .file(path), decoder:...)")
    @discardableResult
    public static func forEachRecordInParallel<T: Decodable & Sendable>(
        _ type: T.Type, atPath path: String, decoder: MagmaDecoder, errorPolicy: RecordDecoder<T>.ErrorPolicy = .stop,
        progress: ProgressHandle? = nil, ordered: Bool = true, windowBytes: Int = 8 << 20,
        concurrency: Int = ProcessInfo.processInfo.activeProcessorCount, _ body: (T) throws -> Void
    ) throws -> SkippedRecords {
        try forEachRecordInParallel(type, from: .file(path), decoder: decoder, errorPolicy: errorPolicy, progress: progress,
                                    ordered: ordered, windowBytes: windowBytes, concurrency: concurrency, body)
    }

    @available(*, deprecated, renamed: "forEachRecord(_:from:byteRange:options:errorPolicy:progress:_:)")
    @discardableResult
    public static func forEachRecord<M: JSONObjectModel>(_ type: M.Type, in data: Data, byteRange range: Range<Int>,
                                                         options: DecodingOptions = .init(), errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop,
                                                         progress: ProgressHandle? = nil,
                                                         _ body: @escaping (M) throws -> Void) throws -> SkippedRecords {
        try forEachRecord(type, from: data, byteRange: range, options: options, errorPolicy: errorPolicy, progress: progress, body)
    }

    @available(*, deprecated, renamed: "forEachRecord(_:from:byteRange:decoder:errorPolicy:progress:_:)")
    @discardableResult
    public static func forEachRecord<T: Decodable>(_ type: T.Type, in data: Data, byteRange range: Range<Int>, decoder: MagmaDecoder,
                                                   errorPolicy: RecordDecoder<T>.ErrorPolicy = .stop, progress: ProgressHandle? = nil,
                                                   _ body: @escaping (T) throws -> Void) throws -> SkippedRecords {
        try forEachRecord(type, from: data, byteRange: range, decoder: decoder, errorPolicy: errorPolicy, progress: progress, body)
    }

    // A mapping given at run time is a transformer now (`.model(_:mapping:)`), which goes wherever
    // a transformer does.

    @available(*, deprecated, message: "use value(from:_:options:) with .model(type, mapping: mapping)")
    public static func model<M: JSONModel>(_ type: M.Type, from input: some JSONInputConvertible, mapping: JSONMapping<M.MappingRoot>,
                                           options: DecodingOptions = .init()) throws -> M {
        try value(from: input, .model(type, mapping: mapping), options: options)
    }

    @available(*, deprecated, message: "use value(from:_:options:) with .array(.model(type, mapping: mapping))")
    public static func models<M: JSONModel>(_ type: M.Type, from input: some JSONInputConvertible, mapping: JSONMapping<M.MappingRoot>,
                                            options: DecodingOptions = .init()) throws -> [M] {
        try value(from: input, .array(.model(type, mapping: mapping)), options: options)
    }

    @available(*, deprecated, message: "use json(from:_:options:) with .model(M.self, mapping: mapping)")
    public static func json<M: JSONModel>(from model: M, mapping: JSONMapping<M.MappingRoot>, options: EncodingOptions = .init()) throws -> Data {
        try json(from: model, .model(M.self, mapping: mapping), options: options)
    }

    @available(*, deprecated, message: "use json(from:_:options:) with .array(.model(M.self, mapping: mapping))")
    public static func json<M: JSONModel>(from models: [M], mapping: JSONMapping<M.MappingRoot>, options: EncodingOptions = .init()) throws -> Data {
        try json(from: models, .array(.model(M.self, mapping: mapping)), options: options)
    }

    // A report is passed as a reference now, as a `ProgressHandle` is.

    @available(*, deprecated, message: "pass the report without &: model(_:from:options:report:)")
    public static func model<M: JSONObjectModel>(_ type: M.Type, from input: some JSONInputConvertible, options: DecodingOptions = .init(),
                                                 report: inout DecodingReport) throws -> M {
        try model(type, from: input, options: options, report: report)
    }

    @available(*, deprecated, message: "pass the report without &: models(_:from:options:report:)")
    public static func models<M: JSONObjectModel>(_ type: M.Type, from input: some JSONInputConvertible, options: DecodingOptions = .init(),
                                                  report: inout DecodingReport) throws -> [M] {
        try models(type, from: input, options: options, report: report)
    }

    @available(*, deprecated, message: "pass the report without &: modelsInParallel(_:from:layout:options:errorPolicy:progress:concurrency:report:)")
    public static func modelsInParallel<M: JSONObjectModel & Sendable>(
        _ type: M.Type, ndjson input: some JSONInputConvertible, options: DecodingOptions = .init(),
        errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop, progress: ProgressHandle? = nil,
        concurrency: Int = ProcessInfo.processInfo.activeProcessorCount, report: inout DecodingReport
    ) throws -> (models: [M], skipped: SkippedRecords) {
        try modelsInParallel(type, from: input, layout: .ndjson, options: options, errorPolicy: errorPolicy, progress: progress,
                             concurrency: concurrency, report: report)
    }

    // `modelsInParallel` reads arrays and concatenated values too: its input is `from:` with a layout.

    @available(*, deprecated, message: "use modelsInParallel(_:from:layout: .ndjson, ...)")
    public static func modelsInParallel<M: JSONObjectModel & Sendable>(
        _ type: M.Type, ndjson input: some JSONInputConvertible, options: DecodingOptions = .init(),
        errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop, progress: ProgressHandle? = nil,
        concurrency: Int = ProcessInfo.processInfo.activeProcessorCount, report: DecodingReport? = nil
    ) throws -> (models: [M], skipped: SkippedRecords) {
        try modelsInParallel(type, from: input, layout: .ndjson, options: options, errorPolicy: errorPolicy, progress: progress,
                             concurrency: concurrency, report: report)
    }

    @available(*, deprecated, message: "use modelsInParallel(_:from:layout: .ndjson, decoder:...)")
    public static func modelsInParallel<T: Decodable & Sendable>(
        _ type: T.Type, ndjson input: some JSONInputConvertible, decoder: MagmaDecoder, errorPolicy: RecordDecoder<T>.ErrorPolicy = .stop,
        progress: ProgressHandle? = nil, concurrency: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws -> (models: [T], skipped: SkippedRecords) {
        try modelsInParallel(type, from: input, layout: .ndjson, decoder: decoder, errorPolicy: errorPolicy, progress: progress,
                             concurrency: concurrency)
    }

    // Any top-level shape other than a model and an array of models is a transformer now.

    @available(*, deprecated, message: "use value(from:_:options:) with .dictionary(.model(type)) (a tagged enum: .dictionary(type.jsonTransformer))")
    public static func modelsByKey<M: JSONObjectModel>(_ type: M.Type, from input: some JSONInputConvertible,
                                                       options: DecodingOptions = .init()) throws -> [String: M] {
        try input.jsonInput.decode(DictionaryCodec(objectModelCodec(M.self)), options: options)
    }

    @available(*, deprecated, message: "use value(from:_:options:) with .array(V.jsonTransformer), as .array(.double)")
    public static func values<V: JSONRepresentable>(_ type: V.Type, from input: some JSONInputConvertible,
                                                    options: DecodingOptions = .init()) throws -> [V] where V.JSONForm == V {
        try input.jsonInput.decode(ArrayCodec(V.jsonTransformer.codec), options: options)
    }

    // An envelope is part of the layout now: `.array(at:envelope:)`, read back from its `Envelope`.

    @available(*, deprecated, message: "use forEachRecord(_:from:layout: .array(at: keyPath, envelope: Envelope(E.self)))")
    @discardableResult
    public static func forEachRecord<M: JSONObjectModel, E: JSONObjectModel>(
        _ type: M.Type, from input: some JSONInputConvertible, at keyPath: String, envelope: E.Type, options: DecodingOptions = .init(),
        errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop, progress: ProgressHandle? = nil,
        _ body: @escaping (M) throws -> Void
    ) throws -> (envelope: E, skipped: SkippedRecords) {
        let box = Envelope(E.self)
        let skipped = try forEachRecord(type, from: input, layout: .array(at: keyPath, envelope: box), options: options,
                                        errorPolicy: errorPolicy, progress: progress, body)
        // A stream that finished has its envelope: the envelope's object ended without an error.
        return (box.model!, skipped)
    }

    @available(*, deprecated, message: "use records(_:from:layout: .array(at: keyPath, envelope: Envelope(E.self)))")
    public static func records<M: JSONObjectModel, E: JSONObjectModel, Chunks: AsyncSequence>(
        _ type: M.Type, from chunks: Chunks, at keyPath: String, envelope: E.Type, options: DecodingOptions = .init(),
        errorPolicy: RecordDecoder<M>.ErrorPolicy = .stop, progress: ProgressHandle? = nil
    ) -> AsyncRecords<M, Chunks> where Chunks.Element: ContiguousBytes {
        let layout = RecordDecoder<M>.Layout.array(at: keyPath, envelope: Envelope(E.self))
        return AsyncRecords(chunks: chunks, envelope: layout.envelope) {
            RecordDecoder(type, layout: layout, options: options, errorPolicy: errorPolicy, progress: progress, onRecord: $0)
        }
    }
}

extension RecordDecoder where Model: JSONObjectModel {
    @available(*, deprecated, message: "use init(_:layout: .array(at: keyPath, envelope: Envelope(E.self)))")
    public convenience init<E: JSONObjectModel>(_ type: Model.Type, at keyPath: String, envelope: E.Type,
                                                options: DecodingOptions = .init(), errorPolicy: ErrorPolicy = .stop,
                                                progress: ProgressHandle? = nil, onSkip: ((JSONError) -> Void)? = nil,
                                                onRecord: @escaping (Model) throws -> Void) {
        self.init(type, layout: .array(at: keyPath, envelope: Envelope(E.self)), options: options, errorPolicy: errorPolicy,
                  progress: progress, onSkip: onSkip, onRecord: onRecord)
    }
}

extension RecordDecoder {
    @available(*, deprecated, message: "lay the records out with .array(at:envelope:) and read the Envelope's model")
    public func envelope<E: JSONObjectModel>(_ type: E.Type = E.self) -> E? { envelopeRoot?.decoded as? E }
}
