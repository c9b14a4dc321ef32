import Foundation
import Magma

// The like-for-like twins: the benchmark's models with every date and URL kept as the JSON's
// text (`String`), as msgspec's Structs read them (it has no pattern dates and keeps URLs as
// text). Magma decoding these against msgspec compares the parsers on the same work; the gap
// between these and the full models is what building `Date` and `URL` values costs
// (`DecodeSystem.magmaText`). JSONDecoder decodes the same twins, for the equality check.

/// The seed model with its URLs and date as text, as msgspec reads them.
@JSONModel(keyNaming: .snakeCase)
public struct GHSeedIssueText: Codable, Equatable, Sendable {
    public var url: String?
    public var htmlURL: String?
    public var number: Int = 0
    public var state: GHSeedIssue.State = .open
    public var user: GHSeedLoginText?
    public var assignee: GHSeedUser?
    public var updatedAt: String?
    public var title: String = ""
    public var body: String?

    enum CodingKeys: String, CodingKey {
        case url, htmlURL = "html_url", number, state, user, assignee, updatedAt = "updated_at", title, body
    }
}

/// The seed model's user: its login (the `Map` model reads it through the key path `user.login`).
@JSONModel
public struct GHSeedLoginText: Codable, Equatable, Sendable {
    public var login: String?

    enum CodingKeys: String, CodingKey {
        case login
    }
}

/// twitter.json with every date and URL as text.
@JSONModel(keyNaming: .snakeCase)
public struct TwitterSearchText: Codable, Equatable, Sendable {
    public var statuses: [TweetText] = []
    public var searchMetadata: TwitterSearchMetadata = TwitterSearchMetadata()

    enum CodingKeys: String, CodingKey {
        case statuses, searchMetadata = "search_metadata"
    }
}

/// `Tweet` with its date and URLs as text.
@JSONModel(keyNaming: .snakeCase)
public struct TweetText: Codable, Equatable, Sendable {
    public var id: UInt64 = 0
    @Key("id_str") public var idString: String = ""
    public var text: String = ""
    public var source: String = ""
    public var truncated: Bool = false
    public var createdAt: String = ""
    public var inReplyToStatusID: UInt64?
    public var inReplyToUserID: UInt64?
    public var inReplyToScreenName: String?
    public var user: TwitterUserText = TwitterUserText()
    public var entities: TweetEntitiesText = TweetEntitiesText()
    public var retweetCount: Int = 0
    public var favoriteCount: Int = 0
    public var favorited: Bool = false
    public var retweeted: Bool = false
    public var possiblySensitive: Bool?
    public var lang: String = ""
    public var metadata: TweetMetadata = TweetMetadata()
    public var retweetedStatus: RetweetedStatusText?

    enum CodingKeys: String, CodingKey {
        case id, idString = "id_str", text, source, truncated, createdAt = "created_at"
        case inReplyToStatusID = "in_reply_to_status_id", inReplyToUserID = "in_reply_to_user_id"
        case inReplyToScreenName = "in_reply_to_screen_name", user, entities, retweetCount = "retweet_count"
        case favoriteCount = "favorite_count", favorited, retweeted, possiblySensitive = "possibly_sensitive"
        case lang, metadata, retweetedStatus = "retweeted_status"
    }
}

/// `RetweetedStatus` with its date and URLs as text.
@JSONModel(keyNaming: .snakeCase)
public struct RetweetedStatusText: Codable, Equatable, Sendable {
    public var id: UInt64 = 0
    @Key("id_str") public var idString: String = ""
    public var text: String = ""
    public var createdAt: String = ""
    public var user: TwitterUserText = TwitterUserText()
    public var entities: TweetEntitiesText = TweetEntitiesText()
    public var retweetCount: Int = 0
    public var favoriteCount: Int = 0
    public var lang: String = ""

    enum CodingKeys: String, CodingKey {
        case id, idString = "id_str", text, createdAt = "created_at", user, entities
        case retweetCount = "retweet_count", favoriteCount = "favorite_count", lang
    }
}

/// `TwitterUser` with its date and URLs as text.
@JSONModel(keyNaming: .snakeCase)
public struct TwitterUserText: Codable, Equatable, Sendable {
    public var id: UInt64 = 0
    @Key("id_str") public var idString: String = ""
    public var name: String = ""
    public var screenName: String = ""
    public var location: String = ""
    public var description: String = ""
    public var url: String?
    public var protected: Bool = false
    public var followersCount: Int = 0
    public var friendsCount: Int = 0
    public var listedCount: Int = 0
    public var createdAt: String = ""
    public var favouritesCount: Int = 0
    public var utcOffset: Int?
    public var timeZone: String?
    public var geoEnabled: Bool = false
    public var verified: Bool = false
    public var statusesCount: Int = 0
    public var lang: String = ""
    @Key("profile_image_url_https") public var profileImageURLHTTPS: String?
    public var profileBannerURL: String?
    public var defaultProfile: Bool = false
    public var following: Bool = false

    enum CodingKeys: String, CodingKey {
        case id, idString = "id_str", name, screenName = "screen_name", location, description, url, protected
        case followersCount = "followers_count", friendsCount = "friends_count", listedCount = "listed_count"
        case createdAt = "created_at", favouritesCount = "favourites_count", utcOffset = "utc_offset"
        case timeZone = "time_zone", geoEnabled = "geo_enabled", verified, statusesCount = "statuses_count"
        case lang, profileImageURLHTTPS = "profile_image_url_https", profileBannerURL = "profile_banner_url"
        case defaultProfile = "default_profile", following
    }
}

/// `TweetEntities` with URLs as text.
@JSONModel(keyNaming: .snakeCase)
public struct TweetEntitiesText: Codable, Equatable, Sendable {
    public var hashtags: [Hashtag] = []
    public var urls: [TweetURLText] = []
    public var userMentions: [UserMention] = []
    public var media: [TweetMediaText]?

    enum CodingKeys: String, CodingKey {
        case hashtags, urls, userMentions = "user_mentions", media
    }
}

/// `TweetURL` with its URLs as text.
@JSONModel(keyNaming: .snakeCase)
public struct TweetURLText: Codable, Equatable, Sendable {
    public var url: String?
    public var expandedURL: String?
    public var displayURL: String = ""
    public var indices: [Int] = []

    enum CodingKeys: String, CodingKey {
        case url, expandedURL = "expanded_url", displayURL = "display_url", indices
    }
}

/// `TweetMedia` with its URLs as text.
@JSONModel(keyNaming: .snakeCase)
public struct TweetMediaText: Codable, Equatable, Sendable {
    public var id: UInt64 = 0
    @Key("media_url_https") public var mediaURLHTTPS: String?
    public var url: String?
    public var displayURL: String = ""
    public var expandedURL: String?
    public var type: String = ""
    public var sizes: [String: TweetMedia.Size] = [:]
    public var indices: [Int] = []
    public var sourceStatusID: UInt64?

    enum CodingKeys: String, CodingKey {
        case id, mediaURLHTTPS = "media_url_https", url, displayURL = "display_url"
        case expandedURL = "expanded_url", type, sizes, indices, sourceStatusID = "source_status_id"
    }
}

/// A corpus model with a twin whose dates and URLs are text (`DecodeSystem.magmaText`).
public protocol TextTwinned {
    associatedtype Text: CorpusTextTwin
}

/// What the text twins share: Codable for JSONDecoder's equality check, `@JSONModel`, and
/// the records a decoded value holds.
public protocol CorpusTextTwin: Codable, Equatable, Sendable, JSONObjectModel {
    /// Records in one decoded value (1 for a record of an array or NDJSON corpus).
    var recordCount: Int { get }
}

extension CorpusTextTwin {
    public var recordCount: Int { 1 }
}

extension GHSeedIssueText: CorpusTextTwin {}
extension TwitterSearchText: CorpusTextTwin {
    public var recordCount: Int { statuses.count }
}
extension GHSeedIssue: TextTwinned { public typealias Text = GHSeedIssueText }
extension TwitterSearch: TextTwinned { public typealias Text = TwitterSearchText }
