// libFuzzer entry points of the three fuzz targets, one binary: MAGMA_FUZZ_TARGET (set by
// scripts/fuzz.sh) picks model decoding (`models`, the default: FuzzHarness.swift), the streaming
// record API (`records`: RecordFuzzHarness.swift) or the two readers against each other
// (`readers`: ReaderFuzzHarness.swift). The input is read as that harness describes; any broken
// invariant traps, so libFuzzer keeps the input as a crash artifact. One binary, so that CI builds
// Magma's sources with the fuzzer once.

import Foundation

/// The chosen target's check, and the name its findings are reported under.
nonisolated(unsafe) private var target: (name: String, check: ([UInt8]) -> [String]) =
    ("model", { FuzzCase($0).check() })

/// Picks the target, then runs it once on a warm-up input, so that the one-time allocations of the
/// static mapping plans are not charged to the first input by the per-input leak check.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    switch ProcessInfo.processInfo.environment["MAGMA_FUZZ_TARGET"] ?? "models" {
    case "models":
        let warmUp = Array(#"{"owner": {"name": "o", "kids": [{"name": "k"}]}, "meta": {"m": {"name": "n"}}, "any": [{}]}"#.utf8)
        _ = FuzzCase([0, 0] + warmUp).check()
        _ = FuzzCase([8, 0, UInt8(ascii: "[")] + warmUp + [UInt8(ascii: "]")]).check()
    case "records":
        target = ("record-stream", { RecordFuzzCase($0).check() })
        let warmUp = Array(#"{"total": 1, "items": [{"id": 1, "tags": ["a"], "meta": {"any": [1]}}]}"#.utf8)
        for header: UInt8 in [0x00, 0x08, 0x10, 0x18] { _ = RecordFuzzCase([header, 0] + warmUp).check() }
    case "readers":
        target = ("reader", { ReaderFuzzCase($0).check() })
        _ = ReaderFuzzCase([0, 0] + Array(#"{"id": 1, "owner": {"name": "o"}, "any": [{}]}"#.utf8)).check()
    case let other:
        fatalError("MAGMA_FUZZ_TARGET must be models, records or readers, not \(other)")
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let violations = target.check(input)
    if !violations.isEmpty {
        fatalError("Magma \(target.name) fuzz invariant broken:\n" + violations.joined(separator: "\n"))
    }
    return 0
}
