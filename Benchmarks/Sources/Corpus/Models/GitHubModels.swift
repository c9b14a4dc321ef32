import Foundation
import Magma

// Models for GitHub's REST payloads: the generated issues corpus, the `issue` of
// github_webhooks.ndjson, and the users and repositories around them.
//
// One set of types serves every system in the comparison: JSONDecoder (Codable, below),
// JSONSerialization + hand mapping (FoundationPeers/), and Magma (`@JSONModel`: its keys and
// transformers are declared on the properties), so the three can be checked to build equal values
// from the same bytes. Optional properties are the keys some records lack; the defaults are what
// Magma keeps for an absent key, as the hand-written `init(from:)` does.

/// A GitHub user or bot, as nested in issues, events and webhooks.
@JSONModel(keyNaming: .snakeCase)
public struct GHUser: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, Sendable {
        case user = "User", bot = "Bot", organization = "Organization"
    }

    public var login = ""
    public var id: Int64 = 0
    public var nodeID: String?
    public var avatarURL: URL?
    public var htmlURL: URL?
    public var type = Kind.user
    public var siteAdmin = false

    enum CodingKeys: String, CodingKey {
        case login, id, nodeID = "node_id", avatarURL = "avatar_url", htmlURL = "html_url", type
        case siteAdmin = "site_admin"
    }
}

/// An issue label.
@JSONModel(keyNaming: .snakeCase)
public struct GHLabel: Codable, Equatable, Sendable {
    public var id: Int64 = 0
    public var nodeID = ""
    public var url: URL?
    public var name = ""
    public var color = ""
    @Key("default") public var isDefault = false
    public var description: String?

    enum CodingKeys: String, CodingKey {
        case id, nodeID = "node_id", url, name, color, isDefault = "default", description
    }
}

/// A milestone, with its creator and four dates (two of them often `null`).
@JSONModel(keyNaming: .snakeCase)
public struct GHMilestone: Codable, Equatable, Sendable {
    public var id: Int64 = 0
    public var number = 0
    public var title = ""
    public var description: String?
    public var creator: GHUser?
    public var openIssues = 0
    public var closedIssues = 0
    public var state = GHIssue.State.open
    @Transform(gitHubDate) public var createdAt = Date(timeIntervalSince1970: 0)
    @Transform(gitHubDate) public var updatedAt = Date(timeIntervalSince1970: 0)
    @Transform(gitHubDate) public var closedAt: Date?
    @Transform(gitHubDate) public var dueOn: Date?

    enum CodingKeys: String, CodingKey {
        case id, number, title, description, creator, openIssues = "open_issues", closedIssues = "closed_issues"
        case state, createdAt = "created_at", updatedAt = "updated_at", closedAt = "closed_at", dueOn = "due_on"
    }
}

/// A GitHub issue: the record of the generated corpus.
///
/// `reactionCount` comes from the key path `reactions.total_count`: Magma maps it with a dotted
/// key path, Codable with a nested container (hence the hand-written `init(from:)`), which also
/// gives absent keys their defaults, as Magma does.
@JSONModel(keyNaming: .snakeCase)
public struct GHIssue: Codable, Equatable, Sendable {
    public enum State: String, Codable, Sendable { case open, closed }

    public enum AuthorAssociation: String, Codable, Sendable {
        case owner = "OWNER", member = "MEMBER", collaborator = "COLLABORATOR", contributor = "CONTRIBUTOR"
        case firstTimeContributor = "FIRST_TIME_CONTRIBUTOR", firstTimer = "FIRST_TIMER"
        case mannequin = "MANNEQUIN", none = "NONE"
    }

    public var id: Int64 = 0
    public var nodeID = ""
    public var url: URL?
    public var htmlURL: URL?
    public var number = 0
    public var title = ""
    public var user: GHUser?
    public var labels: [GHLabel] = []
    public var state = State.open
    public var locked = false
    public var assignee: GHUser?
    public var assignees: [GHUser] = []
    public var milestone: GHMilestone?
    public var comments = 0
    @Transform(gitHubDate) public var createdAt = Date(timeIntervalSince1970: 0)
    @Transform(gitHubDate) public var updatedAt = Date(timeIntervalSince1970: 0)
    @Transform(gitHubDate) public var closedAt: Date?
    public var authorAssociation = AuthorAssociation.none
    public var body: String?
    @Key("reactions.total_count") public var reactionCount = 0

    enum CodingKeys: String, CodingKey {
        case id, nodeID = "node_id", url, htmlURL = "html_url", number, title, user, labels, state, locked
        case assignee, assignees, milestone, comments, createdAt = "created_at", updatedAt = "updated_at"
        case closedAt = "closed_at", authorAssociation = "author_association", body, reactions
    }

    enum ReactionsKeys: String, CodingKey {
        case totalCount = "total_count"
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(nodeID, forKey: .nodeID)
        try c.encodeIfPresent(url, forKey: .url)
        try c.encodeIfPresent(htmlURL, forKey: .htmlURL)
        try c.encode(number, forKey: .number)
        try c.encode(title, forKey: .title)
        try c.encodeIfPresent(user, forKey: .user)
        try c.encode(labels, forKey: .labels)
        try c.encode(state, forKey: .state)
        try c.encode(locked, forKey: .locked)
        try c.encodeIfPresent(assignee, forKey: .assignee)
        try c.encode(assignees, forKey: .assignees)
        try c.encodeIfPresent(milestone, forKey: .milestone)
        try c.encode(comments, forKey: .comments)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encodeIfPresent(closedAt, forKey: .closedAt)
        try c.encode(authorAssociation, forKey: .authorAssociation)
        try c.encodeIfPresent(body, forKey: .body)
        var reactions = c.nestedContainer(keyedBy: ReactionsKeys.self, forKey: .reactions)
        try reactions.encode(reactionCount, forKey: .totalCount)
    }
}

extension GHIssue {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(Int64.self, forKey: .id) ?? id
        nodeID = try c.decodeIfPresent(String.self, forKey: .nodeID) ?? nodeID
        url = try c.decodeIfPresent(URL.self, forKey: .url)
        htmlURL = try c.decodeIfPresent(URL.self, forKey: .htmlURL)
        number = try c.decodeIfPresent(Int.self, forKey: .number) ?? number
        title = try c.decodeIfPresent(String.self, forKey: .title) ?? title
        user = try c.decodeIfPresent(GHUser.self, forKey: .user)
        labels = try c.decodeIfPresent([GHLabel].self, forKey: .labels) ?? labels
        state = try c.decodeIfPresent(State.self, forKey: .state) ?? state
        locked = try c.decodeIfPresent(Bool.self, forKey: .locked) ?? locked
        assignee = try c.decodeIfPresent(GHUser.self, forKey: .assignee)
        assignees = try c.decodeIfPresent([GHUser].self, forKey: .assignees) ?? assignees
        milestone = try c.decodeIfPresent(GHMilestone.self, forKey: .milestone)
        comments = try c.decodeIfPresent(Int.self, forKey: .comments) ?? comments
        createdAt = try c.decodeIfPresent(Date.self, forKey: .createdAt) ?? createdAt
        updatedAt = try c.decodeIfPresent(Date.self, forKey: .updatedAt) ?? updatedAt
        closedAt = try c.decodeIfPresent(Date.self, forKey: .closedAt)
        authorAssociation = try c.decodeIfPresent(AuthorAssociation.self, forKey: .authorAssociation) ?? authorAssociation
        body = try c.decodeIfPresent(String.self, forKey: .body)
        if c.contains(.reactions), try !c.decodeNil(forKey: .reactions) {
            let reactions = try c.nestedContainer(keyedBy: ReactionsKeys.self, forKey: .reactions)
            reactionCount = try reactions.decodeIfPresent(Int.self, forKey: .totalCount) ?? reactionCount
        }
    }
}

/// A repository as nested in webhook payloads.
@JSONModel(keyNaming: .snakeCase)
public struct GHRepository: Codable, Equatable, Sendable {
    public var id: Int64 = 0
    public var nodeID = ""
    public var name = ""
    public var fullName = ""
    @Key("private") public var isPrivate = false
    public var owner = GHUser()
    public var htmlURL: URL?
    public var description: String?
    public var fork = false
    public var url: URL?
    @Transform(gitHubDate) public var updatedAt = Date(timeIntervalSince1970: 0)
    public var homepage: String?
    public var size = 0
    public var stargazersCount = 0
    public var watchersCount = 0
    public var language: String?
    public var forksCount = 0
    public var archived = false
    public var openIssuesCount = 0
    public var topics: [String] = []
    public var visibility = ""
    public var defaultBranch = ""

    enum CodingKeys: String, CodingKey {
        case id, nodeID = "node_id", name, fullName = "full_name", isPrivate = "private", owner
        case htmlURL = "html_url", description, fork, url, updatedAt = "updated_at", homepage, size
        case stargazersCount = "stargazers_count", watchersCount = "watchers_count", language
        case forksCount = "forks_count", archived, openIssuesCount = "open_issues_count", topics, visibility
        case defaultBranch = "default_branch"
    }
}

/// An organization as nested in webhook payloads.
@JSONModel(keyNaming: .snakeCase)
public struct GHOrganization: Codable, Equatable, Sendable {
    public var login = ""
    public var id: Int64 = 0
    public var nodeID = ""
    public var url: URL?
    public var description: String?

    enum CodingKeys: String, CodingKey {
        case login, id, nodeID = "node_id", url, description
    }
}

/// One line of github_webhooks.ndjson: the fields a webhook receiver routes on.
///
/// Payloads differ by event; every property is optional. `installationID` comes from the key
/// path `installation.id`.
@JSONModel
public struct GHWebhook: Codable, Equatable, Sendable {
    public var action: String?
    public var sender: GHUser?
    public var repository: GHRepository?
    public var organization: GHOrganization?
    @Key("installation.id") public var installationID: Int64?
    public var issue: GHIssue?
    public var number: Int?
    public var ref: String?
    public var before: String?
    public var after: String?
    public var forced: Bool?

    enum CodingKeys: String, CodingKey {
        case action, sender, repository, organization, installation, issue, number, ref, before, after, forced
    }

    enum InstallationKeys: String, CodingKey { case id }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(action, forKey: .action)
        try c.encodeIfPresent(sender, forKey: .sender)
        try c.encodeIfPresent(repository, forKey: .repository)
        try c.encodeIfPresent(organization, forKey: .organization)
        if let installationID {
            var installation = c.nestedContainer(keyedBy: InstallationKeys.self, forKey: .installation)
            try installation.encode(installationID, forKey: .id)
        }
        try c.encodeIfPresent(issue, forKey: .issue)
        try c.encodeIfPresent(number, forKey: .number)
        try c.encodeIfPresent(ref, forKey: .ref)
        try c.encodeIfPresent(before, forKey: .before)
        try c.encodeIfPresent(after, forKey: .after)
        try c.encodeIfPresent(forced, forKey: .forced)
    }
}

extension GHWebhook {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        action = try c.decodeIfPresent(String.self, forKey: .action)
        sender = try c.decodeIfPresent(GHUser.self, forKey: .sender)
        repository = try c.decodeIfPresent(GHRepository.self, forKey: .repository)
        organization = try c.decodeIfPresent(GHOrganization.self, forKey: .organization)
        if c.contains(.installation), try !c.decodeNil(forKey: .installation) {
            let installation = try c.nestedContainer(keyedBy: InstallationKeys.self, forKey: .installation)
            installationID = try installation.decodeIfPresent(Int64.self, forKey: .id)
        }
        issue = try c.decodeIfPresent(GHIssue.self, forKey: .issue)
        number = try c.decodeIfPresent(Int.self, forKey: .number)
        ref = try c.decodeIfPresent(String.self, forKey: .ref)
        before = try c.decodeIfPresent(String.self, forKey: .before)
        after = try c.decodeIfPresent(String.self, forKey: .after)
        forced = try c.decodeIfPresent(Bool.self, forKey: .forced)
    }
}

// MARK: - github_events.json

/// An actor or organization in the events API (2013 shape: no node ids).
@JSONModel(keyNaming: .snakeCase)
public struct GHActor: Codable, Equatable, Sendable {
    public var id: Int64 = 0
    public var login = ""
    public var gravatarID = ""
    public var url: URL?
    public var avatarURL: URL?

    enum CodingKeys: String, CodingKey {
        case id, login, gravatarID = "gravatar_id", url, avatarURL = "avatar_url"
    }
}

/// The repository an event happened in.
@JSONModel
public struct GHEventRepository: Codable, Equatable, Sendable {
    public var id: Int64 = 0
    public var name = ""
    public var url: URL?
}

/// A commit in a push event's payload.
@JSONModel
public struct GHCommit: Codable, Equatable, Sendable {
    @JSONModel
    public struct Author: Codable, Equatable, Sendable {
        public var name = ""
        public var email = ""
        public init() {}
    }

    public var sha = ""
    public var message = ""
    public var distinct = false
    public var url: URL?
    public var author = Author()
}

/// The payload fields an event consumer reads; which are present depends on the event type.
@JSONModel(keyNaming: .snakeCase)
public struct GHEventPayload: Codable, Equatable, Sendable {
    public var action: String?
    public var ref: String?
    public var refType: String?
    public var masterBranch: String?
    public var description: String?
    public var size: Int?
    public var distinctSize: Int?
    public var pushID: Int64?
    public var head: String?
    public var before: String?
    public var commits: [GHCommit]?

    enum CodingKeys: String, CodingKey {
        case action, ref, refType = "ref_type", masterBranch = "master_branch", description, size
        case distinctSize = "distinct_size", pushID = "push_id", head, before, commits
    }
}

/// One element of github_events.json.
@JSONModel(keyNaming: .snakeCase)
public struct GHEvent: Codable, Equatable, Sendable {
    public var id = ""
    public var type = ""
    public var actor = GHActor()
    public var repo = GHEventRepository()
    @Key("public") public var isPublic = false
    @Transform(gitHubDate) public var createdAt = Date(timeIntervalSince1970: 0)
    public var org: GHActor?
    public var payload = GHEventPayload()

    enum CodingKeys: String, CodingKey {
        case id, type, actor, repo, isPublic = "public", createdAt = "created_at", org, payload
    }
}
