import Foundation
import Testing
@testable import Magma

@Suite struct EncodingTests {
    private func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func ghIssue_roundTrips() throws {
        let issue = try JSONAdapter.model(GHIssue.self, from: try Fixtures.data("github_issue.json"))
        let data = try JSONAdapter.json(from: issue)
        #expect(try JSONAdapter.model(GHIssue.self, from: data) == issue)
        #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: data) }
    }

    @Test func encodeOfDecode_keepsEveryMappedValue() throws {
        let original = try object(try Fixtures.data("github_issue.json"))
        let encoded = try object(try JSONAdapter.json(from: try JSONAdapter.model(GHIssue.self, from: try Fixtures.data("github_issue.json"))))
        for key in ["url", "html_url", "number", "state", "title", "body", "updated_at"] {
            #expect("\(encoded[key] ?? "absent")" == "\(original[key] ?? "absent")", "\(key)")
        }
        let user = try #require(encoded["user"] as? [String: Any])
        #expect(user["login"] as? String == "octocat")
        #expect(user.count == 1, "only the mapped key path is rebuilt")
        let labels = try #require(encoded["labels"] as? [[String: Any]])
        #expect(labels.map { $0["name"] as? String } == ["bug", "needs triage \u{1F41B}"])
        let assignee = try #require(encoded["assignee"] as? [String: Any])
        #expect(assignee["login"] as? String == "hubot")
        #expect(assignee["site_admin"] as? Bool == true)
    }

    @Test func dottedKeyPaths_rebuildNestedObjects() throws {
        let model = MappingTests.Paths(login: "ada", firstLabel: "", secondColor: nil, dotted: 3, deep: true)
        let json = String(decoding: try JSONAdapter.json(from: model), as: UTF8.self)
        #expect(json == #"{"user":{"login":"ada"},"labels":{"0":{"name":""}},"a.b":3,"x":{"y":{"z":true}}}"#)
        #expect(try JSONAdapter.model(MappingTests.Paths.self, from: json) == model)
    }

    @Test func severalKeyPaths_writeEachBack() throws {
        let json = String(decoding: try JSONAdapter.json(from: MappingTests.FullName(name: "Ada Lovelace", id: 1)), as: UTF8.self)
        #expect(json == #"{"first":"Ada","last":"Lovelace","id":1}"#)
        let single = String(decoding: try JSONAdapter.json(from: MappingTests.FullName(name: "Ada", id: 1)), as: UTF8.self)
        #expect(single == #"{"first":"Ada","id":1}"#, "a part the transformer leaves out is not written")
    }

    @Test func nilProperties_omittedOrNull() throws {
        var issue = GHIssue()
        issue.number = 5
        let omitted = try object(try JSONAdapter.json(from: issue))
        #expect(omitted["assignee"] == nil)
        #expect(omitted["body"] == nil)
        var options = EncodingOptions()
        options.nilProperties = .writeNull
        let nulls = try object(try JSONAdapter.json(from: issue, options: options))
        #expect(nulls["assignee"] is NSNull)
        #expect(nulls["body"] is NSNull)
        #expect(try JSONAdapter.model(GHIssue.self, from: try JSONAdapter.json(from: issue, options: options)) == issue)
    }

    @Test func sortedKeys_andPrettyPrinting() throws {
        var options = EncodingOptions()
        options.sortedKeys = true
        let user = GHUser(login: "a", id: 2, siteAdmin: false)
        #expect(String(decoding: try JSONAdapter.json(from: user, options: options), as: UTF8.self)
            == #"{"id":2,"login":"a","site_admin":false}"#)
        options.prettyPrinted = true
        let pretty = String(decoding: try JSONAdapter.json(from: [user], options: options), as: UTF8.self)
        #expect(pretty == "[\n  {\n    \"id\": 2,\n    \"login\": \"a\",\n    \"site_admin\": false\n  }\n]")
        #expect(try JSONAdapter.models(GHUser.self, from: pretty) == [user])
    }

    struct Texts: JSONModel, Equatable {
        var text = ""
        var values: [Double] = []
        var amount: Decimal = 0
        var big: UInt64 = 0
        var small: Int8 = 0
        static let jsonMapping = JSONMapping<Texts> {
            Map(\.text, "text")
            Map(\.values, "values")
            Map(\.amount, "amount")
            Map(\.big, "big")
            Map(\.small, "small")
        }
    }

    @Test func strings_areEscaped_slashAndASCIIOnRequest() throws {
        let model = Texts(text: "a\"b\\c/d\n\t\u{01}é😀")
        let plain = String(decoding: try JSONAdapter.json(from: model), as: UTF8.self)
        #expect(plain.hasPrefix(#"{"text":"a\"b\\c/d\n\t\u0001é😀""#))
        var options = EncodingOptions()
        options.escapeSlashes = true
        options.asciiOnly = true
        let data = try JSONAdapter.json(from: model, options: options)
        let ascii = String(decoding: data, as: UTF8.self)
        #expect(ascii.hasPrefix(#"{"text":"a\"b\\c\/d\n\t\u0001\u00e9\ud83d\ude00""#))
        #expect(data.allSatisfy { $0 < 0x80 })
        #expect(try JSONAdapter.model(Texts.self, from: data) == model)
        #expect(try JSONAdapter.model(Texts.self, from: plain) == model)
    }

    @Test func numbers_shortestRoundTripAndExact() throws {
        let model = Texts(values: [0.1, 1e-7, 123456789.125, -0.0, 5e300, 2.0, 1e21],
                          amount: Decimal(string: "12345678901234567890.123456789")!, big: .max, small: .min)
        let data = try JSONAdapter.json(from: model)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""values":[0.1,1e-07,123456789.125,-0,5e+300,2,1e+21]"#))
        #expect(text.contains(#""amount":12345678901234567890.123456789"#))
        #expect(text.contains(#""big":18446744073709551615"#))
        #expect(text.contains(#""small":-128"#))
        let back = try JSONAdapter.model(Texts.self, from: data)
        #expect(back == model)
        #expect(back.values[3].sign == .minus)
    }

    @Test func nonFiniteDouble_isAnErrorNamingTheProperty() throws {
        do {
            _ = try JSONAdapter.json(from: Texts(values: [1, .infinity]))
            Issue.record("expected an error")
        } catch let error as JSONError {
            #expect(error.code == .notEncodable)
            #expect(error.property == "Texts.values")
            #expect(error.message.contains("inf"))
        }
    }

    struct Reported: JSONModel, Equatable {
        struct Rejected: Error {}
        var code = 0
        var derived = ""
        static let jsonMapping = JSONMapping<Reported> {
            Map(\.code, "code", Transformer.integer.chained(Transformer<Int, Int>(forward: { $0 }, reverse: { value in
                if value < 0 { throw Rejected() }
                return value
            })))
            Map(\.derived, "derived", Transformer<JSONValue, String>(forward: { "\($0)" }))
        }
    }

    @Test func oneWayTransformer_propertyIsLeftOut() throws {
        let json = String(decoding: try JSONAdapter.json(from: Reported(code: 3, derived: "x")), as: UTF8.self)
        #expect(json == #"{"code":3}"#)
    }

    @Test func failingReverseTransformer_namesPropertyAndValue() throws {
        do {
            _ = try JSONAdapter.json(from: [Reported(code: 1), Reported(code: -7)])
            Issue.record("expected an error")
        } catch let error as JSONError {
            #expect(error.code == .notEncodable)
            #expect(error.property == "Reported.code")
            #expect(error.message.contains("-7"))
            #expect(error.underlying is Reported.Rejected)
        }
    }

    @Test func ndjsonWriter_writesIncrementallyAndKeepsLinesWhole() throws {
        var flushes: [Data] = []
        let writer = NDJSONWriter<Reported>(bufferSize: 16) { flushes.append(Data($0)) }
        try writer.write(Reported(code: 1))
        try writer.write(Reported(code: 22))
        #expect(flushes.count == 1, "the buffer is handed on once it reaches its size")
        #expect(throws: JSONError.self) { try writer.write(Reported(code: -1)) }
        try writer.write(Reported(code: 333))
        try writer.flush()
        let output = String(decoding: flushes.reduce(Data(), +), as: UTF8.self)
        #expect(output == "{\"code\":1}\n{\"code\":22}\n{\"code\":333}\n")
        #expect(writer.recordsWritten == 3)
    }

    @Test func ndjsonWriter_toAFileHandle() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("magma-\(UUID()).ndjson")
        FileManager.default.createFile(atPath: url.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forWritingTo: url)
        let users = (0..<100).map { GHUser(login: "user\($0)", id: Int64($0), siteAdmin: $0 % 2 == 0) }
        do {
            let writer = NDJSONWriter<GHUser>(fileHandle: handle)
            for user in users { try writer.write(user) }
            try writer.flush()
        }
        try handle.close()
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        #expect(try lines.map { try JSONAdapter.model(GHUser.self, from: String($0)) } == users)
    }

    @Test func transformerValues_encodeThroughTheirReverse() throws {
        let json = String(decoding: try JSONAdapter.json(from: Date(timeIntervalSince1970: 1_303_479_228),
                                                          .date(format: "yyyy-MM-dd'T'HH:mm:ss'Z'")), as: UTF8.self)
        #expect(json == #""2011-04-22T13:33:48Z""#)
        #expect(String(decoding: try JSONAdapter.json(from: ["a": [1, 2]], .dictionary(.array(.integer))), as: UTF8.self)
            == #"{"a":[1,2]}"#)
    }
}
