import Foundation
import Magma

/// The seed example: a GitHub issue as Mantle's README mapped it, with optionals and defaults
/// where its keys may be absent (`MacroIssue` declares the same issue with `let`s).
@JSONModel struct GHIssue: Equatable {
    enum State: String { case open, closed }

    var url: URL?
    @Key("html_url") var htmlURL: URL?
    @Required var number = 0
    var state = State.open
    @Key("user.login") var reporterLogin: String?
    var assignee: GHUser?
    var labels: [GHLabel] = []
    @Key("updated_at") @Transform(.date(format: "yyyy-MM-dd'T'HH:mm:ss'Z'")) var updatedAt: Date?
    var title = ""
    var body: String?
    /// Set locally, never decoded nor encoded.
    @Ignore var retrievedAt = Date(timeIntervalSince1970: 0)
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
