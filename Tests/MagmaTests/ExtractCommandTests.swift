import Foundation
import Testing
import Magma

/// `magma extract`: the `--field` grammar and its transformers, the output formats, `--jobs`
/// (the same bytes as one thread, in order), and reports beside the progress bar.
@Suite struct ExtractCommandTests {
    /// The transformers `--help` lists, one line each: `  name[:ARG]: reads …; writes ….`
    static func listedTransformers() throws -> [String: String] {
        let help = try MagmaTool.run(["extract", "--help"]).stdout
        // ArgumentParser wraps the discussion: a transformer's line starts with two spaces and a name.
        let entries = help.components(separatedBy: "\n  ").dropFirst().compactMap { entry -> (String, String)? in
            guard let reads = entry.range(of: ": reads "), entry[..<reads.lowerBound].allSatisfy({ $0.isLetter || "[]:".contains($0) }),
                  entry.contains("; writes ") else { return nil }
            return (String(entry[..<reads.lowerBound]), entry.replacingOccurrences(of: "\n", with: " "))
        }
        return Dictionary(entries, uniquingKeysWith: { a, _ in a })
    }

    @Test func help_givesTheGrammar_andEachTransformersDirections() throws {
        let help = try MagmaTool.run(["extract", "--help"]).stdout
        #expect(help.contains("[NAME=]KEY.PATH[:TRANSFORMER[:ARGUMENT]]"))
        let listed = try Self.listedTransformers()
        #expect(Set(listed.keys) == ["json", "string", "int", "double", "bool", "date[:PATTERN]", "epoch[:PATTERN]", "url"], "\(listed.keys)")
    }

    /// Each transformer `--help` lists reads a sample value and writes what it says; an argument
    /// of the wrong kind makes the record bad.
    @Test func everyListedTransformer_readsAndWrites() throws {
        let record = #"{"v": "2024-01-31T12:34:56Z", "n": 42, "x": 1.50, "b": true, "u": "https://example.com/a?b=c", "d": "31/01/2024 12:34", "e": 1706704496.5, "o": {"k": [1]}}"#
        // transformer -> (field, expected CSV cell)
        let cases: [String: (field: String, cell: String)] = [
            "json": ("o", #""{""k"":[1]}""#), "string": ("v", "2024-01-31T12:34:56Z"), "int": ("n", "42"), "double": ("x", "1.5"),
            "bool": ("b", "true"), "date[:PATTERN]": ("d:date:dd/MM/yyyy HH:mm", "2024-01-31T12:34:00Z"),
            "epoch[:PATTERN]": ("e:epoch", "1706704496.5"), "url": ("u", "https://example.com/a?b=c"),
        ]
        let listed = try Self.listedTransformers()
        #expect(Set(cases.keys) == Set(listed.keys))
        for (name, test) in cases {
            let bare = String(name.prefix { $0 != "[" })
            let field = test.field.contains(":") ? test.field : "\(test.field):\(bare)"
            let run = try MagmaTool.run(["extract", "--no-header", "--field", field, "-"], input: record)
            #expect(run.status == 0 && run.stdout == test.cell + "\n", "\(name): \(run.stdout) \(run.stderr)")
        }
        // date and epoch without a pattern read ISO 8601; epoch also reads its own numbers.
        let dates = try MagmaTool.run(["extract", "--no-header", "--field", "v:date", "--field", "w=v:epoch", "--field", "n:epoch", "-"], input: record)
        #expect(dates.stdout == "2024-01-31T12:34:56Z,1706704496,42\n", "\(dates.stdout) \(dates.stderr)")
        let wrong = try MagmaTool.run(["extract", "--no-header", "--field", "n:string", "-"], input: record)
        #expect(wrong.status == 1 && wrong.stderr.contains("typeMismatch"), "\(wrong.stderr)")
    }

    @Test func anInvalidField_saysWhy() throws {
        let cases = [
            "a:nope": "unknown transformer 'nope'", "=a": "nothing before '='", "a:int:3": "'int' takes no argument",
            "a:date:": "an empty PATTERN after 'date:'", "n=": "no key path", "a..b": "empty component",
        ]
        for (field, reason) in cases {
            let run = try MagmaTool.run(["extract", "--field", field, "-"], input: "")
            #expect(run.status != 0 && run.stderr.contains(reason), "\(field): \(run.stderr)")
            #expect(run.stderr.contains("magma extract"), "\(field): the usage shown is extract's: \(run.stderr)")
        }
        let twice = try MagmaTool.run(["extract", "--field", "a", "--field", "a:int", "-"], input: "")
        #expect(twice.status != 0 && twice.stderr.contains("two fields are named 'a'"), "\(twice.stderr)")
    }

    @Test func csvAndTSV_quoteAndEscape() throws {
        let record = #"{"a": "x,y", "b": "say \"hi\"", "c": "two\nlines", "d": "", "e": null, "f": "tab\there \\ back", "g": [1, "z"]}"#
        let fields = ["a", "b", "c", "d", "e", "f", "g"].flatMap { ["--field", $0] }
        let csv = try MagmaTool.run(["extract"] + fields + ["-"], input: record)
        #expect(csv.stdout == "a,b,c,d,e,f,g\n\"x,y\",\"say \"\"hi\"\"\",\"two\nlines\",\"\",,\"tab\there \\ back\",\"[1,\"\"z\"\"]\"\n", "\(csv.stdout)")
        let tsv = try MagmaTool.run(["extract", "--format", "tsv"] + fields + ["-"], input: record)
        #expect(tsv.stdout == "a\tb\tc\td\te\tf\tg\nx,y\tsay \"hi\"\ttwo\\nlines\t\t\ttab\\there \\\\ back\t[1,\"z\"]\n", "\(tsv.stdout)")
    }

    /// ~3 MB of NDJSON (several batches) with bad lines of every kind scattered, a long line, blank
    /// and CRLF lines: the same output, reports and positions with 1, 2 and 5 threads.
    static let manyLines: String = {
        var lines = (0..<30_000).map { i in "{\"n\": \(i), \"s\": \"\(String(repeating: "é", count: i % 40))\", \"t\": \"2024-01-31T12:34:56Z\"}" }
        for i in stride(from: 17, to: 30_000, by: 2_333) { lines[i] = "{\"n\": \(i), oops}" }
        for i in stride(from: 1_001, to: 30_000, by: 3_001) { lines[i] = "{\"n\": \"\(i)\"}" }
        lines[12_345] = "{\"n\": 12345, \"s\": \"\(String(repeating: "y", count: 1_500_000))\"}"
        lines[20_000] = ""
        lines[20_001] = "{\"n\": 20001}\r"
        return lines.joined(separator: "\n")
    }()

    @Test func jobs_giveTheBytesOfOneThread_inOrder() throws {
        let path = try MagmaTool.file(Self.manyLines, name: "many.ndjson")
        let fields = ["--field", "n:int", "--field", "t:date", "--field", "len=s"]
        for extra in [["--skip-bad"], ["--skip-bad", "--bad-to-stdout", "--format", "ndjson"], []] {
            let one = try MagmaTool.run(["extract", "--jobs", "1"] + extra + fields + [path])
            #expect(one.stdout.split(separator: "\n").count > 20_000 || extra.isEmpty)
            for jobs in ["2", "5"] {
                let many = try MagmaTool.run(["extract", "--jobs", jobs] + extra + fields + [path])
                #expect(many.status == one.status, "\(extra) --jobs \(jobs)")
                #expect(many.stdout == one.stdout, "\(extra) --jobs \(jobs): rows differ")
                #expect(many.stderr == one.stderr, "\(extra) --jobs \(jobs): \(many.stderr.prefix(600))\n---\n\(one.stderr.prefix(600))")
            }
        }
        // The reports place each bad line in the whole file, as one process reading it whole does.
        let run = try MagmaTool.run(["extract", "--jobs", "3", "--skip-bad"] + fields + [path])
        let lines = Array(Self.manyLines.utf8.split(separator: 0x0A, omittingEmptySubsequences: false))
        for bad in [2_350, 28_013] {  // in the first batch, and in a later one (after the blank line 20,001)
            let offset = lines[..<bad].reduce(0) { $0 + $1.count + 1 }
            let column = lines[bad].count - "oops}".utf8.count + 1
            let report = "bad record: \(bad + 1):\(column): byte \(offset + column - 1), record \(bad > 20_000 ? bad - 1 : bad): syntax"
            #expect(run.stderr.contains(report), "\(report)\n\(run.stderr.suffix(1500))")
        }
        #expect(run.stderr.contains("skipped (syntax 13, typeMismatch 10)"), "\(run.stderr.suffix(300))")
    }

    /// A top-level array is cut by its records on --jobs threads: the same rows, reports and
    /// positions as one thread reading it, from a file and from a pipe (its layout given, or found
    /// from its first bytes, which are then read again), a record longer than a batch included; a
    /// syntax error still ends it, after the rows before it.
    @Test func jobs_cutAnArray_asOneThreadReadsIt() throws {
        let records = Self.manyLines.split(whereSeparator: \.isNewline).filter { !$0.contains("oops") }
        let whole = "[" + records.joined(separator: ",\n") + "]"
        let broken = "[" + records[..<25_000].joined(separator: ",") + ", {\"n\": oops}, " + records[25_000...].joined(separator: ",") + "]"
        let fields = ["--field", "n:int", "--field", "t:date", "--field", "len=s"]
        for (name, text) in [("whole", whole), ("broken", broken)] {
            let path = try MagmaTool.file(text)
            for extra in [["--skip-bad"], ["--skip-bad", "--bad-to-stdout", "--format", "ndjson"], []] {
                let one = try MagmaTool.run(["extract", "--jobs", "1"] + extra + fields + [path])
                let rows = one.stdout.split(separator: "\n").filter { !$0.hasPrefix("\u{1}") && $0 != "n,t,len" }.count
                #expect(rows == (name == "whole" ? records.count - 10 : 25_000 - 9) || extra.isEmpty, "\(name) \(extra): \(rows) rows")
                #expect((one.status == 0) == (name == "whole" && !extra.isEmpty), "\(name) \(extra): \(one.stderr.suffix(300))")
                for (jobs, pipe, layout) in [("2", false, "auto"), ("5", false, "array"), ("3", true, "auto"), ("3", true, "array")] {
                    let many = try MagmaTool.run(["extract", "--jobs", jobs, "--layout", layout] + extra + fields + [pipe ? "-" : path],
                                                 input: pipe ? text : nil, inputThroughPipe: pipe)
                    let label = "\(name) \(extra) --jobs \(jobs) \(pipe ? "pipe" : "file") \(layout)"
                    #expect(many.status == one.status, "\(label)")
                    #expect(many.stdout == one.stdout, "\(label): rows differ")
                    #expect(many.stderr == one.stderr, "\(label): \(many.stderr.prefix(600))\n---\n\(one.stderr.prefix(600))")
                }
            }
        }
        let run = try MagmaTool.run(["extract", "--jobs", "3", "--skip-bad"] + fields + [try MagmaTool.file(whole)])
        // Placed in the whole array: line, column, byte and record index, and the element's index.
        let at = whole.utf8.distance(from: whole.startIndex, to: whole.range(of: #"{"n": "1001"}"#)!.lowerBound) + 6
        let report = #"bad record: 1001:7: byte \#(at), record 1000: typeMismatch: expected Int64, found string "1001" (at $[1000].n)"#
        #expect(run.stderr.contains(report), "\(run.stderr.prefix(300))")
        #expect(run.stderr.contains("skipped (typeMismatch 10)"), "\(run.stderr.suffix(300))")
    }

    /// A report written while the bar is on the line clears it first (the bar is drawn again on
    /// the next update).
    @Test func reports_clearTheProgressBarFirst() throws {
        let path = try MagmaTool.file(Self.manyLines, name: "many.ndjson")
        for layout in ["ndjson", "array"] {
            let input = layout == "ndjson" ? path
                : try MagmaTool.file("[" + Self.manyLines.split(whereSeparator: \.isNewline).filter { !$0.contains("oops") && !$0.isEmpty }
                    .joined(separator: ",") + "]")
            let run = try MagmaTool.run(["extract", "--skip-bad", "--field", "n:int", input], environment: ["MAGMA_PROGRESS": "always"])
            #expect(run.status == 0, "\(run.stderr.suffix(300))")
            let reports = run.stderr.components(separatedBy: "magma: bad record").dropFirst().count
            #expect(reports >= 3, "\(layout): \(reports) reports")
            // Each report starts a line: the bar's line was cleared before it, or nothing was drawn yet.
            for (i, before) in run.stderr.components(separatedBy: "magma: bad record").dropLast().enumerated() {
                #expect(before.isEmpty || before.hasSuffix("\n") || before.hasSuffix("\r\u{1B}[2K"), "\(layout), report \(i): \(before.suffix(80).debugDescription)")
            }
            #expect(run.stderr.contains("\r\u{1B}[2Kmagma: bad record"), "\(layout): no report came after a drawn bar")
        }
    }
}
