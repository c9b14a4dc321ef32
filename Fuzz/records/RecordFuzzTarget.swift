// libFuzzer entry points of the record-stream target: streams the input as RecordFuzzHarness.swift
// describes and traps on any broken invariant, so libFuzzer keeps the input as a crash artifact.
// Built by `scripts/fuzz.sh` with FUZZ_TARGET=records (Magma's sources, Fuzz/*.swift but the model
// target's entry points, and this file, as one module).

/// Compiles the mapping plans once before fuzzing, so their one-time allocations are not charged
/// to the first input by the per-input leak check.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    let warmUp = Array(#"{"total": 1, "items": [{"id": 1, "tags": ["a"], "meta": {"any": [1]}}]}"#.utf8)
    for header: UInt8 in [0x00, 0x08, 0x10, 0x18] { _ = RecordFuzzCase([header, 0] + warmUp).check() }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let violations = RecordFuzzCase(input).check()
    if !violations.isEmpty {
        fatalError("Magma record-stream fuzz invariant broken:\n" + violations.joined(separator: "\n"))
    }
    return 0
}
