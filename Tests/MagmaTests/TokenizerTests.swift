import Foundation
import Testing
@testable import Magma

@Suite struct TokenizerTests {
    @JSONModel struct Text: Equatable {
        var text = ""
        var after = 0
    }

    @Test func everySplitOffset_givesTheSameModel() throws {
        let json = #"{"text": "h\u00e9llo \ud83d\ude00 \"q\" w\u00f6rld", "after": -12345, "x": [true, false, null, 1.5e3]}"#
        let bytes = Array(json.utf8)
        let whole = try JSONAdapter.model(Text.self, from: bytes)
        #expect(whole.text == "héllo 😀 \"q\" wörld")
        for split in 0...bytes.count {
            let parts = [Array(bytes[..<split]), Array(bytes[split...])]
            #expect(try JSONAdapter.model(Text.self, from: .chunks(parts)) == whole, "split at \(split)")
        }
    }

    @Test func longTokenAcrossManyChunks_isFedInGrowingPieces() throws {
        // yajl re-lexes a partial token from its start on each feed; the tokenizer must hold chunks
        // back and feed geometrically growing pieces, or a long string costs quadratic time.
        let text = String(repeating: "abcdefgh", count: 1 << 17)   // 1 MiB
        let json = Array("{\"text\": \"\(text)\", \"after\": 1}".utf8)
        let pieces = chunks(json, 1024)
        var feeds = 0
        let model = try JSONAdapter.decodeCountingFeeds(Text.self, pieces, feeds: &feeds)
        #expect(model.text == text)
        #expect(model.after == 1)
        #expect(feeds < 64, "\(pieces.count) chunks should reach yajl in O(log n) feeds while the string is open, got \(feeds)")
    }

    @Test func emptyChunks_areHarmless() throws {
        let json = Array(#"{"text": "a", "after": 2}"#.utf8)
        let pieces = [[], Array(json[..<5]), [], [], Array(json[5...]), []]
        #expect(try JSONAdapter.model(Text.self, from: .chunks(pieces)) == Text(text: "a", after: 2))
    }
}

extension JSONAdapter {
    /// Decodes from chunks and reports how many times yajl was fed.
    static func decodeCountingFeeds<M: JSONObjectModel>(_ type: M.Type, _ chunks: [[UInt8]], feeds: inout Int) throws -> M {
        try objectModelCodec(M.self).run(options: DecodingOptions(), chunked: true) { tokenizer in
            for chunk in chunks { try chunk.withUnsafeBytes { try tokenizer.feed($0) } }
            try tokenizer.finish()
            feeds = tokenizer.feedCount
        }
    }
}
