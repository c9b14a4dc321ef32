// The code of the article "An ingestion job" (Sources/Magma/Magma.docc/IngestionJob.md), block by
// block between the `recipe:` markers: IngestionJobRecipeTests checks that the article holds each
// block verbatim, and runs the job. Edit both together.
// recipe: models
import Foundation
import Magma
import Synchronization

@JSONModel struct IssueLabel {
    let name: String
}

@JSONModel struct IssueRecord {
    let number: Int
    let state: String
    let labels: [IssueLabel]
}
// end

// recipe: input
/// The file named by the first argument, or standard input when there is none (or it is "-").
func openInput(_ arguments: [String]) throws -> FileHandle {
    guard let path = arguments.dropFirst().first, path != "-" else { return .standardInput }
    return try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
}
// end

// recipe: job
/// What the job found: issues per state and per label, and the lines it skipped.
struct Tally {
    var states: [String: Int] = [:]
    var labels: [String: Int] = [:]
    var skipped = SkippedRecords()

    /// Adds another thread's counts to these.
    mutating func add(_ other: Tally) {
        states.merge(other.states, uniquingKeysWith: +)
        labels.merge(other.labels, uniquingKeysWith: +)
    }
}

/// Reads NDJSON issues from `input` on every core, skipping bad lines; prints progress every
/// `interval` seconds from a thread of its own, and once more at the end.
func ingest(_ input: FileHandle, every interval: TimeInterval = 1,
            report: @escaping @Sendable (String) -> Void = { print($0) }) throws -> Tally {
    let progress = ProgressHandle()
    let ended = JobEnded()
    Thread {
        while true {
            Thread.sleep(forTimeInterval: interval)
            if ended.flag.load(ordering: .relaxed) { return }
            report(describe(progress.current))
        }
    }.start()
    defer { ended.flag.store(true, ordering: .relaxed) }

    // Each worker thread counts into a tally of its own; they are added up at the end.
    let (tallies, skipped) = try JSONAdapter.forEachRecordInParallel(
        IssueRecord.self, from: input, errorPolicy: .skip, progress: progress, makeState: { Tally() }
    ) { tally, issue in
        tally.states[issue.state, default: 0] += 1
        for label in issue.labels { tally.labels[label.name, default: 0] += 1 }
    }
    var tally = Tally()
    for each in tallies { tally.add(each) }
    tally.skipped = skipped
    report(describe(progress.current))
    for error in tally.skipped {
        report("skipped line \(error.line ?? 0): \(error.code): \(error.message)")
    }
    if tally.skipped.unlisted > 0 { report("and \(tally.skipped.unlisted) more skipped lines") }
    return tally
}

func describe(_ progress: StreamProgress) -> String {
    let megabytes = Double(progress.bytes) / 1e6
    return "\(progress.records) issues, \(progress.skipped) skipped, \(Int(megabytes)) MB, "
        + "\(Int(progress.currentMegabytesPerSecond)) MB/s now, \(Int(progress.megabytesPerSecond)) MB/s on average"
}

/// Set when the job ends; `Sendable`, so Swift 6 lets the reporter thread capture it.
final class JobEnded: Sendable {
    let flag = Atomic<Bool>(false)
}
// end
