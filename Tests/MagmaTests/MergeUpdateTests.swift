import Foundation
import Testing
@testable import Magma

/// Merging models (with merge hooks) and updating a model from partial JSON.
@Suite struct MergeUpdateTests {
    /// Merge hooks of each kind of draft property: held as an optional (`likes`), an optional
    /// (`score`), a default of an unwritten type (`tags`).
    @JSONModel
    struct Post: Equatable {
        let title: String
        @Merge({ (mine: Int, theirs: Int) in mine + theirs }) let likes: Int     // Mantle's mergeLikesFromModel:
        @Merge(highest) var score: Double? = nil
        @Merge(union) var tags = [String]()
        @Ignore var local = "kept"

        static func highest(_ mine: Double?, _ theirs: Double?) -> Double? { [mine, theirs].compactMap { $0 }.max() }
        static func union(_ mine: [String], _ theirs: [String]) -> [String] { mine + theirs.filter { !mine.contains($0) } }
    }

    @Test func merge_hookSumsTwoCounts_othersTakeTheOtherValue() throws {
        var mine = Post(title: "old", likes: 3, score: 2, tags: ["a"], local: "mine")
        let theirs = Post(title: "new", likes: 4, score: nil, tags: ["a", "b"], local: "theirs")
        try mine.merge(from: theirs)
        #expect(mine == Post(title: "new", likes: 7, score: 2, tags: ["a", "b"], local: "mine"))
        #expect(try Post(title: "", likes: 1).merging(Post(title: "", likes: 2)).likes == 3)
    }

    @Test func mergeHook_ofTheWrongType_failsWhenBuilt() {
        struct Bad: JSONModel {
            var n = 0
            static let jsonMapping = JSONMapping<Bad> { Map(\.n, "n").merging { (a: String, b: String) in a + b } }
        }
        #expect(throws: JSONError.self) { try Bad.jsonMapping.validate() }
    }

    final class Counter: JSONModel {
        var name = ""
        var count = 0
        required init() {}
        static let jsonMapping = JSONMapping<Counter> {
            Map(\.name, "name")
            Map(\.count, "count").merging { (a: Int, b: Int) in a + b }
        }
    }

    @Test func merge_classModels() throws {
        var a = Counter()
        a.count = 2
        let b = Counter()
        b.name = "b"
        b.count = 5
        try a.merge(from: b)
        #expect(a.name == "b" && a.count == 7)
    }

    /// `merge(from:)` covers every kind of line: one read from several key paths, lines a
    /// subclass inherits, and lines loaded from a mapping file as a model's own mapping.
    @Test func merge_propertyFromSeveralKeyPaths() throws {
        var mine = MappingTests.FullName(name: "Ada Lovelace", id: 1)
        try mine.merge(from: MappingTests.FullName(name: "Grace Hopper", id: 2))
        #expect(mine == MappingTests.FullName(name: "Grace Hopper", id: 2))
    }

    @Test func merge_inheritedLines() throws {
        let mine = ClassModelTests.RaceCar()
        mine.wheels = 4; mine.name = "mine"; mine.doors = 2; mine.topSpeed = 100
        let theirs = ClassModelTests.RaceCar()
        theirs.wheels = 3; theirs.name = "theirs"; theirs.doors = 0; theirs.topSpeed = 300
        var merged: ClassModelTests.Vehicle = mine
        try merged.merge(from: theirs)
        #expect(mine.wheels == 3 && mine.name == "theirs" && mine.doors == 0 && mine.topSpeed == 300)
    }

    struct Loaded: JSONModel, Equatable {
        var title = ""
        var pages = 0
        static let declared = JSONMapping<Loaded> { Map.properties(\.title, \.pages) }
        static let jsonMapping = try! JSONMapping(declared: declared, loading: Data(#"{"properties": {"title": "info.name", "pages": "n"}}"#.utf8))
    }

    @Test func merge_fileLoadedLines() throws {
        var mine = Loaded(title: "a", pages: 1)
        try mine.merge(from: Loaded(title: "b", pages: 2))
        #expect(mine == Loaded(title: "b", pages: 2))
        #expect(try JSONAdapter.model(Loaded.self, from: #"{"info": {"name": "c"}, "n": 3}"#) == Loaded(title: "c", pages: 3))
    }

    @Test func update_changesOnlyThePresentKeys() throws {
        // The seed's example: update a GHIssue with new data from the server.
        var issue = try JSONAdapter.model(GHIssue.self, from: #"""
        {"number": 12, "state": "open", "title": "Crash", "body": "It crashes", "user": {"login": "ann"},
         "labels": [{"name": "bug", "color": "f00"}], "assignee": {"login": "bob", "id": 2}}
        """#)
        issue.retrievedAt = Date(timeIntervalSince1970: 99)
        let server = #"{"state": "closed", "title": "Crash on launch", "assignee": {"login": "cat"}, "labels": []}"#
        var expected = issue
        expected.state = .closed
        expected.title = "Crash on launch"
        expected.assignee = GHUser(login: "cat")
        expected.labels = []
        for size in chunkSizes {
            var copy = issue
            try JSONAdapter.update(&copy, from: .chunks(chunks(Array(server.utf8), size)))
            #expect(copy == expected, "chunk size \(size)")
        }
        try JSONAdapter.update(&issue, from: server)
        #expect(issue == expected)
        #expect(issue.number == 12 && issue.body == "It crashes" && issue.reporterLogin == "ann")
        #expect(issue.retrievedAt == Date(timeIntervalSince1970: 99))
    }

    @Test func update_failing_leavesAStructUnchanged() throws {
        var issue = GHIssue()
        issue.number = 5
        #expect(throws: JSONError.self) { try JSONAdapter.update(&issue, from: #"{"title": "x", "number": "five"}"#) }
        #expect(issue.number == 5 && issue.title == "")
    }

    @Test func update_macroModel_changesOnlyThePresentKeys_keepsIgnored() throws {
        var issue = try JSONAdapter.model(MacroIssue.self, from: MacroModelTests.issueJSON)
        issue.retrievedAt = Date(timeIntervalSince1970: 99)
        let server = #"{"state": "open", "user": {"login": null}, "assignee": {"login": "cat", "id": 3}, "labels": [], "number": 8}"#
        let expected = MacroIssue(url: issue.url, number: 8, state: .open, reporterLogin: nil, firstMilestone: "v1", labels: [],
                                  assignee: MacroUser(login: "cat", id: 3), updatedAt: issue.updatedAt,
                                  retrievedAt: Date(timeIntervalSince1970: 99))
        for size in chunkSizes {
            var copy = issue
            try JSONAdapter.update(&copy, from: .chunks(chunks(Array(server.utf8), size)))
            #expect(copy == expected, "chunk size \(size)")
        }
        try JSONAdapter.update(&issue, from: server)
        #expect(issue == expected)
    }

    @Test func update_macroModel_failing_leavesItUnchanged() throws {
        let original = try JSONAdapter.model(MacroIssue.self, from: MacroModelTests.issueJSON)
        for bad in [#"{"state": "closed", "number": "eight"}"#, #"{"number": null}"#, #"{"labels": [{"color": "f00"}]}"#] {
            var issue = original
            #expect(throws: JSONError.self) { try JSONAdapter.update(&issue, from: bad) }
            #expect(issue == original, "\(bad)")
        }
    }

    /// Updating and merging build the model anew: its hooks run after the ignored properties are
    /// carried over, so a hook that derives one sees the new values.
    @JSONModel struct Tally: Equatable {
        var name = ""
        var count = 0
        @Ignore var label = ""
        @Ignore var local = "unset"
        mutating func didDecode() throws { label = "\(name)=\(count)" }
        func validate() throws { if count < 0 { throw JSONError(.invalidValue, "negative") } }
    }

    @Test func update_macroModel_runsItsHooks() throws {
        var tally = try JSONAdapter.model(Tally.self, from: #"{"name": "a", "count": 1}"#)
        tally.local = "mine"
        try JSONAdapter.update(&tally, from: #"{"count": 2}"#)
        #expect(tally == Tally(name: "a", count: 2, label: "a=2", local: "mine"))
        let error = #expect(throws: JSONError.self) { try JSONAdapter.update(&tally, from: #"{"count": -1}"#) }
        #expect(error?.code == .invalidValue)
        #expect(tally.count == 2)
    }

    @Test func merge_macroModel_takesTheOtherValues_keepsIgnored() throws {
        var mine = Tally(name: "a", count: 3, label: "", local: "mine")
        try mine.merge(from: Tally(name: "b", count: 4, label: "", local: "theirs"))
        #expect(mine == Tally(name: "b", count: 4, label: "b=4", local: "mine"))
        #expect(try Tally(count: 1).merging(Tally(count: 2)).count == 2)
        var issue = try JSONAdapter.model(MacroIssue.self, from: MacroModelTests.issueJSON)
        issue.retrievedAt = Date(timeIntervalSince1970: 5)
        let other = MacroIssue(url: URL(string: "https://x.org")!, number: 1, reporterLogin: nil, firstMilestone: nil, labels: [],
                               assignee: nil, updatedAt: Date(timeIntervalSince1970: 0))
        var expected = other
        expected.retrievedAt = issue.retrievedAt
        #expect(try issue.merging(other) == expected, "an optional nil in the other model is taken too")
    }

    @Test func update_macroFinalClass_storesAModelWithTheNewValues() throws {
        var node = try JSONAdapter.model(MacroNode.self, from: #"{"name": "root", "children": [{"name": "leaf", "children": []}], "weight": 2}"#)
        try JSONAdapter.update(&node, from: #"{"weight": 3}"#)
        #expect(node.name == "root" && node.children.map(\.name) == ["leaf"] && node.weight == 3)
    }

    /// A tagged enum has no properties to keep: the JSON gives its value anew.
    @Test func update_aTaggedEnum_takesTheValueTheJSONGives() throws {
        var shape = Shape33.circle(radius: 2)
        try JSONAdapter.update(&shape, from: #"{"type": "rect", "width": 3}"#)
        #expect(shape == .rectangle(width: 3, height: 1))
        #expect(throws: JSONError.self) { try JSONAdapter.update(&shape, from: #"{"type": "rect", "width": "x"}"#) }
        #expect(shape == .rectangle(width: 3, height: 1))
    }

    @Test func update_aClassModel_inPlace_throughItsDynamicType() throws {
        let circle = ClusterTests.Circle()
        circle.id = 1
        circle.radius = 2
        var shape: ClusterTests.Shape = circle
        try JSONAdapter.update(&shape, from: #"{"radius": 8}"#)
        #expect(shape === circle && circle.radius == 8 && circle.id == 1)
    }
}
