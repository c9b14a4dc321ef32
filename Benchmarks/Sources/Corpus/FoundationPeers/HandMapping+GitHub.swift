import Foundation

extension GHUser {
    /// Maps one JSONSerialization dictionary by hand (the Mantle-style peer).
    public init(handMapping d: JSONDictionary) throws {
        login = try d.required("login")
        id = try d.required("id")
        nodeID = try d.optional("node_id")
        avatarURL = try d.url("avatar_url")
        htmlURL = try d.url("html_url")
        type = try d.enumeration("type") ?? .user
        siteAdmin = try d.required("site_admin")
    }
}

extension GHLabel {
    public init(handMapping d: JSONDictionary) throws {
        id = try d.required("id")
        nodeID = try d.required("node_id")
        url = try d.url("url")
        name = try d.required("name")
        color = try d.required("color")
        isDefault = try d.required("default")
        description = try d.optional("description")
    }
}

extension GHMilestone {
    public init(handMapping d: JSONDictionary, _ context: HandMappingContext) throws {
        id = try d.required("id")
        number = try d.required("number")
        title = try d.required("title")
        description = try d.optional("description")
        creator = try d.object("creator", GHUser.init(handMapping:))
        openIssues = try d.required("open_issues")
        closedIssues = try d.required("closed_issues")
        state = try d.enumeration("state") ?? .open
        createdAt = try d.requiredDate("created_at", context)
        updatedAt = try d.requiredDate("updated_at", context)
        closedAt = try d.date("closed_at", context)
        dueOn = try d.date("due_on", context)
    }
}

extension GHIssue {
    public init(handMapping d: JSONDictionary, _ context: HandMappingContext) throws {
        id = try d.optional("id") ?? 0
        nodeID = try d.optional("node_id") ?? ""
        url = try d.url("url")
        htmlURL = try d.url("html_url")
        number = try d.optional("number") ?? 0
        title = try d.optional("title") ?? ""
        user = try d.object("user", GHUser.init(handMapping:))
        labels = try d.objects("labels", GHLabel.init(handMapping:)) ?? []
        state = try d.enumeration("state") ?? .open
        locked = try d.optional("locked") ?? false
        assignee = try d.object("assignee", GHUser.init(handMapping:))
        assignees = try d.objects("assignees", GHUser.init(handMapping:)) ?? []
        milestone = try d.object("milestone") { try GHMilestone(handMapping: $0, context) }
        comments = try d.optional("comments") ?? 0
        createdAt = try d.date("created_at", context) ?? Date(timeIntervalSince1970: 0)
        updatedAt = try d.date("updated_at", context) ?? Date(timeIntervalSince1970: 0)
        closedAt = try d.date("closed_at", context)
        authorAssociation = try d.enumeration("author_association") ?? .none
        body = try d.optional("body")
        reactionCount = try d.optional("reactions", as: JSONDictionary.self)?.optional("total_count") ?? 0
    }
}

extension GHRepository {
    public init(handMapping d: JSONDictionary, _ context: HandMappingContext) throws {
        id = try d.required("id")
        nodeID = try d.required("node_id")
        name = try d.required("name")
        fullName = try d.required("full_name")
        isPrivate = try d.required("private")
        owner = try d.requiredObject("owner", GHUser.init(handMapping:))
        htmlURL = try d.url("html_url")
        description = try d.optional("description")
        fork = try d.required("fork")
        url = try d.url("url")
        updatedAt = try d.requiredDate("updated_at", context)
        homepage = try d.optional("homepage")
        size = try d.required("size")
        stargazersCount = try d.required("stargazers_count")
        watchersCount = try d.required("watchers_count")
        language = try d.optional("language")
        forksCount = try d.required("forks_count")
        archived = try d.required("archived")
        openIssuesCount = try d.required("open_issues_count")
        topics = try d.required("topics")
        visibility = try d.required("visibility")
        defaultBranch = try d.required("default_branch")
    }
}

extension GHOrganization {
    public init(handMapping d: JSONDictionary) throws {
        login = try d.required("login")
        id = try d.required("id")
        nodeID = try d.required("node_id")
        url = try d.url("url")
        description = try d.optional("description")
    }
}

extension GHWebhook {
    public init(handMapping d: JSONDictionary, _ context: HandMappingContext) throws {
        action = try d.optional("action")
        sender = try d.object("sender", GHUser.init(handMapping:))
        repository = try d.object("repository") { try GHRepository(handMapping: $0, context) }
        organization = try d.object("organization", GHOrganization.init(handMapping:))
        installationID = try d.optional("installation", as: JSONDictionary.self)?.optional("id")
        issue = try d.object("issue") { try GHIssue(handMapping: $0, context) }
        number = try d.optional("number")
        ref = try d.optional("ref")
        before = try d.optional("before")
        after = try d.optional("after")
        forced = try d.optional("forced")
    }
}

extension GHActor {
    public init(handMapping d: JSONDictionary) throws {
        id = try d.required("id")
        login = try d.required("login")
        gravatarID = try d.required("gravatar_id")
        url = try d.url("url")
        avatarURL = try d.url("avatar_url")
    }
}

extension GHCommit {
    public init(handMapping d: JSONDictionary) throws {
        sha = try d.required("sha")
        message = try d.required("message")
        distinct = try d.required("distinct")
        url = try d.url("url")
        author = try d.requiredObject("author") { a in
            var author = Author()
            author.name = try a.required("name")
            author.email = try a.required("email")
            return author
        }
    }
}

extension GHEvent {
    public init(handMapping d: JSONDictionary, _ context: HandMappingContext) throws {
        id = try d.required("id")
        type = try d.required("type")
        actor = try d.requiredObject("actor", GHActor.init(handMapping:))
        repo = try d.requiredObject("repo") { r in
            var repo = GHEventRepository()
            repo.id = try r.required("id")
            repo.name = try r.required("name")
            repo.url = try r.url("url")
            return repo
        }
        isPublic = try d.required("public")
        createdAt = try d.requiredDate("created_at", context)
        org = try d.object("org", GHActor.init(handMapping:))
        payload = try d.requiredObject("payload") { p in
            var payload = GHEventPayload()
            payload.action = try p.optional("action")
            payload.ref = try p.optional("ref")
            payload.refType = try p.optional("ref_type")
            payload.masterBranch = try p.optional("master_branch")
            payload.description = try p.optional("description")
            payload.size = try p.optional("size")
            payload.distinctSize = try p.optional("distinct_size")
            payload.pushID = try p.optional("push_id")
            payload.head = try p.optional("head")
            payload.before = try p.optional("before")
            payload.commits = try p.objects("commits", GHCommit.init(handMapping:))
            return payload
        }
    }
}

extension GHSeedUser {
    public init(handMapping d: JSONDictionary) throws {
        login = try d.required("login")
        id = try d.required("id")
    }
}

extension GHSeedIssue {
    public init(handMapping d: JSONDictionary, _ context: HandMappingContext) throws {
        url = try d.url("url")
        htmlURL = try d.url("html_url")
        number = try d.required("number")
        state = try d.enumeration("state") ?? .open
        let user: JSONDictionary? = try d.optional("user")
        reporterLogin = try user?.optional("login")
        assignee = try d.object("assignee", GHSeedUser.init(handMapping:))
        updatedAt = try d.date("updated_at", context)
        title = try d.required("title")
        body = try d.optional("body")
    }
}
