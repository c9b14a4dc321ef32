import Foundation
import Testing
@testable import Magma

/// Decodes the records `objects` (each one JSON object) through every entry point that reads
/// models: one document per record and a top-level array (whole and in every chunk size: the
/// scanner and yajl), a `RecordDecoder` of each layout (array, array at a key path, NDJSON,
/// concatenated) fed in every chunk size, and parallel NDJSON. Checks that they all give the same
/// models and report the same entries, and returns the models and the report of the array.
func decodeEveryEntryPoint<M: JSONObjectModel & Equatable & Sendable>(
    _ type: M.Type, _ objects: [String], sourceLocation: SourceLocation = #_sourceLocation
) throws -> (models: [M], report: DecodingReport) {
    var singles: [M] = []
    for object in objects {
        let report = DecodingReport()
        let model = try JSONAdapter.model(type, from: object, report: report)
        for way in splitWays(Array(object.utf8)) {
            let chunked = DecodingReport()
            #expect(try JSONAdapter.model(type, from: .chunks(way.pieces), report: chunked) == model, "\(way.name)", sourceLocation: sourceLocation)
            #expect(chunked.entries == report.entries, "\(way.name)", sourceLocation: sourceLocation)
        }
        singles.append(model)
    }
    let array = "[" + objects.joined(separator: ",") + "]"
    let report = DecodingReport()
    let models = try JSONAdapter.models(type, from: array, report: report)
    #expect(models == singles, "a top-level array", sourceLocation: sourceLocation)
    for way in splitWays(Array(array.utf8)) {
        let chunked = DecodingReport()
        #expect(try JSONAdapter.models(type, from: .chunks(way.pieces), report: chunked) == models, "\(way.name)", sourceLocation: sourceLocation)
        #expect(chunked.entries == report.entries, "array, \(way.name)", sourceLocation: sourceLocation)
    }
    let streams: [(String, RecordDecoder<M>.Layout, String)] = [
        ("array", .array, array),
        ("array at a key path", .array(at: "data.items"), #"{"total": 1, "data": {"items": "# + array + "}}"),
        ("NDJSON", .ndjson, objects.joined(separator: "\n") + "\n"),
        ("concatenated", .concatenated, objects.joined(separator: " ")),
    ]
    for (name, layout, input) in streams {
        for way in splitWays(Array(input.utf8)) {
            var read: [M] = []
            let decoder = RecordDecoder(type, layout: layout) { read.append($0) }
            for piece in way.pieces { try decoder.feed(piece) }
            try decoder.finish()
            #expect(read == models, "\(name), \(way.name)", sourceLocation: sourceLocation)
            // A stream notes the same entries, each with its record's index (the array's `$[i]`).
            #expect(decoder.report.all.map(\.recordIndex) == report.all.map { Int($0.path.dropFirst(2).prefix { $0 != "]" }) },
                    "\(name), \(way.name)", sourceLocation: sourceLocation)
            #expect(decoder.report.all.map(\.error.message) == report.all.map(\.error.message), "\(name), \(way.name)",
                    sourceLocation: sourceLocation)
        }
    }
    // Several batches (64 bytes each at least), their entries placed in the whole document.
    let ndjson = objects.joined(separator: "\n") + "\n"
    let parallelReport = DecodingReport()
    let parallel = try JSONAdapter.modelsInParallel(type, from: Data(ndjson.utf8), layout: .ndjson, options: .init(), errorPolicy: .stop, concurrency: 2,
                                                    minimumBatchBytes: 64, report: parallelReport)
    #expect(parallel.models == models, "parallel NDJSON", sourceLocation: sourceLocation)
    let sequential = RecordDecoder(type, layout: .ndjson) { _ in }
    try sequential.feed(Data(ndjson.utf8))
    try sequential.finish()
    #expect(parallelReport.entries == sequential.report.entries, "parallel NDJSON", sourceLocation: sourceLocation)
    #expect(parallelReport.all.map(\.recordIndex) == sequential.report.all.map(\.recordIndex), "parallel NDJSON", sourceLocation: sourceLocation)
    return (models, report)
}

extension DecodingReport {
    /// Both lists, defaults first.
    var all: [Entry] { defaulted + dropped }

    /// Both lists, defaults first, as comparable text: kind, path, property, code, offset, line, column.
    var entries: [String] {
        func text(_ e: Entry) -> String {
            "\(e.path) \(e.property) \(e.error.code) \(e.error.offset ?? -1) \(e.error.line ?? -1):\(e.error.column ?? -1)"
        }
        return defaulted.map { "defaulted " + text($0) } + dropped.map { "dropped " + text($0) }
    }
}
