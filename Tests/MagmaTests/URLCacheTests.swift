import Foundation
import Testing
@testable import Magma

@Suite struct URLCacheTests {
    struct Links: JSONModel, Equatable {
        var links: [URL] = []
        var first: URL?
        static let jsonMapping = JSONMapping<Links> { Map(\.links, "links"); Map(\.first, "first") }
    }

    @Test func repeatedAndCollidingURLs_decodeToTheirOwnValue() throws {
        // More distinct URLs than the cache has entries, each repeated at varying distances, so
        // entries are evicted and hash slots shared: every value must still be its own URL.
        var texts: [String] = []
        for i in 0..<5000 {
            texts.append("https://example.com/users/\(i % 1500)/avatar?s=\(i % 7)")
            if i % 3 == 0 { texts.append("https://example.com/users/\(i / 2)/avatar?s=\(i % 7)") }
        }
        let json = "{\"first\": \"https://a.example/x\", \"links\": [" + texts.map { "\"\($0)\"" }.joined(separator: ", ") + "]}"
        let model = try decodeEverywhere(Links.self, json)
        #expect(model.links == texts.map { URL(string: $0)! })
        #expect(model.first == URL(string: "https://a.example/x"))
    }

    @Test func invalidURL_isAnErrorEvenAfterValidOnes() throws {
        let error = failureEverywhere(Links.self, #"{"links": ["https://ok.example", "http://[bad"]}"#)
        #expect(error?.code == .invalidValue)
        #expect(error?.path == "$.links[1]")
        #expect(error?.property == "Links.links")
    }
}
