import Foundation
import Magma

/// The seed example: a GitHub issue as Mantle's README mapped it, declared with `Map`: the twin of
/// `MacroIssue`, for what only `Map` models do (`JSONAdapter.update` merges into an existing model).
struct GHIssue: JSONModel, Equatable {
    enum State: String { case open, closed }

    var url: URL?
    var htmlURL: URL?
    var number = 0
    var state = State.open
    var reporterLogin: String?
    var assignee: GHUser?
    var labels: [GHLabel] = []
    var updatedAt: Date?
    var title = ""
    var body: String?
    /// Set locally, never decoded nor encoded.
    var retrievedAt = Date(timeIntervalSince1970: 0)

    static let jsonMapping = JSONMapping<GHIssue> {
        Map(\.url, "url")
        Map(\.htmlURL, "html_url")
        Map(\.number, "number", required: true)
        Map(\.state, "state")
        Map(\.reporterLogin, "user.login")
        Map(\.assignee, "assignee")
        Map(\.labels, "labels")
        Map(\.updatedAt, "updated_at", .date(format: "yyyy-MM-dd'T'HH:mm:ss'Z'"))
        Map(\.title, "title")
        Map(\.body, "body")
    }
}

@JSONModel struct GHUser: Equatable {
    var login = ""
    var id: Int64 = 0
    @Key("site_admin") var siteAdmin = false
}

@JSONModel struct GHLabel: Equatable {
    var name = ""
    var color = ""
}

enum Fixtures {
    static func data(_ name: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") else {
            throw JSONError(.io, "fixture \(name) not found")
        }
        return try Data(contentsOf: url)
    }
}
