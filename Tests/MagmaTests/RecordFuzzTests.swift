import Foundation
import Testing
@testable import Magma

/// The record-stream fuzz harness (Fuzz/RecordFuzzHarness.swift, compiled here through the
/// symlink Tests/MagmaTests/RecordFuzzHarness.swift) over its seeds under a sweep of headers
/// (every layout, both policies, each chunk size, the depth and size limits), and over every
/// input kept in Fuzz/regressions-records/: no invariant broken.
@Suite struct RecordFuzzTests {
    static let root = ConformanceTests.packageRoot.appendingPathComponent("Fuzz")
    static let seeds = ConformanceTests.files(in: root.appendingPathComponent("seeds-records"), extension: nil)
    static let regressions = ConformanceTests.files(in: root.appendingPathComponent("regressions-records"), extension: nil)
        .filter { !$0.name.hasSuffix(".md") }

    @Test func seedsExist() { #expect(Self.seeds.count >= 5) }

    @Test(arguments: seeds.map(\.name))
    func seed_everyHeader_breaksNoInvariant(name: String) {
        let bytes = Self.seeds.first { $0.name == name }?.bytes ?? []
        // Bits 0-2 chunk size, 3-4 layout, 5 policy, 6 size cap; then depth and duplicate keys.
        for h0 in 0..<128 {
            for h1: UInt8 in [0x00, 0x03, 0x14] where h1 == 0 || h0 % 8 == 1 {
                let violations = RecordFuzzCase([UInt8(h0), h1] + bytes).check()
                #expect(violations.isEmpty, "\(name) header \(h0) \(h1): \(violations.joined(separator: "\n"))")
            }
        }
    }

    @Test func regressions_breakNoInvariant() {
        for file in Self.regressions {
            let violations = RecordFuzzCase(file.bytes).check()
            #expect(violations.isEmpty, "\(file.name): \(violations.joined(separator: "\n"))")
        }
    }
}
