// MagmaNIO without a server: ByteBuffer in and out, records from an AsyncSequence of buffers cut
// anywhere, and the statuses JSONBodyError gives.
#if NIO
import Foundation
import Magma
import MagmaNIO
import NIOCore
import Testing

extension ServerTests {
    @Suite struct ByteBufferTests {
        /// Only the readable bytes are read: bytes before the reader index are not JSON.
        @Test func decode_readsTheReadableBytesOnly() throws {
            var buffer = ByteBuffer(string: "garbage{\"number\":7,\"title\":\"crash\",\"user\":null,\"labels\":[]}")
            buffer.moveReaderIndex(forwardBy: 7)
            let codable = try MagmaDecoder().decode(CodableIssue.self, from: buffer)
            #expect(codable == CodableIssue(number: 7, title: "crash", user: nil, labels: []))
            #expect(try JSONAdapter.model(Issue.self, from: buffer).title == "crash")
            #expect(buffer.readerIndex == 7)
            var array = ByteBuffer(string: "[[{\"number\":1},{\"number\":2}]")
            array.moveReaderIndex(forwardBy: 1)
            #expect(try JSONAdapter.models(Issue.self, from: array).map(\.number) == [1, 2])
        }

        /// Encoding appends after what the buffer holds.
        @Test func encode_appendsToTheBuffer() throws {
            var buffer = ByteBuffer(string: "> ")
            try MagmaEncoder().encode(CodableIssue(number: 7, title: "t", user: nil, labels: []), into: &buffer)
            #expect(String(buffer: buffer) == #"> {"number":7,"title":"t","labels":[]}"#)
            var models = ByteBuffer(string: "> ")
            try JSONAdapter.json(from: [Issue(number: 1), Issue(number: 2)], into: &models)
            #expect(String(buffer: models).hasPrefix(#"> [{"number":1,"#))
            #expect(try JSONAdapter.models(Issue.self, from: models.getSlice(at: 2, length: models.readableBytes - 2)!).map(\.number) == [1, 2])
        }

        static let ndjson = "{\"id\":1}\n{\"id\":2,\"name\":\"two\"}\n{\"id\":\n{\"id\":4,\"score\":0.5}\r\n\n{\"id\":\"5\"}\n{\"id\":6}"

        /// Buffers cut at every offset give the same records, the same skipped lines, and the
        /// same progress, for a model and a Decodable type.
        @Test(arguments: [1, 2, 3, 5, 8, 13, 1 << 16])
        func records_anyCut_sameRecordsAndSkips(size: Int) async throws {
            struct Plain: Decodable { let id: Int }
            let bytes = Array(Self.ndjson.utf8)
            let progress = ProgressHandle()
            var skipped: [JSONError] = []
            var ids: [Int] = []
            for try await event in JSONAdapter.records(Event.self, from: buffers(bytes, size), layout: .ndjson, errorPolicy: .skip,
                                                       progress: progress, onSkip: { skipped.append($0) }) {
                ids.append(event.id)
            }
            #expect(ids == [1, 2, 4, 6])
            #expect(skipped.map(\.line) == [3, 6])
            #expect(skipped.map(\.code) == [.unexpectedEnd, .typeMismatch])
            #expect(progress.current.bytes == bytes.count && progress.current.records == 4 && progress.current.skipped == 2)
            var plain: [Int] = []
            for try await record in JSONAdapter.records(Plain.self, from: buffers(bytes, size), layout: .ndjson,
                                                        decoder: MagmaDecoder(), errorPolicy: .skip) {
                plain.append(record.id)
            }
            #expect(plain == [1, 2, 4, 6])
            var array: [Int] = []
            for try await event in JSONAdapter.records(Event.self, from: buffers(Array("[{\"id\":1}, {\"id\":2}]".utf8), size),
                                                       layout: .array) {
                array.append(event.id)
            }
            #expect(array == [1, 2])
        }

        /// The buffers of `bytes`, `size` bytes each, each with a byte before its reader index.
        func buffers(_ bytes: [UInt8], _ size: Int) -> AsyncStream<ByteBuffer> {
            AsyncStream { continuation in
                for start in stride(from: 0, to: bytes.count, by: size) {
                    var buffer = ByteBuffer(bytes: [UInt8(ascii: "#")] + bytes[start..<min(start + size, bytes.count)])
                    buffer.moveReaderIndex(forwardBy: 1)
                    continuation.yield(buffer)
                }
                continuation.finish()
            }
        }

        /// A body's errors are 400s, a size limit's 413; the server's own are no body errors.
        @Test func bodyError_statusesAndWhatIsNotTheClients() throws {
            let decodingError = #expect(throws: DecodingError.self) {
                try MagmaDecoder().decode(CodableIssue.self, from: ByteBuffer(string: "{\"number\":\n true}"))
            }
            let fromDecoder = try #require(decodingError.flatMap { JSONBodyError(reading: $0) })
            #expect(fromDecoder.statusCode == 400 && fromDecoder.error.line == 2 && fromDecoder.error.path == "$.number")
            #expect(JSONBodyError(reading: JSONError(.sizeLimitExceeded, "long"))?.statusCode == 413)
            #expect(JSONBodyError.bodyTooLarge(length: 10, limit: 5).statusCode == 413)
            #expect(JSONBodyError(reading: JSONError(.invalidMapping, "broken")) == nil)
            #expect(JSONBodyError(reading: CancellationError()) == nil)
            let body = String(buffer: fromDecoder.body(allocator: ByteBufferAllocator()))
            #expect(body.hasPrefix(#"{"error":{"code":"typeMismatch","message":"typeMismatch: "#), "\(body)")
            #expect(body.hasSuffix(#","path":"$.number","line":2,"column":2,"offset":12}}"#), "\(body)")
        }
    }
}
#endif
