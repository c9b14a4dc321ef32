import Foundation

extension TwitterSearch {
    public init(handMapping d: JSONDictionary, _ context: HandMappingContext) throws {
        statuses = try d.objects("statuses") { try Tweet(handMapping: $0, context) } ?? []
        searchMetadata = try d.requiredObject("search_metadata") { m in
            var metadata = TwitterSearchMetadata()
            metadata.completedIn = try m.required("completed_in")
            metadata.maxID = try m.required("max_id")
            metadata.maxIDString = try m.required("max_id_str")
            metadata.query = try m.required("query")
            metadata.count = try m.required("count")
            metadata.sinceID = try m.required("since_id")
            return metadata
        }
    }
}

extension Tweet {
    public init(handMapping d: JSONDictionary, _ context: HandMappingContext) throws {
        id = try d.required("id")
        idString = try d.required("id_str")
        text = try d.required("text")
        source = try d.required("source")
        truncated = try d.required("truncated")
        createdAt = try d.requiredDate("created_at", context)
        inReplyToStatusID = try d.optional("in_reply_to_status_id")
        inReplyToUserID = try d.optional("in_reply_to_user_id")
        inReplyToScreenName = try d.optional("in_reply_to_screen_name")
        user = try d.requiredObject("user") { try TwitterUser(handMapping: $0, context) }
        entities = try d.requiredObject("entities", TweetEntities.init(handMapping:))
        retweetCount = try d.required("retweet_count")
        favoriteCount = try d.required("favorite_count")
        favorited = try d.required("favorited")
        retweeted = try d.required("retweeted")
        possiblySensitive = try d.optional("possibly_sensitive")
        lang = try d.required("lang")
        metadata = try d.requiredObject("metadata") { m in
            var metadata = TweetMetadata()
            metadata.resultType = try m.required("result_type")
            metadata.isoLanguageCode = try m.required("iso_language_code")
            return metadata
        }
        retweetedStatus = try d.object("retweeted_status") { try RetweetedStatus(handMapping: $0, context) }
    }
}

extension RetweetedStatus {
    public init(handMapping d: JSONDictionary, _ context: HandMappingContext) throws {
        id = try d.required("id")
        idString = try d.required("id_str")
        text = try d.required("text")
        createdAt = try d.requiredDate("created_at", context)
        user = try d.requiredObject("user") { try TwitterUser(handMapping: $0, context) }
        entities = try d.requiredObject("entities", TweetEntities.init(handMapping:))
        retweetCount = try d.required("retweet_count")
        favoriteCount = try d.required("favorite_count")
        lang = try d.required("lang")
    }
}

extension TwitterUser {
    public init(handMapping d: JSONDictionary, _ context: HandMappingContext) throws {
        id = try d.required("id")
        idString = try d.required("id_str")
        name = try d.required("name")
        screenName = try d.required("screen_name")
        location = try d.required("location")
        description = try d.required("description")
        url = try d.url("url")
        protected = try d.required("protected")
        followersCount = try d.required("followers_count")
        friendsCount = try d.required("friends_count")
        listedCount = try d.required("listed_count")
        createdAt = try d.requiredDate("created_at", context)
        favouritesCount = try d.required("favourites_count")
        utcOffset = try d.optional("utc_offset")
        timeZone = try d.optional("time_zone")
        geoEnabled = try d.required("geo_enabled")
        verified = try d.required("verified")
        statusesCount = try d.required("statuses_count")
        lang = try d.required("lang")
        profileImageURLHTTPS = try d.url("profile_image_url_https")
        profileBannerURL = try d.url("profile_banner_url")
        defaultProfile = try d.required("default_profile")
        following = try d.required("following")
    }
}

extension TweetEntities {
    public init(handMapping d: JSONDictionary) throws {
        hashtags = try d.objects("hashtags") { h in
            var hashtag = Hashtag()
            hashtag.text = try h.required("text")
            hashtag.indices = try h.required("indices")
            return hashtag
        } ?? []
        urls = try d.objects("urls") { u in
            var url = TweetURL()
            url.url = try u.url("url")
            url.expandedURL = try u.url("expanded_url")
            url.displayURL = try u.required("display_url")
            url.indices = try u.required("indices")
            return url
        } ?? []
        userMentions = try d.objects("user_mentions") { m in
            var mention = UserMention()
            mention.screenName = try m.required("screen_name")
            mention.name = try m.required("name")
            mention.id = try m.required("id")
            mention.indices = try m.required("indices")
            return mention
        } ?? []
        media = try d.objects("media") { m in
            var media = TweetMedia()
            media.id = try m.required("id")
            media.mediaURLHTTPS = try m.url("media_url_https")
            media.url = try m.url("url")
            media.displayURL = try m.required("display_url")
            media.expandedURL = try m.url("expanded_url")
            media.type = try m.required("type")
            let sizes: JSONDictionary = try m.required("sizes")
            for (name, value) in sizes {
                guard let s = value as? JSONDictionary else {
                    throw HandMappingError(key: "sizes.\(name)", problem: "not an object")
                }
                var size = TweetMedia.Size()
                size.w = try s.required("w")
                size.h = try s.required("h")
                size.resize = try s.required("resize")
                media.sizes[name] = size
            }
            media.indices = try m.required("indices")
            media.sourceStatusID = try m.optional("source_status_id")
            return media
        }
    }
}
