// What the server suites share: the models a route reads and writes, an NDJSON upload made on the
// fly with bad lines at known places, the summary a route answers with, and the process's
// resident memory, sampled while an upload runs.
#if NIO
import Foundation
import Magma
import NIOCore
import Synchronization

/// A GitHub issue as a Magma model (its keys through the mapping, dates parsed from bytes).
@JSONModel(keyNaming: .snakeCase)
struct Issue: Equatable {
    enum State: String { case open, closed }
    let number: Int
    var title = ""
    var state = State.open
    @Key("user.login") var reporter: String?
    var labels: [Label] = []
    @Transform(.date(format: "yyyy-MM-dd'T'HH:mm:ss'Z'")) var updatedAt: Date?
}

@JSONModel struct Label: Equatable {
    var name = ""
}

/// The same issue as a `Codable` type.
struct CodableIssue: Codable, Equatable, Sendable {
    struct User: Codable, Equatable, Sendable { let login: String }
    let number: Int
    let title: String
    let user: User?
    let labels: [String]
}

/// A record of an upload.
@JSONModel struct Event: Equatable {
    @Required var id = 0
    var name = ""
    var score = 0.0
}

/// What an ingest route answers: the records it read and the bad lines it was told of.
struct IngestSummary: Codable, Equatable, Sendable {
    var records = 0
    var idSum = 0
    /// Records whose id was not above the one before (records come in input order).
    var disordered = 0
    var bytes = 0
    var skippedLines: [Int] = []
    var skippedCodes: [String] = []
}

/// NDJSON of `lines` events made as they are read, in buffers of about 64 KiB: event `i` has id
/// `i`; every `badEvery`-th line is bad, one kind after another (a syntax error, a type mismatch,
/// a line over `maxRecordLength`, invalid UTF-8).
struct NDJSONUpload: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let lines: Int
    let badEvery: Int
    /// Over the record size limit the routes set (`ServerLimits.maxRecordLength`).
    static let longLine = "{\"id\":-1,\"name\":\"" + String(repeating: "x", count: ServerLimits.maxRecordLength) + "\"}"

    /// The kind of bad line at line `number` (1-based), or nil for a good one.
    func badKind(_ number: Int) -> Int? { number % badEvery == 0 ? (number / badEvery) % 4 : nil }

    /// The codes a route reports for the bad lines, in order, and their line numbers.
    var expectedSkips: (lines: [Int], codes: [String]) {
        let lines = (1...lines).filter { badKind($0) != nil }
        let codes = lines.map { ["syntax", "typeMismatch", "sizeLimitExceeded", "invalidUnicode"][badKind($0)!] }
        return (lines, codes)
    }
    /// The ids of the good lines.
    var expectedIDs: [Int] { (1...lines).filter { badKind($0) == nil } }

    func line(_ number: Int) -> [UInt8] {
        switch badKind(number) {
        case 0: return Array("{\"id\":\(number),\"name\":broken}".utf8)
        case 1: return Array("{\"id\":\"\(number)\",\"name\":\"typed\"}".utf8)
        case 2: return Array(Self.longLine.utf8)
        case 3: return Array("{\"id\":\(number),\"name\":\"".utf8) + [0xFF, 0xFE] + Array("\"}".utf8)
        default:
            return Array("{\"id\":\(number),\"name\":\"event \(number) of a long upload\",\"score\":\(Double(number) / 8)}".utf8)
        }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let upload: NDJSONUpload
        var next = 1
        mutating func next() async -> ByteBuffer? {
            guard next <= upload.lines else { return nil }
            var buffer = ByteBuffer()
            buffer.reserveCapacity(1 << 16 + 256)
            while next <= upload.lines, buffer.readableBytes < 1 << 16 {
                buffer.writeBytes(upload.line(next))
                buffer.writeInteger(UInt8(ascii: "\n"))
                next += 1
            }
            return buffer
        }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(upload: self) }

    /// The upload's length in bytes (made once, line by line, without holding it).
    var byteCount: Int { (1...lines).reduce(0) { $0 + line($1).count + 1 } }
}

extension IngestSummary {
    /// Reads a route's records into a summary, with the skip policy; `progress` gives the bytes.
    static func reading<Records: AsyncSequence>(_ records: Records, progress: ProgressHandle,
                                                skipped: @escaping () -> [JSONError]) async throws -> IngestSummary
    where Records.Element == Event {
        var summary = IngestSummary()
        var last = 0
        for try await event in records {
            if event.id <= last { summary.disordered += 1 }
            last = event.id
            summary.records += 1
            summary.idSum += event.id
        }
        summary.bytes = progress.current.bytes
        summary.skippedLines = skipped().map { $0.line ?? -1 }
        summary.skippedCodes = skipped().map(\.code.name)
        return summary
    }
}

/// Collects the errors a record stream skips (its `onSkip` runs on the iterating task).
final class SkipLog: @unchecked Sendable {
    private(set) var errors: [JSONError] = []
    func add(_ error: JSONError) { errors.append(error) }
}

/// The limits the suites' routes read with.
enum ServerLimits {
    static let maxRecordLength = 4096
    static let maxUploadSize = 1 << 20
    static var options: DecodingOptions {
        var options = DecodingOptions()
        options.maxRecordLength = maxRecordLength
        return options
    }
}

/// The process's resident memory, in bytes.
func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Runs `body` while sampling resident memory every 20 ms; returns its result and the most
/// memory seen above what was resident when it began.
func peakGrowth<R: Sendable>(_ body: () async throws -> R) async throws -> (result: R, growth: Int) {
    let start = residentBytes()
    let peak = Atomic<Int>(start)
    let sampler = Task {
        while !Task.isCancelled {
            let now = residentBytes()
            _ = peak.max(now)
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
    defer { sampler.cancel() }
    let result = try await body()
    _ = peak.max(residentBytes())
    return (result, peak.load(ordering: .relaxed) - start)
}

extension Atomic where Value == Int {
    /// Raises the value to `candidate` if it is larger.
    func max(_ candidate: Int) -> Int {
        var seen = load(ordering: .relaxed)
        while candidate > seen {
            let (exchanged, original) = compareExchange(expected: seen, desired: candidate, ordering: .relaxed)
            if exchanged { return candidate }
            seen = original
        }
        return seen
    }
}
#endif
