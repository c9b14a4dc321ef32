import Benchmark
import Corpus
import Foundation
import Magma

// package-benchmark suite: decode a generated GitHub-issues corpus (4 MB, ~670 issues, the same
// bytes on every run) with each system, into the same models, measuring time, throughput and
// allocations; and turn Magma's models of it into `JSONValue`s.
//
// Allocation thresholds: Magma's and yajl's benchmarks carry a tolerance on .mallocCountTotal,
// checked against the p90 values stored in Thresholds/ (`swift package benchmark thresholds check`,
// see README.md). A change of more than a tenth of an allocation per issue either way fails the
// check: exit code 2 for a regression, 4 for an improvement (then store the new numbers). Foundation's
// peers have no stored thresholds: their counts belong to the toolchain, not to us.

let benchmarks: @Sendable () -> Void = {
    let array = GitHubIssueCorpus().generate(targetBytes: 4_000_000, format: .array)
    let ndjson = GitHubIssueCorpus().generate(targetBytes: 4_000_000, format: .ndjson)
    let records = array.records

    /// Decoding speed of each iteration, in MB (10^6 bytes) per second.
    let megabytesPerSecond = BenchmarkMetric.custom("MB/s", polarity: .prefersLarger, useScalingFactor: false)

    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident, megabytesPerSecond],
        warmupIterations: 2,
        scalingFactor: .one,
        maxDuration: .seconds(2),
        maxIterations: 100
    )

    let allocationTolerance = BenchmarkThresholds(absolute: [.p90: max(records / 10, 8)])

    // The same records as one array and as NDJSON: Magma's allocations per record must not depend
    // on the layout (NDJSON's per-line yajl handles reuse their blocks), so both are checked.
    for (suffix, corpus, layout) in [("", array, Layout.array), ("NDJSON", ndjson, Layout.ndjson)] {
        let input = CorpusInput(data: Data(corpus.bytes), layout: layout)
        let megabytes = Double(corpus.bytes.count) / 1e6
        // Magma on yajl is compare's row only: no thresholds are kept for it.
        let systems = DecodeSystem.allCases.filter { !$0.runsInPython && $0 != .magmaYajl && CorpusKind.gitHubIssues.runs($0) }
        // A check that passes on wrong models is no check: Magma must build JSONDecoder's models.
        let magmaSystems: [DecodeSystem] = [.magma, .magmaDecoder]
        let validation = CorpusKind.gitHubIssues.validate(input, systems: [.jsonDecoder] + magmaSystems)
        for (system, outcome) in validation.outcomes where outcome != .same {
            fatalError("DecodeGitHubIssues\(suffix).\(benchmarkName(system)): \(outcome.symbol) \(outcome.detail ?? "")")
        }
        for system in systems where layout == .array || system == .magma || system == .yajl {
            let checked = system == .magma || system == .yajl
            let name = "DecodeGitHubIssues\(suffix).\(benchmarkName(system))"
            Benchmark(name, configuration: .init(thresholds: checked ? [.mallocCountTotal: allocationTolerance] : nil)) { benchmark in
                for _ in benchmark.scaledIterations {
                    let start = ContinuousClock.now
                    do {
                        blackHole(try RecordDecoding<GHIssue>.decodeCount(system, input))
                    } catch {
                        fatalError("\(name) threw: \(error)")
                    }
                    let elapsed = ContinuousClock.now - start
                    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                    benchmark.measurement(megabytesPerSecond, Int(megabytes / seconds))
                }
            }
        }
    }

    // A model as a `JSONValue` (a model transformer's reverse, `mappedJSON`): built from the plan's
    // members, with no JSON written and read back. Checked first: each value reads back as its issue.
    let issues = try! JSONAdapter.models(GHIssue.self, from: Data(array.bytes))
    let modelTransformer = Transformer<JSONValue, GHIssue>.model(GHIssue.self)
    for issue in issues where try! modelTransformer.transform(modelTransformer.reverseTransform(issue)) != issue {
        fatalError("ModelJSONValueGitHubIssues.Magma: issue \(issue.number)'s JSONValue does not read back as the issue")
    }
    Benchmark("ModelJSONValueGitHubIssues.Magma", configuration: .init(thresholds: [.mallocCountTotal: allocationTolerance])) { benchmark in
        for _ in benchmark.scaledIterations {
            let start = ContinuousClock.now
            for issue in issues { blackHole(try! modelTransformer.reverseTransform(issue)) }
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            benchmark.measurement(megabytesPerSecond, Int(Double(array.bytes.count) / 1e6 / seconds))
        }
    }
}

/// Shell-safe benchmark names: package-benchmark stores thresholds as `<target>.<name>.p90.json`.
private func benchmarkName(_ system: DecodeSystem) -> String {
    switch system {
    case .magma: "Magma"
    case .magmaMap: "Magma-Map"
    case .magmaText: "Magma-text"
    case .magmaYajl: "Magma-yajl"
    case .jsonDecoder: "JSONDecoder"
    case .magmaDecoder: "MagmaDecoder"
    case .jsonDecoderPattern: "JSONDecoder-DateFormatter"
    case .handMapping: "JSONSerialization+mapping"
    case .yajl: "yajl-noop"
    case .msgspec: "msgspec"
    case .orjson: "orjson"
    }
}
