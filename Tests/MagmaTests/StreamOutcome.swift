import Foundation
import Testing
@testable import Magma

/// The record of the streams the record-stream suites feed: an id to follow, and fields that can
/// hold a token over the size cap.
@JSONModel struct StreamEvent: Equatable {
    @Required var id = 0
    var name = ""
    var score = 0.0
    var tags: [String] = []
}

/// The size cap of the suites that stream tokens over it, and such tokens.
protocol TokenCapFixtures {}

extension TokenCapFixtures {
    static var cap: Int { 16 }
    /// Options with `maxTokenLength` set to `cap`.
    static func options(cap: Int = Self.cap) -> DecodingOptions {
        var options = DecodingOptions()
        options.maxTokenLength = cap
        return options
    }
    /// A string's text and a number's digits, each over `cap`.
    static var long: String { String(repeating: "x", count: 40) }
    static var digits: String { String(repeating: "7", count: 40) }
}

/// What a record stream gave: the records, the skipped errors, the error that stopped it, and the
/// most bytes it held.
struct StreamOutcome: CustomStringConvertible {
    var records: [StreamEvent] = []
    var skipped: [JSONError] = []
    var error: JSONError?
    var mostHeld = 0

    /// Everything a reader can see of an error, for comparison.
    static func summary(_ e: JSONError) -> String {
        "\(e.code) \(e.message) path=\(e.path) property=\(e.property ?? "-") offset=\(e.offset.map(String.init) ?? "-") "
            + "line=\(e.line.map(String.init) ?? "-") column=\(e.column.map(String.init) ?? "-") record=\(e.recordIndex.map(String.init) ?? "-")"
    }
    var description: String {
        "records \(records.map(\.id)) skipped \(skipped.map(Self.summary)) error \(error.map(Self.summary) ?? "none")"
    }
}

/// Feeds `pieces`, then more pieces from `more` while it gives them (nil: none), and finishes.
func streamOutcome(_ pieces: [[UInt8]], _ layout: RecordDecoder<StreamEvent>.Layout, policy: RecordDecoder<StreamEvent>.ErrorPolicy,
                   options: DecodingOptions, more: () -> [UInt8]? = { nil }) -> StreamOutcome {
    var outcome = StreamOutcome()
    let decoder = RecordDecoder(StreamEvent.self, layout: layout, options: options, errorPolicy: policy) { outcome.records.append($0) }
    do {
        for piece in pieces { try decoder.feed(piece) }
        while let piece = more() { try decoder.feed(piece) }
        try decoder.finish()
    } catch let error as JSONError {
        outcome.error = error
    } catch {
        Issue.record("not a JSONError: \(error)")
    }
    outcome.skipped = Array(decoder.skipped)
    outcome.mostHeld = decoder.mostHeld
    return outcome
}

/// Streams `input` as one buffer, then every other way (every chunk size, every split); checks
/// all agree, and returns the whole buffer's outcome.
@discardableResult
func streamOutcomeEverywhere(_ input: String, _ layout: RecordDecoder<StreamEvent>.Layout, policy: RecordDecoder<StreamEvent>.ErrorPolicy,
                             options: DecodingOptions, sourceLocation: SourceLocation = #_sourceLocation) -> StreamOutcome {
    let bytes = Array(input.utf8)
    let whole = streamOutcome([bytes], layout, policy: policy, options: options)
    for way in splitWays(bytes, everySplit: true) {
        let outcome = streamOutcome(way.pieces, layout, policy: policy, options: options)
        #expect(outcome.description == whole.description, "\(way.name): \(outcome)\nwhole: \(whole)", sourceLocation: sourceLocation)
    }
    return whole
}

extension Pipe {
    /// A pipe whose write end is fed `data` on a thread of its own (the pipe holds less than the
    /// input), then closed. A reader that stops early (a stream stopped at a bad line) leaves the
    /// writer facing a closed pipe: SIGPIPE is ignored in the tests, and the write's error dropped.
    static func feeding(_ data: Data) -> Pipe {
        _ = ignoringSIGPIPE
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        Thread {
            try? writer.write(contentsOf: data)
            try? writer.close()
        }.start()
        return pipe
    }
}

/// Set once: a write to a pipe whose reader has gone fails with EPIPE instead of killing the process.
private let ignoringSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()
