import Foundation
import Testing
import Magma

/// The `magma` command: check, extract, the progress bar (run as a process, as a user runs it).
@Suite struct CommandTests {
    static let ndjson = """
    {"user": {"login": "ann"}, "number": 1, "updated_at": "2024-01-31T12:34:56Z", "title": "a, \\"quoted\\" title"}
    {"user": {"login": "bob"}, "number": 2, "updated_at": "not a date"}
    {"number": 3, oops}

    {"user": null, "number": 4, "updated_at": "2024-02-01T00:00:00+01:00"}
    """

    static let fields = ["--field", "login=user.login", "--field", "number:int", "--field", "updated=updated_at:date", "--field", "title"]

    // MARK: check

    @Test func check_reportsEveryBadRecord_withLineColumnOffset_andFails() throws {
        let path = try MagmaTool.file(Self.ndjson)
        let run = try MagmaTool.run(["check", path])
        #expect(run.status == 1)
        // Line 3, the one syntax error, at its first bad byte (a bad date is fine: check maps nothing).
        #expect(run.stdout.contains("\(path):3:15: byte 192, record 2: syntax:"), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("4 records, 1 bad\n"))
    }

    @Test func check_json_isOneObjectPerRun() throws {
        let run = try MagmaTool.run(["check", "--json", "-"], input: "{\"a\": 1}\n{\"a\": \"\\ud800\"}\n{\"a\" 2}\n")
        #expect(run.status == 1)
        let report = try JSONAdapter.value(from: Data(run.stdout.utf8), .json)
        guard case .object(let fields) = report, case .array(let errors)? = fields["errors"] else {
            Issue.record("not a report: \(run.stdout)"); return
        }
        #expect(fields["records"] == .number(3) && fields["bad"] == .number(2) && fields["valid"] == .bool(false))
        #expect(fields["layout"] == .string("ndjson"))
        let lines = errors.compactMap { error -> JSONValue? in if case .object(let f) = error { return f["line"] } else { return nil } }
        #expect(lines == [.number(2), .number(3)])
        guard case .object(let first) = errors[0] else { return }
        #expect(first["code"] == .string("invalidUnicode") && first["offset"] != nil && first["column"] != nil)
    }

    @Test func check_validInputs_exitZero_inEveryLayout() throws {
        for (text, layout) in [("[{\"a\": 1}, {\"b\": [2, 3]}]", "array"), ("{\n  \"a\": {\"b\": 1}\n}\n", "document"),
                               ("{\"a\": 1}\n{\"a\": 2}\n", "ndjson")] {
            let run = try MagmaTool.run(["check", "--json", "-"], input: text)
            #expect(run.status == 0, "\(layout): \(run.stdout)")
            #expect(run.stdout.contains("\"layout\":\"\(layout)\""), "\(run.stdout)")
        }
    }

    @Test func check_arraySyntaxError_endsTheInput_andSaysSo() throws {
        let run = try MagmaTool.run(["check", "-"], input: "[{\"a\": 1},\n {\"a\": tru}, {\"a\": 3}]")
        #expect(run.status == 1)
        #expect(run.stdout.contains("-:2:"), "\(run.stdout)")
        #expect(run.stdout.contains("could not be read past"))
    }

    @Test func check_firstLineLongerThanARead_isDetectedAndRead() throws {
        // Layout detection reads ahead to the first newline: more than one 256 KiB read here.
        let long = "{\"s\": \"" + String(repeating: "y", count: 600_000) + "\"}"
        let run = try MagmaTool.run(["check", "--json", "-"], input: long + "\n{\"a\": 1}\n")
        #expect(run.status == 0, "\(run.stdout.prefix(500))")
        #expect(run.stdout.contains("\"records\":2"))
    }

    /// Many bad lines: the first ones listed (100, or --list N), every one counted by code.
    @Test func check_listsTheFirstBadRecords_andCountsEveryOne() throws {
        let input = (1...1_000).map { $0 % 4 == 0 ? "{\"a\": \($0)}" : $0 % 4 == 1 ? "{\"a\" \($0)}" : "{\"a\": \"\\ud800\"}" }
            .joined(separator: "\n")
        let run = try MagmaTool.run(["check", "--list", "3", "-"], input: input)
        #expect(run.status == 1)
        let listed = run.stdout.split(separator: "\n").filter { $0.hasPrefix("-:") }
        #expect(listed.map { $0.split(separator: ":")[1] } == ["1", "2", "3"], "\(run.stdout)")
        #expect(run.stdout.contains("bad records by code: invalidUnicode 500, syntax 250\n"), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("1000 records, 750 bad, 747 not listed (--list N lists more)\n"), "\(run.stdout)")
        let json = try MagmaTool.run(["check", "--json", "-"], input: input)
        guard case .object(let report) = try JSONAdapter.value(from: Data(json.stdout.utf8), .json),
              case .array(let errors)? = report["errors"] else { Issue.record("not a report: \(json.stdout)"); return }
        #expect(errors.count == 100 && report["bad"] == .number(750) && report["unlisted"] == .number(650))
        #expect(report["counts"] == .object(["invalidUnicode": .number(500), "syntax": .number(250)]))
    }

    @Test func check_limits_areOptions() throws {
        let deep = String(repeating: "{\"a\":", count: 10) + "1" + String(repeating: "}", count: 10)
        #expect(try MagmaTool.run(["check", "-"], input: deep).status == 0)
        let run = try MagmaTool.run(["check", "--max-depth", "5", "-"], input: deep)
        #expect(run.status == 1 && run.stdout.contains("depthLimitExceeded"))
    }

    // MARK: extract

    @Test func extract_stopsAtTheFirstBadRecord() throws {
        let run = try MagmaTool.run(["extract"] + Self.fields + ["-"], input: Self.ndjson)
        #expect(run.status == 1)
        #expect(run.stdout == "login,number,updated,title\nann,1,2024-01-31T12:34:56Z,\"a, \"\"quoted\"\" title\"\n")
        #expect(run.stderr.contains("2:") && run.stderr.contains("not a valid ISO 8601 date"), "\(run.stderr)")
    }

    @Test func extract_skipBad_csv_reportsEachBadRecordOnStandardError() throws {
        let path = try MagmaTool.file(Self.ndjson)
        let run = try MagmaTool.run(["extract", "--skip-bad"] + Self.fields + [path])
        #expect(run.status == 0)
        #expect(run.stdout == """
            login,number,updated,title
            ann,1,2024-01-31T12:34:56Z,"a, ""quoted"" title"
            ,4,2024-01-31T23:00:00Z,

            """)
        #expect(run.stderr.contains("bad record: 2:"))
        #expect(run.stderr.contains("{\"user\": {\"login\": \"bob\"}"), "the bad line is quoted: \(run.stderr)")
        #expect(run.stderr.contains("bad record: 3:15: byte 192, record 2: syntax"))
        #expect(run.stderr.contains("2 bad records skipped"))
    }

    @Test func extract_ndjson_writesNullForAbsent_andTransformedValues() throws {
        let input = """
        {"id": 7, "created_at": "2024-01-31T12:34:56Z", "tags": ["x", "y"], "meta": {"b": 1, "a": "\\u0001"}, "ok": true}
        {"id": 8.5, "created_at": "2024-01-31T12:34:56.5Z"}
        """
        let run = try MagmaTool.run(["extract", "--format", "ndjson", "--field", "id:double", "--field", "t=created_at:epoch",
                                     "--field", "first=tags.0", "--field", "meta", "--field", "ok:bool", "-"], input: input)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == """
            {"id":7,"t":1706704496,"first":"x","meta":{"a":"\\u0001","b":1},"ok":true}
            {"id":8.5,"t":1706704496.5,"first":null,"meta":null,"ok":null}

            """)
    }

    @Test func extract_array_andBadToStdout() throws {
        let input = #"[{"n": 1}, {"n": "two"}, {"n": 3}]"#
        let run = try MagmaTool.run(["extract", "--skip-bad", "--bad-to-stdout", "--no-header", "--field", "n:int", "-"], input: input)
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 3 && lines[0] == "1" && lines[2] == "3")
        #expect(lines[1].hasPrefix("\u{1}{") && lines[1].contains("\"record\":1") && lines[1].contains("typeMismatch"), "\(run.stdout)")
    }

    @Test func extract_quotesEveryBadLine_whereverChunksEnd() throws {
        // ~700 KB: bad lines at the start, middle and end of the 256 KiB reads, and one across a read's end.
        var lines = (0..<7000).map { "{\"n\": \($0), \"pad\": \"\(String(repeating: "x", count: 80))\"}" }
        let bad = [0, 2600, 2621, 5242, 6999]
        for i in bad { lines[i] = "{\"n\": \(i), oops}" }
        let path = try MagmaTool.file(lines.joined(separator: "\n"))
        let run = try MagmaTool.run(["extract", "--skip-bad", "--bad-to-stdout", "--no-header", "--field", "n", path])
        #expect(run.status == 0)
        let reports = run.stdout.split(separator: "\n").filter { $0.hasPrefix("\u{1}") }
        #expect(reports.count == bad.count)
        for (report, i) in zip(reports, bad) {
            #expect(report.contains(#""text":"{\"n\": \#(i), oops}""#), "\(report)")
        }
    }

    @Test func extract_rejectsUnknownTransformers_andTooManyFields() throws {
        #expect(try MagmaTool.run(["extract", "--field", "a:nope", "-"], input: "").status != 0)
        let many = (0...32).flatMap { ["--field", "f\($0)"] }
        let run = try MagmaTool.run(["extract"] + many + ["-"], input: "")
        #expect(run.status != 0 && run.stderr.contains("at most 32"))
    }

    // MARK: progress

    @Test func progress_onlyOnATerminal_neverWithQuiet() throws {
        let records = (0..<2000).map { "{\"n\": \($0)}" }.joined(separator: "\n")
        let path = try MagmaTool.file(records)
        // Piped standard error: no bar.
        let piped = try MagmaTool.run(["extract", "--field", "n", path])
        #expect(piped.status == 0 && piped.stderr.isEmpty)
        // As on a terminal (forced: the test has none): bytes, records, MB/s; the line is cleared at the end.
        let shown = try MagmaTool.run(["check", path], environment: ["MAGMA_PROGRESS": "always"])
        #expect(shown.stderr.contains("records") && shown.stderr.contains("MB/s") && shown.stderr.contains("%"), "\(shown.stderr)")
        #expect(shown.stderr.hasSuffix("\r\u{1B}[2K"))
        let quiet = try MagmaTool.run(["check", "--quiet", path], environment: ["MAGMA_PROGRESS": "always"])
        #expect(quiet.stderr.isEmpty)
    }

    @Test func help_documentsEveryCommand() throws {
        let run = try MagmaTool.run(["--help"])
        #expect(run.status == 0)
        for command in ["check", "extract", "generate"] { #expect(run.stdout.contains(command)) }
        let extract = try MagmaTool.run(["extract", "--help"])
        for option in ["--field", "--format", "--skip-bad", "--quiet", "--layout"] { #expect(extract.stdout.contains(option)) }
    }
}
