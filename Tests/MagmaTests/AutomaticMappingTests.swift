import Foundation
import Testing
@testable import Magma

/// Lines without key paths: keys from property names, converted by the mapping's KeyNaming.
@Suite struct AutomaticMappingTests {
    struct Repo: JSONModel, Equatable {
        enum Visibility: String { case `public`, `private` }
        var id = 0
        var fullName = ""
        var htmlURL: URL?
        var stargazersCount = 0
        var visibility = Visibility.public
        var createdAt: Date?
        var ownerLogin = ""
        var isFork = false

        static let jsonMapping = JSONMapping<Repo>(keyNaming: .snakeCase) {
            Map.properties(\.id, \.fullName, \.htmlURL, \.stargazersCount, \.createdAt)
            Map(\.visibility)
            Map(\.ownerLogin, "owner.login")
            Map(\.isFork)
            Map(\.isFork, "fork")          // an explicit line overrides the derived one
        }
    }

    @Test func snakeCaseKeys_fromPropertyNames() throws {
        let json = #"""
        {"id": 7, "full_name": "a/b", "html_url": "https://x.org/a/b", "stargazers_count": 3,
         "visibility": "private", "created_at": "2024-01-31T12:00:00Z", "owner": {"login": "a"},
         "fork": true, "is_fork": false}
        """#
        let repo = try decodeEverywhere(Repo.self, json)
        #expect(repo.id == 7 && repo.fullName == "a/b" && repo.stargazersCount == 3 && repo.ownerLogin == "a")
        #expect(repo.htmlURL == URL(string: "https://x.org/a/b"))
        #expect(repo.visibility == .private)
        #expect(repo.createdAt == Date(timeIntervalSince1970: 1_706_702_400))
        #expect(repo.isFork)
        let written = String(decoding: try JSONAdapter.json(from: repo), as: UTF8.self)
        #expect(written.contains(#""full_name":"a/b""#) && written.contains(#""fork":true"#) && !written.contains("is_fork"))
        #expect(try decodeEverywhere(Repo.self, written) == repo)
    }

    struct Plain: JSONModel, Equatable {
        var userName = ""
        var count: Int?
        static let jsonMapping = JSONMapping<Plain> { Map.properties(\.userName, \.count) }
    }

    @Test func defaultNaming_isThePropertyName() throws {
        #expect(try decodeEverywhere(Plain.self, #"{"userName": "x", "count": 2, "user_name": "y"}"#) == Plain(userName: "x", count: 2))
    }

    @Test func snakeCase_conversions() {
        let cases = ["createdAt": "created_at", "htmlURL": "html_url", "URLString": "url_string", "id": "id",
                     "userID2": "user_id2", "already_snake": "already_snake", "aB": "a_b", "HTTPStatusCode": "http_status_code"]
        for (name, key) in cases { #expect(KeyNaming.snakeCase.key(for: name) == key, "\(name)") }
        #expect(KeyNaming.kebabCase.key(for: "createdAt") == "created-at")
        #expect(KeyNaming { $0.uppercased() }.key(for: "id") == "ID")
    }

    class Animal: JSONModel {
        var legs = 0
        required init() {}
        class var jsonMapping: JSONMapping<Animal> { mapping }
        static let mapping = JSONMapping<Animal>(keyNaming: .snakeCase) { Map(\.legs) }
    }

    @Test func nonFinalClassProperty_withoutName_failsWhenBuilt() {
        #expect(throws: JSONError.self) { try Animal.jsonMapping.validate() }
        do { try Animal.jsonMapping.validate() } catch let error as JSONError {
            #expect(error.code == .invalidMapping)
            #expect(error.message.contains(".named"))
        } catch {}
    }

    class NamedAnimal: JSONModel, Equatable {
        var legCount = 0
        required init() {}
        class var jsonMapping: JSONMapping<NamedAnimal> { mapping }
        static let mapping = JSONMapping<NamedAnimal>(keyNaming: .snakeCase) { Map(\.legCount).named("legCount") }
        static func == (a: NamedAnimal, b: NamedAnimal) -> Bool { a.legCount == b.legCount }
    }

    @Test func nonFinalClassProperty_named() throws {
        #expect(try decodeEverywhere(NamedAnimal.self, #"{"leg_count": 4}"#).legCount == 4)
    }
}
