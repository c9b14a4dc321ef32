import Foundation

/// A family of corpus files that decode into the same model: how to decode them with each
/// system, what their records are called, and how to check the systems agree.
public struct CorpusKind: Sendable {
    /// Short identifier, used on the command line (`--model`) and in results.
    public let id: String
    /// What one record is ("issue", "status", ...), for the allocations-per-record column.
    public let recordUnit: String
    /// The plural of `recordUnit`.
    public let recordUnitPlural: String
    /// The model type's name, or a note when the kind has no model.
    public let modelDescription: String
    /// Whether Magma can decode this kind (false for files with no model).
    public let hasModel: Bool
    /// Whether the model has a pattern-date JSONDecoder to compare (`DecodeSystem.jsonDecoderPattern`).
    let hasPatternDecoder: Bool

    /// Whether the model has a `Map`-declared twin (`DecodeSystem.magmaMap`).
    let hasDeclaredTwin: Bool

    /// Whether the model has a twin with dates and URLs as text (`DecodeSystem.magmaText`).
    let hasTextTwin: Bool

    /// Whether `system` has anything to run on this kind.
    public func runs(_ system: DecodeSystem) -> Bool {
        switch system {
        case .jsonDecoderPattern: hasPatternDecoder
        case .magmaMap: hasDeclaredTwin
        case .magmaText: hasTextTwin
        default: true
        }
    }

    private let decodeCountBody: @Sendable (DecodeSystem, CorpusInput) throws -> Int
    private let validateBody: @Sendable (CorpusInput, [DecodeSystem]) -> Validation
    let prepareEncodingBody: (@Sendable (CorpusInput) throws -> EncodeWorkload)?

    /// Decodes `input` with `system`, drops the result, and returns the number of records.
    public func decodeCount(_ system: DecodeSystem, _ input: CorpusInput) throws -> Int {
        try decodeCountBody(system, input)
    }

    /// Decodes `input` once with each of `systems` and compares the models with JSONDecoder's.
    public func validate(_ input: CorpusInput, systems: [DecodeSystem]) -> Validation {
        validateBody(input, systems)
    }

    /// A kind whose records are `Record`.
    /// - Parameter about: What the model is, after its name in titles (say, which fields it reads).
    public static func model<Record: CorpusRecord>(_ id: String, _ type: Record.Type, unit: String, plural: String? = nil,
                                                   about: String? = nil) -> CorpusKind {
        CorpusKind(
            id: id,
            recordUnit: unit,
            recordUnitPlural: plural ?? unit + "s",
            modelDescription: String(describing: Record.self) + (about.map { " (\($0))" } ?? ""),
            hasModel: true,
            hasPatternDecoder: Record.makePatternJSONDecoder() != nil,
            hasDeclaredTwin: Record.self is any DeclaredTwin.Type,
            hasTextTwin: Record.self is any TextTwinned.Type,
            decodeCountBody: { system, input in try RecordDecoding<Record>.decodeCount(system, input) },
            validateBody: { input, systems in Validation.run(Record.self, input, systems: systems) },
            prepareEncodingBody: { input in try RecordEncoding<Record>.prepare(input) }
        )
    }

    public static let gitHubIssues = model("github-issues", GHIssue.self, unit: "issue",
                                          about: "the full app model: users, labels, milestone, dates")
    /// The same generated issues into the core issue's seed model (the performance floor's workload).
    public static let gitHubSeedIssues = model("github-issues-seed", GHSeedIssue.self, unit: "issue",
                                               about: "the seed model: url, html_url, number, state, user.login, assignee, updated_at, title, body")
    public static let gitHubEvents = model("github-events", GHEvent.self, unit: "event")
    public static let gitHubWebhooks = model("github-webhooks", GHWebhook.self, unit: "payload")
    public static let twitter = model("twitter", TwitterSearch.self, unit: "status", plural: "statuses")
    public static let canada = model("canada", CanadaFeatureCollection.self, unit: "point")
    public static let citm = model("citm", CITMCatalog.self, unit: "object", plural: "events and performances")

    /// Any JSON with no model: JSONDecoder into a generic `AnyJSON`, JSONSerialization without
    /// mapping, and yajl. Magma has nothing to decode into.
    public static let generic = CorpusKind(
        id: "generic",
        recordUnit: "value",
        recordUnitPlural: "values",
        modelDescription: "no model (generic JSON)",
        hasModel: false,
        hasPatternDecoder: false,
        hasDeclaredTwin: false,
        hasTextTwin: false,
        decodeCountBody: { system, input in try GenericDecoding.decodeCount(system, input) },
        validateBody: { input, systems in GenericDecoding.validate(input, systems: systems) },
        prepareEncodingBody: nil
    )

    public static let all: [CorpusKind] = [gitHubIssues, gitHubSeedIssues, gitHubEvents, gitHubWebhooks, twitter, canada, citm, generic]

    /// The kind for an identifier given with `--model`.
    public static func named(_ id: String) -> CorpusKind? {
        all.first { $0.id == id }
    }

    /// The kind and layout for a file, guessed from its name (and first byte, for the layout).
    public static func infer(path: String, data: Data) -> (CorpusKind, Layout) {
        let name = (path as NSString).lastPathComponent.lowercased()
        let layout: Layout
        if name.hasSuffix(".ndjson") || name.hasSuffix(".jsonl") {
            layout = .ndjson
        } else {
            let first = data.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
            layout = first == UInt8(ascii: "[") ? .array : .document
        }
        let kind: CorpusKind
        if name.contains("twitter") && layout == .document {
            kind = .twitter
        } else if name.contains("canada") && layout == .document {
            kind = .canada
        } else if name.contains("citm") && layout == .document {
            kind = .citm
        } else if name.contains("github_events") || name.contains("github-events") {
            kind = layout == .document ? .generic : .gitHubEvents
        } else if name.contains("webhook") {
            kind = layout == .document ? .generic : .gitHubWebhooks
        } else if name.contains("github-issues") || name.contains("github_issues") {
            kind = layout == .document ? .generic : .gitHubIssues
        } else {
            kind = .generic
        }
        return (kind, layout)
    }
}
