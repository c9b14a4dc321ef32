import Foundation
import Testing
@testable import Magma

/// A model with unmapped values of every kind around and inside its mapped ones.
@JSONModel struct ScannedIssue: Equatable {
    let id: Int
    var title: String?
    @Key("user.login") let login: String?
    var labels: [String] = []
    var score: Double = 0
    var open: Bool = false
}

/// Whole documents read without yajl (`DocumentScanner` feeding the `EventBuilder`): whatever the
/// scanner accepts decodes to exactly what the yajl path gives, it never accepts what yajl
/// rejects, and anything it does not accept (errors included) is read by yajl, errors at their
/// yajl positions.
@Suite struct DocumentScannerTests {
    /// The document read by the scanner alone (nil: it gave up).
    static func scanned<V>(_ transformer: Transformer<JSONValue, V>, _ json: [UInt8], options: DecodingOptions = .init()) -> V? {
        json.withUnsafeBytes { transformer.codec.scanned($0, options: options) }
    }

    /// The document read by yajl alone.
    static func viaYajl<V>(_ transformer: Transformer<JSONValue, V>, _ json: [UInt8], options: DecodingOptions = .init()) throws -> V {
        try json.withUnsafeBytes { bytes in
            try transformer.codec.run(options: options, chunked: false) { try $0.parseAll(bytes) }
        }
    }

    static let accepted: [String] = [
        #"{}"#, #"[]"#, #" [ ] "#, "\t{\r\n\"a\" :\n1 }\n", #""text""#, "true", "false", "null",
        #"{"a":[1,-2,3.5,-0.0,1e10,2E-3,0,-0]}"#,
        #"{"esc":"a\"b\\c\/d\b\f\n\r\t","u":"\u00e9\u20ac\ud83d\ude00","raw":"é€😀"}"#,
        #"{"nested":{"deep":[[[{"x":[]}]]]},"k":"v"}"#,
        #"[{"id":1},{"id":2,"more":[true,false,null]}]"#,
        #"{"\u0041key":"key with an escape","":"empty key"}"#,
        #"{"a":1,"a":2}"#,
        #"[123456789012345678901234567890, 0.1e-400, -1.5E+300]"#,
    ]

    @Test func acceptedDocuments_decodeAsYajlDecodesThem() throws {
        for json in Self.accepted {
            let bytes = Array(json.utf8)
            let scanned = Self.scanned(.json, bytes)
            #expect(scanned != nil, "the scanner gave up on \(json)")
            #expect(scanned == (try Self.viaYajl(.json, bytes)), "\(json)")
        }
    }

    /// What only yajl reads: errors, comments, a number at the root, blanks the scanner does
    /// not take. The scanner gives up; the document decodes (or fails) as the yajl path has it.
    @Test func outsideTheSubset_theScannerGivesUp() throws {
        let refused = [
            "", "   ", "42", #"{"a":1,}"#, #"[1 2]"#, #"{"a" 1}"#, "[1]x", "[1] [2]", #"["\u0000"]"#.replacingOccurrences(of: "\\u0000", with: "\u{01}"),
            #"["\ud800"]"#, #"["\x"]"#, "[01]", "[1.]", "[-]", "[tru]", "[\u{0C}1]", #"{"a":1}/**/"#,
            String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        ]
        for json in refused {
            #expect(Self.scanned(.json, Array(json.utf8)) == nil, "the scanner accepted \(json.debugDescription)")
        }
        var comments = DecodingOptions()
        comments.allowComments = true
        #expect(Self.scanned(.json, Array("[1]".utf8), options: comments) == nil, "comments are yajl's")
        var capped = DecodingOptions()
        capped.maxTokenLength = 3
        #expect(Self.scanned(.json, Array(#"["abcd"]"#.utf8), options: capped) == nil)
        #expect(Self.scanned(.json, Array(#"[12345]"#.utf8), options: capped) == nil)
        // Invalid UTF-8 in a string, in a key.
        #expect(Self.scanned(.json, [0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D]) == nil)
        #expect(Self.scanned(.json, [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]) == nil)
    }

    /// Every file of JSONTestSuite (the committed subset, and the full suite when it is beside
    /// the package): n_ files are never accepted; what the scanner accepts equals yajl's value.
    @Test func jsonTestSuite_neverLooserThanYajl() throws {
        let files = ConformanceTests.files(in: ConformanceTests.committedSuite)
            + (ConformanceTests.fullSuiteAvailable ? ConformanceTests.files(in: ConformanceTests.fullSuite) : [])
        #expect(files.count > 0)
        var acceptedValid = 0
        for file in files {
            let scanned = Self.scanned(.json, file.bytes)
            if file.name.hasPrefix("n_") {
                #expect(scanned == nil, "the scanner accepted \(file.name), which yajl rejects")
            } else if let scanned {
                #expect(scanned == (try Self.viaYajl(.json, file.bytes)), "\(file.name)")
                if file.name.hasPrefix("y_") { acceptedValid += 1 }
            }
        }
        // Most valid files take the fast path (the rest: numbers at the root, form feeds...).
        #expect(acceptedValid > 0)
    }

    @Test func models_unmappedValuesPassedOver() throws {
        let json = #"""
        {"x":{"a":[1,{"b":"\u00e9"}],"c":null},"id":7,"title":"T\"q","user":{"id":1,"login":"ann","z":[[]]},
         "labels":["a","b"],"skip":"é","score":-2.5e1,"open":true,"tail":[{"k":{}}]}
        """#
        let bytes = Array(json.utf8)
        let scanned = bytes.withUnsafeBytes { objectModelCodec(ScannedIssue.self).scanned($0, options: .init()) }
        let expected = ScannedIssue(id: 7, title: "T\"q", login: "ann", labels: ["a", "b"], score: -25, open: true)
        #expect(scanned == expected)
        #expect(try JSONAdapter.model(ScannedIssue.self, from: Data(bytes)) == expected)
        // Each chunking reads it through yajl: the same model.
        #expect(try JSONAdapter.model(ScannedIssue.self, fromChunks: bytes.map { [$0] }) == expected)
    }

    /// A model error: the scanner gives up, and yajl's reading reports it where it is.
    @Test func models_errorsAreYajls() throws {
        let cases = [
            #"{"id":"seven"}"#,                       // a type mismatch
            #"{"title":"t"}"#,                        // a required key missing
            #"{"id":1,"x":{"a":[1,]}}"#,              // a syntax error inside an unmapped value
            "{\"id\":1,\"x\":\"\u{01}\"}",           // a control character inside an unmapped string
        ]
        for json in cases {
            let bytes = Array(json.utf8)
            let scanned = bytes.withUnsafeBytes { objectModelCodec(ScannedIssue.self).scanned($0, options: .init()) }
            #expect(scanned == nil, "\(json)")
            let whole = #expect(throws: JSONError.self) { try JSONAdapter.model(ScannedIssue.self, from: Data(bytes)) }
            let chunked = #expect(throws: JSONError.self) { try JSONAdapter.model(ScannedIssue.self, fromChunks: bytes.map { [$0] }) }
            #expect(whole?.code == chunked?.code && whole?.offset == chunked?.offset && whole?.message == chunked?.message, "\(json)")
        }
    }

    /// Unmapped values are passed over in one scan; with `skipsUnmappedInPlace` off the scanner
    /// hands them to the builder as events, which it ignores.
    @Test func unmappedValues_passedOverUnlessSkipIsOff() throws {
        let bytes = Array(#"{"x":{"a":[1,2]},"id":3}"#.utf8)
        for inPlace in [true, false] {
            var options = DecodingOptions()
            options.skipsUnmappedInPlace = inPlace
            var builderEvents = 0
            let value: ScannedIssue? = bytes.withUnsafeBytes { input in
                let codec = objectModelCodec(ScannedIssue.self)
                var result: ScannedIssue? = nil
                let slot = Slot(codec, ResultReceiver<ScannedIssue>())
                return withExtendedLifetime(slot) {
                    withUnsafeMutablePointer(to: &result) { pointer in
                        var builder = EventBuilder(root: slot, rootContext: UnsafeMutableRawPointer(pointer), options: options)
                        defer { builder.destroy() }
                        guard builder.scanDocument(input) else { return nil }
                        builderEvents = builder.eventCount
                        return pointer.pointee
                    }
                }
            }
            #expect(value == ScannedIssue(id: 3, login: nil))
            // { "x" "id" 3 } when "x"'s value is passed over; { "x" { "a" [ 1 2 ] } "id" 3 } when read.
            #expect(builderEvents == (inPlace ? 5 : 12))
        }
    }
}
