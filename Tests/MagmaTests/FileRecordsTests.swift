import Foundation
import Testing
@testable import Magma

@JSONModel struct FileRow: Equatable { let id: Int }

/// Async sequences of models from a path and from a file handle (a pipe here: what standard input
/// is when a job reads `FileHandle.standardInput`). Serialized: two of its tests swap fd 0.
@Suite(.serialized) struct FileRecordsTests {
    /// 30,000 lines (~ 400 KB, more than one 256 KiB read); lines 7 and 20,001 are bad.
    static let lines = (1...30_000).map { $0 == 7 || $0 == 20_001 ? "{\"id\": true}" : "{\"id\": \($0)}" }
    static let input = Data((lines.joined(separator: "\n") + "\n").utf8)

    func check(_ sequence: AsyncRecords<FileRow, FileChunks>, progress: ProgressHandle, skips: () -> [JSONError]) async throws {
        var ids: [Int] = []
        for try await row in sequence { ids.append(row.id) }
        #expect(ids == Array(1...30_000).filter { $0 != 7 && $0 != 20_001 })
        #expect(skips().map(\.line) == [7, 20_001])
        #expect(skips().allSatisfy { $0.code == .typeMismatch })
        #expect(progress.current.records == 29_998 && progress.current.skipped == 2 && progress.current.bytes == Self.input.count)
    }

    @Test func records_atPath_withSkipReportAndProgress() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("records-\(UUID()).ndjson")
        try Self.input.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let progress = ProgressHandle()
        var skips: [JSONError] = []
        let rows = JSONAdapter.records(FileRow.self, from: FileChunks(path: url.path), layout: .ndjson, errorPolicy: .skip, progress: progress) {
            skips.append($0)
        }
        try await check(rows, progress: progress) { skips }
    }

    @Test func records_fromAPipeHandle_withSkipReportAndProgress() async throws {
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        // Written on a thread of its own: the pipe holds less than the input.
        Thread {
            writer.write(Self.input)
            try? writer.close()
        }.start()
        let progress = ProgressHandle()
        var skips: [JSONError] = []
        let rows = JSONAdapter.records(FileRow.self, from: FileChunks(pipe.fileHandleForReading), layout: .ndjson, errorPolicy: .skip,
                                       progress: progress) { skips.append($0) }
        try await check(rows, progress: progress) { skips }
    }

    /// The process's own standard input, swapped for a pipe for the length of the test.
    @Test func records_fromStandardInput() async throws {
        let pipe = Pipe()
        let saved = dup(0)
        #expect(dup2(pipe.fileHandleForReading.fileDescriptor, 0) == 0)
        defer {
            dup2(saved, 0)
            close(saved)
        }
        let writer = pipe.fileHandleForWriting
        Thread {
            writer.write(Self.input)
            try? writer.close()
        }.start()
        try pipe.fileHandleForReading.close()  // fd 0 is now the only reader
        let progress = ProgressHandle()
        var skips: [JSONError] = []
        let rows = JSONAdapter.records(FileRow.self, from: FileChunks(FileHandle.standardInput), layout: .ndjson, errorPolicy: .skip,
                                       progress: progress) { skips.append($0) }
        try await check(rows, progress: progress) { skips }
    }

    /// `forEachRecordInParallel` from the process's own standard input (a pipe swapped onto fd 0).
    @Test func forEachRecordInParallel_fromStandardInput() throws {
        let pipe = Pipe()
        let saved = dup(0)
        #expect(dup2(pipe.fileHandleForReading.fileDescriptor, 0) == 0)
        defer {
            dup2(saved, 0)
            close(saved)
        }
        let writer = pipe.fileHandleForWriting
        Thread {
            writer.write(FileRecordsTests.input)
            try? writer.close()
        }.start()
        try pipe.fileHandleForReading.close()  // fd 0 is now the only reader
        var ids: [Int] = []
        let skipped = try JSONAdapter.forEachRecordInParallel(FileRow.self, from: .standardInput, errorPolicy: .skip,
                                                              windowBytes: 64 << 10) { ids.append($0.id) }
        #expect(ids == Array(1...30_000).filter { $0 != 7 && $0 != 20_001 })
        #expect(skipped.map(\.line) == [7, 20_001])
    }

    @Test func records_stopPolicy_throwsTheFirstBadLine() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("records-\(UUID()).ndjson")
        try Self.input.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var count = 0
        let error = await #expect(throws: JSONError.self) {
            for try await _ in JSONAdapter.records(FileRow.self, from: FileChunks(path: url.path), layout: .ndjson) { count += 1 }
        }
        #expect(error?.line == 7 && count == 6)
    }

    /// A `Decodable` row, read through a `MagmaDecoder`.
    struct PlainRow: Decodable { let id: Int }

    /// The sync forms at a path (a model and a `Decodable`) and the `Decodable` async form: the
    /// same records, skip report and progress as the handle forms.
    @Test func atPath_syncAndDecodableForms_withSkipReportAndProgress() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("records-\(UUID()).ndjson")
        try Self.input.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let expected = Array(1...30_000).filter { $0 != 7 && $0 != 20_001 }
        func check(_ ids: [Int], _ skips: [JSONError], _ progress: ProgressHandle) {
            #expect(ids == expected)
            #expect(skips.map(\.line) == [7, 20_001] && skips.allSatisfy { $0.code == .typeMismatch })
            #expect(progress.current.records == 29_998 && progress.current.skipped == 2 && progress.current.bytes == Self.input.count)
        }
        var ids: [Int] = []
        var progress = ProgressHandle()
        var skips = Array(try JSONAdapter.forEachRecord(FileRow.self, from: .file(url.path), layout: .ndjson, errorPolicy: .skip,
                                                        progress: progress) { ids.append($0.id) })
        check(ids, skips, progress)
        ids = []
        progress = ProgressHandle()
        skips = Array(try JSONAdapter.forEachRecord(PlainRow.self, from: .file(url.path), layout: .ndjson, decoder: MagmaDecoder(),
                                                    errorPolicy: .skip, progress: progress) { ids.append($0.id) })
        check(ids, skips, progress)
        ids = []
        skips = []
        progress = ProgressHandle()
        for try await row in JSONAdapter.records(PlainRow.self, from: FileChunks(path: url.path), layout: .ndjson, decoder: MagmaDecoder(),
                                                 errorPolicy: .skip, progress: progress, onSkip: { skips.append($0) }) {
            ids.append(row.id)
        }
        check(ids, skips, progress)
        // With `.stop`, the first bad line's error, after the records before it.
        ids = []
        let error = #expect(throws: JSONError.self) {
            try JSONAdapter.forEachRecord(PlainRow.self, from: .file(url.path), layout: .ndjson, decoder: MagmaDecoder()) { ids.append($0.id) }
        }
        #expect(error?.line == 7 && ids == Array(1...6))
    }

    @Test func atPath_missingFile_throwsIO() async throws {
        let path = "/nonexistent/magma.ndjson"
        let errors = [
            #expect(throws: JSONError.self) { try JSONAdapter.forEachRecord(FileRow.self, from: .file(path), layout: .ndjson) { _ in } },
            #expect(throws: JSONError.self) {
                try JSONAdapter.forEachRecord(PlainRow.self, from: .file(path), layout: .ndjson, decoder: MagmaDecoder()) { _ in }
            },
            await #expect(throws: JSONError.self) {
                for try await _ in JSONAdapter.records(PlainRow.self, from: FileChunks(path: path), layout: .ndjson, decoder: MagmaDecoder()) {}
            },
        ]
        #expect(errors.map { $0?.code } == [.io, .io, .io])
        #expect(errors.allSatisfy { $0?.message.contains(path) == true })
    }

    @Test func records_missingPath_throwsIO() async throws {
        let error = await #expect(throws: JSONError.self) {
            for try await _ in JSONAdapter.records(FileRow.self, from: FileChunks(path: "/nonexistent/magma.ndjson"), layout: .ndjson) {}
        }
        #expect(error?.code == .io)
    }
}
