import Foundation
import Magma

// The seed model declared as a Magma user writes it: `@JSONModel` with `let` properties, each
// spelled once. `GHSeedIssue` (the type JSONDecoder and the hand mapping share) is its `Map`-declared
// twin (MagmaModels.swift): Magma's row decodes this form, `DecodeSystem.magmaMap` the twin, so the
// two forms are compared in the same run; `init(declared:)` turns one into the other for validation.

/// A `Map`-declared corpus model whose `@JSONModel` form (`Declared`) is what Magma's row decodes.
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
