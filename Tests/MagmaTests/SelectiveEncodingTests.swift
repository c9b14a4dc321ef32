import Foundation
import Testing
@testable import Magma

/// A model's per-value choice of the properties it writes (Mantle's `serializablePropertyKeys:forModel:`).
@Suite struct SelectiveEncodingTests {
    @JSONModel
    struct Post: SelectiveEncoding, Equatable {
        let title: String
        let author: String?
        var anonymous = false
        @Key("review.by") let reviewer: String
        func encodes(_ property: AnyKeyPath) -> Bool {
            if anonymous { return property != \Post.author && property != \Post.reviewer }
            return true
        }
    }

    /// A `Map` parent of the macro model.
    struct Feed: JSONModel {
        var posts: [Post] = []
        static let jsonMapping = JSONMapping<Feed> { Map(\.posts, "posts") }
    }

    /// A macro parent: the model as a property, an optional and array elements.
    @JSONModel
    struct Thread {
        let first: Post
        let pinned: Post?
        let replies: [Post]
    }

    static let signed = Post(title: "a", author: "ann", anonymous: false, reviewer: "bob")
    static let anonymous = Post(title: "b", author: "cat", anonymous: true, reviewer: "dan")

    @Test func aModel_leavesOutThePropertiesItChooses_perValue() throws {
        let (signed, anonymous) = (Self.signed, Self.anonymous)
        #expect(String(decoding: try JSONAdapter.json(from: signed), as: UTF8.self)
            == #"{"title":"a","author":"ann","anonymous":false,"review":{"by":"bob"}}"#)
        #expect(String(decoding: try JSONAdapter.json(from: anonymous), as: UTF8.self) == #"{"title":"b","anonymous":true}"#)
        var sorted = EncodingOptions()
        sorted.sortedKeys = true
        #expect(String(decoding: try JSONAdapter.json(from: Feed(posts: [signed, anonymous]), options: sorted), as: UTF8.self)
            == #"{"posts":[{"anonymous":false,"author":"ann","review":{"by":"bob"},"title":"a"},{"anonymous":true,"title":"b"}]}"#)
        #expect(String(decoding: try JSONAdapter.json(from: [anonymous, signed]), as: UTF8.self)
            == #"[{"title":"b","anonymous":true},{"title":"a","author":"ann","anonymous":false,"review":{"by":"bob"}}]"#)
    }

    @Test func aModelNestedInAMacroModel_choosesToo() throws {
        let thread = Thread(first: Self.anonymous, pinned: Self.anonymous, replies: [Self.signed, Self.anonymous])
        let anonymousJSON = #"{"title":"b","anonymous":true}"#
        #expect(String(decoding: try JSONAdapter.json(from: thread), as: UTF8.self)
            == #"{"first":\#(anonymousJSON),"pinned":\#(anonymousJSON),"replies":[{"title":"a","author":"ann","anonymous":false,"review":{"by":"bob"}},\#(anonymousJSON)]}"#)
    }

    /// A case of a protocol cluster: written with its discriminator, and its own choice.
    protocol Item {}
    @JSONModel
    struct Note: Item, SelectiveEncoding {
        let text: String
        var secret: String?
        func encodes(_ property: AnyKeyPath) -> Bool { property != \Note.secret }
    }
    static let items = JSONCluster<any Item>(discriminator: "type") { ClusterCase("note", Note.self) }
    @JSONModel
    struct Board {
        @Transform(.array(.cluster(SelectiveEncodingTests.items))) var items: [any Item] = []
    }

    @Test func aClusterCase_choosesToo() throws {
        let board = Board(items: [Note(text: "a", secret: "s"), Note(text: "b", secret: nil)])
        #expect(String(decoding: try JSONAdapter.json(from: board), as: UTF8.self)
            == #"{"items":[{"type":"note","text":"a"},{"type":"note","text":"b"}]}"#)
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
