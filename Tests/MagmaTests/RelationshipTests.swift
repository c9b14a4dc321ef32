import Foundation
import Testing
@testable import Magma

/// Relationships between class models: back-references set by decoding, helpers keeping both sides consistent.
@Suite struct RelationshipTests {
    final class Issue: JSONModel {
        var title = ""
        var comments: [Comment] = []
        var assignee: Person?
        required init() {}
        static let jsonMapping = JSONMapping<Issue> {
            Map(\.title)
            Map(\.comments).inverse(\Comment.issue)
            Map(\.assignee).inverse(\Person.assigned)
        }
    }

    final class Comment: JSONModel {
        var text = ""
        weak var issue: Issue?
        required init() {}
        static let jsonMapping = JSONMapping<Comment> { Map(\.text) }
    }

    final class Person: JSONModel {
        var login = ""
        weak var assigned: Issue?
        required init() {}
        static let jsonMapping = JSONMapping<Person> { Map(\.login) }
    }

    static let json = #"{"comments": [{"text": "a"}, {"text": "b"}], "title": "t", "assignee": {"login": "ann"}}"#

    @Test func decoding_setsTheBackReferences() throws {
        for size in chunkSizes {
            let issue = try JSONAdapter.model(Issue.self, from: .chunks(chunks(Array(Self.json.utf8), size)))
            #expect(issue.comments.map(\.text) == ["a", "b"])
            #expect(issue.comments.allSatisfy { $0.issue === issue })
            #expect(issue.assignee?.assigned === issue)
        }
        // The back-references are weak and unmapped: encoding does not loop.
        let issue = try JSONAdapter.model(Issue.self, from: Self.json)
        #expect(String(decoding: try JSONAdapter.json(from: issue), as: UTF8.self)
            == #"{"title":"t","comments":[{"text":"a"},{"text":"b"}],"assignee":{"login":"ann"}}"#)
    }

    @Test func helpers_keepBothSidesConsistent() throws {
        let first = Issue(), second = Issue()
        let comment = Comment()
        try first.add(comment, to: "comments")
        #expect(first.comments.count == 1 && comment.issue === first)
        try second.add(comment, to: \.comments)          // moves it
        #expect(first.comments.isEmpty && second.comments.count == 1 && comment.issue === second)
        try second.remove(comment, from: "comments")
        #expect(second.comments.isEmpty && comment.issue == nil)

        let ann = Person()
        try first.set(ann, for: "assignee")
        #expect(first.assignee === ann && ann.assigned === first)
        try second.set(ann, for: \.assignee)             // taken from the first issue
        #expect(first.assignee == nil && second.assignee === ann && ann.assigned === second)
        let bob = Person()
        try second.set(bob, for: "assignee")
        #expect(ann.assigned == nil && bob.assigned === second)
        #expect(try second.related("assignee").count == 1)
        #expect(Issue.relationshipNames == ["comments", "assignee"])
    }

    @Test func unknownRelationship_orWrongUse_isAnError() throws {
        let issue = Issue()
        do {
            try issue.add(Comment(), to: "notes")
            Testing.Issue.record("added to an unknown relationship")
        } catch let error as JSONError {
            #expect(error.code == .unknownRelationship)
            #expect(error.message.contains("\"notes\"") && error.message.contains("comments, assignee"))
        }
        #expect(throws: JSONError.self) { try issue.add(Person(), to: "comments") }        // wrong child type
        #expect(throws: JSONError.self) { try issue.add(Person(), to: "assignee") }        // to-one
        #expect(throws: JSONError.self) { try issue.set(Comment(), for: "comments") }      // to-many
        #expect(throws: JSONError.self) { try issue.related("title") }
    }

    /// A class hierarchy: `posts` is declared on Thread, `pinned` on Topic, and Announcement
    /// inherits both.
    class Thread: JSONModel {
        var posts: [Post] = []
        var archived: [Post] = []     // not a relationship
        required init() {}
        class var jsonMapping: JSONMapping<Thread> { threadMapping }
        static let threadMapping = JSONMapping<Thread> { Map(\.posts, "posts").named("posts").inverse(\Post.thread) }
    }

    class Topic: Thread {
        var pinned: Post?
        override class var jsonMapping: JSONMapping<Thread> { topicMapping }
        static let topicMapping = JSONMapping<Thread>(Topic.self, inheriting: threadMapping) {
            Map(\.pinned, "pinned").named("pinned").inverse(\Post.pinnedIn)
        }
    }

    final class Announcement: Topic {
        override class var jsonMapping: JSONMapping<Thread> { announcementMapping }
        static let announcementMapping = JSONMapping<Thread>(Announcement.self, inheriting: topicMapping) {}
    }

    final class Post: JSONModel {
        var text = ""
        weak var thread: Thread?
        weak var pinnedIn: Topic?
        required init() {}
        static let jsonMapping = JSONMapping<Post> { Map(\.text) }
    }

    @Test func keyPathHelpers_onASubclass_findInheritedRelationships() throws {
        // A key path through a subclass is never == the superclass's own (its root type differs).
        let announcement = Announcement(), post = Post()
        try announcement.add(post, to: \.posts)           // declared on Thread
        #expect(announcement.posts.count == 1 && post.thread === announcement)
        try announcement.set(post, for: \.pinned)         // declared on Topic
        #expect(announcement.pinned === post && post.pinnedIn === announcement)
        try announcement.set(nil, for: \.pinned)
        #expect(post.pinnedIn == nil)
        let topic = Topic()
        try topic.add(post, to: \.posts)
        #expect(announcement.posts.isEmpty && post.thread === topic)
        do {
            try topic.add(post, to: \.archived)
            Testing.Issue.record("added through a property no relationship holds")
        } catch let error as JSONError {
            #expect(error.code == .unknownRelationship)
        }
        #expect(topic.archived.isEmpty)

        let decoded = try JSONAdapter.model(Announcement.self, from: #"{"posts": [{"text": "a"}], "pinned": {"text": "b"}}"#)
        #expect(decoded.posts.first?.thread === decoded && decoded.pinned?.pinnedIn === decoded)
    }

    /// A non-final class's key path has no name: ``Map/named(_:)`` gives the relationship its
    /// name, before or after `inverse`.
    class Board: JSONModel {
        var notes: [Note] = []
        required init() {}
        class var jsonMapping: JSONMapping<Board> { boardMapping }
        static let boardMapping = JSONMapping<Board> { Map(\.notes, "notes").inverse(\Note.board).named("notes") }
    }

    final class Note: JSONModel {
        var text = ""
        weak var board: Board?
        required init() {}
        static let jsonMapping = JSONMapping<Note> { Map(\.text) }
    }

    @Test func relationshipName_isTheLinesFinalName_namedBeforeOrAfterInverse() throws {
        let namedFirst = JSONMapping<Board> { Map(\.notes, "notes").named("notes").inverse(\Note.board) }
        /// The error of setting the to-many relationship, which names it.
        func setError(_ mapping: JSONMapping<Board>) throws -> String {
            let relationship = try #require(try mapping.plan().relationships.first as? Relationship<Board>)
            do {
                try relationship.set(Note(), on: Board())
            } catch let error as JSONError {
                return error.message
            }
            return "no error"
        }
        let message = "notes holds many models: add or remove them"
        #expect(try setError(namedFirst) == message)
        #expect(try setError(Board.boardMapping) == message)
        #expect(Board.relationshipNames == ["notes"])
        let board = Board(), note = Note()
        try board.add(note, to: "notes")
        #expect(board.notes.count == 1 && note.board === board)
    }

    @Test func inverseOnANonRelationshipProperty_failsWhenBuilt() {
        let bad = JSONMapping<Issue> { Map(\.title).inverse(\Comment.issue) }
        #expect(throws: JSONError.self) { try bad.validate() }
    }
}
