import Foundation
import Magma

// The benchmark models are declared with `@JSONModel` in Models/ (the types JSONDecoder and the
// hand-mapping peer share, so all systems can be checked to build equal models). Here: the
// transformers they name, and the one `Map`-declared model kept so that the two forms are
// compared in the same run (`DecodeSystem.magmaMap`): the seed model, whose `@JSONModel` form is
// in DeclaredModels.swift.

/// GitHub's `yyyy-MM-dd'T'HH:mm:ss'Z'` dates, through Magma's explicit date transformer.
let gitHubDate = Transformer<JSONValue, Date>.date(format: "yyyy-MM-dd'T'HH:mm:ss'Z'")
/// Twitter's `EEE MMM dd HH:mm:ss Z yyyy` dates.
let twitterDate = Transformer<JSONValue, Date>.date(format: "EEE MMM dd HH:mm:ss Z yyyy")

// MARK: - The seed model's `Map` twin

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
