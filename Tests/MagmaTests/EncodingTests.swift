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
        #expect(json == #"{"user":{"login":"ada"},"labels":[{"name":""}],"a.b":3,"x":{"y":{"z":true}}}"#)
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

    @JSONModel struct Texts: Equatable {
        var text = ""
        var values: [Double] = []
        var amount: Decimal = 0
        var big: UInt64 = 0
        var small: Int8 = 0
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

    @JSONModel struct Reported: Equatable {
        struct Rejected: Error {}
        @Transform(Reported.code) var code = 0
        static let code = Transformer.integer.chained(Transformer<Int, Int>(forward: { $0 }, reverse: { value in
            if value < 0 { throw Rejected() }
            return value
        }))
        @Transform(Reported.derived) var derived = ""
        static let derived = Transformer<JSONValue, String>(forward: { "\($0)" })
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
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
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

    /// A model whose own mapping holds arrays and dictionaries of it: their writers are built
    /// with the codecs, while that mapping is compiled, and must not need its plan then.
    @JSONModel struct Node: Equatable {
        var name = ""
        var children: [Node] = []
        @Key("by_name") var byName: [String: Node] = [:]
        var tags: [String: [Int]] = [:]
    }

    @Test func recursiveModel_arraysAndDictionariesOfItself_roundTrip() throws {
        let leaf = Node(name: "leaf", tags: ["x": [1, 2], "y": []])
        let middle = Node(name: "middle", children: [leaf, leaf], byName: ["l": leaf])
        let root = Node(name: "root", children: [middle], byName: ["m": middle, "l": leaf], tags: ["z": [3]])
        var sorted = EncodingOptions()
        sorted.sortedKeys = true
        for options in [EncodingOptions(), sorted] {
            #expect(try JSONAdapter.model(Node.self, from: try JSONAdapter.json(from: root, options: options)) == root)
            #expect(try JSONAdapter.models(Node.self, from: try JSONAdapter.json(from: [root, leaf], options: options)) == [root, leaf])
        }
        #expect(String(decoding: try JSONAdapter.json(from: leaf, options: sorted), as: UTF8.self)
            == #"{"by_name":{},"children":[],"name":"leaf","tags":{"x":[1,2],"y":[]}}"#)
    }
}

// MARK: - Fast paths: field writers at stored-property offsets, key-path writers for classes

extension EncodingTests {
    /// Every type with a non-generic field writer, optional and not, plus types that take the
    /// generic paths (other integers, dates, nested and optional models, arrays, dictionaries).
    struct Fields: JSONModel, Equatable {
        var string = ""
        var optionalString: String?
        var int = 0
        var optionalInt: Int?
        var int64: Int64 = 0
        var optionalInt64: Int64?
        var bool = false
        var optionalBool: Bool?
        var double = 0.0
        var optionalDouble: Double?
        var url = URL(string: "https://example.com")!
        var optionalURL: URL?
        var int32: Int32 = 0
        var optionalUInt8: UInt8?
        var date: Date?
        var user: GHUser?
        var users: [GHUser] = []
        var maybeUsers: [GHUser?] = []
        var strings: [String?] = []
        var optionalInts: [Int]?
        var table: [String: Int] = [:]
        var value: JSONValue = .null
        var nested = ""
        var nestedNumber: Int?

        static let jsonMapping = JSONMapping<Fields> {
            Map(\.string, "string")
            Map(\.optionalString, "optional_string")
            Map(\.int, "int")
            Map(\.optionalInt, "optional_int")
            Map(\.int64, "int64")
            Map(\.optionalInt64, "optional_int64")
            Map(\.bool, "bool")
            Map(\.optionalBool, "optional_bool")
            Map(\.double, "double")
            Map(\.optionalDouble, "optional_double")
            Map(\.url, "url")
            Map(\.optionalURL, "optional_url")
            Map(\.int32, "int32")
            Map(\.optionalUInt8, "optional_uint8")
            Map(\.date, "date", .epochSeconds)
            Map(\.user, "user")
            Map(\.users, "users")
            Map(\.maybeUsers, "maybe_users")
            Map(\.strings, "strings")
            Map(\.optionalInts, "optional_ints")
            Map(\.table, "table")
            Map(\.value, "value")
            Map(\.nested, "deep.nested.string")
            Map(\.nestedNumber, "deep.number")
        }
    }

    /// The same mapping on a final class: every property goes through its key path.
    final class FieldsClass: JSONModel {
        var string = ""
        var optionalString: String?
        var int = 0
        var optionalInt: Int?
        var int64: Int64 = 0
        var optionalInt64: Int64?
        var bool = false
        var optionalBool: Bool?
        var double = 0.0
        var optionalDouble: Double?
        var url = URL(string: "https://example.com")!
        var optionalURL: URL?
        var int32: Int32 = 0
        var optionalUInt8: UInt8?
        var date: Date?
        var user: GHUser?
        var users: [GHUser] = []
        var maybeUsers: [GHUser?] = []
        var strings: [String?] = []
        var optionalInts: [Int]?
        var table: [String: Int] = [:]
        var value: JSONValue = .null
        var nested = ""
        var nestedNumber: Int?
        init() {}

        convenience init(_ f: Fields) {
            self.init()
            (string, optionalString, int, optionalInt, int64, optionalInt64) = (f.string, f.optionalString, f.int, f.optionalInt, f.int64, f.optionalInt64)
            (bool, optionalBool, double, optionalDouble, url, optionalURL) = (f.bool, f.optionalBool, f.double, f.optionalDouble, f.url, f.optionalURL)
            (int32, optionalUInt8, date, user, users, maybeUsers) = (f.int32, f.optionalUInt8, f.date, f.user, f.users, f.maybeUsers)
            (strings, optionalInts, table, value, nested, nestedNumber) = (f.strings, f.optionalInts, f.table, f.value, f.nested, f.nestedNumber)
        }

        static let jsonMapping = JSONMapping<FieldsClass> {
            Map(\.string, "string")
            Map(\.optionalString, "optional_string")
            Map(\.int, "int")
            Map(\.optionalInt, "optional_int")
            Map(\.int64, "int64")
            Map(\.optionalInt64, "optional_int64")
            Map(\.bool, "bool")
            Map(\.optionalBool, "optional_bool")
            Map(\.double, "double")
            Map(\.optionalDouble, "optional_double")
            Map(\.url, "url")
            Map(\.optionalURL, "optional_url")
            Map(\.int32, "int32")
            Map(\.optionalUInt8, "optional_uint8")
            Map(\.date, "date", .epochSeconds)
            Map(\.user, "user")
            Map(\.users, "users")
            Map(\.maybeUsers, "maybe_users")
            Map(\.strings, "strings")
            Map(\.optionalInts, "optional_ints")
            Map(\.table, "table")
            Map(\.value, "value")
            Map(\.nested, "deep.nested.string")
            Map(\.nestedNumber, "deep.number")
        }
    }

    static var filledFields: Fields {
        var f = Fields()
        f.string = "s\"1"
        f.optionalString = "o/2é"
        f.int = Int.min
        f.optionalInt = -42
        f.int64 = Int64.max
        f.optionalInt64 = 1 << 53 + 1
        f.bool = true
        f.optionalBool = false
        f.double = 0.1
        f.optionalDouble = -0.0
        f.url = URL(string: "https://example.com/a?b=c&d=%20")!
        f.optionalURL = URL(string: "http://x.org/")!
        f.int32 = Int32.min
        f.optionalUInt8 = 255
        f.date = Date(timeIntervalSince1970: 1_500_000_000.25)
        f.user = GHUser(login: "ada", id: 1, siteAdmin: true)
        f.users = [GHUser(login: "b", id: 2, siteAdmin: false), GHUser(login: "c", id: 3, siteAdmin: true)]
        f.maybeUsers = [nil, GHUser(login: "d", id: 4, siteAdmin: false), nil]
        f.strings = ["x", nil, ""]
        f.optionalInts = [1, -2, 3]
        f.table = ["k": 1]
        f.value = .object(["a": .array([.bool(true), .null])])
        f.nested = "n"
        f.nestedNumber = 7
        return f
    }

    private static func options(sorted: Bool = false, pretty: Bool = false, nulls: Bool = false,
                                slashes: Bool = false, ascii: Bool = false) -> EncodingOptions {
        var o = EncodingOptions()
        o.sortedKeys = sorted
        o.prettyPrinted = pretty
        o.nilProperties = nulls ? .writeNull : .omit
        o.escapeSlashes = slashes
        o.asciiOnly = ascii
        return o
    }

    static let optionVariants: [EncodingOptions] = [
        options(), options(sorted: true), options(pretty: true), options(nulls: true),
        options(sorted: true, pretty: true, nulls: true), options(slashes: true, ascii: true),
    ]

    @Test func fieldWriters_writeEveryTypeExactly() throws {
        let json = String(decoding: try JSONAdapter.json(from: Self.filledFields), as: UTF8.self)
        #expect(json == #"{"string":"s\"1","optional_string":"o/2é","int":-9223372036854775808,"optional_int":-42,"#
            + #""int64":9223372036854775807,"optional_int64":9007199254740993,"bool":true,"optional_bool":false,"#
            + #""double":0.1,"optional_double":-0,"url":"https://example.com/a?b=c&d=%20","optional_url":"http://x.org/","#
            + #""int32":-2147483648,"optional_uint8":255,"date":1500000000.25,"#
            + #""user":{"login":"ada","id":1,"site_admin":true},"#
            + #""users":[{"login":"b","id":2,"site_admin":false},{"login":"c","id":3,"site_admin":true}],"#
            + #""maybe_users":[null,{"login":"d","id":4,"site_admin":false},null],"strings":["x",null,""],"#
            + #""optional_ints":[1,-2,3],"table":{"k":1},"value":{"a":[true,null]},"deep":{"nested":{"string":"n"},"number":7}}"#)
        #expect(try JSONAdapter.model(Fields.self, from: json) == Self.filledFields)
    }

    @Test func fieldWriters_nilPolicy() throws {
        let empty = Fields()
        let omitted = String(decoding: try JSONAdapter.json(from: empty), as: UTF8.self)
        #expect(omitted == #"{"string":"","int":0,"int64":0,"bool":false,"double":0,"url":"https://example.com","#
            + #""int32":0,"users":[],"maybe_users":[],"strings":[],"table":{},"deep":{"nested":{"string":""}}}"#,
            "nil optionals and a JSONValue null are left out")
        let nulls = String(decoding: try JSONAdapter.json(from: empty, options: Self.options(nulls: true)), as: UTF8.self)
        #expect(nulls == #"{"string":"","optional_string":null,"int":0,"optional_int":null,"int64":0,"optional_int64":null,"#
            + #""bool":false,"optional_bool":null,"double":0,"optional_double":null,"url":"https://example.com","#
            + #""optional_url":null,"int32":0,"optional_uint8":null,"date":null,"user":null,"users":[],"maybe_users":[],"#
            + #""strings":[],"optional_ints":null,"table":{},"value":null,"deep":{"nested":{"string":""},"number":null}}"#)
        #expect(try JSONAdapter.model(Fields.self, from: nulls) == empty)
    }

    @Test func structAndFinalClassModels_encodeTheSameBytes() throws {
        for fields in [Fields(), Self.filledFields] {
            for options in Self.optionVariants {
                let viaOffsets = try JSONAdapter.json(from: fields, options: options)
                let viaKeyPaths = try JSONAdapter.json(from: FieldsClass(fields), options: options)
                #expect(viaOffsets == viaKeyPaths, "\(options)")
                #expect(try JSONAdapter.model(Fields.self, from: viaOffsets) == fields)
            }
        }
    }

    @Test func fieldWriters_agreeWithTheCodecs() throws {
        // Each field, written by its field writer inside a model, against the same value written
        // by its codec alone (the generic path).
        let f = Self.filledFields
        for options in Self.optionVariants {
            let json = String(decoding: try JSONAdapter.json(from: f, options: options), as: UTF8.self)
            func check<V>(_ key: String, _ value: V, _ transformer: Transformer<JSONValue, V>) throws {
                let alone = String(decoding: try JSONAdapter.json(from: value, transformer, options: options), as: UTF8.self)
                let member = "\"\(key)\":" + (options.prettyPrinted ? " " : "") + alone
                #expect([",", "\n", "}"].contains { json.contains(member + $0) }, "\(key): \(alone)")
            }
            try check("string", f.string, .string)
            try check("optional_string", f.optionalString, .optional(.string))
            try check("int", f.int, .integer)
            try check("optional_int", f.optionalInt, .optional(.integer))
            try check("int64", f.int64, .integer)
            try check("optional_int64", f.optionalInt64, .optional(.integer))
            try check("bool", f.bool, .bool)
            try check("optional_bool", f.optionalBool, .optional(.bool))
            try check("double", f.double, .double)
            try check("optional_double", f.optionalDouble, .optional(.double))
            try check("url", f.url, .url)
            try check("optional_url", f.optionalURL, .optional(.url))
            try check("int32", f.int32, .integer)
            try check("optional_uint8", f.optionalUInt8, .optional(.integer))
            if !options.prettyPrinted {
                try check("strings", f.strings, .array(.optional(.string)))
                try check("optional_ints", f.optionalInts, .optional(.array(.integer)))
                try check("users", f.users, .array(.model(GHUser.self)))
                try check("maybe_users", f.maybeUsers, .array(.optional(.model(GHUser.self))))
            }
        }
    }

    struct Computed: JSONModel, Equatable {
        var storage: [String: String] = [:]
        var name: String? {
            get { storage["name"] }
            set { storage["name"] = newValue }
        }
        var count: Int {
            get { storage.count }
            set { _ = newValue }
        }
        static let jsonMapping = JSONMapping<Computed> {
            Map(\.name, "name")
            Map(\.count, "count")
        }
    }

    @Test func computedProperties_encodeThroughTheirKeyPaths() throws {
        #expect(String(decoding: try JSONAdapter.json(from: Computed()), as: UTF8.self) == #"{"count":0}"#)
        #expect(String(decoding: try JSONAdapter.json(from: Computed(), options: Self.options(nulls: true)), as: UTF8.self)
            == #"{"name":null,"count":0}"#)
        #expect(String(decoding: try JSONAdapter.json(from: Computed(storage: ["name": "a/é"]), options: Self.options(slashes: true)),
                       as: UTF8.self) == #"{"name":"a\/é","count":1}"#)
    }

    @Test func integers_extremesThroughEveryWriter() throws {
        let values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, 12345, Int64(Int32.max), 1_000_000_000_000_000_000, .max, .min, .min + 1]
        for v in values {
            var f = Fields()
            f.int = Int(v)
            f.optionalInt = Int(v)
            f.int64 = v
            f.optionalInt64 = v
            let object = try object(try JSONAdapter.json(from: f))
            for key in ["int", "optional_int", "int64", "optional_int64"] {
                #expect((object[key] as? NSNumber)?.int64Value == v, "\(key) = \(v)")
            }
            #expect(String(decoding: try JSONAdapter.json(from: v, .integer), as: UTF8.self) == String(v))
            #expect(try JSONAdapter.model(Fields.self, from: try JSONAdapter.json(from: f)) == f)
        }
        for v: UInt64 in [0, 7, 10, .max, .max - 1] {
            #expect(String(decoding: try JSONAdapter.json(from: v, .integer), as: UTF8.self) == String(v))
        }
        for v: Int8 in [.min, -1, 0, .max] {
            #expect(String(decoding: try JSONAdapter.json(from: v, .integer), as: UTF8.self) == String(v))
        }
    }

    @Test func doubles_shortestFormWithoutAString() throws {
        // Written straight into the buffer: JSONEncoder's text (integral values as integers up
        // to where `description` turns to an exponent), for random bit patterns and awkward values.
        var rng = SeededGenerator(seed: 0x6D61676D61)
        var values: [Double] = [0, -0.0, 1, -1, 0.5, 1e15, 1e15 - 1, -1e15, 1e15 + 2, -2e15, 9007199254740992, 9.5e15, 1e16,
                                123456789012345.6, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                                .leastNormalMagnitude, 0.1 + 0.2, 1e21, 1e-7, 4.35, 2.5e-8, Double(Int64.max)]
        for _ in 0..<2000 {
            let d = Double(bitPattern: rng.next())
            if d.isFinite { values.append(d) }
            values.append(Double(Int64(bitPattern: rng.next()) >> Int64(rng.next() % 64)) / 64)
        }
        for d in values {
            let expected = String(decoding: try JSONEncoder().encode(d), as: UTF8.self)
            var f = Fields()
            f.double = d
            f.optionalDouble = d
            let json = String(decoding: try JSONAdapter.json(from: f), as: UTF8.self)
            #expect(json.contains(#""double":\#(expected),"optional_double":\#(expected),"#), "\(d)")
            #expect(String(decoding: try JSONAdapter.json(from: d, .double), as: UTF8.self) == expected)
            let back = try JSONAdapter.model(Fields.self, from: json)
            #expect(back.double.bitPattern == d.bitPattern && back.optionalDouble?.bitPattern == d.bitPattern, "\(d)")
        }
    }

    @JSONModel struct Outer {
        var inner = Texts()
        var list: [Texts] = []
    }

    @Test func nonFiniteDouble_inFieldsAndNestedModels_namesTheProperty() throws {
        var f = Fields()
        f.optionalDouble = .nan
        do {
            _ = try JSONAdapter.json(from: f)
            Issue.record("expected an error")
        } catch let error as JSONError {
            #expect(error.code == .notEncodable)
            #expect(error.property == "Fields.optionalDouble")
            #expect(error.message == "cannot encode Fields.optionalDouble = nan: nan has no JSON form")
        }
        for outer in [Outer(inner: Texts(values: [.infinity])), Outer(list: [Texts(), Texts(values: [-.infinity])])] {
            do {
                _ = try JSONAdapter.json(from: outer)
                Issue.record("expected an error")
            } catch let error as JSONError {
                #expect(error.code == .notEncodable)
                #expect(error.property == (outer.list.isEmpty ? "Outer.inner" : "Outer.list"), "the outer property, as before")
                #expect(error.message.contains("cannot encode Texts.values"), "the inner property's message inside")
            }
        }
    }

    @Test func strings_escapedLikeAReferenceEscaper_atEveryOffset() throws {
        // Escapes and multi-byte characters placed at every position relative to the 8-byte
        // blocks the writer scans, in strings from 0 to 40 bytes, with every escaping option.
        let pieces = ["a", "Z", "0", " ", "~", "\"", "\\", "/", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{01}", "\u{1F}", "\u{7F}",
                      "é", "€", "😀", "日本"]
        var rng = SeededGenerator(seed: 42)
        var samples = [""]
        for length in 1...40 {
            for _ in 0..<40 {
                var s = ""
                while s.utf8.count < length { s += pieces[Int(rng.next() % UInt64(pieces.count))] }
                samples.append(s)
            }
        }
        for plainLength in [7, 8, 9, 15, 16, 17, 23, 24, 25] {
            let plain = String(repeating: "x", count: plainLength)
            for special in ["\"", "\\", "/", "\n", "\u{01}", "é", "😀"] {
                samples += [special + plain, plain + special, plain + special + plain, String(plain.prefix(3)) + special]
            }
        }
        for (slashes, ascii) in [(false, false), (true, false), (false, true), (true, true)] {
            let options = Self.options(slashes: slashes, ascii: ascii)
            for s in samples {
                let expected = Self.referenceEscaped(s, slashes: slashes, ascii: ascii)
                #expect(String(decoding: try JSONAdapter.json(from: s, .string, options: options), as: UTF8.self) == expected)
                let model = Texts(text: s)
                let json = String(decoding: try JSONAdapter.json(from: model, options: options), as: UTF8.self)
                #expect(json.hasPrefix(#"{"text":\#(expected),"#), "\(s.debugDescription)")
                #expect(try JSONAdapter.model(Texts.self, from: json).text == s)
            }
        }
    }

    /// JSON string escaping, written the obvious way.
    static func referenceEscaped(_ s: String, slashes: Bool, ascii: Bool) -> String {
        func hex(_ unit: UInt16) -> String {
            let digits = String(unit, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        }
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where slashes: out += "\\/"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20: out += hex(UInt16(scalar.value))
            case _ where scalar.value >= 0x80 && ascii: out += String(scalar).utf16.map(hex).joined()
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    @JSONModel struct Keys: Equatable {
        @Key("a/b") var a = 1
        @Key("ключ") var b = 2
        @Key(#"quote"in"key"#) var c = 3
        @Key("a_key_longer_than_sixteen_bytes") var d = 4
        @Key("e.f.g") var e: Int?
    }

    @Test func keys_escapedAsTheOptionsSay() throws {
        let plain = String(decoding: try JSONAdapter.json(from: Keys()), as: UTF8.self)
        #expect(plain == #"{"a/b":1,"ключ":2,"quote\"in\"key":3,"a_key_longer_than_sixteen_bytes":4}"#,
                "the dotted object with only a nil member is left out")
        let escaped = String(decoding: try JSONAdapter.json(from: Keys(e: 5), options: Self.options(slashes: true, ascii: true)),
                             as: UTF8.self)
        #expect(escaped == #"{"a\/b":1,"\u043a\u043b\u044e\u0447":2,"quote\"in\"key":3,"a_key_longer_than_sixteen_bytes":4,"e":{"f":{"g":5}}}"#)
        let pretty = String(decoding: try JSONAdapter.json(from: Keys(), options: Self.options(pretty: true)), as: UTF8.self)
        #expect(pretty == "{\n  \"a/b\": 1,\n  \"ключ\": 2,\n  \"quote\\\"in\\\"key\": 3,\n  \"a_key_longer_than_sixteen_bytes\": 4\n}")
        let nulls = String(decoding: try JSONAdapter.json(from: Keys(), options: Self.options(pretty: true, nulls: true)), as: UTF8.self)
        #expect(nulls.hasSuffix("\"a_key_longer_than_sixteen_bytes\": 4,\n  \"e\": {\n    \"f\": {\n      \"g\": null\n    }\n  }\n}"))
        #expect(try JSONAdapter.model(Keys.self, from: nulls) == Keys())
    }

    @Test func largeOutput_growsTheBuffer() throws {
        // Far past the initial 4 KiB, with strings longer than any growth step.
        var f = Fields()
        f.strings = (0..<3000).map { i in i % 100 == 0 ? String(repeating: "é\"x", count: 5000) : "item \(i)" }
        let data = try JSONAdapter.json(from: f)
        #expect(data.count > 300_000)
        #expect(try JSONAdapter.model(Fields.self, from: data) == f)
        let models = (0..<2000).map { Fields(string: "record \($0)", int: $0) }
        #expect(try JSONAdapter.models(Fields.self, from: try JSONAdapter.json(from: models)) == models)
    }

    @Test func ndjsonWriter_droppedRecordLeavesTheBufferWhole() throws {
        var output = Data()
        let writer = NDJSONWriter<Fields>(bufferSize: 64) { output.append(contentsOf: $0) }
        var bad = Self.filledFields
        bad.double = .infinity
        for i in 0..<50 {
            if i % 7 == 3 {
                #expect(throws: JSONError.self) { try writer.write(bad) }
            } else {
                try writer.write(Fields(string: "line \(i)", int: i))
            }
        }
        try writer.flush()
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 50 - 7)
        #expect(try lines.map { try JSONAdapter.model(Fields.self, from: String($0)).string } == (0..<50).filter { $0 % 7 != 3 }.map { "line \($0)" })
    }
}

