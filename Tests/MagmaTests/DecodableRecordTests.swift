import Foundation
import Testing
@testable import Magma

/// Record streams of `Decodable` types: every layout over every chunking, the skip policy, the
/// errors' positions and their `DecodingError`s (JSONDecoder's), the async and parallel forms, and
/// a `@JSONModel` type streamed both ways.
@Suite struct DecodableRecordTests {
    struct Ticket: Codable, Equatable, Sendable {
        struct User: Codable, Equatable, Sendable {
            let id: Int
            let login: String
        }
        let id: Int
        let title: String
        var user: User?
        var tags: [String]?
        var openedAt: Date?
    }

    /// Snake-case keys and dates in seconds: the records are read with the decoder's strategies.
    static func decoder() -> MagmaDecoder {
        let decoder = MagmaDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    static func jsonDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    struct Outcome: CustomStringConvertible {
        var records: [Ticket] = []
        var skipped: [JSONError] = []
        var error: JSONError?
        var description: String {
            "records \(records.map(\.id)) skipped \(skipped.map(StreamOutcome.summary)) error \(error.map(StreamOutcome.summary) ?? "none")"
        }
    }

    static func stream(_ pieces: [[UInt8]], _ layout: RecordDecoder<Ticket>.Layout, policy: RecordDecoder<Ticket>.ErrorPolicy,
                       reader: DecodingOptions.Reader = .automatic) -> Outcome {
        var outcome = Outcome()
        let magma = decoder()
        magma.options.reader = reader
        let decoder = RecordDecoder(Ticket.self, layout: layout, decoder: magma, errorPolicy: policy) { outcome.records.append($0) }
        do {
            for piece in pieces { try decoder.feed(piece) }
            try decoder.finish()
        } catch let error as JSONError {
            outcome.error = error
        } catch {
            Issue.record("not a JSONError: \(error)")
        }
        outcome.skipped = Array(decoder.skipped)
        #expect(decoder.progress.records == outcome.records.count)
        #expect(decoder.progress.skipped == outcome.skipped.count)
        return outcome
    }

    /// Streams `input` whole, then in every chunk size and split in two at every byte: all must agree.
    static func streamEverywhere(_ input: String, _ layout: RecordDecoder<Ticket>.Layout, policy: RecordDecoder<Ticket>.ErrorPolicy,
                                 reader: DecodingOptions.Reader = .automatic,
                                 sourceLocation: SourceLocation = #_sourceLocation) -> Outcome {
        let bytes = Array(input.utf8)
        let whole = stream([bytes], layout, policy: policy, reader: reader)
        for way in splitWays(bytes, everySplit: true) {
            let outcome = stream(way.pieces, layout, policy: policy, reader: reader)
            #expect(outcome.description == whole.description, "\(way.name): \(outcome)\nwhole: \(whole)", sourceLocation: sourceLocation)
        }
        return whole
    }

    /// Where `needle` begins in `input`: byte offset, 1-based line and column.
    static func position(of needle: String, in input: String) -> (offset: Int, line: Int, column: Int) {
        let bytes = Array(input.utf8), target = Array(needle.utf8)
        let offset = (0...(bytes.count - target.count)).first { Array(bytes[$0..<($0 + target.count)]) == target }!
        let line = bytes[..<offset].filter { $0 == 10 }.count + 1
        let lineStart = (bytes[..<offset].lastIndex(of: 10) ?? -1) + 1
        return (offset, line, offset - lineStart + 1)
    }

    /// JSONDecoder's error for one record's text.
    static func jsonDecoderError(_ record: String) -> DecodingError? {
        do {
            _ = try jsonDecoder().decode(Ticket.self, from: Data(record.utf8))
        } catch let error as DecodingError {
            return error
        } catch {}
        return nil
    }

    static func summary(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String { context.codingPath.map(\.stringValue).joined(separator: "/") }
        switch error {
        case .typeMismatch(let type, let c): return "typeMismatch \(type) \(path(c))"
        case .valueNotFound(let type, let c): return "valueNotFound \(type) \(path(c))"
        case .keyNotFound(let key, let c): return "keyNotFound \(key.stringValue) \(path(c))"
        case .dataCorrupted(let c): return "dataCorrupted \(path(c))"
        @unknown default: return "\(error)"
        }
    }

    let good0 = #"{"id": 1, "title": "a", "user": {"id": 7, "login": "ann"}, "opened_at": 1700000000}"#
    let good2 = #"{"id": 3, "title": "c\n\u00e9", "tags": ["x", "y"]}"#
    var expected: [Ticket] {
        [Ticket(id: 1, title: "a", user: .init(id: 7, login: "ann"), openedAt: Date(timeIntervalSince1970: 1_700_000_000)),
         Ticket(id: 3, title: "c\né", tags: ["x", "y"])]
    }

    // MARK: Layouts

    @Test func array_recordsAsJSONDecoderReadsThem_everyChunking() throws {
        let input = "[\n  \(good0),\n  \(good2)\n]"
        let outcome = Self.streamEverywhere(input, .array, policy: .stop)
        #expect(outcome.error == nil)
        #expect(outcome.records == expected)
        #expect(outcome.records == [try Self.jsonDecoder().decode(Ticket.self, from: Data(good0.utf8)),
                                    try Self.jsonDecoder().decode(Ticket.self, from: Data(good2.utf8))])
    }

    @Test func ndjson_concatenated_andArrayAtKeyPath_everyChunking() {
        for (input, layout) in [("\(good0)\n\n\(good2)\r\n", RecordDecoder<Ticket>.Layout.ndjson),
                                ("\(good0) \(good2)", .concatenated),
                                ("{\"total\": 2, \"data\": {\"items\": [\(good0), \(good2)]}, \"next\": null}", .array(at: "data.items"))] {
            let outcome = Self.streamEverywhere(input, layout, policy: .stop)
            #expect(outcome.error == nil, "\(layout)")
            #expect(outcome.records == expected, "\(layout)")
        }
    }

    @Test func scalarRecords_throughTheDecoder() throws {
        var values: [Int?] = []
        let records = RecordDecoder(Int?.self, layout: .ndjson, decoder: MagmaDecoder(), errorPolicy: .skip) { values.append($0) }
        try records.feed(Array("1\n2\nnull\n\"x\"\n1.5\n".utf8))
        try records.finish()
        #expect(values == [1, 2, nil])
        #expect(records.skipped.map(\.code) == [.typeMismatch, .numberOutOfRange])
        #expect(records.skipped.map(\.line) == [4, 5])
        #expect(records.skipped.map(\.offset) == [9, 13])
        #expect(records.skipped.first?.underlying is DecodingError)
    }

    // MARK: Errors

    /// A bad record in a pretty-printed array: its error names the record, the path in the stream,
    /// and the offending value's offset, line and column however the bytes were chunked, and wraps
    /// JSONDecoder's `DecodingError` for the record.
    @Test(arguments: [RecordDecoder<Ticket>.ErrorPolicy.stop, .skip])
    func array_badRecord_placedExactly(policy: RecordDecoder<Ticket>.ErrorPolicy) throws {
        let bad = "{\"id\": 2,\n     \"user\": {\"login\": \"bo\",\n\n      \"id\": \"7\"},\n     \"title\": \"b\"}"
        let input = "[\n  \(good0),\n  \(bad),\n  \(good2)\n]"
        let outcome = Self.streamEverywhere(input, .array, policy: policy)
        let error = try #require(policy == .stop ? outcome.error : outcome.skipped.first)
        let at = Self.position(of: "\"7\"", in: input)
        #expect(error.code == .typeMismatch)
        #expect(error.path == "$[1].user.id")
        #expect(error.recordIndex == 1)
        #expect((error.offset, error.line, error.column) == (at.offset, at.line, at.column))
        let decodingError = try #require(error.underlying as? DecodingError)
        #expect(Self.summary(decodingError) == Self.summary(try #require(Self.jsonDecoderError(bad))))
        #expect(outcome.records == (policy == .stop ? [expected[0]] : expected))
    }

    /// Each reader places a bad record's error at its value: yajl, which reads records in pieces
    /// and places an error found when the record has ended from the lines its bytes passed, as
    /// the scanner does, on the record's first line and on a later one.
    @Test(arguments: [DecodingOptions.Reader.automatic, .yajl])
    func badRecord_placedExactly_byEveryReader(reader: DecodingOptions.Reader) throws {
        let bads = [(#"{"id": "2", "title": "b"}"#, #""2""#), ("{\"id\": 2, \"title\": \"b\",\n   \"tags\": [1]}", "1]")]
        for (bad, needle) in bads {
            let input = "[\n  \(good0),\n  \(bad)\n]"
            let outcome = Self.streamEverywhere(input, .array, policy: .stop, reader: reader)
            let error = try #require(outcome.error, "\(bad)")
            let at = Self.position(of: needle, in: input)
            #expect(error.code == .typeMismatch, "\(bad)")
            #expect((error.offset, error.line, error.column) == (at.offset, at.line, at.column), "\(bad): \(error)")
        }
    }

    @Test func concatenated_missingKey_atTheRecordsStart_andSkipped() throws {
        let bad = "{\"id\": 2,\n \"tags\": []}"
        let input = "\(good0)\n\(bad)\n\(good2)"
        let outcome = Self.streamEverywhere(input, .concatenated, policy: .skip)
        #expect(outcome.records == expected)
        let error = try #require(outcome.skipped.first)
        let at = Self.position(of: bad, in: input)
        #expect(error.code == .missingKey)
        #expect(error.recordIndex == 1)
        #expect((error.offset, error.line, error.column) == (at.offset, at.line, at.column))
        #expect(Self.summary(try #require(error.underlying as? DecodingError)) == Self.summary(try #require(Self.jsonDecoderError(bad))))
    }

    /// NDJSON: a line that fails to decode, and one that is not JSON, lose that line only; each
    /// error has its line and its column in it.
    @Test func ndjson_badLines_skipped_withLineAndColumn() throws {
        let input = "\(good0)\n{\"id\": 2, \"title\": null}\n{\"id\": 9,\n\(good2)\n"
        let outcome = Self.streamEverywhere(input, .ndjson, policy: .skip)
        #expect(outcome.records == expected)
        #expect(outcome.skipped.map(\.code) == [.nullValue, .unexpectedEnd])
        #expect(outcome.skipped.map(\.line) == [2, 3])
        #expect(outcome.skipped.map(\.recordIndex) == [1, 2])
        let null = try #require(outcome.skipped.first)
        let at = Self.position(of: "null}", in: input)
        #expect((null.offset, null.column) == (at.offset, at.column))
        #expect(null.path == "$.title")
    }

    @Test func arrayAtKeyPath_errorPathInTheEnvelope() throws {
        let input = "{\"items\": [\(good0), {\"id\": \"two\", \"title\": \"b\"}]}"
        let outcome = Self.streamEverywhere(input, .array(at: "items"), policy: .stop)
        let error = try #require(outcome.error)
        #expect(error.path == "$.items[1].id")
        #expect(error.recordIndex == 1)
        #expect(error.offset == Self.position(of: "\"two\"", in: input).offset)
        #expect(outcome.records == [expected[0]])
    }

    /// An error `init(from:)` throws of its own is the record's, placed at its start.
    @Test func customInitError_placedAtTheRecord() throws {
        struct Even: Decodable {
            let n: Int
            init(from decoder: any Decoder) throws {
                n = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .n)
                if n % 2 != 0 { throw CancellationError() }
            }
            enum CodingKeys: CodingKey { case n }
        }
        var kept: [Int] = []
        let input = "[{\"n\": 2},\n {\"n\": 3}, {\"n\": 4}]"
        let skipped = try JSONAdapter.forEachRecord(Even.self, from: Data(input.utf8), layout: .array, decoder: MagmaDecoder(),
                                                    errorPolicy: .skip) { kept.append($0.n) }
        #expect(kept == [2, 4])
        let error = try #require(skipped.first)
        #expect(error.code == .invalidValue)
        #expect(error.underlying is CancellationError)
        #expect((error.offset, error.line, error.column, error.recordIndex) == (12, 2, 2, 1))
    }

    // MARK: The other entry points

    @Test func asyncSequence_andFileHandle() async throws {
        let input = "\(good0)\n\(good2)\n"
        let pieces = AsyncStream<[UInt8]> { continuation in
            for chunk in chunks(Array(input.utf8), 5) { continuation.yield(chunk) }
            continuation.finish()
        }
        var records: [Ticket] = []
        for try await record in JSONAdapter.records(Ticket.self, from: pieces, layout: .ndjson, decoder: Self.decoder()) {
            records.append(record)
        }
        #expect(records == expected)

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("decodable-records-\(UUID()).ndjson")
        try Data(input.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        records = []
        try JSONAdapter.forEachRecord(Ticket.self, from: try FileHandle(forReadingFrom: url), layout: .ndjson, decoder: Self.decoder()) {
            records.append($0)
        }
        #expect(records == expected)
    }

    /// In parallel: the records and the skipped lines of the sequential stream, in order, placed in
    /// the whole document; and byte-range splits that tile the input visit each record once.
    @Test func parallel_andByteRanges_matchTheSequentialStream() throws {
        var lines: [String] = []
        for i in 0..<400 {
            lines.append(i % 37 == 5 ? "{\"id\": \(i), \"title\": \(i)}" : "{\"id\": \(i), \"title\": \"t\(i)\", \"tags\": [\"a\"]}")
        }
        let data = Data(lines.joined(separator: "\n").utf8)
        var sequential: [Ticket] = []
        let skipped = try JSONAdapter.forEachRecord(Ticket.self, from: data, layout: .ndjson, decoder: Self.decoder(), errorPolicy: .skip) {
            sequential.append($0)
        }
        let (models, parallelSkipped) = try JSONAdapter.recordsInParallel(
            from: data, layout: .ndjson, codec: DecodableRecordCodec<Ticket>(Self.decoder()), options: .init(), errorPolicy: .skip,
            concurrency: 4, minimumBatchBytes: 500)
        #expect(models == sequential)
        #expect(sequential.count == 400 - skipped.count && skipped.count == 11)
        #expect(parallelSkipped.map(StreamOutcome.summary) == skipped.map(StreamOutcome.summary))
        let (publicModels, _) = try JSONAdapter.modelsInParallel(Ticket.self, from: data, layout: .ndjson, decoder: Self.decoder(), errorPolicy: .skip)
        #expect(publicModels == sequential)

        var split: [Ticket] = []
        for start in stride(from: 0, to: data.count, by: 1000) {
            try JSONAdapter.forEachRecord(Ticket.self, from: data, byteRange: start..<(start + 1000), decoder: Self.decoder(),
                                          errorPolicy: .skip) { split.append($0) }
        }
        #expect(split == sequential)
    }

    // MARK: A macro model

    @JSONModel struct MacroTicket: Codable, Equatable {
        let id: Int
        let title: String
        var tags: [String]?
    }

    /// A `@JSONModel` type that is also `Codable` streams through its mapping or, given a
    /// `MagmaDecoder`, as a `Decodable`: the same records and the same bad records.
    @Test func macroModel_streamsBothWays() throws {
        let input = "{\"id\": 1, \"title\": \"a\"}\n{\"id\": 2}\n{\"id\": 3, \"title\": \"c\", \"tags\": [\"x\"]}\n"
        var mapped: [MacroTicket] = [], decoded: [MacroTicket] = []
        let viaMapping = RecordDecoder(MacroTicket.self, layout: .ndjson, errorPolicy: .skip) { mapped.append($0) }
        let viaDecoder = RecordDecoder(MacroTicket.self, layout: .ndjson, decoder: MagmaDecoder(), errorPolicy: .skip) { decoded.append($0) }
        for records in [viaMapping, viaDecoder] {
            try records.feed(Array(input.utf8))
            try records.finish()
        }
        #expect(mapped == [MacroTicket(id: 1, title: "a", tags: nil), MacroTicket(id: 3, title: "c", tags: ["x"])])
        #expect(decoded == mapped)
        #expect(viaMapping.skipped.map(\.code) == [.missingKey])
        #expect(viaDecoder.skipped.map(\.code) == [.missingKey])
        #expect(viaDecoder.skipped.map(\.line) == viaMapping.skipped.map(\.line))
    }
}
