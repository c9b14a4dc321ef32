import Foundation
import Testing
@testable import Magma

/// The differential reader harness (Fuzz/ReaderFuzzHarness.swift, compiled here through the
/// symlink Tests/MagmaTests/ReaderFuzzHarness.swift) over the seeds the fuzz target starts from
/// (JSONTestSuite, the model seeds, the record seeds) under a few headers, and over every input
/// kept in Fuzz/regressions-readers/: the scanner, yajl and yajl in pieces agree.
@Suite struct ReaderFuzzTests {
    static let root = ConformanceTests.packageRoot.appendingPathComponent("Fuzz")
    static let seeds = ConformanceTests.files(in: ConformanceTests.committedSuite)
        + ConformanceTests.files(in: root.appendingPathComponent("seeds"))
        + ConformanceTests.files(in: root.appendingPathComponent("seeds-records"), extension: nil)
    static let regressions = ConformanceTests.files(in: root.appendingPathComponent("regressions-readers"), extension: nil)
        .filter { !$0.name.hasSuffix(".md") }

    @Test func seeds_everyHeader_readAlike() {
        #expect(Self.seeds.count > 50)
        for file in Self.seeds {
            for header: [UInt8] in [[0, 0], [7, 1], [200, 2], [31, 5], [99, 15]] {
                let violations = ReaderFuzzCase(header + file.bytes).check()
                #expect(violations.isEmpty, "\(file.name) \(header): \(violations.joined(separator: "\n"))")
            }
        }
    }

    @Test func regressions_readAlike() {
        for file in Self.regressions {
            let violations = ReaderFuzzCase(file.bytes).check()
            #expect(violations.isEmpty, "\(file.name): \(violations.joined(separator: "\n"))")
        }
    }
}
