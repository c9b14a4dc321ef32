// A record stream of `Decodable` records, read as `MagmaDecoder` reads a document (a tape per
// record; see Codable/TapeRecords.swift) through the same stream as models.

extension RecordDecoder where Model: Decodable {
    /// Creates a decoder of `Decodable` records, each read as `decoder` reads a document (its
    /// strategies, user info and limits), one at a time: memory is bounded by the largest record.
    ///
    /// ```swift
    /// let decoder = MagmaDecoder()
    /// decoder.keyDecodingStrategy = .convertFromSnakeCase
    /// let records = RecordDecoder(Issue.self, layout: .ndjson, decoder: decoder, errorPolicy: .skip) { try store($0) }
    /// try records.read(from: .standardInput)
    /// ```
    ///
    /// Layouts, the error policy and progress are as for models. A record that fails to decode is
    /// a ``JSONError`` with the `DecodingError`'s code (`typeMismatch`, `nullValue`, `missingKey`,
    /// `invalidValue`), its path in the stream (`$[3].user.login`), and the offending value's byte
    /// offset, line and column; its `underlying` is the `DecodingError` `MagmaDecoder` throws.
    /// - Parameters:
    ///   - type: The record type.
    ///   - layout: How the records are laid out: a top-level array, an array at a key path, NDJSON,
    ///     or concatenated values.
    ///   - decoder: How to read each record; its ``MagmaDecoder/options`` give the limits.
    ///   - errorPolicy: Stop at the first bad record (default) or skip and report it.
    ///   - progress: Where to count bytes, records and skips; nil for a handle of the decoder's own.
    ///   - onSkip: Called with each skipped record's error (its record index, offset, reason).
    ///   - onRecord: Called with each record, in order, as soon as it is complete.
    public convenience init(_ type: Model.Type, layout: Layout, decoder: MagmaDecoder, errorPolicy: ErrorPolicy = .stop,
                            progress: ProgressHandle? = nil, onSkip: ((JSONError) -> Void)? = nil,
                            onRecord: @escaping (Model) throws -> Void) {
        self.init(layout: layout, codec: DecodableRecordCodec<Model>(decoder), options: decoder.options,
                  errorPolicy: errorPolicy, progress: progress, onSkip: onSkip, onRecord: onRecord)
    }
}
