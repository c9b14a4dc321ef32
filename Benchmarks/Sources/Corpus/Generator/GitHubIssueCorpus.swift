import Foundation

/// A deterministic generator of GitHub-issues-like JSON, the default corpus of the benchmarks.
///
/// Records look like the GitHub REST API's `GET /repos/{owner}/{repo}/issues` items: nested users
/// (the assignee is usually `null`), label arrays, milestones, nulls, many keys no model maps,
/// Unicode (CJK, emoji raw and as `\u` surrogate pairs), escapes (`\n`, `\"`, `\\`, `\/`, `\t`,
/// `\u00e9`), `yyyy-MM-dd'T'HH:mm:ss'Z'` dates, URLs, 64-bit ids (one in ten above 2^53) and
/// bodies from empty to ~20 KB.
///
/// The same seed gives the same bytes on every run and machine. Record `i` depends only on the
/// seed and `i`, so a smaller corpus is a prefix (in records) of a larger one. Bytes are written
/// directly, from pre-encoded pools: several hundred MB/s on one core.
public struct GitHubIssueCorpus: Sendable {
    /// How records are laid out.
    public enum Format: String, Sendable, CaseIterable {
        /// One top-level JSON array: `[{...},{...}]`.
        case array
        /// One record per line (NDJSON), each line ending in `\n`.
        case ndjson

        public var fileExtension: String { self == .array ? "json" : "ndjson" }
    }

    public static let defaultSeed: UInt64 = 0x4D61_676D_6121  // "Magma!"

    public let seed: UInt64
    private let pools: Pools

    public init(seed: UInt64 = GitHubIssueCorpus.defaultSeed) {
        self.seed = seed
        self.pools = Pools(seed: seed)
    }

    /// Generates at least `targetBytes` bytes (completing the last record; overshoot is under one
    /// record) in memory.
    ///
    /// - Returns: The JSON bytes and the number of records.
    public func generate(targetBytes: Int, format: Format) -> (bytes: [UInt8], records: Int) {
        var writer = ByteWriter(capacity: targetBytes + 64 * 1024)
        var records = 0
        writeRecords(targetBytes: targetBytes, format: format, into: &writer, records: &records) { _ in }
        return (writer.bytes, records)
    }

    /// Generates at least `targetBytes` bytes into the file at `url`, in 4 MiB chunks (memory
    /// stays bounded whatever the size, up to 1 GB and beyond).
    ///
    /// - Returns: The bytes written and the number of records.
    @discardableResult
    public func write(targetBytes: Int, format: Format, to url: URL) throws -> (bytes: Int, records: Int) {
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
            let handle = FileHandle(forWritingAtPath: url.path)
        else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        defer { try? handle.close() }
        var writer = ByteWriter(capacity: 5 * 1024 * 1024)
        var records = 0
        var written = 0
        try writeRecords(targetBytes: targetBytes, format: format, into: &writer, records: &records) { writer in
            guard writer.count >= 4 * 1024 * 1024 else { return }
            try handle.write(contentsOf: writer.bytes)
            written += writer.count
            writer.removeAll()
        }
        try handle.write(contentsOf: writer.bytes)
        written += writer.count
        return (written, records)
    }

    /// The one loop every entry point shares (`generate`, `write(to:)`, and `stream` without a
    /// record pool); `flush` sees the writer after every record and may empty it, and an error it
    /// throws ends the loop.
    func writeRecords(
        targetBytes: Int,
        format: Format,
        into writer: inout ByteWriter,
        records: inout Int,
        flush: (inout ByteWriter) throws -> Void
    ) rethrows {
        var total = 0
        if format == .array {
            writer.append("[")
            total = 1
        }
        while total + 1 < targetBytes || records == 0 {
            let before = writer.count
            if format == .array && records > 0 { writer.append(",") }
            appendIssue(index: records, to: &writer)
            if format == .ndjson { writer.append("\n") }
            total += writer.count - before
            records += 1
            try flush(&writer)
        }
        if format == .array { writer.append("]") }
    }

    // MARK: - One record

    /// Record `index`. Internal rather than private: `stream`'s record pool (+Stream.swift) is
    /// built record by record, each followed by its separator, which `writeRecords` does not do.
    func appendIssue(index: Int, to w: inout ByteWriter) {
        var rng = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD6E8_FEB8_6659_FD93))
        let repoIndex = rng.next(below: pools.repositories.count)
        let repo = pools.repositories[repoIndex]
        let number = index / pools.repositories.count + 1 + rng.next(below: 3)
        // One id in ten is above 2^53 (not exactly representable as a Double), the rest GitHub-like.
        let id: UInt64 =
            rng.chance(10)
            ? (1 << 53) + UInt64(index) &* 7_919 + UInt64(rng.next(below: 1_000))
            : 1_000_000_000 + UInt64(index) &* 17 + UInt64(rng.next(below: 17))
        let closed = rng.chance(40)
        let created = Int64(1_420_070_400 + index * 613 + rng.next(below: 600))
        let closedAt = created + Int64(60 + rng.next(below: 40 * 86_400))
        let updated = (closed ? closedAt : created) + Int64(rng.next(below: 10 * 86_400))

        w.append(#"{"url":""#); w.append(repo.apiURL); w.append("/issues/"); w.append(number)
        w.append(#"","repository_url":""#); w.append(repo.apiURL)
        w.append(#"","labels_url":""#); w.append(repo.apiURL); w.append("/issues/"); w.append(number); w.append(#"/labels{/name}"#)
        w.append(#"","comments_url":""#); w.append(repo.apiURL); w.append("/issues/"); w.append(number); w.append("/comments")
        w.append(#"","events_url":""#); w.append(repo.apiURL); w.append("/issues/"); w.append(number); w.append("/events")
        w.append(#"","html_url":""#); w.append(repo.htmlURL); w.append("/issues/"); w.append(number)
        w.append(#"","id":"#); w.append(id)
        w.append(#","node_id":"I_kwDO"#); appendNodeID(id, to: &w)
        w.append(#"","number":"#); w.append(number)
        w.append(#","title":""#); appendTitle(&rng, to: &w)
        w.append(#"","user":"#); w.append(pools.users[rng.next(below: pools.users.count)])
        w.append(#","labels":["#)
        let labelCount = [0, 0, 1, 1, 1, 2, 2, 3, 4][rng.next(below: 9)]
        var firstLabel = rng.next(below: pools.labels.count)
        for l in 0..<labelCount {
            if l > 0 { w.append(",") }
            w.append(pools.labels[firstLabel])
            firstLabel = (firstLabel + 1 + rng.next(below: 3)) % pools.labels.count
        }
        w.append(#"],"state":"#); w.append(closed ? #""closed""# : #""open""#)
        w.append(#","locked":"#); w.append(rng.chance(3) ? "true" : "false")
        w.append(#","assignee":"#)
        let assignees = rng.chance(35) ? 1 + rng.next(below: 2) : 0
        let assigneeBase = rng.next(below: pools.users.count)
        if assignees == 0 { w.append("null") } else { w.append(pools.users[assigneeBase]) }
        w.append(#","assignees":["#)
        for a in 0..<assignees {
            if a > 0 { w.append(",") }
            w.append(pools.users[(assigneeBase + a * 7) % pools.users.count])
        }
        w.append(#"],"milestone":"#)
        if rng.chance(30) {
            w.append(pools.milestones[repoIndex * Pools.milestonesPerRepository + rng.next(below: Pools.milestonesPerRepository)])
        } else {
            w.append("null")
        }
        w.append(#","comments":"#); w.append(rng.next(below: 10) < 7 ? rng.next(below: 6) : rng.next(below: 120))
        w.append(#","created_at":"#); w.appendDate(secondsSince1970: created)
        w.append(#","updated_at":"#); w.appendDate(secondsSince1970: updated)
        w.append(#","closed_at":"#)
        if closed { w.appendDate(secondsSince1970: closedAt) } else { w.append("null") }
        w.append(#","author_association":""#)
        w.append(GeneratorText.authorAssociations[rng.next(below: GeneratorText.authorAssociations.count)])
        w.append(#"","type":null,"active_lock_reason":null,"sub_issues_summary":{"total":0,"completed":0,"percent_completed":0}"#)
        if rng.chance(20) {
            w.append(#","pull_request":{"url":""#); w.append(repo.apiURL); w.append("/pulls/"); w.append(number)
            w.append(#"","html_url":""#); w.append(repo.htmlURL); w.append("/pull/"); w.append(number)
            w.append(#"","diff_url":""#); w.append(repo.htmlURL); w.append("/pull/"); w.append(number)
            w.append(#".diff","patch_url":""#); w.append(repo.htmlURL); w.append("/pull/"); w.append(number)
            w.append(#".patch","merged_at":null}"#)
        }
        w.append(#","body":"#); appendBody(&rng, to: &w)
        w.append(#","closed_by":"#)
        if closed { w.append(pools.users[rng.next(below: pools.users.count)]) } else { w.append("null") }
        appendReactions(&rng, repo: repo, number: number, to: &w)
        w.append(#","timeline_url":""#); w.append(repo.apiURL); w.append("/issues/"); w.append(number)
        w.append(#"/timeline","performed_via_github_app":null,"state_reason":"#)
        w.append(closed ? (rng.chance(80) ? #""completed""# : #""not_planned""#) : (rng.chance(5) ? #""reopened""# : "null"))
        w.append("}")
    }

    private func appendNodeID(_ id: UInt64, to w: inout ByteWriter) {
        var bits = id &* 0x9E37_79B9_7F4A_7C15
        for _ in 0..<14 {
            w.append(byte: Pools.base64Alphabet[Int(bits & 63)])
            bits >>= 4
        }
    }

    private func appendTitle(_ rng: inout SplitMix64, to w: inout ByteWriter) {
        let titles = GeneratorText.titles
        w.append(titles[rng.next(below: titles.count)])
        if rng.chance(30) {
            w.append(" — ")
            w.append(titles[rng.next(below: titles.count)])
        }
    }

    private func appendBody(_ rng: inout SplitMix64, to w: inout ByteWriter) {
        let roll = rng.next(below: 100)
        if roll < 8 {
            w.append("null")
            return
        }
        w.append("\"")
        if roll < 20 {
            if roll >= 11 { w.append(GeneratorText.shortBodies[rng.next(below: GeneratorText.shortBodies.count)]) }
        } else {
            // Medium bodies most of the time, long ones sometimes, a few very long.
            let target = roll < 75 ? 200 + rng.next(below: 1_300) : roll < 96 ? 1_500 + rng.next(below: 3_500) : 5_000 + rng.next(below: 15_000)
            let paragraphs = GeneratorText.bodyParagraphs
            var length = 0
            while length < target {
                let paragraph = paragraphs[rng.next(below: paragraphs.count)]
                w.append(paragraph)
                length += paragraph.utf8CodeUnitCount
            }
        }
        w.append("\"")
    }

    private func appendReactions(_ rng: inout SplitMix64, repo: Pools.Repository, number: Int, to w: inout ByteWriter) {
        var counts = [Int](repeating: 0, count: 8)
        if rng.chance(40) {
            for i in counts.indices where rng.chance(30) { counts[i] = rng.next(below: i == 0 ? 60 : 8) }
        }
        w.append(#","reactions":{"url":""#); w.append(repo.apiURL); w.append("/issues/"); w.append(number)
        w.append(#"/reactions","total_count":"#); w.append(counts.reduce(0, +))
        w.append(#","+1":"#); w.append(counts[0])
        w.append(#","-1":"#); w.append(counts[1])
        w.append(#","laugh":"#); w.append(counts[2])
        w.append(#","hooray":"#); w.append(counts[3])
        w.append(#","confused":"#); w.append(counts[4])
        w.append(#","heart":"#); w.append(counts[5])
        w.append(#","rocket":"#); w.append(counts[6])
        w.append(#","eyes":"#); w.append(counts[7])
        w.append("}")
    }
}

// MARK: - Pre-encoded pools

extension GitHubIssueCorpus {
    /// Users, labels, milestones and repository URLs, encoded once per seed.
    struct Pools: Sendable {
        struct Repository: Sendable {
            var apiURL: [UInt8]
            var htmlURL: [UInt8]
        }

        static let milestonesPerRepository = 3
        static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

        var users: [[UInt8]] = []
        var labels: [[UInt8]] = []
        var milestones: [[UInt8]] = []
        var repositories: [Repository] = []

        init(seed: UInt64) {
            var rng = SplitMix64(seed: seed)
            for i in 0..<400 { users.append(Self.user(index: i, rng: &rng)) }
            for (index, label) in GeneratorText.labels.enumerated() {
                labels.append(Self.label(label, index: index, rng: &rng))
            }
            for (owner, name) in GeneratorText.repositories {
                var api = ByteWriter(capacity: 80)
                api.append("https://api.github.com/repos/"); api.append(owner); api.append("/"); api.append(name)
                var html = ByteWriter(capacity: 80)
                html.append("https://github.com/"); html.append(owner); html.append("/"); html.append(name)
                repositories.append(Repository(apiURL: api.bytes, htmlURL: html.bytes))
            }
            for repository in repositories {
                for m in 0..<Self.milestonesPerRepository {
                    milestones.append(Self.milestone(number: m + 1, repository: repository, users: users, rng: &rng))
                }
            }
        }

        private static func user(index: Int, rng: inout SplitMix64) -> [UInt8] {
            var login = ByteWriter(capacity: 32)
            let syllables = GeneratorText.loginSyllables
            for _ in 0..<(1 + rng.next(below: 3)) { login.append(syllables[rng.next(below: syllables.count)]) }
            if rng.chance(50) { login.append(index) }
            let isBot = index % 50 == 7
            if isBot { login.append("[bot]") }
            let id = UInt64(1_000 + index * 104_729 + rng.next(below: 100_000))

            var w = ByteWriter(capacity: 1_100)
            func urls(_ path: StaticString, _ suffix: StaticString = "") {
                w.append(path); w.append(login.bytes); w.append(suffix)
            }
            w.append(#"{"login":""#); w.append(login.bytes)
            w.append(#"","id":"#); w.append(id)
            w.append(#","node_id":"MDQ6VXNlcj"#); w.append(id)
            w.append(#"=","avatar_url":"https://avatars.githubusercontent.com/u/"#); w.append(id)
            w.append(#"?v=4","gravatar_id":"","url":""#); urls("https://api.github.com/users/")
            w.append(#"","html_url":""#); urls("https://github.com/")
            w.append(#"","followers_url":""#); urls("https://api.github.com/users/", "/followers")
            w.append(#"","following_url":""#); urls("https://api.github.com/users/", "/following{/other_user}")
            w.append(#"","gists_url":""#); urls("https://api.github.com/users/", "/gists{/gist_id}")
            w.append(#"","starred_url":""#); urls("https://api.github.com/users/", "/starred{/owner}{/repo}")
            w.append(#"","subscriptions_url":""#); urls("https://api.github.com/users/", "/subscriptions")
            w.append(#"","organizations_url":""#); urls("https://api.github.com/users/", "/orgs")
            w.append(#"","repos_url":""#); urls("https://api.github.com/users/", "/repos")
            w.append(#"","events_url":""#); urls("https://api.github.com/users/", "/events{/privacy}")
            w.append(#"","received_events_url":""#); urls("https://api.github.com/users/", "/received_events")
            w.append(#"","type":""#); w.append(isBot ? "Bot" : "User")
            w.append(#"","user_view_type":"public","site_admin":"#); w.append(index % 97 == 3 ? "true" : "false")
            w.append("}")
            return w.bytes
        }

        private static func label(
            _ label: (name: StaticString, color: StaticString, description: StaticString?, isDefault: Bool),
            index: Int,
            rng: inout SplitMix64
        ) -> [UInt8] {
            var w = ByteWriter(capacity: 300)
            let id = UInt64(208_045_946 + index * 1_000_003 + rng.next(below: 1_000))
            w.append(#"{"id":"#); w.append(id)
            w.append(#","node_id":"LA_kwDO"#); w.append(id)
            w.append(#"","url":"https://api.github.com/repos/magma-org/magma/labels/label-"#); w.append(index)
            w.append(#"","name":""#); w.append(label.name)
            w.append(#"","color":""#); w.append(label.color)
            w.append(#"","default":"#); w.append(label.isDefault ? "true" : "false")
            w.append(#","description":"#)
            if let description = label.description {
                w.append("\""); w.append(description); w.append("\"")
            } else {
                w.append("null")
            }
            w.append("}")
            return w.bytes
        }

        private static func milestone(number: Int, repository: Repository, users: [[UInt8]], rng: inout SplitMix64) -> [UInt8] {
            var w = ByteWriter(capacity: 1_600)
            let id = UInt64(1_002_604 + rng.next(below: 9_000_000))
            let created = Int64(1_420_070_400 + rng.next(below: 150_000_000))
            let open = rng.chance(70)
            w.append(#"{"url":""#); w.append(repository.apiURL); w.append("/milestones/"); w.append(number)
            w.append(#"","html_url":""#); w.append(repository.htmlURL); w.append("/milestone/"); w.append(number)
            w.append(#"","labels_url":""#); w.append(repository.apiURL); w.append("/milestones/"); w.append(number); w.append("/labels")
            w.append(#"","id":"#); w.append(id)
            w.append(#","node_id":"MDk6TWlsZXN0b25l"#); w.append(id)
            w.append(#"","number":"#); w.append(number)
            w.append(#","state":"#); w.append(open ? #""open""# : #""closed""#)
            w.append(#","title":"v"#); w.append(number); w.append(".0")
            w.append(#"","description":"#)
            w.append(rng.chance(50) ? #""Tracking issue for the release \u2014 see the checklist""# : "null")
            w.append(#","creator":"#); w.append(users[rng.next(below: users.count)])
            w.append(#","open_issues":"#); w.append(rng.next(below: 40))
            w.append(#","closed_issues":"#); w.append(rng.next(below: 200))
            w.append(#","created_at":"#); w.appendDate(secondsSince1970: created)
            w.append(#","updated_at":"#); w.appendDate(secondsSince1970: created + 86_400 * Int64(1 + rng.next(below: 300)))
            w.append(#","closed_at":"#)
            if open { w.append("null") } else { w.appendDate(secondsSince1970: created + 86_400 * 400) }
            w.append(#","due_on":"#)
            if rng.chance(50) { w.appendDate(secondsSince1970: created + 86_400 * 90) } else { w.append("null") }
            w.append("}")
            return w.bytes
        }
    }
}
