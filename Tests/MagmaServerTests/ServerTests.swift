// The server suites run one test at a time: the upload tests measure the process's memory.
#if NIO
import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

@Suite(.serialized) struct ServerTests {}

/// A response's status and body.
struct Reply {
    let status: Int
    let body: ByteBuffer
    var text: String { String(buffer: body) }
    /// The body, as a JSON object.
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:] }
}

/// POSTs `body` to a loopback server with AsyncHTTPClient.
func post(port: Int, _ path: String, _ body: HTTPClientRequest.Body, contentLength: Int? = nil) async throws -> Reply {
    var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "application/json")
    if let contentLength { request.headers.add(name: "Content-Length", value: String(contentLength)) }
    request.body = body
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(300))
    return Reply(status: Int(response.status.code), body: try await response.body.collect(upTo: 1 << 24))
}

/// POSTs a string.
func post(port: Int, _ path: String, _ json: String) async throws -> Reply {
    try await post(port: port, path, .bytes(ByteBuffer(string: json)))
}

/// A buffer in two halves, for a body without a Content-Length.
func halves(_ buffer: ByteBuffer) -> AsyncStream<ByteBuffer> {
    let half = buffer.readableBytes / 2
    return AsyncStream { chunks in
        chunks.yield(buffer.getSlice(at: buffer.readerIndex, length: half)!)
        chunks.yield(buffer.getSlice(at: buffer.readerIndex + half, length: buffer.readableBytes - half)!)
        chunks.finish()
    }
}

/// The uploads of the record tests: about 100 MB, a bad line in every 10,000.
enum Uploads {
    static let large = NDJSONUpload(lines: 1_410_000, badEvery: 10_000)
    static let largeBytes = large.byteCount
}

/// Streams `Uploads.large` to the server's `/ingest` (which reads it with the skip policy) and
/// checks its answer: every good line once and in order, every bad line reported once with its
/// line number and reason, all the bytes counted, and the process's resident memory (the server's
/// and the client's) grown by far less than the upload.
func expectLargeUploadIngested(port: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let upload = Uploads.large
    #expect(Uploads.largeBytes >= 100_000_000, sourceLocation: sourceLocation)
    let (reply, growth) = try await peakGrowth {
        try await post(port: port, "/ingest", .stream(upload, length: .unknown))
    }
    #expect(reply.status == 200, "\(reply.text.prefix(500))", sourceLocation: sourceLocation)
    let summary = try JSONDecoder().decode(IngestSummary.self, from: Data(buffer: reply.body))
    let expected = upload.expectedIDs
    #expect(summary.records == expected.count, sourceLocation: sourceLocation)
    #expect(summary.idSum == expected.reduce(0, +), sourceLocation: sourceLocation)
    #expect(summary.disordered == 0, sourceLocation: sourceLocation)
    #expect(summary.bytes == Uploads.largeBytes, sourceLocation: sourceLocation)
    #expect(summary.skippedLines == upload.expectedSkips.lines, sourceLocation: sourceLocation)
    #expect(summary.skippedCodes == upload.expectedSkips.codes, sourceLocation: sourceLocation)
    #expect(growth < 32 << 20, "resident memory grew by \(growth >> 20) MiB for a \(Uploads.largeBytes >> 20) MiB upload",
            sourceLocation: sourceLocation)
}
#endif
