// A Vapor app on a loopback port whose content coders are Magma's, asked by AsyncHTTPClient: JSON
// bodies (coders registered, and passed per call), bad ones, oversized ones, and a 100 MB NDJSON
// upload streamed into records.
#if Vapor
import AsyncHTTPClient
import Foundation
import Magma
import MagmaNIO
import MagmaVapor
import NIOCore
import Testing
import Vapor

extension CodableIssue: Content {}
extension IngestSummary: Content {}

extension ServerTests {
    @Suite struct VaporServerTests {
        /// Runs `body` with the port of a Vapor app started for it (Magma's coders registered for
        /// JSON when `registered`), stopped after.
        func withApp(registered: Bool = true, _ body: (Int) async throws -> Void) async throws {
            let app = try await Application.make(.testing)
            let decoder = MagmaDecoder()
            decoder.options = ServerLimits.options
            if registered {
                ContentConfiguration.global.use(decoder: MagmaContentDecoder(decoder), for: .json)
                ContentConfiguration.global.use(encoder: MagmaContentEncoder(), for: .json)
            }
            app.routes.defaultMaxBodySize = ByteCount(value: ServerLimits.maxUploadSize)
            app.post("codable") { req async throws -> CodableIssue in
                try req.content.decode(CodableIssue.self)
            }
            app.post("per-call") { req async throws -> Response in
                let issue = try req.content.decode(CodableIssue.self, using: MagmaContentDecoder())
                let response = Response(status: .ok)
                try response.content.encode(issue, using: MagmaContentEncoder())
                return response
            }
            app.post("model") { req async throws -> ModelResponse in
                ModelResponse(try req.decodeModel(as: Issue.self))
            }
            app.on(.POST, "ingest", body: .stream) { req async throws -> IngestSummary in
                let progress = ProgressHandle()
                let log = SkipLog()
                return try await IngestSummary.reading(req.records(Event.self, errorPolicy: .skip, progress: progress, onSkip: log.add),
                                                       progress: progress) { log.errors }
            }
            app.on(.POST, "ingest-strict", body: .stream) { req async throws -> IngestSummary in
                let progress = ProgressHandle()
                return try await IngestSummary.reading(req.records(Event.self, progress: progress), progress: progress) { [] }
            }
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            do {
                try await body(app.http.server.shared.localAddress?.port ?? 0)
            } catch {
                await stop(app)
                throw error
            }
            await stop(app)
        }

        func stop(_ app: Application) async {
            await app.server.shutdown()
            try? await app.asyncShutdown()
            ContentConfiguration.global = .default()
        }

        @Test func codableBody_registeredCoders() async throws {
            try await withApp { port in
                let reply = try await post(port: port, "/codable",
                                           #"{"number":7,"title":"crash","user":{"login":"ada"},"labels":["bug"],"extra":[1,2]}"#)
                #expect(reply.status == 200, "\(reply.text)")
                #expect(reply.text == #"{"number":7,"title":"crash","user":{"login":"ada"},"labels":["bug"]}"#)
            }
        }

        /// Passed per call, under Vapor's default coders, Magma's decoder reads the body (its
        /// error says where, as JSONDecoder's does not) and its encoder writes the reply.
        @Test func codableBody_coderPassedPerCall() async throws {
            try await withApp(registered: false) { port in
                let reply = try await post(port: port, "/per-call", #"{"number":7,"title":"crash","labels":[]}"#)
                #expect(reply.status == 200, "\(reply.text)")
                #expect(reply.text == #"{"number":7,"title":"crash","labels":[]}"#)
                let bad = try await post(port: port, "/per-call", "{\"number\": 7,\n \"title\": 12, \"labels\": []}")
                #expect(bad.status == 400, "\(bad.text)")
                #expect((bad.json["reason"] as? String)?.hasPrefix("typeMismatch: ") == true, "\(bad.text)")
            }
        }

        @Test func modelBody_readAndWrittenThroughItsMapping() async throws {
            try await withApp { port in
                let json = #"{"number":7,"title":"crash","state":"closed","user":{"login":"ada"},"labels":[{"name":"bug"}],"#
                    + #""updated_at":"2024-05-01T10:20:30Z","body":"not mapped"}"#
                let reply = try await post(port: port, "/model", json)
                #expect(reply.status == 200, "\(reply.text)")
                #expect(try JSONAdapter.model(Issue.self, from: reply.body) == (try JSONAdapter.model(Issue.self, from: json)))
            }
        }

        /// A malformed body, and one its type refuses, are 400s whose reason names the error,
        /// the path, the line and the column, for a Codable type and a model alike.
        @Test func badBody_is400NamingErrorPathLineAndColumn() async throws {
            try await withApp { port in
                let syntax = try await post(port: port, "/codable", "{\"number\": 7,\n  \"title\": }")
                #expect(syntax.status == 400, "\(syntax.text)")
                #expect((syntax.json["reason"] as? String)?.hasPrefix("syntax: ") == true, "\(syntax.text)")
                #expect((syntax.json["reason"] as? String)?.contains("line 2, column 12") == true, "\(syntax.text)")
                for path in ["/codable", "/model"] {
                    let typed = try await post(port: port, path, "{\"number\": 7,\n \"title\": 12, \"labels\": []}")
                    #expect(typed.status == 400, "\(typed.text)")
                    let reason = typed.json["reason"] as? String ?? ""
                    #expect(reason.hasPrefix("typeMismatch: ") && reason.contains("at $.title"), "\(path): \(typed.text)")
                    #expect(reason.contains("line 2, column 11"), "\(path): \(typed.text)")
                }
            }
        }

        /// A body over the route's limit is a 413, whether its length is declared or not.
        @Test func oversizedBody_is413() async throws {
            try await withApp { port in
                let body = ByteBuffer(repeating: UInt8(ascii: " "), count: ServerLimits.maxUploadSize + 1)
                let declared = try await post(port: port, "/codable", .bytes(body))
                #expect(declared.status == 413, "\(declared.text)")
                let streamed = try await post(port: port, "/model", .stream(halves(body), length: .unknown))
                #expect(streamed.status == 413, "\(streamed.text)")
            }
        }

        /// As for Hummingbird: 100 MB of NDJSON streamed into records, every bad line reported
        /// once, nothing else lost, memory far below the upload's size.
        @Test func ndjsonUpload_everyBadLineReportedOnce_memoryBounded() async throws {
            try await withApp { port in
                try await expectLargeUploadIngested(port: port)
            }
        }

        @Test func ndjsonUpload_stopPolicy_badLineIs400WithItsLine() async throws {
            try await withApp { port in
                let reply = try await post(port: port, "/ingest-strict", "{\"id\":1}\n{\"id\":2}\n{\"id\":\"3\"}\n{\"id\":4}\n")
                #expect(reply.status == 400, "\(reply.text)")
                let reason = reply.json["reason"] as? String ?? ""
                #expect(reason.hasPrefix("typeMismatch: ") && reason.contains("line 3, column"), "\(reply.text)")
                let long = try await post(port: port, "/ingest-strict", "{\"id\":1}\n" + NDJSONUpload.longLine + "\n")
                #expect(long.status == 413, "\(long.text)")
            }
        }
    }
}
#endif
