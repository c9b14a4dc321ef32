import Foundation
import Testing
@testable import Magma

/// A model's per-value choice of the properties it writes (Mantle's `serializablePropertyKeys:forModel:`).
@Suite struct SelectiveEncodingTests {
    struct Post: JSONModel, SelectiveEncoding, Equatable {
        var title = ""
        var author: String?
        var anonymous = false
        var reviewer = ""
        static let jsonMapping = JSONMapping<Post> {
            Map(\.title, "title")
            Map(\.author, "author")
            Map(\.anonymous, "anonymous")
            Map(\.reviewer, "review.by")
        }
        func encodes(_ property: AnyKeyPath) -> Bool {
            if anonymous { return property != \Post.author && property != \Post.reviewer }
            return true
        }
    }

    struct Feed: JSONModel {
        var posts: [Post] = []
        static let jsonMapping = JSONMapping<Feed> { Map(\.posts, "posts") }
    }

    @Test func aModel_leavesOutThePropertiesItChooses_perValue() throws {
        let signed = Post(title: "a", author: "ann", anonymous: false, reviewer: "bob")
        let anonymous = Post(title: "b", author: "cat", anonymous: true, reviewer: "dan")
        #expect(String(decoding: try JSONAdapter.json(from: signed), as: UTF8.self)
            == #"{"title":"a","author":"ann","anonymous":false,"review":{"by":"bob"}}"#)
        #expect(String(decoding: try JSONAdapter.json(from: anonymous), as: UTF8.self) == #"{"title":"b","anonymous":true}"#)
        var sorted = EncodingOptions()
        sorted.sortedKeys = true
        #expect(String(decoding: try JSONAdapter.json(from: Feed(posts: [signed, anonymous]), options: sorted), as: UTF8.self)
            == #"{"posts":[{"anonymous":false,"author":"ann","review":{"by":"bob"},"title":"a"},{"anonymous":true,"title":"b"}]}"#)
    }

    class Account: JSONModel, SelectiveEncoding {
        var login = ""
        var password = ""
        required init() {}
        class var jsonMapping: JSONMapping<Account> { accountMapping }
        static let accountMapping = JSONMapping<Account> { Map(\.login, "login").named("login"); Map(\.password, "password").named("password") }
        func encodes(_ property: AnyKeyPath) -> Bool { property != \Account.password }
    }

    @Test func aClassModel_choosesToo() throws {
        let account = Account()
        (account.login, account.password) = ("ann", "secret")
        #expect(String(decoding: try JSONAdapter.json(from: account), as: UTF8.self) == #"{"login":"ann"}"#)
    }
}
