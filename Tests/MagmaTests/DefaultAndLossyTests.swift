import Foundation
import Testing
@testable import Magma

/// `@Default` (missing or null; with `onInvalid: true` an invalid value too) and `@Lossy`
/// (bad elements dropped), each noted in a `DecodingReport`, in every entry point.
@Suite struct DefaultAndLossyTests {
    static let minimal = #"{"id": 1, "tags": []}"#

    @Test func default_whenTheKeyIsMissingOrNull() throws {
        let missing = try decodeEverywhere(Order33.self, Self.minimal)
        #expect(missing == Order33(id: 1, retries: 0, note: "none", status: .open, counts: [], primary: Tag33(name: "none"), tags: [],
                                   scores: [:], extra: [], userName: nil))
        let null = try decodeEverywhere(Order33.self, #"{"id": 1, "tags": [], "retries": null, "note": null, "status": null, "counts": null}"#)
        #expect(null == missing)
        let report = DecodingReport()
        _ = try JSONAdapter.model(Order33.self, from: #"{"id": 1, "tags": [], "retries": null}"#, report: report)
        #expect(report.isEmpty, "a missing key or null is no invalid value")
    }

    @Test func defaultWithoutOnInvalid_anInvalidValueStillFails() {
        let error = failureEverywhere(Order33.self, #"{"id": 1, "tags": [], "retries": "x"}"#)
        #expect(error?.code == .typeMismatch)
        #expect(error?.path == "$.retries")
    }

    @Test func onInvalid_defaultsAndReportsEachInvalidValue() throws {
        let json = #"{"id": 1, "tags": [], "status": "weird", "counts": [1, "x"], "primary": {"name": 5}}"#
        let (models, report) = try decodeEveryEntryPoint(Order33.self, [json, Self.minimal])
        #expect(models[0].status == .open && models[0].counts == [] && models[0].primary == Tag33(name: "none"))
        #expect(report.defaultedCount == 3 && report.droppedCount == 0)
        #expect(report.defaulted.map(\.path) == ["$[0].status", "$[0].counts", "$[0].primary"])
        #expect(report.defaulted.map(\.property) == ["Order33.status", "Order33.counts", "Order33.primary"])
        #expect(report.defaulted.map(\.error.code) == [.invalidValue, .typeMismatch, .typeMismatch])
        #expect(report.defaulted.map(\.error.path) == ["$[0].status", "$[0].counts[1]", "$[0].primary.name"])
        // Placed in the input: the offset of each value that failed.
        let array = "[" + json + "," + Self.minimal + "]"
        let offsets = report.defaulted.compactMap(\.error.offset)
        #expect(offsets.map { String(array.utf8.dropFirst($0).prefix(3))! } == [#""we"#, #""x""#, "5}}"])
    }

    @Test func onInvalid_aNestedModelMissingARequiredKey_orFailingItsHook() throws {
        let report = DecodingReport()
        let order = try JSONAdapter.model(Order33.self, from: #"{"id": 1, "tags": [], "primary": {}}"#, report: report)
        #expect(order.primary == Tag33(name: "none"))
        #expect(report.defaulted.first?.error.code == .missingKey)
    }

    @Test func onInvalid_anErrorInTheTextStillFails() {
        var bytes = Array(#"{"id": 1, "tags": [], "status": "x"}"#.utf8)
        bytes[bytes.count - 3] = 0xFF
        #expect(failureEverywhere(Order33.self, bytes)?.code == .invalidUnicode)
    }

    @Test func lossy_dropsTheBadElementsAndReportsEach() throws {
        let json = #"{"id": 1, "tags": [{"name": "a"}, 42, {"name": 7}, {"name": "b"}, {}], "scores": {"a": 1, "b": "x", "c": 3}}"#
        let (models, report) = try decodeEveryEntryPoint(Order33.self, [Self.minimal, json])
        #expect(models[1].tags == [Tag33(name: "a"), Tag33(name: "b")])
        #expect(models[1].scores == ["a": 1, "c": 3])
        #expect(report.dropped.map(\.path) == ["$[1].tags[1]", "$[1].tags[2]", "$[1].tags[4]", "$[1].scores.b"])
        #expect(report.dropped.map(\.property) == ["Order33.tags", "Order33.tags", "Order33.tags", "Order33.scores"])
        #expect(report.dropped.map(\.error.code) == [.typeMismatch, .typeMismatch, .missingKey, .typeMismatch])
        #expect(report.defaulted.isEmpty)
    }

    @Test func withoutLossy_oneBadElementFailsTheProperty() {
        let error = failureEverywhere(Drawing33.self, #"{"shapes": [{"type": "circle", "radius": 1}, {"type": "circle", "radius": "x"}]}"#)
        #expect(error?.code == .typeMismatch)
        #expect(error?.path == "$.shapes[1].radius")
    }

    @Test func lossy_aValueThatIsNotACollectionStillFails() {
        let error = failureEverywhere(Order33.self, #"{"id": 1, "tags": {"name": "a"}}"#)
        #expect(error?.code == .typeMismatch)
        #expect(error?.path == "$.tags")
    }

    @Test func lossyAndDefault_theDefaultForANonCollection_dropsInsideOne() throws {
        let report = DecodingReport()
        let notAnArray = try JSONAdapter.model(Order33.self, from: #"{"id": 1, "tags": [], "extra": 5}"#, report: report)
        #expect(notAnArray.extra == [])
        #expect(report.defaultedCount == 1 && report.droppedCount == 0)
        let second = DecodingReport()
        let oneBad = try JSONAdapter.model(Order33.self, from: #"{"id": 1, "tags": [], "extra": [{"name": "a"}, 1]}"#, report: second)
        #expect(oneBad.extra == [Tag33(name: "a")])
        #expect(second.droppedCount == 1 && second.defaultedCount == 0)
    }

    /// `Int128` / `UInt128` with the attributes: exact at their extremes, a value past the range
    /// defaulted or dropped (and noted) rather than wrapped, in a tagged case, written back.
    @Test func int128_defaultedLossyAndInATaggedCase() throws {
        let good = #"{"big": 170141183460469231731687303715884105727, "ids": [0, 340282366920938463463374607431768211455], "#
            + #""amt": {"kind": "signed", "of": {"value": -170141183460469231731687303715884105728}}}"#
        let bad = #"{"big": 170141183460469231731687303715884105728, "ids": [-1, 7, 340282366920938463463374607431768211456]}"#
        let (models, report) = try decodeEveryEntryPoint(Wide33.self, [good, bad])
        #expect(models == [Wide33(big: .max, ids: [0, .max], amount: .signed(value: .min)), Wide33(big: .min, ids: [7], amount: nil)])
        #expect(report.defaulted.map(\.path) == ["$[1].big"] && report.defaulted.map(\.error.code) == [.numberOutOfRange])
        #expect(report.dropped.map(\.path) == ["$[1].ids[0]", "$[1].ids[2]"])
        let json = String(decoding: try JSONAdapter.json(from: models[0]), as: UTF8.self)
        #expect(json.contains(#""amount":{"kind":"signed","of":{"value":-170141183460469231731687303715884105728}}"#), "\(json)")
        let back = try JSONAdapter.model(Wide33.self, from: json.replacingOccurrences(of: #""amount""#, with: #""amt""#))
        #expect(back == models[0])
    }

    @Test func defaultsAndDrops_roundTrip() throws {
        let order = try JSONAdapter.model(Order33.self, from: #"{"id": 1, "tags": [{"name": "a"}, 2], "status": "x", "scores": {"a": 1}}"#)
        #expect(try JSONAdapter.model(Order33.self, from: JSONAdapter.json(from: order)) == order)
    }

    /// A stream keeps the entries of the records it delivers, each with its index; a skipped
    /// record's are taken back, and only the first `keptSkippedErrors` of each kind are kept.
    @Test func stream_reportsTheRecordsItDelivers_bounded() throws {
        let lines = [#"{"id": 0, "tags": [1]}"#, #"{"id": 1, "tags": [2], "status": "x", "retries": "bad"}"#,
                     #"{"id": 2, "tags": [{"name": "a"}, 3, 4]}"#]
        var options = DecodingOptions()
        options.keptSkippedErrors = 2
        var ids: [Int] = []
        let decoder = RecordDecoder(Order33.self, layout: .ndjson, options: options, errorPolicy: .skip) { ids.append($0.id) }
        try decoder.feed(Data(lines.joined(separator: "\n").utf8))
        try decoder.finish()
        #expect(ids == [0, 2])
        #expect(decoder.skipped.total == 1)
        #expect(decoder.report.droppedCount == 3 && decoder.report.defaultedCount == 0)
        #expect(decoder.report.dropped.map(\.recordIndex) == [0, 2])
        #expect(decoder.report.dropped.map(\.path) == ["$.tags[0]", "$.tags[1]"])
    }

    /// In parallel, each batch's entries are placed in the whole document (record index, path,
    /// offset, line) as the sequential decoder places them; a skipped record's are taken back; the
    /// lists are bounded, every entry counted. NDJSON, and an array whose batches each begin inside it.
    @Test(arguments: [RecordDecoder<Order33>.Layout.ndjson, .array])
    func parallel_reportsAsTheSequentialStream_bounded(layout: RecordDecoder<Order33>.Layout) throws {
        var lines: [String] = []
        for i in 0..<40 {
            lines.append(i % 7 == 3 ? #"{"id": \#(i), "tags": [1], "retries": "bad"}"#
                                    : #"{"id": \#(i), "tags": [{"name": "a"}, \#(i)], "status": "x\#(i)"}"#)
        }
        let data = Data((layout == .ndjson ? lines.joined(separator: "\n") + "\n" : "[" + lines.joined(separator: ",\n") + "]").utf8)
        var options = DecodingOptions()
        options.keptSkippedErrors = 5
        let sequential = RecordDecoder(Order33.self, layout: layout, options: options, errorPolicy: .skip) { _ in }
        try sequential.feed(data)
        try sequential.finish()
        let report = DecodingReport()
        let parallel = try JSONAdapter.modelsInParallel(Order33.self, from: data, layout: layout, options: options, errorPolicy: .skip,
                                                        concurrency: 2, minimumBatchBytes: 64, report: report)
        #expect(parallel.models.count == 34 && parallel.skipped.total == 6)
        #expect(parallel.skipped.map(StreamOutcome.summary) == sequential.skipped.map(StreamOutcome.summary))
        #expect(report.droppedCount == 34 && report.defaultedCount == 34 && report.dropped.count == 5)
        #expect(report.entries == sequential.report.entries)
        #expect(report.all.map(\.path) == sequential.report.all.map(\.path))
        #expect(report.all.map(\.recordIndex) == sequential.report.all.map(\.recordIndex))
        #expect(report.dropped.map(\.recordIndex) == [0, 1, 2, 4, 5])
        // The public entry point (one batch for so small a document) gives the same, and so does
        // the one decoder that reads an input with comments allowed.
        let whole = DecodingReport()
        _ = try JSONAdapter.modelsInParallel(Order33.self, from: data, layout: layout, options: options, errorPolicy: .skip, report: whole)
        #expect(whole.entries == report.entries && whole.droppedCount == 34)
        options.allowComments = true
        let commented = DecodingReport()
        _ = try JSONAdapter.modelsInParallel(Order33.self, from: data, layout: layout, options: options, errorPolicy: .skip,
                                             concurrency: 2, minimumBatchBytes: 64, report: commented)
        #expect(commented.entries == report.entries && commented.droppedCount == 34)
    }

    /// A report given to several reads holds the entries of them all, a read through a
    /// transformer's included.
    @Test func oneReport_acrossReads_andThroughATransformer() throws {
        let report = DecodingReport()
        _ = try JSONAdapter.model(Order33.self, from: #"{"id": 1, "tags": [], "status": "x"}"#, report: report)
        let orders = try JSONAdapter.value(from: #"{"a": {"id": 2, "tags": [1]}}"#, .dictionary(.model(Order33.self)), report: report)
        #expect(orders["a"]?.id == 2)
        #expect(report.defaultedCount == 1 && report.droppedCount == 1)
        #expect(report.defaulted.map(\.path) == ["$.status"] && report.dropped.map(\.path) == ["$.a.tags[0]"])
    }

    /// A record decoder's report is a copy as it stands: the records read after do not change it.
    @Test func recordDecodersReport_isACopyAsItStands() throws {
        let decoder = RecordDecoder(Order33.self, layout: .ndjson) { _ in }
        try decoder.feed(Data("{\"id\": 1, \"tags\": [1]}\n".utf8))
        let before = decoder.report
        try decoder.feed(Data("{\"id\": 2, \"tags\": [2]}\n".utf8))
        try decoder.finish()
        #expect(before.droppedCount == 1 && before.dropped.map(\.recordIndex) == [0])
        #expect(decoder.report.droppedCount == 2 && decoder.report.dropped.map(\.recordIndex) == [0, 1])
    }
}
