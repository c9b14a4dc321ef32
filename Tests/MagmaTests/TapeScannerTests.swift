import Foundation
import Testing
@testable import Magma

/// Tape.parse's fast path (TapeScanner.swift) against the yajl path: wherever the scan accepts a
/// document, yajl accepts it too and the two tapes are equal entry for entry and byte for byte;
/// wherever yajl fails, the scan gives up (so the yajl path places the error).
@Suite struct TapeScannerTests {
    enum Outcome: Equatable {
        case gaveUp
        case tape([UInt64], [UInt8])
        case failed
    }

    static func contents(_ tape: Tape) -> Outcome {
        var words: [UInt64] = []
        for i in 0..<tape.count { words += [tape[i].word, tape[i].payload] }
        var side: [UInt8] = []
        for i in 0..<tape.count where tape[i].inSide {
            side += tape.text(tape[i])
        }
        return .tape(words, side)
    }

    /// The scan's outcome and the yajl path's, for `bytes`.
    static func both(_ bytes: [UInt8], _ options: DecodingOptions = DecodingOptions()) -> (scan: Outcome, yajl: Outcome) {
        bytes.withUnsafeBytes { input in
            let scan = Tape.scan(input, options: options).map(contents) ?? .gaveUp
            let yajl = (try? Tape.parseWithYajl(input, options: options)).map(contents) ?? .failed
            return (scan, yajl)
        }
    }

    /// Holds the scan to the yajl path; returns whether the scan read the document.
    @discardableResult
    static func check(_ bytes: [UInt8], _ options: DecodingOptions = DecodingOptions(), _ name: String) -> Bool {
        let (scan, yajl) = both(bytes, options)
        if scan == .gaveUp { return false }
        #expect(scan == yajl, "\(name)")
        return true
    }

    @Test(.enabled(if: ConformanceTests.fullSuiteAvailable, "../shared/JSONTestSuite is not checked out"))
    func jsonTestSuite_scanAgreesOrGivesUp() throws {
        let directory = ConformanceTests.fullSuite
        var read = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() where name.hasSuffix(".json") {
            let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
            if Self.check(bytes, DecodingOptions(), name) { read += 1 }
            if name.hasPrefix("n_") { #expect(Self.both(bytes).scan == .gaveUp, "\(name)") }
        }
        // Most y_ files have a container at the root.
        #expect(read > 70)
    }

    @Test func escapesLiteralsAndNesting_scanAgrees() {
        let documents = [
            #"{"a":"x\"y\\z\/w\b\f\n\r\t","\u00e9\u0041":"\u20ac\ud83d\ude00\u0000end","k\n":[]}"#,
            #"[true,false,null,0,-0,1.5e+3,-12E-2,123456789012345678901234567890,"",{},[],[[]],{"":{"":[]}}]"#,
            " \r\n\t[ 1 , \"a\" , { \"b\" : null } ] \n",
            #"["caf\u00e9 ü €𝄞","\ud834\udd1e","ab\u005c\u0022"]"#,
            #"{"dup":1,"dup":2,"escaped\u0020key":"plain","plain":"long string long string long string \"quoted\" after"}"#,
        ]
        for document in documents {
            #expect(Self.check(Array(document.utf8), DecodingOptions(), document), "the scan should read \(document)")
        }
    }

    @Test func whatTheScanLeavesToYajl_givesUp() {
        var comments = DecodingOptions()
        comments.allowComments = true
        var shallow = DecodingOptions()
        shallow.maxDepth = 2
        var short = DecodingOptions()
        short.maxTokenLength = 3
        let cases: [(String, DecodingOptions)] = [
            ("\"root string\"", DecodingOptions()), ("12", DecodingOptions()), ("[1]\u{0C}", DecodingOptions()),
            ("[1] x", DecodingOptions()), ("[1,]", DecodingOptions()), ("{\"a\" 1}", DecodingOptions()),
            ("[\"\\ud800\"]", DecodingOptions()), ("[\"\\udc00\\ud800\"]", DecodingOptions()), ("[\"\u{1}\"]", DecodingOptions()),
            ("[01]", DecodingOptions()), ("[1.]", DecodingOptions()), ("[tru]", DecodingOptions()), ("[1", DecodingOptions()),
            ("[1]", comments), ("[[[1]]]", shallow), ("[\"abcd\"]", short), ("[12345]", short), ("{\"abcd\":1}", short),
        ]
        for (document, options) in cases {
            #expect(Self.both(Array(document.utf8), options).scan == .gaveUp, "\(document)")
        }
        // Invalid UTF-8 (an overlong slash) and a lone continuation byte.
        #expect(Self.both([0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D]).scan == .gaveUp)
        #expect(Self.both([0x5B, 0x22, 0x80, 0x22, 0x5D]).scan == .gaveUp)
    }

    /// The shared corpus (whole documents, and each line of the NDJSON files): all read by the scan.
    @Test func sharedCorpus_scanReadsAndAgrees() throws {
        let shared = ConformanceTests.packageRoot.appendingPathComponent("../shared/corpus").standardizedFileURL
        guard FileManager.default.fileExists(atPath: shared.path) else { return }
        for name in try FileManager.default.contentsOfDirectory(atPath: shared.path).sorted() {
            let bytes = try [UInt8](Data(contentsOf: shared.appendingPathComponent(name)))
            if name.hasSuffix(".json") {
                #expect(Self.check(bytes, DecodingOptions(), name), "the scan should read \(name)")
            } else if name.hasSuffix(".ndjson") {
                for line in bytes.split(separator: 0x0A).prefix(200) {
                    #expect(Self.check(Array(line), DecodingOptions(), name), "the scan should read a line of \(name)")
                }
            }
        }
    }

    @Test func magmaDecoder_sameResultsThroughEitherPath() throws {
        struct Item: Codable, Equatable {
            var name: String
            var tags: [String]
            var score: Double?
        }
        let json = Data(#"[{"name":"a\u00e9\n","tags":["x","y\"z"],"score":1.5},{"name":"b","tags":[],"score":null}]"#.utf8)
        let decoded = try MagmaDecoder().decode([Item].self, from: json)
        #expect(decoded == (try JSONDecoder().decode([Item].self, from: json)))
        let bad = Data(#"[{"name":"a","tags":["x"],"score":"high"}]"#.utf8)
        #expect(throws: DecodingError.self) { try MagmaDecoder().decode([Item].self, from: bad) }
    }
}
