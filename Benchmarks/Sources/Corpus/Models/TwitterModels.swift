import Foundation
import Magma

// Models for twitter.json (a search API response): what a client app maps from each status.
// Twitter's dates look like "Sun Aug 31 00:29:15 +0000 2014" (pattern `Dates.twitterPattern`).

/// The whole file: statuses and the search metadata.
@JSONModel(keyNaming: .snakeCase)
public struct TwitterSearch: Codable, Equatable, Sendable {
    public var statuses: [Tweet] = []
    public var searchMetadata = TwitterSearchMetadata()

    enum CodingKeys: String, CodingKey {
        case statuses, searchMetadata = "search_metadata"
    }
}

@JSONModel(keyNaming: .snakeCase)
public struct TwitterSearchMetadata: Codable, Equatable, Sendable {
    public var completedIn = 0.0
    public var maxID: UInt64 = 0
    @Key("max_id_str") public var maxIDString = ""
    public var query = ""
    public var count = 0
    public var sinceID: UInt64 = 0

    enum CodingKeys: String, CodingKey {
        case completedIn = "completed_in", maxID = "max_id", maxIDString = "max_id_str", query, count
        case sinceID = "since_id"
    }
}

/// A status (tweet). A retweet carries the original as `retweetedStatus` (a struct cannot hold
/// itself, so the original is the slimmer `RetweetedStatus`).
@JSONModel(keyNaming: .snakeCase)
public struct Tweet: Codable, Equatable, Sendable {
    public var id: UInt64 = 0
    @Key("id_str") public var idString = ""
    public var text = ""
    public var source = ""
    public var truncated = false
    @Transform(twitterDate) public var createdAt = Date(timeIntervalSince1970: 0)
    public var inReplyToStatusID: UInt64?
    public var inReplyToUserID: UInt64?
    public var inReplyToScreenName: String?
    public var user = TwitterUser()
    public var entities = TweetEntities()
    public var retweetCount = 0
    public var favoriteCount = 0
    public var favorited = false
    public var retweeted = false
    public var possiblySensitive: Bool?
    public var lang = ""
    public var metadata = TweetMetadata()
    public var retweetedStatus: RetweetedStatus?

    enum CodingKeys: String, CodingKey {
        case id, idString = "id_str", text, source, truncated, createdAt = "created_at"
        case inReplyToStatusID = "in_reply_to_status_id", inReplyToUserID = "in_reply_to_user_id"
        case inReplyToScreenName = "in_reply_to_screen_name", user, entities, retweetCount = "retweet_count"
        case favoriteCount = "favorite_count", favorited, retweeted, possiblySensitive = "possibly_sensitive"
        case lang, metadata, retweetedStatus = "retweeted_status"
    }
}

@JSONModel(keyNaming: .snakeCase)
public struct RetweetedStatus: Codable, Equatable, Sendable {
    public var id: UInt64 = 0
    @Key("id_str") public var idString = ""
    public var text = ""
    @Transform(twitterDate) public var createdAt = Date(timeIntervalSince1970: 0)
    public var user = TwitterUser()
    public var entities = TweetEntities()
    public var retweetCount = 0
    public var favoriteCount = 0
    public var lang = ""

    enum CodingKeys: String, CodingKey {
        case id, idString = "id_str", text, createdAt = "created_at", user, entities
        case retweetCount = "retweet_count", favoriteCount = "favorite_count", lang
    }
}

@JSONModel(keyNaming: .snakeCase)
public struct TweetMetadata: Codable, Equatable, Sendable {
    public var resultType = ""
    public var isoLanguageCode = ""

    enum CodingKeys: String, CodingKey {
        case resultType = "result_type", isoLanguageCode = "iso_language_code"
    }
}

@JSONModel(keyNaming: .snakeCase)
public struct TwitterUser: Codable, Equatable, Sendable {
    public var id: UInt64 = 0
    @Key("id_str") public var idString = ""
    public var name = ""
    public var screenName = ""
    public var location = ""
    public var description = ""
    public var url: URL?
    public var protected = false
    public var followersCount = 0
    public var friendsCount = 0
    public var listedCount = 0
    @Transform(twitterDate) public var createdAt = Date(timeIntervalSince1970: 0)
    public var favouritesCount = 0
    public var utcOffset: Int?
    public var timeZone: String?
    public var geoEnabled = false
    public var verified = false
    public var statusesCount = 0
    public var lang = ""
    @Key("profile_image_url_https") public var profileImageURLHTTPS: URL?
    public var profileBannerURL: URL?
    public var defaultProfile = false
    public var following = false

    enum CodingKeys: String, CodingKey {
        case id, idString = "id_str", name, screenName = "screen_name", location, description, url, protected
        case followersCount = "followers_count", friendsCount = "friends_count", listedCount = "listed_count"
        case createdAt = "created_at", favouritesCount = "favourites_count", utcOffset = "utc_offset"
        case timeZone = "time_zone", geoEnabled = "geo_enabled", verified, statusesCount = "statuses_count", lang
        case profileImageURLHTTPS = "profile_image_url_https", profileBannerURL = "profile_banner_url"
        case defaultProfile = "default_profile", following
    }
}

@JSONModel(keyNaming: .snakeCase)
public struct TweetEntities: Codable, Equatable, Sendable {
    public var hashtags: [Hashtag] = []
    public var urls: [TweetURL] = []
    public var userMentions: [UserMention] = []
    public var media: [TweetMedia]?

    enum CodingKeys: String, CodingKey {
        case hashtags, urls, userMentions = "user_mentions", media
    }
}

@JSONModel
public struct Hashtag: Codable, Equatable, Sendable {
    public var text = ""
    public var indices: [Int] = []
    public init() {}
}

@JSONModel(keyNaming: .snakeCase)
public struct TweetURL: Codable, Equatable, Sendable {
    public var url: URL?
    public var expandedURL: URL?
    public var displayURL = ""
    public var indices: [Int] = []

    enum CodingKeys: String, CodingKey {
        case url, expandedURL = "expanded_url", displayURL = "display_url", indices
    }
}

@JSONModel(keyNaming: .snakeCase)
public struct UserMention: Codable, Equatable, Sendable {
    public var screenName = ""
    public var name = ""
    public var id: UInt64 = 0
    public var indices: [Int] = []

    enum CodingKeys: String, CodingKey {
        case screenName = "screen_name", name, id, indices
    }
}

@JSONModel(keyNaming: .snakeCase)
public struct TweetMedia: Codable, Equatable, Sendable {
    @JSONModel
    public struct Size: Codable, Equatable, Sendable {
        public var w = 0
        public var h = 0
        public var resize = ""
        public init() {}
    }

    public var id: UInt64 = 0
    @Key("media_url_https") public var mediaURLHTTPS: URL?
    public var url: URL?
    public var displayURL = ""
    public var expandedURL: URL?
    public var type = ""
    public var sizes: [String: Size] = [:]
    public var indices: [Int] = []
    public var sourceStatusID: UInt64?

    enum CodingKeys: String, CodingKey {
        case id, mediaURLHTTPS = "media_url_https", url, displayURL = "display_url", expandedURL = "expanded_url"
        case type, sizes, indices, sourceStatusID = "source_status_id"
    }
}
