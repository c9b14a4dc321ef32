import Foundation
import Magma

/// A top-level model a corpus decodes into, with its Foundation configuration.
///
/// Each corpus file decodes into `[Record]` (a top-level array or NDJSON) or into one `Record`
/// (a single document such as twitter.json). `recordCount` says how many "records" a decoded
/// value holds, the unit of the allocations-per-record column.
public protocol CorpusRecord: Codable, Equatable, Sendable {
    /// A fresh JSONDecoder configured for this model's dates.
    static func makeJSONDecoder() -> JSONDecoder
    /// A JSONDecoder reading dates with a `DateFormatter` of the mapping's pattern, when
    /// `makeJSONDecoder` uses a faster strategy for them (nil otherwise: nothing to compare).
    static func makePatternJSONDecoder() -> JSONDecoder?
    /// A fresh JSONEncoder writing dates the way the JSON had them.
    static func makeJSONEncoder() -> JSONEncoder
    /// A MagmaDecoder configured as a user replacing `JSONDecoder()` would (default: a copy of
    /// `makeJSONDecoder()`'s strategies; a `.formatted` one is set again, since Foundation's hides
    /// its formatter in a closure).
    static func makeMagmaDecoder() -> MagmaDecoder
    /// A MagmaEncoder configured as a user replacing `JSONEncoder()` would.
    static func makeMagmaEncoder() -> MagmaEncoder
    /// The date pattern the hand-mapping peer's `DateFormatter` uses.
    static var handMappingDatePattern: String { get }
    /// Maps one JSONSerialization dictionary by hand.
    init(handMapping: JSONDictionary, _ context: HandMappingContext) throws
    /// Records in one decoded value (1 for a record of an array or NDJSON corpus).
    var recordCount: Int { get }
}

extension CorpusRecord {
    public var recordCount: Int { 1 }
    public static func makePatternJSONDecoder() -> JSONDecoder? { nil }
    public static func makeMagmaDecoder() -> MagmaDecoder { MagmaDecoder(makeJSONDecoder()) }
    public static func makeMagmaEncoder() -> MagmaEncoder { MagmaEncoder(makeJSONEncoder()) }
}

extension GHIssue: CorpusRecord {
    public static func makeJSONEncoder() -> JSONEncoder { Dates.gitHubEncoder() }
    public static func makeJSONDecoder() -> JSONDecoder { Dates.gitHubDecoder() }
    public static func makePatternJSONDecoder() -> JSONDecoder? { Dates.gitHubPatternDecoder() }
    public static var handMappingDatePattern: String { Dates.gitHubPattern }
}

extension GHEvent: CorpusRecord {
    public static func makeJSONEncoder() -> JSONEncoder { Dates.gitHubEncoder() }
    public static func makeJSONDecoder() -> JSONDecoder { Dates.gitHubDecoder() }
    public static func makePatternJSONDecoder() -> JSONDecoder? { Dates.gitHubPatternDecoder() }
    public static var handMappingDatePattern: String { Dates.gitHubPattern }
}

extension GHWebhook: CorpusRecord {
    public static func makeJSONEncoder() -> JSONEncoder { Dates.gitHubEncoder() }
    public static func makeJSONDecoder() -> JSONDecoder { Dates.gitHubDecoder() }
    public static func makePatternJSONDecoder() -> JSONDecoder? { Dates.gitHubPatternDecoder() }
    public static var handMappingDatePattern: String { Dates.gitHubPattern }
}

extension TwitterSearch: CorpusRecord {
    public static func makeJSONEncoder() -> JSONEncoder { Dates.twitterEncoder() }
    public static func makeJSONDecoder() -> JSONDecoder { Dates.twitterDecoder() }
    public static func makeMagmaDecoder() -> MagmaDecoder { Dates.twitterMagmaDecoder() }
    public static func makeMagmaEncoder() -> MagmaEncoder { Dates.twitterMagmaEncoder() }
    public static var handMappingDatePattern: String { Dates.twitterPattern }
    public var recordCount: Int { statuses.count }
}

extension CanadaFeatureCollection: CorpusRecord {
    public static func makeJSONEncoder() -> JSONEncoder { JSONEncoder() }
    public static func makeJSONDecoder() -> JSONDecoder { JSONDecoder() }
    public static var handMappingDatePattern: String { Dates.gitHubPattern }
    public init(handMapping d: JSONDictionary, _ context: HandMappingContext) throws {
        try self.init(handMapping: d)
    }
    /// Coordinate pairs.
    public var recordCount: Int {
        features.reduce(0) { $0 + $1.geometry.coordinates.reduce(0) { $0 + $1.count } }
    }
}

extension CITMCatalog: CorpusRecord {
    public static func makeJSONEncoder() -> JSONEncoder { Dates.citmEncoder() }
    public static func makeJSONDecoder() -> JSONDecoder { Dates.citmDecoder() }
    public static var handMappingDatePattern: String { Dates.gitHubPattern }
    public init(handMapping d: JSONDictionary, _ context: HandMappingContext) throws {
        try self.init(handMapping: d)
    }
    /// Events plus performances.
    public var recordCount: Int { events.count + performances.count }
}

extension GHSeedIssue: CorpusRecord {
    public static func makeJSONEncoder() -> JSONEncoder { Dates.gitHubEncoder() }
    public static func makeJSONDecoder() -> JSONDecoder { Dates.gitHubDecoder() }
    public static func makePatternJSONDecoder() -> JSONDecoder? { Dates.gitHubPatternDecoder() }
    public static var handMappingDatePattern: String { Dates.gitHubPattern }
}
