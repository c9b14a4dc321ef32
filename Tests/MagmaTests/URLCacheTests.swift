import Foundation
import Testing
@_spi(Benchmarks) @testable import Magma

@Suite struct URLCacheTests {
    @JSONModel struct Links: Equatable {
        var links: [URL] = []
        var first: URL?
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

    @Test func laterDecodesOnAThread_reuseItsParsedURLs() throws {
        let json = #"{"first": "https://cache.example/reused/\#(UInt64.random(in: 0...UInt64.max))", "links": []}"#
        let before = URLCache.missesOnThisThread
        let first = try JSONAdapter.model(Links.self, from: json)
        #expect(URLCache.missesOnThisThread == before + 1, "a URL never seen is a miss")
        for _ in 0..<3 { #expect(try JSONAdapter.model(Links.self, from: json) == first) }
        #expect(URLCache.missesOnThisThread == before + 1, "and then a hit")
    }

    /// MagmaDecoder reads URLs as JSONDecoder does (`URL(string:)`: a text with a space is
    /// percent-encoded, where models reject it), each distinct text parsed once per thread; the
    /// two readings never answer for each other.
    @Test func magmaDecoderURLs_readAsJSONDecoder_parsedOncePerText() throws {
        let unique = "https://cache.example/codable/\(UInt64.random(in: 0...UInt64.max))"
        let json = Data(#"["\#(unique)", "\#(unique)", "not a valid URL", "not a valid URL", "\#(unique)"]"#.utf8)
        let before = URLCache.missesOnThisThread
        let urls = try MagmaDecoder().decode([URL].self, from: json)
        #expect(urls == (try JSONDecoder().decode([URL].self, from: json)))
        #expect(urls[2].absoluteString == "not%20a%20valid%20URL")
        #expect(URLCache.missesOnThisThread == before + 2, "two distinct texts, five values")
        #expect(try JSONAdapter.model(Links.self, from: #"{"first": "\#(unique)"}"#).first == urls[0])
        #expect(URLCache.missesOnThisThread == before + 3, "a model's strict reading is an entry of its own")
        #expect(throws: (any Error).self) { try JSONAdapter.model(Links.self, from: #"{"first": "not a valid URL"}"#) }
    }

    @Test func threadsDecodingAtOnce_eachGetTheirOwnValues() async throws {
        // Every thread's cache sees colliding, evicted entries while others do the same.
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var ok = true
                    for round in 0..<20 {
                        let texts = (0..<300).map { "https://t\(worker).example/\((round * 37 + $0) % 2000)" }
                        let json = "{\"links\": [" + texts.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
                        let links = try JSONAdapter.model(Links.self, from: json).links
                        ok = ok && links == texts.map { URL(string: $0)! }
                    }
                    return ok
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }

    @Test func invalidURL_isAnErrorEvenAfterValidOnes() throws {
        let error = failureEverywhere(Links.self, #"{"links": ["https://ok.example", "http://[bad"]}"#)
        #expect(error?.code == .invalidValue)
        #expect(error?.path == "$.links[1]")
        #expect(error?.property == "Links.links")
    }
}

/// Arrays of the element types with non-generic element targets behave as the generic path does.
@Suite struct ElementTargetTests {
    @JSONModel struct Geo: Equatable {
        var rings: [[[Double]]] = []
        var ints: [Int] = []
        var longs: [Int64] = []
        var names: [String] = []
        var pairs: [[Double]] = []
    }

    @Test func specialisedArrays_decode() throws {
        let json = #"{"rings": [[[1.5, -2], [3e2, 4.25]], [], [[0.1]]], "ints": [1, -2, 3], "longs": [9223372036854775807],"#
            + #" "names": ["a", "b\u00e9"], "pairs": [[1, 2], [], [3]]}"#
        let geo = try decodeEverywhere(Geo.self, json)
        #expect(geo == Geo(rings: [[[1.5, -2], [300, 4.25]], [], [[0.1]]], ints: [1, -2, 3], longs: [.max],
                           names: ["a", "bé"], pairs: [[1, 2], [], [3]]))
    }

    /// An inner `[Double]` keeps its first 16 numbers in its frame and is allocated once, at its
    /// end, at its length. Capacity comes from glibc's block size: nine numbers ask for 104 bytes
    /// and get capacity 9, or 11 when glibc hands over a free block 16 bytes larger (it does not
    /// split off less than 32); appended one by one they would end at 15 (1, 3, 7, 15). Sixteen
    /// get 17 at most 19, against 31 by appending. Longer arrays spill into an appended array and
    /// still decode whole, in order.
    @Test func doubleArrays_allocateOnceAtTheirLength() throws {
        let long = (0..<100).map { Double($0) + 0.5 }
        let nine = (1...9).map { Double($0) }
        let sixteen = (0..<16).map { Double($0) }, seventeen = (0..<17).map { Double($0) }
        let inner: [[Double]] = [nine, nine.map { $0 + 10 }, [1.25] + nine.dropFirst(), [], [3], long, [7, 8], [1, 2, 3],
                                 sixteen, seventeen, nine]
        let json = #"{"pairs": "# + "[" + inner.map { "[" + $0.map { "\($0)" }.joined(separator: ", ") + "]" }.joined(separator: ", ") + "]}"
        let geo = try decodeEverywhere(Geo.self, json)
        #expect(geo.pairs == inner)
        let capacities = geo.pairs.map(\.capacity)
        #expect([0, 1, 2, 10].allSatisfy { capacities[$0] < 13 }, "nine numbers, allocated at their length: \(capacities)")
        #expect(capacities[8] < 20, "sixteen numbers, allocated at their length: \(capacities)")
        let rings = try decodeEverywhere(Geo.self, #"{"rings": [[[1, 2, 3, 4]], [[5], [], [6, 7, 8]]]}"#).rings
        #expect(rings == [[[1, 2, 3, 4]], [[5], [], [6, 7, 8]]])
    }

    /// A value the in-place path does not take (a lenient string, a number out of range for it)
    /// moves the numbers so far into the array first: order is kept wherever it comes.
    @Test(arguments: [0, 1, 2, 15, 16, 17, 30])
    func doubleArrays_spillKeepsTheOrder(at position: Int) throws {
        var options = DecodingOptions()
        options.lenientTypes = true
        var texts = (0..<31).map { "\($0)" }
        texts[position] = #""\#(position).5""#
        var expected = (0..<31).map { Double($0) }
        expected[position] += 0.5
        let geo = try decodeEverywhere(Geo.self, #"{"pairs": [["# + texts.joined(separator: ", ") + "], [1, 2]]}", options: options)
        #expect(geo.pairs == [expected, [1, 2]])
    }

    @Test func specialisedArrays_reportErrorsLikeTheGenericPath() throws {
        let mismatch = failureEverywhere(Geo.self, #"{"pairs": [[1, "x"]]}"#)
        #expect(mismatch?.code == .typeMismatch)
        #expect(mismatch?.path == "$.pairs[0][1]")
        #expect(mismatch?.property == "Geo.pairs")
        #expect(failureEverywhere(Geo.self, #"{"ints": [1.5]}"#)?.code == .numberOutOfRange)
        #expect(failureEverywhere(Geo.self, #"{"rings": [[[1e400]]]}"#)?.code == .numberOutOfRange)
        #expect(failureEverywhere(Geo.self, #"{"names": [null]}"#)?.code == .nullValue)
        var options = DecodingOptions()
        options.lenientTypes = true
        #expect(try decodeEverywhere(Geo.self, #"{"ints": ["7"], "pairs": [["2.5"]], "names": [3]}"#, options: options)
            == Geo(ints: [7], names: ["3"], pairs: [[2.5]]))
    }
}

@Suite struct StrictURLTests {
    @JSONModel struct Home {
        var home: URL?
        var links: [URL] = []
    }

    /// `URL(string:)` on Linux percent-encodes invalid characters: `"not a valid URL"` must not
    /// become `not%20a%20valid%20URL`, through a `URL` property, an array of URLs, or `.url`.
    @Test(arguments: ["not a valid URL", "http://x.org/a b", "http://[::1", "http://x.org/a<b>", "http://x.org/a>b"])
    func malformedURL_isInvalidValue(text: String) throws {
        let property = failureEverywhere(Home.self, #"{"home": "\#(text)"}"#)
        #expect(property?.code == .invalidValue)
        #expect(property?.message == "\"\(text)\" is not a valid URL")
        #expect(property?.property == "Home.home")
        let element = failureEverywhere(Home.self, #"{"links": ["http://ok.example/", "\#(text)"]}"#)
        #expect(element?.code == .invalidValue)
        #expect(element?.path == "$.links[1]")
        #expect(throws: JSONError.self) { try Transformer<JSONValue, URL>.url.transform(.string(text)) }
    }

    /// What producers leave unescaped and browsers encode (non-ASCII, brackets in a path): taken
    /// as `JSONDecoder` takes it, percent-encoded.
    @Test(arguments: ["https://github.com/ben207[bot]", "http://x.org/é", "http://x.org/a?b={c}|d"])
    func unescapedButUnambiguous_decodesAsJSONDecoderDoes(text: String) throws {
        let model = try JSONAdapter.model(Home.self, from: #"{"home": "\#(text)"}"#)
        #expect(model.home == URL(string: text))
        #expect(model.home != nil)
    }

    @Test func wellFormedURLs_stillDecode() throws {
        let model = try JSONAdapter.model(Home.self, from: #"{"home": "https://a.example/x?b=c&d=%20", "links": ["about:blank"]}"#)
        #expect(model.home?.absoluteString == "https://a.example/x?b=c&d=%20")
        #expect(model.links.map(\.absoluteString) == ["about:blank"])
    }
}

/// The benchmarks time repeated decodes with the URL cache cold.
@Suite struct URLCacheControlTests {
    @Test func clearingThisThread_makesTheNextDecodeParseAgain() throws {
        let json = #"{"first": "https://cold.example/\#(UInt64.random(in: 0...UInt64.max))", "links": []}"#
        let first = try JSONAdapter.model(URLCacheTests.Links.self, from: json)
        let before = URLCache.missesOnThisThread
        URLCacheControl.clearThisThread()
        #expect(try JSONAdapter.model(URLCacheTests.Links.self, from: json) == first)
        #expect(URLCache.missesOnThisThread == before + 1, "a cleared cache parses the URL again")
        #expect(try JSONAdapter.model(URLCacheTests.Links.self, from: json) == first)
        #expect(URLCache.missesOnThisThread == before + 1, "and keeps it")
    }
}
