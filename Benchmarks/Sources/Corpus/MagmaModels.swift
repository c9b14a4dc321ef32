import Foundation
import Magma

// Every Magma mapping of the benchmark models, in one place. The types are the ones defined in
// Models/ (shared with JSONDecoder and the hand-mapping peer); each mapping names the same keys as
// the type's CodingKeys, so all systems can be checked to build equal models.

/// GitHub's `yyyy-MM-dd'T'HH:mm:ss'Z'` dates, through Magma's explicit date transformer.
private let gitHubDate = Transformer<JSONValue, Date>.date(format: "yyyy-MM-dd'T'HH:mm:ss'Z'")
/// Twitter's `EEE MMM dd HH:mm:ss Z yyyy` dates.
private let twitterDate = Transformer<JSONValue, Date>.date(format: "EEE MMM dd HH:mm:ss Z yyyy")

// MARK: - GitHub

extension GHUser: JSONModel {
    public static let jsonMapping = JSONMapping<GHUser> {
        Map(\.login, "login")
        Map(\.id, "id")
        Map(\.nodeID, "node_id")
        Map(\.avatarURL, "avatar_url")
        Map(\.htmlURL, "html_url")
        Map(\.type, "type")
        Map(\.siteAdmin, "site_admin")
    }
}

extension GHLabel: JSONModel {
    public static let jsonMapping = JSONMapping<GHLabel> {
        Map(\.id, "id")
        Map(\.nodeID, "node_id")
        Map(\.url, "url")
        Map(\.name, "name")
        Map(\.color, "color")
        Map(\.isDefault, "default")
        Map(\.description, "description")
    }
}

extension GHMilestone: JSONModel {
    public static let jsonMapping = JSONMapping<GHMilestone> {
        Map(\.id, "id")
        Map(\.number, "number")
        Map(\.title, "title")
        Map(\.description, "description")
        Map(\.creator, "creator")
        Map(\.openIssues, "open_issues")
        Map(\.closedIssues, "closed_issues")
        Map(\.state, "state")
        Map(\.createdAt, "created_at", gitHubDate)
        Map(\.updatedAt, "updated_at", gitHubDate)
        Map(\.closedAt, "closed_at", gitHubDate)
        Map(\.dueOn, "due_on", gitHubDate)
    }
}

extension GHIssue: JSONModel {
    public static let jsonMapping = JSONMapping<GHIssue> {
        Map(\.id, "id")
        Map(\.nodeID, "node_id")
        Map(\.url, "url")
        Map(\.htmlURL, "html_url")
        Map(\.number, "number")
        Map(\.title, "title")
        Map(\.user, "user")
        Map(\.labels, "labels")
        Map(\.state, "state")
        Map(\.locked, "locked")
        Map(\.assignee, "assignee")
        Map(\.assignees, "assignees")
        Map(\.milestone, "milestone")
        Map(\.comments, "comments")
        Map(\.createdAt, "created_at", gitHubDate)
        Map(\.updatedAt, "updated_at", gitHubDate)
        Map(\.closedAt, "closed_at", gitHubDate)
        Map(\.authorAssociation, "author_association")
        Map(\.body, "body")
        Map(\.reactionCount, "reactions.total_count")
    }
}

extension GHRepository: JSONModel {
    public static let jsonMapping = JSONMapping<GHRepository> {
        Map(\.id, "id")
        Map(\.nodeID, "node_id")
        Map(\.name, "name")
        Map(\.fullName, "full_name")
        Map(\.isPrivate, "private")
        Map(\.owner, "owner")
        Map(\.htmlURL, "html_url")
        Map(\.description, "description")
        Map(\.fork, "fork")
        Map(\.url, "url")
        Map(\.updatedAt, "updated_at", gitHubDate)
        Map(\.homepage, "homepage")
        Map(\.size, "size")
        Map(\.stargazersCount, "stargazers_count")
        Map(\.watchersCount, "watchers_count")
        Map(\.language, "language")
        Map(\.forksCount, "forks_count")
        Map(\.archived, "archived")
        Map(\.openIssuesCount, "open_issues_count")
        Map(\.topics, "topics")
        Map(\.visibility, "visibility")
        Map(\.defaultBranch, "default_branch")
    }
}

extension GHOrganization: JSONModel {
    public static let jsonMapping = JSONMapping<GHOrganization> {
        Map(\.login, "login")
        Map(\.id, "id")
        Map(\.nodeID, "node_id")
        Map(\.url, "url")
        Map(\.description, "description")
    }
}

extension GHWebhook: JSONModel {
    public static let jsonMapping = JSONMapping<GHWebhook> {
        Map(\.action, "action")
        Map(\.sender, "sender")
        Map(\.repository, "repository")
        Map(\.organization, "organization")
        Map(\.installationID, "installation.id")
        Map(\.issue, "issue")
        Map(\.number, "number")
        Map(\.ref, "ref")
        Map(\.before, "before")
        Map(\.after, "after")
        Map(\.forced, "forced")
    }
}

extension GHActor: JSONModel {
    public static let jsonMapping = JSONMapping<GHActor> {
        Map(\.id, "id")
        Map(\.login, "login")
        Map(\.gravatarID, "gravatar_id")
        Map(\.url, "url")
        Map(\.avatarURL, "avatar_url")
    }
}

extension GHEventRepository: JSONModel {
    public static let jsonMapping = JSONMapping<GHEventRepository> {
        Map(\.id, "id")
        Map(\.name, "name")
        Map(\.url, "url")
    }
}

extension GHCommit.Author: JSONModel {
    public static let jsonMapping = JSONMapping<GHCommit.Author> {
        Map(\.name, "name")
        Map(\.email, "email")
    }
}

extension GHCommit: JSONModel {
    public static let jsonMapping = JSONMapping<GHCommit> {
        Map(\.sha, "sha")
        Map(\.message, "message")
        Map(\.distinct, "distinct")
        Map(\.url, "url")
        Map(\.author, "author")
    }
}

extension GHEventPayload: JSONModel {
    public static let jsonMapping = JSONMapping<GHEventPayload> {
        Map(\.action, "action")
        Map(\.ref, "ref")
        Map(\.refType, "ref_type")
        Map(\.masterBranch, "master_branch")
        Map(\.description, "description")
        Map(\.size, "size")
        Map(\.distinctSize, "distinct_size")
        Map(\.pushID, "push_id")
        Map(\.head, "head")
        Map(\.before, "before")
        Map(\.commits, "commits")
    }
}

extension GHEvent: JSONModel {
    public static let jsonMapping = JSONMapping<GHEvent> {
        Map(\.id, "id")
        Map(\.type, "type")
        Map(\.actor, "actor")
        Map(\.repo, "repo")
        Map(\.isPublic, "public")
        Map(\.createdAt, "created_at", gitHubDate)
        Map(\.org, "org")
        Map(\.payload, "payload")
    }
}

// MARK: - twitter.json

extension TwitterSearch: JSONModel {
    public static let jsonMapping = JSONMapping<TwitterSearch> {
        Map(\.statuses, "statuses")
        Map(\.searchMetadata, "search_metadata")
    }
}

extension TwitterSearchMetadata: JSONModel {
    public static let jsonMapping = JSONMapping<TwitterSearchMetadata> {
        Map(\.completedIn, "completed_in")
        Map(\.maxID, "max_id")
        Map(\.maxIDString, "max_id_str")
        Map(\.query, "query")
        Map(\.count, "count")
        Map(\.sinceID, "since_id")
    }
}

extension Tweet: JSONModel {
    public static let jsonMapping = JSONMapping<Tweet> {
        Map(\.id, "id")
        Map(\.idString, "id_str")
        Map(\.text, "text")
        Map(\.source, "source")
        Map(\.truncated, "truncated")
        Map(\.createdAt, "created_at", twitterDate)
        Map(\.inReplyToStatusID, "in_reply_to_status_id")
        Map(\.inReplyToUserID, "in_reply_to_user_id")
        Map(\.inReplyToScreenName, "in_reply_to_screen_name")
        Map(\.user, "user")
        Map(\.entities, "entities")
        Map(\.retweetCount, "retweet_count")
        Map(\.favoriteCount, "favorite_count")
        Map(\.favorited, "favorited")
        Map(\.retweeted, "retweeted")
        Map(\.possiblySensitive, "possibly_sensitive")
        Map(\.lang, "lang")
        Map(\.metadata, "metadata")
        Map(\.retweetedStatus, "retweeted_status")
    }
}

extension RetweetedStatus: JSONModel {
    public static let jsonMapping = JSONMapping<RetweetedStatus> {
        Map(\.id, "id")
        Map(\.idString, "id_str")
        Map(\.text, "text")
        Map(\.createdAt, "created_at", twitterDate)
        Map(\.user, "user")
        Map(\.entities, "entities")
        Map(\.retweetCount, "retweet_count")
        Map(\.favoriteCount, "favorite_count")
        Map(\.lang, "lang")
    }
}

extension TweetMetadata: JSONModel {
    public static let jsonMapping = JSONMapping<TweetMetadata> {
        Map(\.resultType, "result_type")
        Map(\.isoLanguageCode, "iso_language_code")
    }
}

extension TwitterUser: JSONModel {
    public static let jsonMapping = JSONMapping<TwitterUser> {
        Map(\.id, "id")
        Map(\.idString, "id_str")
        Map(\.name, "name")
        Map(\.screenName, "screen_name")
        Map(\.location, "location")
        Map(\.description, "description")
        Map(\.url, "url")
        Map(\.protected, "protected")
        Map(\.followersCount, "followers_count")
        Map(\.friendsCount, "friends_count")
        Map(\.listedCount, "listed_count")
        Map(\.createdAt, "created_at", twitterDate)
        Map(\.favouritesCount, "favourites_count")
        Map(\.utcOffset, "utc_offset")
        Map(\.timeZone, "time_zone")
        Map(\.geoEnabled, "geo_enabled")
        Map(\.verified, "verified")
        Map(\.statusesCount, "statuses_count")
        Map(\.lang, "lang")
        Map(\.profileImageURLHTTPS, "profile_image_url_https")
        Map(\.profileBannerURL, "profile_banner_url")
        Map(\.defaultProfile, "default_profile")
        Map(\.following, "following")
    }
}

extension TweetEntities: JSONModel {
    public static let jsonMapping = JSONMapping<TweetEntities> {
        Map(\.hashtags, "hashtags")
        Map(\.urls, "urls")
        Map(\.userMentions, "user_mentions")
        Map(\.media, "media")
    }
}

extension Hashtag: JSONModel {
    public static let jsonMapping = JSONMapping<Hashtag> {
        Map(\.text, "text")
        Map(\.indices, "indices")
    }
}

extension TweetURL: JSONModel {
    public static let jsonMapping = JSONMapping<TweetURL> {
        Map(\.url, "url")
        Map(\.expandedURL, "expanded_url")
        Map(\.displayURL, "display_url")
        Map(\.indices, "indices")
    }
}

extension UserMention: JSONModel {
    public static let jsonMapping = JSONMapping<UserMention> {
        Map(\.screenName, "screen_name")
        Map(\.name, "name")
        Map(\.id, "id")
        Map(\.indices, "indices")
    }
}

extension TweetMedia.Size: JSONModel {
    public static let jsonMapping = JSONMapping<TweetMedia.Size> {
        Map(\.w, "w")
        Map(\.h, "h")
        Map(\.resize, "resize")
    }
}

extension TweetMedia: JSONModel {
    public static let jsonMapping = JSONMapping<TweetMedia> {
        Map(\.id, "id")
        Map(\.mediaURLHTTPS, "media_url_https")
        Map(\.url, "url")
        Map(\.displayURL, "display_url")
        Map(\.expandedURL, "expanded_url")
        Map(\.type, "type")
        Map(\.sizes, "sizes")
        Map(\.indices, "indices")
        Map(\.sourceStatusID, "source_status_id")
    }
}

// MARK: - canada.json

extension CanadaFeatureCollection: JSONModel {
    public static let jsonMapping = JSONMapping<CanadaFeatureCollection> {
        Map(\.type, "type")
        Map(\.features, "features")
    }
}

extension CanadaFeature: JSONModel {
    public static let jsonMapping = JSONMapping<CanadaFeature> {
        Map(\.type, "type")
        Map(\.properties, "properties")
        Map(\.geometry, "geometry")
    }
}

extension CanadaGeometry: JSONModel {
    public static let jsonMapping = JSONMapping<CanadaGeometry> {
        Map(\.type, "type")
        Map(\.coordinates, "coordinates")
    }
}

// MARK: - citm_catalog.json

extension CITMCatalog: JSONModel {
    public static let jsonMapping = JSONMapping<CITMCatalog> {
        Map(\.areaNames, "areaNames")
        Map(\.audienceSubCategoryNames, "audienceSubCategoryNames")
        Map(\.blockNames, "blockNames")
        Map(\.events, "events")
        Map(\.performances, "performances")
        Map(\.seatCategoryNames, "seatCategoryNames")
        Map(\.subTopicNames, "subTopicNames")
        Map(\.subjectNames, "subjectNames")
        Map(\.topicNames, "topicNames")
        Map(\.topicSubTopics, "topicSubTopics")
        Map(\.venueNames, "venueNames")
    }
}

extension CITMEvent: JSONModel {
    public static let jsonMapping = JSONMapping<CITMEvent> {
        Map(\.id, "id")
        Map(\.name, "name")
        Map(\.description, "description")
        Map(\.logo, "logo")
        Map(\.subTopicIds, "subTopicIds")
        Map(\.subjectCode, "subjectCode")
        Map(\.subtitle, "subtitle")
        Map(\.topicIds, "topicIds")
    }
}

extension CITMPerformance: JSONModel {
    public static let jsonMapping = JSONMapping<CITMPerformance> {
        Map(\.id, "id")
        Map(\.eventId, "eventId")
        Map(\.logo, "logo")
        Map(\.name, "name")
        Map(\.prices, "prices")
        Map(\.seatCategories, "seatCategories")
        Map(\.seatMapImage, "seatMapImage")
        Map(\.start, "start", .epochMilliseconds)
        Map(\.venueCode, "venueCode")
    }
}

extension CITMPrice: JSONModel {
    public static let jsonMapping = JSONMapping<CITMPrice> {
        Map(\.amount, "amount")
        Map(\.audienceSubCategoryId, "audienceSubCategoryId")
        Map(\.seatCategoryId, "seatCategoryId")
    }
}

extension CITMSeatCategory: JSONModel {
    public static let jsonMapping = JSONMapping<CITMSeatCategory> {
        Map(\.areas, "areas")
        Map(\.seatCategoryId, "seatCategoryId")
    }
}

extension CITMArea: JSONModel {
    public static let jsonMapping = JSONMapping<CITMArea> {
        Map(\.areaId, "areaId")
        Map(\.blockIds, "blockIds")
    }
}

// MARK: - The seed example (Magma's core issue)

extension GHSeedUser: JSONModel {
    public static let jsonMapping = JSONMapping<GHSeedUser> {
        Map(\.login, "login")
        Map(\.id, "id")
    }
}

extension GHSeedIssue: JSONModel {
    public static let jsonMapping = JSONMapping<GHSeedIssue> {
        Map(\.url, "url")
        Map(\.htmlURL, "html_url")
        Map(\.number, "number")
        Map(\.state, "state")
        Map(\.reporterLogin, "user.login")
        Map(\.assignee, "assignee")
        Map(\.updatedAt, "updated_at", gitHubDate)
        Map(\.title, "title")
        Map(\.body, "body")
    }
}
