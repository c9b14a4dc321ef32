import Foundation
import Testing
@testable import Magma

/// Tests for the gaps a mutation check found (issue 19): each fails on one hand-made bug that
/// the rest of the suite let through or caught only by luck (see scripts/mutations.sh).
@Suite struct MutationGapTests {
    /// Every month's last day parses and the day after it does not, in common and leap years and
    /// century years, through the ISO 8601 fast path and a pattern: no 31st of a 30-day month.
    @Test(arguments: [2023, 2024, 1900, 2000])
    func lastDayOfEveryMonth_andNotTheDayAfter(year: Int) throws {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        let pattern = Transformer<JSONValue, Date>.date(format: "yyyy-MM-dd", timeZone: TimeZone(identifier: "UTC")!)
        for (index, length) in lengths.enumerated() {
            let month = String(format: "%04d-%02d", year, index + 1)
            for (day, valid) in [(length, true), (length + 1, false)] {
                let iso = "\(month)-\(String(format: "%02d", day))T00:00:00Z"
                let parsed = Array(iso.utf8).withUnsafeBytes { ISO8601DateCoding.parse($0) }
                #expect((parsed != nil) == valid, "\(iso)")
                let plain = "\(month)-\(String(format: "%02d", day))"
                let patterned = try? JSONAdapter.value(from: Data("\"\(plain)\"".utf8), pattern)
                #expect((patterned != nil) == valid, "\(plain)")
            }
        }
    }

    /// An unmapped value holding nested arrays (and objects in them) is skipped whole: the mapped
    /// keys after it, at the same level, get their values.
    @Test func unmappedValueWithNestedArrays_isSkippedWhole() throws {
        for skip in ["[[]]", "[[1, [2, [3]]], [], [[{\"a\": [4]}]]]", "[[], \"id\", 5]", "{\"id\": [[6]], \"x\": [[]]}"] {
            let json = "{\"skip\": \(skip), \"id\": 7, \"after\": [[8]], \"name\": \"n\"}"
            let event = try decodeEverywhere(StreamEvent.self, json)
            #expect(event == StreamEvent(id: 7, name: "n"), "\(json)")
        }
    }

    /// Every control character a string holds is written escaped (JSON forbids them raw), and
    /// reads back as itself.
    @Test func everyControlCharacter_isWrittenEscaped() throws {
        for scalar in (0..<0x20).map({ Unicode.Scalar(UInt8($0)) }) + ["\u{7F}", "\u{2028}"] {
            let name = "a\(Character(scalar))b"
            let json = try JSONAdapter.json(from: StreamEvent(id: 1, name: name))
            #expect(!json.contains { $0 < 0x20 }, "U+\(String(scalar.value, radix: 16)): \(String(decoding: json, as: UTF8.self))")
            #expect(try JSONAdapter.model(StreamEvent.self, from: json).name == name)
        }
    }

    /// A bad NDJSON line after blank lines of every kind names its line, read whole (one buffer,
    /// the whole-line path) and in chunks.
    @Test func badLineAfterBlankLines_namesItsLine() {
        let input = "{\"id\":1}\n\n\r\n  \t\n{\"id\":2}\n \n{\"id\":\"bad\"}\n{\"id\":4}\n"
        let outcome = streamOutcomeEverywhere(input, .ndjson, policy: .skip, options: .init())
        #expect(outcome.records.map(\.id) == [1, 2, 4])
        #expect(outcome.skipped.map(\.line) == [7], "\(outcome)")
        #expect(outcome.skipped.map(\.recordIndex) == [2], "\(outcome)")
        var lines: [Int?] = []
        _ = try? JSONAdapter.forEachRecord(StreamEvent.self, from: Data(input.utf8), layout: .ndjson, errorPolicy: .skip) { _ in }
            .forEach { lines.append($0.line) }
        #expect(lines == [7])
    }
}
