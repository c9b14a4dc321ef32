import Foundation
import Testing
@testable import Magma

/// NDJSON read by yajl (`reader: .yajl`) parses each line with a handle of its own; the handles
/// of one stream take their blocks from one `YajlMemory`, so the lines after the first allocate
/// nothing for yajl, and the records and skipped lines are what the scanner gives.
@Suite struct NDJSONMemoryTests {
    /// Lines with escapes (yajl's decode buffer), nesting (its state stack), a bad line, and a
    /// string of 100 kB (a block too large to keep).
    static func input(lines: Int) -> [UInt8] {
        var text = ""
        for i in 0..<lines {
            switch i % 50 {
            case 7: text += #"{"id": \#(i), "name": "broken" "score": 1}"# + "\n"
            case 23: text += #"{"id": \#(i), "name": "\#(String(repeating: "z", count: 100_000))"}"# + "\n"
            default: text += #"{"id": \#(i), "name": "a\"b\u00e9\n", "score": 1.5, "tags": ["x", "y\\z"], "more": [[{"k": [1]}]]}"# + "\n"
            }
        }
        return Array(text.utf8)
    }

    @Test(arguments: [1 << 20, 4096, 61])
    func linesAfterTheFirst_takeYajlsBlocksBack(chunkSize: Int) throws {
        let lines = 400
        var options = DecodingOptions()
        options.reader = .yajl
        var ids: [Int] = []
        let decoder = RecordDecoder(StreamEvent.self, layout: .ndjson, options: options, errorPolicy: .skip) { ids.append($0.id) }
        var scanned: [Int] = []
        let scanner = RecordDecoder(StreamEvent.self, layout: .ndjson, errorPolicy: .skip) { scanned.append($0.id) }
        for piece in chunks(Self.input(lines: lines), chunkSize) {
            try decoder.feed(piece)
            try scanner.feed(piece)
        }
        try decoder.finish()
        try scanner.finish()
        let bad = (0..<lines).filter { $0 % 50 == 7 }
        #expect(ids == (0..<lines).filter { !bad.contains($0) })
        #expect(ids == scanned)
        #expect(decoder.skipped.map(\.recordIndex) == bad)
        #expect(decoder.skipped.map(StreamOutcome.summary) == scanner.skipped.map(StreamOutcome.summary))
        // One line's blocks (handle, lexer and its buffer, decode buffer and its data, state
        // stack), a few more while sizes settle, and for each long line its buffers (its string
        // grows yajl's lexer buffer by doubling from 2 kB, and is too large to keep): not a set
        // per line (2,000 and more).
        let large = lines / 50
        let memory = try #require(decoder.builder.pointee.yajlMemory)
        #expect(memory.systemAllocations <= 12 + 8 * large, "\(memory.systemAllocations) blocks from the system for \(lines) lines")
    }
}
