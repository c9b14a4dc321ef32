import Foundation
import Testing
@testable import Magma

/// An NDJSON line is parsed as it arrives: a string or number over the size cap fails as soon as
/// it passes the cap, with the error the whole line gives, and with `.skip` loses that line only,
/// holding O(cap) bytes however long the line runs on. A line long only because it holds many
/// small tokens is a record like any other.
@Suite struct NDJSONLineTests: TokenCapFixtures {
    typealias Event = StreamEvent
    typealias Outcome = StreamOutcome

    private func stream(_ pieces: [[UInt8]], policy: RecordDecoder<Event>.ErrorPolicy, options: DecodingOptions = Self.options(),
                        more: () -> [UInt8]? = { nil }) -> Outcome {
        streamOutcome(pieces, .ndjson, policy: policy, options: options, more: more)
    }

    @discardableResult
    private func outcomeEverywhere(_ input: String, policy: RecordDecoder<Event>.ErrorPolicy,
                                   sourceLocation: SourceLocation = #_sourceLocation) -> Outcome {
        streamOutcomeEverywhere(input, .ndjson, policy: policy, options: Self.options(), sourceLocation: sourceLocation)
    }

    /// Lines with a token over the cap (a value, a number, a key, one in an array, one in an
    /// unmapped value, with escapes near the end), or an error before it that comes first.
    static let badLines = [
        #"{"id": 2, "name": "\#(long)", "score": 1}"#,
        #"{"id": 2, "score": \#(digits).5e+3, "name": "n"}"#,
        #"{"id": 2, "\#(long)\"q\u0041": 1, "name": "n"}"#,
        #"{"id": 2, "tags": ["a", "\#(long)"]}"#,
        #"{"id": 2, "junk": [{"a": "\#(long)"}, 1]}"#,
        #"{"id": "two", "name": "\#(long)"}"#,
        #"{"id": 2, "name": "xx\u{01}\#(long)"}"#,
        #"{"id": 2 "name": "\#(long)"}"#,
        #""\#(long)""#,
        "  \t" + digits,
    ]

    @Test(arguments: badLines)
    func badLine_failsAsTheWholeLineDoes_everySplit(bad: String) {
        for newline in ["\n", "\r\n"] {
            let input = ["{\"id\": 1}", bad, "", "  {\"id\": 3}"].joined(separator: newline) + newline
            let skipped = outcomeEverywhere(input, policy: .skip)
            #expect(skipped.records.map(\.id) == [1, 3], "\(skipped)")
            #expect(skipped.skipped.map(\.recordIndex) == [1], "\(skipped)")
            #expect(skipped.skipped.map(\.line) == [2], "\(skipped)")
            #expect(skipped.error == nil)
            let stopped = outcomeEverywhere(input, policy: .stop)
            #expect(stopped.records.map(\.id) == [1], "\(stopped)")
            #expect(stopped.error.map(Outcome.summary) == skipped.skipped.first.map(Outcome.summary))
        }
    }

    /// A line the input ends inside, with a string already over the cap, fails (or is skipped) as
    /// the complete line would; one still under the cap ends too soon.
    @Test func inputEndingInsideALine() {
        let head = "{\"id\": 1}\r\n"
        let open = head + "{\"id\": 2, \"name\": \"\(Self.long)"
        let complete = stream([Array((open + "\"}\n").utf8)], policy: .stop)
        #expect(complete.error?.code == .sizeLimitExceeded)
        let stopped = outcomeEverywhere(open, policy: .stop)
        #expect(stopped.error.map(Outcome.summary) == complete.error.map(Outcome.summary))
        let skipped = outcomeEverywhere(open, policy: .skip)
        #expect(skipped.records.map(\.id) == [1])
        #expect(skipped.skipped.map(Outcome.summary) == complete.error.map { [Outcome.summary($0)] })
        let short = outcomeEverywhere(head + "{\"id\": 2, \"name\": \"abc", policy: .skip)
        #expect(short.skipped.map(\.code) == [.unexpectedEnd])
        outcomeEverywhere(head + "   ", policy: .stop)
        outcomeEverywhere(head + "\(Self.digits)", policy: .stop)
        // A number over the cap that only the end completes, where yajl then finds a parse error
        // (a key expected, a comma expected): the cap comes first, whole and in chunks.
        for tail in ["{" + Self.digits, "{\"id\": 2 " + Self.digits, "{\"id\": 2, \"x\": [1 " + Self.digits, "{\"id\": 2} " + Self.digits] {
            let cut = outcomeEverywhere(head + tail, policy: .skip)
            #expect(cut.skipped.map(\.code) == [.sizeLimitExceeded], "\(tail): \(cut)")
        }
    }

    /// A string that never ends fails while its line is still open, fed in any chunk size, with
    /// the error of the complete line; with `.skip` the rest of the line is read past, and the
    /// next line decodes.
    @Test(arguments: [1, 2, 3, 7, 64, 4096])
    func endlessString_failsWhileTheLineIsOpen(size: Int) {
        let head = Array("{\"id\": 1}\n{\"id\": 2, \"name\": \"".utf8)
        let complete = stream([head + Array(repeating: UInt8(ascii: "x"), count: 10 * Self.cap) + Array("\"}\n".utf8)], policy: .stop)
        #expect(complete.error?.code == .sizeLimitExceeded)
        // Up to 64 times the cap (or four chunks), then nothing: the error must come before.
        let limit = max(64 * Self.cap, 4 * size)
        var fed = 0
        let endless = { () -> [UInt8]? in
            guard fed < limit else { return nil }
            fed += size
            return Array(repeating: UInt8(ascii: "x"), count: size)
        }
        let stopped = stream(chunks(head, size), policy: .stop, more: endless)
        #expect(stopped.error.map(Outcome.summary) == complete.error.map(Outcome.summary), "chunk size \(size)")
        #expect(fed < limit, "failed at the end of the input, not at the cap: chunk size \(size)")
        fed = 0
        var tail = chunks(Array("xx\"}\r\n{\"id\": 3}\n".utf8), size)
        let skipped = stream(chunks(head, size), policy: .skip, more: {
            endless() ?? (tail.isEmpty ? nil : tail.removeFirst())
        })
        #expect(skipped.records.map(\.id) == [1, 3], "chunk size \(size): \(skipped)")
        #expect(skipped.skipped.map(Outcome.summary) == complete.error.map { [Outcome.summary($0)] }, "chunk size \(size)")
        #expect(skipped.error == nil)
    }

    /// An endless 16 MiB string under a 64 KiB cap, fed in 64 KiB chunks: never more than a few
    /// times the cap held, whether it stops the stream or its line is skipped. A line of 16 MiB
    /// of blanks holds nothing.
    @Test func endlessString_holdsBoundedMemory() throws {
        let cap = 1 << 16
        let options = Self.options(cap: cap)
        let head = Array("{\"id\": 1}\n{\"id\": 2, \"name\": \"".utf8)
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 64 * 1024)
        for policy in [RecordDecoder<Event>.ErrorPolicy.stop, .skip] {
            var count = 0
            let outcome = stream([head], policy: policy, options: options, more: {
                count += 1
                return count <= 256 ? chunk : count == 257 ? Array("\"}\n{\"id\": 3}\n".utf8) : nil
            })
            #expect(outcome.mostHeld < 4 * cap, "\(policy): held \(outcome.mostHeld) bytes")
            #expect(outcome.records.map(\.id) == (policy == .stop ? [1] : [1, 3]), "\(policy): \(outcome)")
            #expect((policy == .stop ? outcome.error : outcome.skipped.first)?.code == .sizeLimitExceeded, "\(policy): \(outcome)")
            if policy == .stop { #expect(count < 8, "stopped at the cap, not at the end: after \(count) chunks") }
        }
        var count = 0
        let blanks = [UInt8](repeating: UInt8(ascii: " "), count: 64 * 1024)
        let blank = stream([], policy: .stop, options: options, more: {
            count += 1
            return count <= 256 ? blanks : count == 257 ? Array("\n{\"id\": 3}".utf8) : nil
        })
        #expect(blank.records.map(\.id) == [3])
        #expect(blank.error == nil)
        #expect(blank.mostHeld < 1024, "held \(blank.mostHeld) bytes")
    }

    /// A line far longer than the cap, made of small tokens, decodes however it is split.
    @Test func longLineOfSmallTokens_decodes() {
        let tags = (0..<400).map { "t\($0)" }
        let line = "{\"id\": 2, \"tags\": [" + tags.map { "\"\($0)\"" }.joined(separator: ", ") + "], \"name\": \"n\"}"
        let outcome = outcomeEverywhere("{\"id\": 1}\r\n" + line + "\r\n{\"id\": 3}", policy: .stop)
        #expect(outcome.error == nil, "\(outcome)")
        #expect(outcome.records == [Event(id: 1), Event(id: 2, name: "n", tags: tags), Event(id: 3)])
    }

    /// An error `onRecord` throws stops the stream as it was thrown, a `JSONError` too, with `.skip`.
    @Test(arguments: chunkSizes)
    func handlerError_stopsTheStream(size: Int) {
        let thrown = JSONError(.invalidValue, "handler says no")
        var ids: [Int] = []
        let decoder = RecordDecoder(Event.self, layout: .ndjson, errorPolicy: .skip) { event in
            ids.append(event.id)
            if event.id == 2 { throw thrown }
        }
        let error = thrownJSONError("chunk size \(size)") {
            for piece in chunks(Array("{\"id\": 1}\n{\"id\": 2}\n{\"id\": 3}".utf8), size) { try decoder.feed(piece) }
            try decoder.finish()
        }
        #expect(error?.message == thrown.message && error?.recordIndex == nil, "chunk size \(size)")
        #expect(ids == [1, 2])
        #expect(decoder.skipped.isEmpty)
    }
}
