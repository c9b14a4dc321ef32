import Foundation
import Testing
@testable import Magma

/// NDJSON parses each line with a yajl handle of its own; the handles of one stream take their
/// blocks from one `YajlMemory`, so the lines after the first allocate nothing for yajl, and the
/// records and skipped lines are what they were.
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
        var ids: [Int] = []
        let decoder = RecordDecoder(StreamEvent.self, layout: .ndjson, errorPolicy: .skip) { ids.append($0.id) }
        for piece in chunks(Self.input(lines: lines), chunkSize) { try decoder.feed(piece) }
        try decoder.finish()
        let bad = (0..<lines).filter { $0 % 50 == 7 }
        #expect(ids == (0..<lines).filter { !bad.contains($0) })
        #expect(decoder.skipped.map(\.recordIndex) == bad)
        // One line's blocks (handle, lexer and its buffer, decode buffer and its data, state
        // stack), a few more while sizes settle, and for each long line, its buffers (fed in
        // chunks, its string grows yajl's lexer buffer by doubling from 2 kB, and is too large
        // to keep): not a set per line (2,000 and more).
        let large = lines / 50
        #expect(decoder.lineMemory.systemAllocations <= 12 + 8 * large,
                "\(decoder.lineMemory.systemAllocations) blocks from the system for \(lines) lines")
    }
}
