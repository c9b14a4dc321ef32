// libFuzzer entry points of the differential reader target: reads the input as ReaderFuzzHarness.swift
// describes and traps on any disagreement, so libFuzzer keeps the input as a crash artifact.
// Built by `scripts/fuzz.sh` with FUZZ_TARGET=readers.

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    _ = ReaderFuzzCase([0, 0] + Array(#"{"id": 1, "owner": {"name": "o"}, "any": [{}]}"#.utf8)).check()
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let violations = ReaderFuzzCase(input).check()
    if !violations.isEmpty {
        fatalError("Magma reader fuzz invariant broken:\n" + violations.joined(separator: "\n"))
    }
    return 0
}
