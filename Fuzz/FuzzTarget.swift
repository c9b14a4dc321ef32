// libFuzzer entry points: decodes the input as FuzzHarness.swift describes and traps on any broken
// invariant, so libFuzzer keeps the input as a crash artifact. Built by scripts/fuzz.sh together
// with Magma's sources as one module.

/// Compiles the mapping plans once before fuzzing, so the one-time allocations of the static
/// plans are not charged to the first input by the per-input leak check.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    let warmUp = Array(#"{"owner": {"name": "o", "kids": [{"name": "k"}]}, "meta": {"m": {"name": "n"}}, "any": [{}]}"#.utf8)
    _ = FuzzCase([0, 0] + warmUp).check()
    _ = FuzzCase([8, 0, UInt8(ascii: "[")] + warmUp + [UInt8(ascii: "]")]).check()
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let violations = FuzzCase(input).check()
    if !violations.isEmpty {
        fatalError("Magma fuzz invariant broken:\n" + violations.joined(separator: "\n"))
    }
    return 0
}
