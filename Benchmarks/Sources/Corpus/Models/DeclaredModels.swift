import Foundation
import Magma

// The GitHub models declared the way a Magma user writes them now: `@JSONModel` with `let`
// properties, each spelled once. They decode the same bytes as the `Map`-declared models of
// MagmaModels.swift (kept as their twins), so the two forms are compared in the same run
// (`DecodeSystem.magmaMacro`); `init(declared:)` turns one into its twin for validation.

/// GitHub's `yyyy-MM-dd'T'HH:mm:ss'Z'` dates.
private let gitHubDate = Transformer<JSONValue, Date>.date(format: "yyyy-MM-dd'T'HH:mm:ss'Z'")

/// A corpus model with a `@JSONModel` twin that decodes the same JSON.
public protocol DeclaredTwin {
    associatedtype Declared: JSONDraftedModel
    init(declared: Declared)
}

@JSONModel(keyNaming: .snakeCase)
public struct GHSeedIssueDeclared: Sendable {
    public let url: URL?
    @Key("html_url") public let htmlURL: URL?
    public let number: Int
    public var state = GHSeedIssue.State.open
    @Key("user.login") public let reporterLogin: String?
    public let assignee: GHSeedUserDeclared?
    @Transform(gitHubDate) public let updatedAt: Date?
    public let title: String
    public let body: String?
}

@JSONModel public struct GHSeedUserDeclared: Sendable {
    public let login: String
    public let id: Int64
}

extension GHSeedIssue: DeclaredTwin {
    public init(declared d: GHSeedIssueDeclared) {
        self.init()
        url = d.url
        htmlURL = d.htmlURL
        number = d.number
        state = d.state
        reporterLogin = d.reporterLogin
        assignee = d.assignee.map { user in
            var twin = GHSeedUser()
            twin.login = user.login
            twin.id = user.id
            return twin
        }
        updatedAt = d.updatedAt
        title = d.title
        body = d.body
    }
}

@JSONModel(keyNaming: .snakeCase)
public struct GHUserDeclared: Sendable {
    public let login: String
    public let id: Int64
    @Key("node_id") public let nodeID: String?
    @Key("avatar_url") public let avatarURL: URL?
    @Key("html_url") public let htmlURL: URL?
    public var type = GHUser.Kind.user
    public var siteAdmin = false
}

@JSONModel(keyNaming: .snakeCase)
public struct GHLabelDeclared: Sendable {
    public let id: Int64
    @Key("node_id") public let nodeID: String
    public let url: URL?
    public let name: String
    public let color: String
    @Key("default") public var isDefault = false
    public let description: String?
}

@JSONModel(keyNaming: .snakeCase)
public struct GHMilestoneDeclared: Sendable {
    public let id: Int64
    public let number: Int
    public let title: String
    public let description: String?
    public let creator: GHUserDeclared?
    public var openIssues = 0
    public var closedIssues = 0
    public var state = GHIssue.State.open
    @Transform(gitHubDate) public let createdAt: Date
    @Transform(gitHubDate) public let updatedAt: Date
    @Transform(gitHubDate) public let closedAt: Date?
    @Transform(gitHubDate) public let dueOn: Date?
}

@JSONModel(keyNaming: .snakeCase)
public struct GHIssueDeclared: Sendable {
    public let id: Int64
    @Key("node_id") public let nodeID: String
    public let url: URL?
    @Key("html_url") public let htmlURL: URL?
    public let number: Int
    public let title: String
    public let user: GHUserDeclared?
    public var labels: [GHLabelDeclared] = []
    public var state = GHIssue.State.open
    public var locked = false
    public let assignee: GHUserDeclared?
    public var assignees: [GHUserDeclared] = []
    public let milestone: GHMilestoneDeclared?
    public var comments = 0
    @Transform(gitHubDate) public let createdAt: Date
    @Transform(gitHubDate) public let updatedAt: Date
    @Transform(gitHubDate) public let closedAt: Date?
    public var authorAssociation = GHIssue.AuthorAssociation.none
    public let body: String?
    @Key("reactions.total_count") public var reactionCount = 0
}

extension GHUser {
    init(declared d: GHUserDeclared) {
        self.init()
        login = d.login
        id = d.id
        nodeID = d.nodeID
        avatarURL = d.avatarURL
        htmlURL = d.htmlURL
        type = d.type
        siteAdmin = d.siteAdmin
    }
}

extension GHIssue: DeclaredTwin {
    public init(declared d: GHIssueDeclared) {
        self.init()
        id = d.id
        nodeID = d.nodeID
        url = d.url
        htmlURL = d.htmlURL
        number = d.number
        title = d.title
        user = d.user.map(GHUser.init(declared:))
        labels = d.labels.map { l in
            var label = GHLabel()
            (label.id, label.nodeID, label.url, label.name) = (l.id, l.nodeID, l.url, l.name)
            (label.color, label.isDefault, label.description) = (l.color, l.isDefault, l.description)
            return label
        }
        state = d.state
        locked = d.locked
        assignee = d.assignee.map(GHUser.init(declared:))
        assignees = d.assignees.map(GHUser.init(declared:))
        milestone = d.milestone.map { m in
            var milestone = GHMilestone()
            (milestone.id, milestone.number, milestone.title, milestone.description) = (m.id, m.number, m.title, m.description)
            milestone.creator = m.creator.map(GHUser.init(declared:))
            (milestone.openIssues, milestone.closedIssues, milestone.state) = (m.openIssues, m.closedIssues, m.state)
            (milestone.createdAt, milestone.updatedAt, milestone.closedAt, milestone.dueOn) = (m.createdAt, m.updatedAt, m.closedAt, m.dueOn)
            return milestone
        }
        comments = d.comments
        createdAt = d.createdAt
        updatedAt = d.updatedAt
        closedAt = d.closedAt
        authorAssociation = d.authorAssociation
        body = d.body
        reactionCount = d.reactionCount
    }
}
