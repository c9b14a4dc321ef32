// A record stream read through a mapping given at run time (a loaded mapping file, the magma
// command's --field list) instead of the model's own.

extension RecordDecoder where Model: JSONModel {
    /// Creates a decoder whose records are read through a mapping given at run time (one loaded
    /// from a mapping file, or built from a command line) instead of the model's own; nested
    /// models use their own.
    /// - Parameters:
    ///   - type: The record model.
    ///   - layout: How the records are laid out.
    ///   - mapping: The mapping to read each record through.
    ///   - options: How to read each record.
    ///   - errorPolicy: Stop at the first bad record (default) or skip and report it.
    ///   - onSkip: Called with each skipped record's error (its record index, offset, reason).
    ///   - onRecord: Called with each record, in order, as soon as it is complete.
    public convenience init(_ type: Model.Type, layout: Layout, mapping: JSONMapping<Model.MappingRoot>,
                            options: DecodingOptions = .init(), errorPolicy: ErrorPolicy = .stop,
                            onSkip: ((JSONError) -> Void)? = nil, onRecord: @escaping (Model) throws -> Void) {
        self.init(layout: layout, codec: ModelCodec<Model>(mapping: mapping), options: options,
                  errorPolicy: errorPolicy, progress: nil, onSkip: onSkip, onRecord: onRecord)
    }
}
