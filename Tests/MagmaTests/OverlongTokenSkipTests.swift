import Foundation
import Testing
@testable import Magma

/// A record stream that skips bad records treats a string, number or key over the size cap the
/// same however the input is chunked: the record holding it is skipped and reported, the stream
/// goes on, and errors after it keep their exact offsets.
@Suite struct OverlongTokenSkipTests: TokenCapFixtures {
    typealias Event = StreamEvent
    typealias Outcome = StreamOutcome

    @discardableResult
    private func outcomeEverywhere(_ input: String, _ layout: RecordDecoder<Event>.Layout,
                                   policy: RecordDecoder<Event>.ErrorPolicy = .skip,
                                   sourceLocation: SourceLocation = #_sourceLocation) -> Outcome {
        streamOutcomeEverywhere(input, layout, policy: policy, options: Self.options(), sourceLocation: sourceLocation)
    }

    /// The middle record's bad token, as a value, a number and a key (with an escape and an
    /// escaped quote near the end, so a chunk may end inside one).
    static let badRecords = [
        #"{"id": 2, "name": "\#(long)", "score": 1}"#,
        #"{"id": 2, "score": \#(digits).5e+3, "name": "n"}"#,
        #"{"id": 2, "\#(long)\n\"q\u0041": 1, "name": "n"}"#,
        #"{"id": 2, "name": ["\#(long)"]}"#,
        #"{"id": 2, "junk": [{"a": "\#(long)"}, 1]}"#,
    ]

    @Test(arguments: badRecords)
    func array_overlongTokenSkipsItsRecordOnly(bad: String) {
        let whole = outcomeEverywhere("[{\"id\": 1},\n \(bad),\n {\"id\": 3}]", .array)
        #expect(whole.records.map(\.id) == [1, 3], "\(whole)")
        #expect(whole.skipped.map(\.code) == [bad.contains("[\"x") ? .typeMismatch : .sizeLimitExceeded], "\(whole)")
        #expect(whole.skipped.first?.recordIndex == 1)
        #expect(whole.skipped.first?.line == 2)
        #expect(whole.skipped.first.map { $0.column == $0.offset.map { $0 - 12 + 1 } } == true, "\(whole)")
        #expect(whole.error == nil)
    }

    @Test(arguments: badRecords)
    func concatenated_overlongTokenSkipsItsRecordOnly(bad: String) {
        let whole = outcomeEverywhere("{\"id\": 1}\n\(bad)\n{\"id\": 3}", .concatenated)
        #expect(whole.records.map(\.id) == [1, 3], "\(whole)")
        #expect(whole.skipped.map(\.code) == [bad.contains("[\"x") ? .typeMismatch : .sizeLimitExceeded], "\(whole)")
        #expect(whole.error == nil)
    }

    @Test(arguments: badRecords)
    func envelope_overlongTokenSkipsItsRecordOnly(bad: String) {
        let whole = outcomeEverywhere("{\"items\": [{\"id\": 1}, \(bad), {\"id\": 3}], \"n\": \"\(Self.long)\"}", .array(at: "items"))
        #expect(whole.records.map(\.id) == [1, 3], "\(whole)")
        #expect(whole.skipped.map(\.code) == [bad.contains("[\"x") ? .typeMismatch : .sizeLimitExceeded], "\(whole)")
    }

    /// A record that is itself a string or number over the cap (or a string with a bad escape),
    /// or an object whose key is, has its own index, skipped or stopping, in every layout.
    @Test(arguments: [#""\#(long)""#, digits, #"{"\#(long)": 1}"#, #""\uD800""#])
    func recordThatFailsBeforeItIsCounted_hasItsOwnIndex(bad: String) {
        let code: JSONError.Code = bad.contains("uD800") ? .invalidUnicode : .sizeLimitExceeded
        let inputs: [(RecordDecoder<Event>.Layout, String)] = [
            (.array, "[{\"id\": 1}, \(bad), {\"id\": 3}]"),
            (.array(at: "items"), "{\"items\": [{\"id\": 1}, \(bad), {\"id\": 3}]}"),
            (.concatenated, "{\"id\": 1} \(bad) {\"id\": 3}"),
            (.ndjson, "{\"id\": 1}\n\(bad)\n{\"id\": 3}\n"),
        ]
        for (layout, input) in inputs {
            let skipped = outcomeEverywhere(input, layout)
            #expect(skipped.records.map(\.id) == [1, 3], "\(layout): \(skipped)")
            #expect(skipped.skipped.map(\.code) == [code], "\(layout): \(skipped)")
            #expect(skipped.skipped.map(\.recordIndex) == [1], "\(layout): \(skipped)")
            #expect(skipped.error == nil, "\(layout): \(skipped)")
            let stopped = outcomeEverywhere(input, layout, policy: .stop)
            #expect(stopped.records.map(\.id) == [1], "\(layout): \(stopped)")
            #expect(stopped.error?.code == code, "\(layout): \(stopped)")
            #expect(stopped.error?.recordIndex == 1, "\(layout): \(stopped)")
        }
    }

    /// A syntax error after the skipped token is where it is in the input, however it was fed.
    @Test(arguments: badRecords)
    func syntaxErrorAfterASkippedToken_keepsItsOffset(bad: String) {
        let array = outcomeEverywhere("[{\"id\": 1}, \(bad),\n {\"id\": 3 x}]", .array)
        #expect(array.records.map(\.id) == [1])
        #expect(array.error?.code == .syntax)
        #expect(array.error?.line == 2)
        let concatenated = outcomeEverywhere("{\"id\": 1} \(bad) {\"id\": 3,, }", .concatenated)
        #expect(concatenated.error?.code == .syntax)
        // The error comes right after the bad record, and inside the number's own bytes.
        outcomeEverywhere("[{\"id\": 1}, {\"id\": 2, \"score\": \(Self.digits)x}, {\"id\": 3}]", .array)
        outcomeEverywhere("[{\"id\": 1}, {\"id\": 2, \"score\": \(Self.digits).}, {\"id\": 3}]", .array)
        outcomeEverywhere("[{\"id\": 1}, {\"id\": 2, \"name\": \"\(Self.long)\u{01}\"}, {\"id\": 3}]", .array)
        outcomeEverywhere("[{\"id\": 1}, {\"id\": 2, \"name\": \"\(Self.long)\\q\"}, {\"id\": 3}]", .array)
        outcomeEverywhere("[{\"id\": 1}, {\"id\": 2, \"name\" \"\(Self.long)\"}, {\"id\": 3}]", .array)
    }

    /// However the token's bytes fall into feeds, reading past it may begin inside an escape or a
    /// number's fraction or exponent: yajl is given an ending that fits where it stands.
    @Test(arguments: 14...24)
    func readingPastBeginsAnywhereInTheToken(prefix: Int) {
        let escapes = String(repeating: "y", count: prefix) + String(repeating: #"\u00e9\"\\"#, count: 3)
        let numbers = [String(repeating: "1", count: prefix) + ".25e+3", "-" + String(repeating: "1", count: prefix) + "E-7",
                       "-0." + String(repeating: "5", count: prefix) + "e12"]
        for bad in [#"{"id": 2, "name": "\#(escapes)", "score": 1}"#, #"{"id": 2, "\#(escapes)": 1}"#]
            + numbers.map({ #"{"id": 2, "score": \#($0), "name": "n"}"# }) {
            let whole = outcomeEverywhere("[{\"id\": 1}, \(bad), {\"id\": 3}]", .array)
            #expect(whole.records.map(\.id) == [1, 3], "\(whole)")
            #expect(whole.skipped.map(\.code) == [.sizeLimitExceeded], "\(whole)")
        }
    }

    /// A token over the cap that the input ends inside: its record is skipped, and the end ends
    /// the stream; a number the end completes is a record like any other.
    @Test func inputEndingInsideTheToken() {
        for layout in [RecordDecoder<Event>.Layout.array, .concatenated] {
            let head = layout == .array ? "[{\"id\": 1}, " : "{\"id\": 1} "
            let string = outcomeEverywhere(head + "{\"id\": 2, \"name\": \"\(Self.long)", layout)
            #expect(string.error?.code == .unexpectedEnd, "\(string)")
            #expect(string.skipped.map(\.code) == [.sizeLimitExceeded], "\(string)")
            outcomeEverywhere(head + "{\"id\": 2, \"name\": \"\(Self.long)\\", layout)
            outcomeEverywhere(head + "\(Self.digits)", layout)
            outcomeEverywhere(head + "\(Self.digits)e", layout)
        }
    }

    /// An endless string fed in 64 KiB chunks, one record in: fails at the end of the input
    /// holding O(cap) bytes, never the string.
    @Test func endlessString_inASkippingStream_holdsBoundedMemory() throws {
        let options = Self.options(cap: 1 << 16)
        var records = 0
        let decoder = RecordDecoder(Event.self, layout: .array, options: options, errorPolicy: .skip) { _ in records += 1 }
        try decoder.feed(Array("[{\"id\": 1}, {\"id\": 2, \"name\": \"".utf8))
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 64 * 1024)
        for _ in 0..<256 { try decoder.feed(chunk) }   // 16 MiB
        #expect(decoder.mostHeld < 4 * options.maxTokenLength, "held \(decoder.mostHeld) bytes")
        #expect(throws: JSONError.self) { try decoder.finish() }
        #expect(records == 1)
    }
}
