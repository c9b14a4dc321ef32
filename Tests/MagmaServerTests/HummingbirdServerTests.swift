// A Hummingbird server on loopback whose context reads and writes with Magma, asked by
// AsyncHTTPClient: JSON bodies, bad ones, oversized ones, and a 100 MB NDJSON upload.
#if Hummingbird
import AsyncHTTPClient
import Foundation
import Hummingbird
import Magma
import MagmaHummingbird
import MagmaNIO
import NIOCore
import Testing

/// A context that reads and writes with Magma, with the suites' limits.
struct MagmaContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    init(source: Source) { coreContext = .init(source: source) }
    var maxUploadSize: Int { ServerLimits.maxUploadSize }
    var requestDecoder: MagmaRequestDecoder { Self.decoder }
    var responseEncoder: MagmaResponseEncoder { MagmaResponseEncoder() }

    static let decoder: MagmaRequestDecoder = {
        let decoder = MagmaDecoder()
        decoder.options = ServerLimits.options
        return MagmaRequestDecoder(decoder)
    }()
}

extension CodableIssue: ResponseEncodable {}
extension IngestSummary: ResponseEncodable {}

extension ServerTests {
    @Suite struct HummingbirdServerTests {
        /// Runs `body` with the port of a Hummingbird server started for it, stopped after.
        func withServer(_ body: (Int) async throws -> Void) async throws {
            let router = Router(context: MagmaContext.self)
            router.post("codable") { request, context in
                try await request.decode(as: CodableIssue.self, context: context)
            }
            router.post("model") { request, context in
                ModelResponse(try await request.decodeModel(as: Issue.self, context: context))
            }
            router.post("ingest") { request, context in
                let progress = ProgressHandle()
                let log = SkipLog()
                let records = request.records(Event.self, context: context, errorPolicy: .skip, progress: progress, onSkip: log.add)
                return try await IngestSummary.reading(records, progress: progress) { log.errors }
            }
            router.post("ingest-strict") { request, context in
                let progress = ProgressHandle()
                return try await IngestSummary.reading(request.records(Event.self, context: context, progress: progress),
                                                       progress: progress) { [] }
            }
            let (ports, port) = AsyncStream.makeStream(of: Int.self)
            let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                                  onServerRunning: { port.yield($0.localAddress?.port ?? 0) })
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await app.run() }
                var running = ports.makeAsyncIterator()
                let bound = await running.next() ?? 0
                defer { group.cancelAll() }
                try await body(bound)
            }
        }

        @Test func codableBody_decodedAndEncodedByMagma() async throws {
            try await withServer { port in
                let reply = try await post(port: port, "/codable",
                                           #"{"number":7,"title":"crash","user":{"login":"ada"},"labels":["bug"],"extra":[1,2]}"#)
                #expect(reply.status == 200, "\(reply.text)")
                #expect(reply.text == #"{"number":7,"title":"crash","user":{"login":"ada"},"labels":["bug"]}"#)
            }
        }

        @Test func modelBody_readAndWrittenThroughItsMapping() async throws {
            try await withServer { port in
                let json = #"{"number":7,"title":"crash","state":"closed","user":{"login":"ada"},"labels":[{"name":"bug"}],"#
                    + #""updated_at":"2024-05-01T10:20:30Z","body":"not mapped"}"#
                let reply = try await post(port: port, "/model", json)
                #expect(reply.status == 200, "\(reply.text)")
                let echoed = try JSONAdapter.model(Issue.self, from: reply.body)
                #expect(echoed == (try JSONAdapter.model(Issue.self, from: json)))
                #expect(echoed.reporter == "ada" && echoed.state == .closed && echoed.updatedAt != nil)
            }
        }

        /// A malformed body, and one its type refuses, are 400s whose JSON names the error, the
        /// path, the line and the column, for a Codable type and a model alike.
        @Test func badBody_is400NamingErrorPathLineAndColumn() async throws {
            try await withServer { port in
                let syntax = try await post(port: port, "/codable", "{\"number\": 7,\n  \"title\": }")
                #expect(syntax.status == 400, "\(syntax.text)")
                let syntaxError = syntax.json["error"] as? [String: Any] ?? [:]
                #expect(syntaxError["code"] as? String == "syntax", "\(syntax.text)")
                #expect(syntaxError["line"] as? Int == 2 && syntaxError["column"] as? Int == 12, "\(syntax.text)")

                for path in ["/codable", "/model"] {
                    let typed = try await post(port: port, path, "{\"number\": 7,\n \"title\": 12, \"labels\": []}")
                    #expect(typed.status == 400, "\(typed.text)")
                    let error = typed.json["error"] as? [String: Any] ?? [:]
                    #expect(error["code"] as? String == "typeMismatch", "\(path): \(typed.text)")
                    #expect(error["path"] as? String == "$.title", "\(path): \(typed.text)")
                    #expect(error["line"] as? Int == 2 && error["column"] as? Int == 11, "\(path): \(typed.text)")
                    #expect((error["message"] as? String)?.contains("line 2, column 11") == true, "\(path): \(typed.text)")
                }
            }
        }

        /// A body over `maxUploadSize` is a 413: refused from its Content-Length before it is
        /// read, and without one as soon as it passes the limit.
        @Test func oversizedBody_is413() async throws {
            try await withServer { port in
                let size = ServerLimits.maxUploadSize + 1
                let body = ByteBuffer(repeating: UInt8(ascii: " "), count: size)
                let declared = try await post(port: port, "/codable", .bytes(body))
                #expect(declared.status == 413, "\(declared.text)")
                #expect(declared.text.contains("a body of \(size) bytes; the limit is \(ServerLimits.maxUploadSize) bytes"),
                        "\(declared.text)")
                let streamed = try await post(port: port, "/model", .stream(halves(body), length: .unknown))
                #expect(streamed.status == 413, "\(streamed.text)")
                #expect(streamed.text.contains("a body longer than that; the limit is"), "\(streamed.text)")
            }
        }

        /// A 100 MB NDJSON upload, made on the fly by the client, is read record by record: every
        /// good line arrives once and in order, every bad line is reported once with its line
        /// number and reason, and the server's memory stays far below the upload's size.
        @Test func ndjsonUpload_everyBadLineReportedOnce_memoryBounded() async throws {
            try await withServer { port in
                try await expectLargeUploadIngested(port: port)
            }
        }

        /// With the stop policy, the first bad line ends the upload with a 400 naming its line.
        @Test func ndjsonUpload_stopPolicy_badLineIs400WithItsLine() async throws {
            try await withServer { port in
                let reply = try await post(port: port, "/ingest-strict", "{\"id\":1}\n{\"id\":2}\n{\"id\":\"3\"}\n{\"id\":4}\n")
                #expect(reply.status == 400, "\(reply.text)")
                let error = reply.json["error"] as? [String: Any] ?? [:]
                #expect(error["code"] as? String == "typeMismatch" && error["line"] as? Int == 3 && error["record"] as? Int == 2,
                        "\(reply.text)")
                let long = try await post(port: port, "/ingest-strict", "{\"id\":1}\n" + NDJSONUpload.longLine + "\n")
                #expect(long.status == 413, "\(long.text)")
                #expect((long.json["error"] as? [String: Any])?["line"] as? Int == 2, "\(long.text)")
            }
        }
    }
}
#endif
