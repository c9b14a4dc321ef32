import Foundation
import Testing
@testable import Magma

/// A record of an array or a sequence of values skipped for its text (bad UTF-8, a token over the
/// cap) is still read for its syntax: a syntax error in the rest of it, or an input ending in it,
/// ends the stream, on every reader and in any pieces (the differential fuzz target's findings).
@Suite struct SkippedRecordSyntaxTests: TokenCapFixtures {
    /// `bytes` streamed whole, with `reader: .yajl`, and in every split and chunk size: all agree;
    /// returns the whole buffer's outcome.
    @discardableResult
    private func outcomeEverywhere(_ bytes: [UInt8], _ layout: RecordDecoder<StreamEvent>.Layout, options: DecodingOptions? = nil,
                                   everySplit: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) -> StreamOutcome {
        let options = options ?? Self.options()
        let whole = streamOutcome([bytes], layout, policy: .skip, options: options)
        var yajl = options
        yajl.reader = .yajl
        let viaYajl = streamOutcome([bytes], layout, policy: .skip, options: yajl)
        #expect(viaYajl.description == whole.description, "yajl: \(viaYajl)\nscanner: \(whole)", sourceLocation: sourceLocation)
        for way in splitWays(bytes, everySplit: everySplit) {
            let outcome = streamOutcome(way.pieces, layout, policy: .skip, options: options)
            #expect(outcome.description == whole.description, "\(way.name): \(outcome)\nwhole: \(whole)", sourceLocation: sourceLocation)
        }
        return whole
    }

    private static func offset(of marker: String, in bytes: [UInt8]) -> Int? {
        let m = Array(marker.utf8)
        return (0...(bytes.count - m.count)).first { Array(bytes[$0..<($0 + m.count)]) == m }
    }

    /// Bad UTF-8 in a key, then a byte that is no token: the record's text error is skipped, and
    /// the syntax error ends the stream at its byte (the records after it are not guessed at).
    @Test(arguments: [RecordDecoder<StreamEvent>.Layout.array, .concatenated])
    func badText_thenSyntax_endsTheStreamAtTheSyntaxError(layout: RecordDecoder<StreamEvent>.Layout) {
        let (open, separator, close) = layout == .array ? ("[", ", ", "]") : ("", "\n", "")
        let head: [UInt8] = Array("\(open){\"id\": 1}\(separator){\"id\": 2, \"".utf8)
        let tail: [UInt8] = Array("ags\": 1, \"f\"link\" \"x\"}\(separator){\"id\": 3}\(close)".utf8)
        let bytes = head + [0x93] + tail
        let outcome = outcomeEverywhere(bytes, layout)
        #expect(outcome.records.map(\.id) == [1], "\(outcome)")
        #expect(outcome.skipped.map(\.code) == [.invalidUnicode], "\(outcome)")
        #expect(outcome.error?.code == .syntax, "\(outcome)")
        #expect(outcome.error?.offset == Self.offset(of: "link", in: bytes), "\(outcome)")
        #expect(outcome.error?.message == "lexical error: invalid char in json text.", "\(outcome)")
        let before = bytes.prefix(outcome.error?.offset ?? 0)
        let lineStart = (before.lastIndex(of: 0x0A) ?? -1) + 1
        #expect(outcome.error?.line == before.count(where: { $0 == 0x0A }) + 1, "\(outcome)")
        #expect(outcome.error?.column == before.count - lineStart + 1, "\(outcome)")
    }

    /// The same after a token over the cap.
    @Test func overlongToken_thenSyntax_endsTheStream() {
        let json = "[{\"id\": 1}, {\"id\": 2, \"name\": \"\(Self.long)\", \"a\" x}, {\"id\": 3}]"
        let outcome = outcomeEverywhere(Array(json.utf8), .array)
        #expect(outcome.records.map(\.id) == [1], "\(outcome)")
        #expect(outcome.skipped.map(\.code) == [.sizeLimitExceeded], "\(outcome)")
        #expect(outcome.error?.code == .syntax, "\(outcome)")
        #expect(outcome.error?.offset == json.utf8.count - " x}, {\"id\": 3}]".utf8.count + 1, "\(outcome)")
    }

    /// A skipped record with no syntax error: the stream goes on after it.
    @Test func badText_validSyntax_skipsTheRecordOnly() {
        let head: [UInt8] = Array("[{\"id\": 1}, {\"id\": 2, \"".utf8)
        let tail: [UInt8] = Array("\": [1, {\"b\": \"}\"}]}, {\"id\": 3}]".utf8)
        let bytes = head + [0xFF] + tail
        let outcome = outcomeEverywhere(bytes, .array)
        #expect(outcome.records.map(\.id) == [1, 3], "\(outcome)")
        #expect(outcome.skipped.map(\.code) == [.invalidUnicode], "\(outcome)")
        #expect(outcome.error == nil, "\(outcome)")
    }

    /// The input ends inside a record after its text error: skipped, and the end ends the stream.
    @Test(arguments: [RecordDecoder<StreamEvent>.Layout.array, .concatenated])
    func inputEndingInASkippedRecord_endsTheStream(layout: RecordDecoder<StreamEvent>.Layout) {
        let head = layout == .array ? "[{\"id\": 1}, " : "{\"id\": 1} "
        let json = head + "{\"id\": 2, \"name\": \"\(Self.long)\", \"tags\": [\"a\""
        let outcome = outcomeEverywhere(Array(json.utf8), layout)
        #expect(outcome.records.map(\.id) == [1], "\(outcome)")
        #expect(outcome.skipped.map(\.code) == [.sizeLimitExceeded], "\(outcome)")
        #expect(outcome.error?.code == .unexpectedEnd, "\(outcome)")
        #expect(outcome.error?.offset == json.utf8.count, "\(outcome)")
    }

    /// Past the first `syntaxCheckedLength` bytes of a record skipped for its text, its syntax is
    /// not read (a record held in pieces is not held that far): it is skipped whole, alike
    /// everywhere.
    @Test func syntaxPastTheCheckedLength_isSkippedWithTheRecord() {
        let filler = (0..<12_000).map { "\"t\($0)\"" }.joined(separator: ",")
        let json = "[{\"id\": 1}, {\"id\": 2, \"name\": \"\(Self.long)\", \"tags\": [\(filler)], \"a\" x}, {\"id\": 3}]"
        #expect(json.utf8.count > 1 << 16)
        let outcome = outcomeEverywhere(Array(json.utf8), .array, everySplit: false)
        #expect(outcome.records.map(\.id) == [1, 3], "\(outcome)")
        #expect(outcome.skipped.map(\.code) == [.sizeLimitExceeded], "\(outcome)")
        #expect(outcome.error == nil, "\(outcome)")
    }

    /// After a record, a token in place of `,` or `]` that a piece ends inside: the stream's
    /// error is the lexical one inside it, as one whole buffer reports it, not an early end.
    @Test func misplacedTokenAfterARecord_inPieces() {
        let json = "[{\"id\": 1} \"ab\u{01}cd\", {\"id\": 2}]"
        let outcome = outcomeEverywhere(Array(json.utf8), .array)
        #expect(outcome.records.map(\.id) == [1], "\(outcome)")
        #expect(outcome.error?.code == .syntax, "\(outcome)")
        #expect(outcome.error?.message == "lexical error: invalid character inside string.", "\(outcome)")
        #expect(outcome.error?.offset == 14, "\(outcome)")
        let well = outcomeEverywhere(Array("[{\"id\": 1} \"abcd\", {\"id\": 2}]".utf8), .array)
        #expect(well.error?.message == "after array element, I expect ',' or ']'", "\(well)")
        #expect(well.error?.offset == 11, "\(well)")
    }
}

extension ReaderAgreementTests {
    /// An error the grammar finds ahead of yajl in bytes held across feeds (the size cap's check)
    /// is placed after the tokens before it: the key being read, as one whole buffer names it.
    @Test func heldBytesError_isPlacedAfterTheTokensBeforeIt() {
        var capped = DecodingOptions()
        capped.maxTokenLength = 8
        let json = #"{"a": 0.25, "bcdefg" , "h": 1}"#
        guard case .failure(let summary) = Self.agree(.json, Array(json.utf8), options: capped, json) else {
            Issue.record("\(json) decoded")
            return
        }
        #expect(summary.contains("path=$.bcdefg "), "\(summary)")
        // A number cut by a piece, then a byte that ends the document early: the number's own
        // error (a model expects an object) comes first, as in one whole buffer.
        let number = "118446744073709551616844674403709551616\u{0}"
        capped.maxTokenLength = 64
        for size in [1, 3, 7, 64] {
            let error = thrownJSONError("chunks of \(size)") {
                _ = try JSONAdapter.model(CountedChild.self, from: .chunks(chunks(Array(number.utf8), size)), options: capped)
            }
            #expect(error?.code == .typeMismatch, "chunks of \(size): \(String(describing: error))")
            #expect(error?.offset == 0)
        }
    }
}
