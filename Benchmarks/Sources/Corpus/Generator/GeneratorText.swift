// Text pools for the generated GitHub-issues corpus. Every entry is already JSON-escaped
// string content (what goes between the quotes), so the generator copies bytes and never
// escapes anything at run time. The pools deliberately cover what real issue trackers hold:
// CJK and other scripts as raw UTF-8, emoji both raw and as \u surrogate pairs, and the
// escapes \n \" \\ \/ \t \u00e9.

enum GeneratorText {
    static let titles: [StaticString] = [
        #"Crash when decoding nested arrays"#,
        #"JSONDecoder is slow on large files"#,
        #"文档：更新安装说明"#,
        #"Support for NDJSON streams 🚀"#,
        #"Error message says \"unexpected token\""#,
        #"Path with backslash C:\\temp fails"#,
        #"Add `Decimal` transformer"#,
        #"バグ: 日付の解析に失敗する"#,
        #"Improve perf of key matching (~15%)"#,
        #"Question: how do I map \"user.login\"?"#,
        #"Unicode escape caf\u00e9 not handled"#,
        #"Memory grows unbounded with 1 GB input"#,
        #"Tab\tin title breaks the table view"#,
        #"[Feature] Encode models back to JSON"#,
        #"Dates like 2024-02-29T23:59:60Z are rejected"#,
        #"Wrong line number in error at $[12].user.login"#,
        #"🐛 Null assignee decoded as empty user"#,
        #"Release 2.0 checklist \ud83d\udcdd"#,
        #"Linux: build fails with libyajl 2.1"#,
        #"Обновить зависимости"#,
        #"Integer overflow on ids > 2^63"#,
        #"Docs: clarify \/ escaping in URLs"#,
    ]

    static let bodyParagraphs: [StaticString] = [
        #"Steps to reproduce:\n1. Run `swift build -c release`\n2. Open the app\n3. See the crash\n\n"#,
        #"Expected: the \"Save\" button works.\nActual: nothing happens, and the log says \"no such key\".\n\n"#,
        #"```swift\nlet decoder = JSONDecoder()\ndecoder.dateDecodingStrategy = .iso8601\nlet issues = try decoder.decode([Issue].self, from: data)\nprint(issues.count)\n```\n\n"#,
        #"Path on Windows: C:\\Users\\dev\\Projects\\magma\\Sources\\main.swift (note the backslashes)\n"#,
        #"See https:\/\/github.com\/apple\/swift-foundation\/issues\/1234 and https:\/\/forums.swift.org\/t\/json\/5678 for context.\n"#,
        #"\tIndented with a tab\tand another tab\n"#,
        #"Café, naïve, résumé — and escaped: caf\u00e9, na\u00efve, r\u00e9sum\u00e9.\n"#,
        #"日本語の説明：このバグは再現できます。アプリを起動すると、画面が真っ白になります。ログには何も出力されません。\n"#,
        #"中文描述：解析大型 JSON 文件时内存占用过高，请帮忙看看。附件是一个 200 MB 的示例文件。\n"#,
        #"한국어: 이 문제는 최신 버전에서도 발생합니다. 확인 부탁드립니다.\n"#,
        #"Thanks! 🙏🎉 Works great now 🚀👍\n"#,
        #"Emoji as escapes: \ud83d\ude80 \ud83d\udc1b \u2764\ufe0f \ud83c\udf89\n"#,
        #"Stack trace:\n  0 Magma  Decoder.decode(_:) + 42\n  1 App    main + 7\n  2 libc   __libc_start_main + 243\n\n"#,
        #"> Quoted reply: \"it's not a bug, it's a feature\"\n\nI disagree, see above.\n"#,
        #"| column | value |\n|--------|-------|\n| a      | 1     |\n| b      | 2     |\n\n"#,
        #"Log line: {\"level\":\"error\",\"msg\":\"timeout after 30s\",\"path\":\"\/v1\/issues\"}\n"#,
        #"Русский текст: ошибка при разборе даты в поле updated_at.\n"#,
        #"Arabic: هذا خطأ في المحلل عند قراءة الأرقام الكبيرة\n"#,
        #"This happens on every build since the upgrade. I bisected it down to the commit that changed the tokenizer buffer size, but I am not sure that is the root cause because the failure is intermittent and only shows up with inputs larger than a few megabytes. Reverting locally fixes it for me.\n\n"#,
        #"Environment: Swift 6.3.1, Ubuntu 24.04, x86_64, 2 cores, 24 GiB. Reproduced with both the debug and the release configuration; the release build is about ten times faster but fails in exactly the same place.\n\n"#,
        #"Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.\n"#,
        #"Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt mollit anim id est laborum.\n"#,
        #"- [x] reproduced\n- [ ] minimal example\n- [ ] regression test\n"#,
        #"cc @octocat @hubot — could you take a look?\n"#,
    ]

    static let shortBodies: [StaticString] = [
        #"+1"#,
        #"Same here."#,
        #"Fixed in #42 🎉"#,
        #"Duplicate of #17"#,
        #"See \"Known issues\" in the README."#,
        #"确认，谢谢！"#,
        #"再現しました 👍"#,
    ]

    static let loginSyllables: [StaticString] = [
        "ka", "zu", "mi", "ro", "dev", "ops", "sam", "lee", "kim", "ana", "jo", "max",
        "li", "wei", "yuki", "tom", "eva", "noor", "raj", "olu", "pia", "ben", "ali", "sky",
    ]

    static let repositories: [(owner: StaticString, name: StaticString)] = [
        ("apple", "swift-foundation"), ("apple", "swift-nio"), ("swiftlang", "swift"),
        ("vapor", "vapor"), ("magma-org", "magma"), ("octo-org", "octo-repo"),
        ("lloyd", "yajl"), ("simdjson", "simdjson"), ("Mantle", "Mantle"),
        ("ordo-one", "benchmark"), ("pointfreeco", "swift-parsing"), ("hummingbird-project", "hummingbird"),
        ("grpc", "grpc-swift"), ("groue", "GRDB.swift"), ("jpsim", "Yams"), ("realm", "SwiftLint"),
    ]

    static let labels: [(name: StaticString, color: StaticString, description: StaticString?, isDefault: Bool)] = [
        ("bug", "d73a4a", #"Something isn't working"#, true),
        ("documentation", "0075ca", "Improvements or additions to documentation", true),
        ("duplicate", "cfd3d7", "This issue or pull request already exists", true),
        ("enhancement", "a2eeef", "New feature or request", true),
        ("good first issue", "7057ff", "Good for newcomers", true),
        ("help wanted", "008672", "Extra attention is needed", true),
        ("invalid", "e4e669", #"This doesn't seem right"#, true),
        ("question", "d876e3", "Further information is requested", true),
        ("wontfix", "ffffff", "This will not be worked on", true),
        ("performance 🚀", "fbca04", "Throughput, allocations, memory", false),
        ("crash 💥", "b60205", nil, false),
        ("文档", "0e8a16", "中文文档相关", false),
        ("バグ", "e11d21", "不具合", false),
        (#"area\/decoding"#, "c5def5", nil, false),
        (#"area\/encoding"#, "bfdadc", nil, false),
        (#"needs \"triage\""#, "ededed", #"Not yet looked at by a maintainer \ud83d\udc40"#, false),
        ("linux", "1d76db", "Linux-only behaviour", false),
        ("breaking", "5319e7", "Changes public API", false),
    ]

    static let authorAssociations: [StaticString] = [
        "OWNER", "MEMBER", "COLLABORATOR", "CONTRIBUTOR", "CONTRIBUTOR", "NONE", "NONE", "NONE",
        "FIRST_TIME_CONTRIBUTOR", "FIRST_TIMER",
    ]
}
