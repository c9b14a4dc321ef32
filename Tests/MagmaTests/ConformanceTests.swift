// Conformance and hostile input (issue 6): JSONTestSuite's y_/n_/i_ files, decoded whole and in
// chunks of 1 and 7 bytes and checked against JSONSerialization; every committed fixture cut at
// every byte; and every libFuzzer crasher kept in Fuzz/regressions/ replayed through the fuzz
// harness (copied at the end of this file; scripts/fuzz.sh refuses to run if the copies differ).
//
// The yajl gaps issue 6 lists are closed: every expectation here runs plainly, none inside
// `withKnownIssue`. A fuzz finding not fixed yet would be listed in `knownFuzzCrashes` /
// `knownFuzzFindings` and run inside `withKnownIssue`.
import Foundation
import Testing
import Magma

@Suite struct ConformanceTests {
    /// Whole buffer (0), then one byte and seven bytes at a time.
    static let conformanceChunkSizes = [0, 1, 7]

    // MARK: Where the files are

    /// The package root, found from this file (Tests/MagmaTests/ConformanceTests.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The full JSONTestSuite checkout beside the package, when there is one.
    static let fullSuite = packageRoot.appendingPathComponent("../shared/JSONTestSuite/test_parsing").standardizedFileURL
    static let fullSuiteAvailable = FileManager.default.fileExists(atPath: fullSuite.path)
    /// The committed subset, a test resource.
    static let committedSuite = Bundle.module.url(forResource: "JSONTestSuite", withExtension: nil, subdirectory: "Fixtures")
    /// Every input that once crashed the fuzz target or broke one of its invariants.
    static let regressions = packageRoot.appendingPathComponent("Fuzz/regressions")

    struct SuiteFile: CustomStringConvertible {
        let name: String
        let bytes: [UInt8]
        var description: String { name }
    }

    /// The files in `directory` (sorted by name); `extension` nil takes every file.
    static func files(in directory: URL?, extension ext: String? = "json") -> [SuiteFile] {
        guard let directory,
              let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return names.filter { ext == nil || $0.hasSuffix(".\(ext!)") }.sorted().compactMap { name in
            let path = directory.appendingPathComponent(name).path
            // FileManager.contents(atPath:) leaks a 4 KiB buffer on an empty file (Foundation,
            // Swift 6.3.1; AddressSanitizer reports it): n_structure_no_data.json is read as [].
            if (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) == 0 {
                return SuiteFile(name: name, bytes: [])
            }
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            return SuiteFile(name: name, bytes: Array(data))
        }
    }

    // MARK: Expectations

    enum Expected { case accept, reject }

    /// The 35 i_ files: what Magma does with each (with the default options), and why.
    static let implementationDefined: [String: (Expected, String)] = [
        "i_number_double_huge_neg_exp.json": (.accept, "JSONValue keeps the number's text; 123.456e-789 reads as 0.0 into Double"),
        "i_number_huge_exp.json": (.accept, "JSONValue keeps the number's text; reading it into Double/Int is the range error"),
        "i_number_neg_int_huge_exp.json": (.accept, "JSONValue keeps the number's text; -1e+9999 is a range error into Double"),
        "i_number_pos_double_huge_exp.json": (.accept, "JSONValue keeps the number's text; 1.5e+9999 is a range error into Double"),
        "i_number_real_neg_overflow.json": (.accept, "JSONValue keeps the number's text; -123123e100000 is a range error into Double"),
        "i_number_real_pos_overflow.json": (.accept, "JSONValue keeps the number's text; 123123e100000 is a range error into Double"),
        "i_number_real_underflow.json": (.accept, "JSONValue keeps the number's text; into Double, 123e-10000000 is numberOutOfRange (nonzero, it would round to 0)"),
        "i_number_too_big_neg_int.json": (.accept, "JSONValue keeps all digits; beyond Int64 only Double/Decimal can read it"),
        "i_number_too_big_pos_int.json": (.accept, "JSONValue keeps all digits; beyond Int64 only Double/Decimal can read it"),
        "i_number_very_big_negative_int.json": (.accept, "JSONValue keeps all digits; beyond Int64 only Double/Decimal can read it"),
        "i_object_key_lone_2nd_surrogate.json": (.reject, "a lone \\uDFAA in a key is not text; never delivered as something else"),
        "i_string_1st_surrogate_but_2nd_missing.json": (.reject, "a lone high surrogate escape \\uDADA"),
        "i_string_1st_valid_surrogate_2nd_invalid.json": (.reject, "\\uD888\\u1234: a high surrogate not followed by a low one"),
        "i_string_UTF-16LE_with_BOM.json": (.reject, "UTF-16 input; Magma reads UTF-8 only"),
        "i_string_UTF-8_invalid_sequence.json": (.reject, "invalid UTF-8 in a string"),
        "i_string_UTF8_surrogate_U+D800.json": (.reject, "ED A0 80 encodes a surrogate: invalid UTF-8"),
        "i_string_incomplete_surrogate_and_escape_valid.json": (.reject, "\\uD800\\n: a lone high surrogate escape"),
        "i_string_incomplete_surrogate_pair.json": (.reject, "\\uDd1ea: a lone low surrogate escape"),
        "i_string_incomplete_surrogates_escape_valid.json": (.reject, "\\uD800\\uD800\\n: two high surrogate escapes"),
        "i_string_invalid_lonely_surrogate.json": (.reject, "a lone \\ud800"),
        "i_string_invalid_surrogate.json": (.reject, "\\ud800abc: a high surrogate escape followed by text"),
        "i_string_invalid_utf-8.json": (.reject, "FF is never UTF-8"),
        "i_string_inverted_surrogates_U+1D11E.json": (.reject, "\\uDd1e\\uD834: low before high"),
        "i_string_iso_latin_1.json": (.reject, "Latin-1 E9 is not UTF-8"),
        "i_string_lone_second_surrogate.json": (.reject, "a lone low surrogate escape \\uDFAA"),
        "i_string_lone_utf8_continuation_byte.json": (.reject, "a lone continuation byte 81"),
        "i_string_not_in_unicode_range.json": (.reject, "F4 BF BF BF is above U+10FFFF"),
        "i_string_overlong_sequence_2_bytes.json": (.reject, "C0 AF is an overlong '/'"),
        "i_string_overlong_sequence_6_bytes.json": (.reject, "FC 83 BF BF BF BF: 6-byte forms are not UTF-8"),
        "i_string_overlong_sequence_6_bytes_null.json": (.reject, "FC 80 80 80 80 80: an overlong NUL"),
        "i_string_truncated-utf-8.json": (.reject, "E0 FF: a truncated sequence"),
        "i_string_utf16BE_no_BOM.json": (.reject, "UTF-16 input; Magma reads UTF-8 only"),
        "i_string_utf16LE_no_BOM.json": (.reject, "UTF-16 input; Magma reads UTF-8 only"),
        "i_structure_500_nested_arrays.json": (.accept, "500 levels is within the default maxDepth of 512"),
        "i_structure_UTF-8_BOM_empty_object.json": (.reject, "a byte order mark is not JSON whitespace; Magma does not strip it"),
    ]

    static func expected(_ name: String) -> Expected? {
        if name.hasPrefix("y_") { return .accept }
        if name.hasPrefix("n_") { return .reject }
        return implementationDefined[name]?.0
    }

    // MARK: Decoding

    enum Outcome {
        case accepted(JSONValue)
        case rejected(JSONError)
        case foreign(any Error)

        var isAccepted: Bool { if case .accepted = self { true } else { false } }
    }

    static func decode(_ bytes: [UInt8], chunkSize: Int) -> Outcome {
        do {
            if chunkSize == 0 { return .accepted(try JSONAdapter.value(from: Data(bytes), .json)) }
            let pieces = stride(from: 0, to: bytes.count, by: chunkSize).map { bytes[$0..<min($0 + chunkSize, bytes.count)] }
            return .accepted(try JSONAdapter.value(from: .chunks(pieces), .json))
        } catch let error as JSONError {
            return .rejected(error)
        } catch {
            return .foreign(error)
        }
    }

    // MARK: JSONTestSuite

    @Test(arguments: conformanceChunkSizes)
    func committedSubset_conforms(chunkSize: Int) {
        let files = Self.files(in: Self.committedSuite)
        #expect(files.count == 55, "the committed subset of JSONTestSuite is missing")
        checkConformance(files, "committed subset", chunkSize: chunkSize)
    }

    @Test(.enabled(if: fullSuiteAvailable, "../shared/JSONTestSuite is not checked out"), arguments: conformanceChunkSizes)
    func fullSuite_conforms(chunkSize: Int) {
        let files = Self.files(in: Self.fullSuite)
        #expect(files.filter { $0.name.hasPrefix("y_") }.count == 95)
        #expect(files.filter { $0.name.hasPrefix("n_") }.count == 188)
        #expect(files.filter { $0.name.hasPrefix("i_") }.count == 35)
        checkConformance(files, "JSONTestSuite", chunkSize: chunkSize)
    }

    /// Every y_ accepted, every n_ rejected with a JSONError, every i_ as tabled; a rejection has an
    /// offset inside the input; chunked decoding agrees with the whole buffer.
    func checkConformance(_ files: [SuiteFile], _ what: String, chunkSize: Int) {
        var yAccepted = 0, yTotal = 0, nRejected = 0, nTotal = 0, iAsTabled = 0, iTotal = 0
        for file in files {
            guard let expected = Self.expected(file.name) else {
                Issue.record("\(file.name): no expected outcome (an i_ file missing from implementationDefined?)")
                continue
            }
            let outcome = Self.decode(file.bytes, chunkSize: chunkSize)
            if case .foreign(let error) = outcome {
                Issue.record("\(file.name), chunk size \(chunkSize): not a JSONError: \(error)")
                continue
            }
            if case .rejected(let error) = outcome {
                #expect(error.offset.map { (0...file.bytes.count).contains($0) } == true,
                        "\(file.name), chunk size \(chunkSize): offset \(String(describing: error.offset)) outside the input")
            }
            if chunkSize != 0 {
                switch (outcome, Self.decode(file.bytes, chunkSize: 0)) {
                case (.accepted(let a), .accepted(let b)): #expect(a == b, "\(file.name): chunk size \(chunkSize) decoded another value")
                case (.rejected(let a), .rejected(let b)): #expect(a.code == b.code, "\(file.name): chunk size \(chunkSize): \(a) / whole: \(b)")
                default: Issue.record("\(file.name): chunk size \(chunkSize) and the whole buffer disagree")
                }
            }
            let asExpected = outcome.isAccepted == (expected == .accept)
            switch file.name.prefix(2) {
            case "y_": yTotal += 1; if asExpected { yAccepted += 1 }
            case "n_": nTotal += 1; if asExpected { nRejected += 1 }
            default: iTotal += 1; if asExpected { iAsTabled += 1 }
            }
            let comment = "\(file.name), chunk size \(chunkSize): expected \(expected == .accept ? "accepted" : "rejected"), got \(outcome)"
            #expect(asExpected, "\(comment)")
        }
        print("\(what), chunk size \(chunkSize): y_ accepted \(yAccepted)/\(yTotal), n_ rejected \(nRejected)/\(nTotal), i_ as tabled \(iAsTabled)/\(iTotal)")
    }

    /// Differential: every y_ file decodes to the same value as JSONSerialization gives.
    @Test func yFiles_agreeWithJSONSerialization() throws {
        var files = Self.files(in: Self.committedSuite)
        if Self.fullSuiteAvailable { files = Self.files(in: Self.fullSuite) }
        var agreed = 0, total = 0
        for file in files where file.name.hasPrefix("y_") {
            total += 1
            guard case .accepted(let value) = Self.decode(file.bytes, chunkSize: 0) else { continue }  // checked above
            let foundation: Any
            do {
                foundation = try JSONSerialization.jsonObject(with: Data(file.bytes), options: [.fragmentsAllowed])
            } catch {
                Issue.record("\(file.name): JSONSerialization rejects it: \(error)")
                continue
            }
            if Self.agrees(value, foundation) { agreed += 1 } else {
                Issue.record("\(file.name): Magma \(value) / JSONSerialization \(foundation)")
            }
        }
        print("y_ files agreeing with JSONSerialization: \(agreed)/\(total)")
    }

    /// Compares structurally; numbers by value.
    static func agrees(_ value: JSONValue, _ foundation: Any) -> Bool {
        switch value {
        case .null:
            return foundation is NSNull
        case .bool(let b):
            return (foundation as? Bool) == b
        case .number(let n):
            // On Linux JSONSerialization gives some numbers as Decimal, whose doubleValue is not
            // correctly rounded: compare those as Decimals.
            if let x = foundation as? NSDecimalNumber { return n.decimalValue == x.decimalValue }
            if let x = foundation as? Decimal { return n.decimalValue == x }
            let number: NSNumber
            switch foundation {
            case let x as NSNumber: number = x
            case let x as Int: number = NSNumber(value: x)
            case let x as Double: number = NSNumber(value: x)
            case let x as Decimal: number = NSDecimalNumber(decimal: x)
            default: return false
            }
            if let i = n.int64Value, Double(i) == number.doubleValue, number.int64Value != i { return false }
            guard let d = n.doubleValue else { return false }
            return d == number.doubleValue
        case .string(let s):
            return (foundation as? String) == s
        case .array(let items):
            guard let other = foundation as? [Any], other.count == items.count else { return false }
            return zip(items, other).allSatisfy { agrees($0, $1) }
        case .object(let members):
            guard let other = foundation as? [String: Any], other.count == members.count else { return false }
            return members.allSatisfy { key, item in other[key].map { agrees(item, $0) } ?? false }
        }
    }

    // MARK: Truncation

    /// The cut points of a file: every byte offset, except in files over 4 KiB (only
    /// n_structure_100000_opening_arrays.json, where every cut past the 513th bracket fails the same
    /// way): there the first and last 2 KiB and every 61st offset between, which keeps this test
    /// under a second instead of 30 s.
    static func cuts(_ count: Int) -> [Int] {
        guard count > 4096 else { return Array(0..<count) }
        return Array(0..<2048) + Array(stride(from: 2048, to: count - 2048, by: 61)) + Array((count - 2048)..<count)
    }

    /// Every suite file (the full suite when present, else the committed subset) cut at every byte: each prefix fails with a JSONError whose offset
    /// lies inside the prefix, unless the prefix is complete JSON itself (JSONSerialization is the
    /// judge of that).
    @Test func truncatedSuiteFiles_failInsideThePrefix() {
        var prefixes = 0, complete = 0
        let files = Self.fullSuiteAvailable ? Self.files(in: Self.fullSuite) : Self.files(in: Self.committedSuite)
        for file in files {
            for length in Self.cuts(file.bytes.count) {
                let prefix = Array(file.bytes[..<length])
                prefixes += 1
                switch Self.decode(prefix, chunkSize: 0) {
                case .accepted:
                    complete += 1
                    #expect(Self.isCompleteJSON(prefix), "\(file.name) cut at \(length): accepted an incomplete prefix")
                case .rejected(let error):
                    #expect(error.offset.map { (0...length).contains($0) } == true,
                            "\(file.name) cut at \(length): offset \(String(describing: error.offset)) outside 0...\(length)")
                    // A prefix of a valid document goes wrong only where it stops.
                    if file.name.hasPrefix("y_") {
                        #expect(error.code == .unexpectedEnd && error.offset == length, "\(file.name) cut at \(length): \(error)")
                    }
                case .foreign(let error):
                    Issue.record("\(file.name) cut at \(length): not a JSONError: \(error)")
                }
            }
        }
        print("truncation: \(prefixes) prefixes of \(files.count) suite files, \(complete) complete JSON themselves")
    }

    /// The real model record cut at every byte, decoded as a GHIssue.
    @Test func truncatedModelRecord_failsInsideThePrefix() throws {
        let bytes = Array(try Fixtures.data("github_issue.json"))
        _ = try JSONAdapter.model(GHIssue.self, from: bytes)
        for length in 0..<bytes.count {
            let prefix = Array(bytes[..<length])
            do {
                _ = try JSONAdapter.model(GHIssue.self, from: prefix)
                #expect(Self.isCompleteJSON(prefix), "cut at \(length): accepted an incomplete prefix")
            } catch let error as JSONError {
                #expect(error.code == .unexpectedEnd && error.offset == length, "cut at \(length): \(error)")
            } catch {
                Issue.record("cut at \(length): not a JSONError: \(error)")
            }
        }
    }

    static func isCompleteJSON(_ bytes: [UInt8]) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
    }

    // MARK: Fuzz regressions

    /// The inputs kept in Fuzz/regressions/ (the README aside).
    static let regressionFiles = files(in: regressions, extension: nil).filter { !$0.name.hasPrefix(".") && !$0.name.hasSuffix(".md") }

    /// Regressions that still crash the process (by file name prefix), and why.
    /// (None now: the ISO 8601 fraction overflow is fixed; its inputs stay as regressions.)
    static let knownFuzzCrashes: [String: String] = [:]

    /// Invariant classes the fuzz target has found broken and the library has not fixed yet.
    /// (None now: chunk-offset, a syntax error in a token spanning chunks reported at the chunk's
    /// start, is fixed; its inputs stay as regressions.)
    static let knownFuzzFindings: [String: String] = [:]

    static func knownCrash(_ name: String) -> String? {
        knownFuzzCrashes.first { name.hasPrefix($0.key) }?.value
    }

    /// Every input kept in Fuzz/regressions/ replays through the fuzz harness without crashing;
    /// each in a child process, so one that still crashes fails this case, not the whole run.
    @Test(arguments: regressionFiles.map(\.name))
    func fuzzRegression_replaysWithoutCrashing(name: String) async {
        let bytes: [UInt8] = Self.regressionFiles.first { $0.name == name }?.bytes ?? []
        if let crash = Self.knownCrash(name) {
            await withKnownIssue(Comment(rawValue: crash)) {
                await #expect(processExitsWith: .success, "\(name)") { [bytes = bytes as [UInt8]] in _ = FuzzCase(bytes).check() }
            }
        } else {
            await #expect(processExitsWith: .success, "\(name)") { [bytes = bytes as [UInt8]] in _ = FuzzCase(bytes).check() }
        }
    }

    /// Replays `files` through the fuzz harness in this process and records every invariant they
    /// break (known findings as known issues).
    static func expectNoViolations(_ files: [SuiteFile]) {
        for file in files {
            for violation in FuzzCase(file.bytes).check() {
                if let known = knownFuzzFindings.first(where: { violation.hasPrefix("[\($0.key)]") }) {
                    withKnownIssue(Comment(rawValue: known.value)) { Issue.record("\(file.name): \(violation)") }
                } else {
                    Issue.record("\(file.name): \(violation)")
                }
            }
        }
    }

    /// The inputs of the first fuzz run over issue 6's tokenizer work (Fuzz/regressions/chunking/):
    /// chunked decoding failing elsewhere or otherwise than one buffer. None crashed the process,
    /// so they replay in process; every file of the directory is read.
    @Test func chunkingFindings_breakNoInvariant() throws {
        let directory = Self.regressions.appendingPathComponent("chunking")
        let files = Self.files(in: directory, extension: nil)
        #expect(!files.isEmpty)
        // The first run left 221: a file deleted by mistake must not go unnoticed.
        #expect(files.count >= 221, "\(files.count) chunking regressions")
        #expect(files.count == (try FileManager.default.contentsOfDirectory(atPath: directory.path).count))
        Self.expectNoViolations(files)
    }

    /// And breaks no invariant of the harness (known findings aside). Known crashers are left to
    /// `fuzzRegression_replaysWithoutCrashing`: here they would take the test process down.
    @Test func fuzzRegressions_breakNoInvariant() {
        Self.expectNoViolations(Self.regressionFiles.filter { Self.knownCrash($0.name) == nil })
    }
}

// The fuzz harness itself (FuzzCase, its models and invariants) is Fuzz/FuzzHarness.swift, which
// this target compiles through the symlink Tests/MagmaTests/FuzzHarness.swift.
