import Foundation
import Testing
@testable import Magma

@Suite struct SeedExampleTests {
    @Test func ghIssue_decodesEveryMappedField() throws {
        let json = String(decoding: try Fixtures.data("github_issue.json"), as: UTF8.self)
        let issue = try decodeEverywhere(GHIssue.self, json)
        #expect(issue.url == URL(string: "https://api.github.com/repos/octocat/Hello-World/issues/1347"))
        #expect(issue.htmlURL == URL(string: "https://github.com/octocat/Hello-World/issues/1347"))
        #expect(issue.number == 1347)
        #expect(issue.state == .open)
        #expect(issue.reporterLogin == "octocat")
        #expect(issue.assignee == GHUser(login: "hubot", id: 2, siteAdmin: true))
        #expect(issue.labels == [GHLabel(name: "bug", color: "f29513"), GHLabel(name: "needs triage \u{1F41B}", color: "ededed")])
        #expect(issue.updatedAt == Date(timeIntervalSince1970: 1_303_479_228))
        #expect(issue.title == "Found a bug \u{2014} \"quotes\" and \\ backslashes")
        #expect(issue.body == "I'm having a problem with this.\n\n```swift\nlet x = 1\n```\n\u{65E5}\u{672C}\u{8A9E} \u{1F680}")
        #expect(issue.retrievedAt == Date(timeIntervalSince1970: 0), "an unmapped property is never written")
    }

    @Test func ghIssue_nullAssigneeIsNil() throws {
        let issue = try decodeEverywhere(GHIssue.self, #"{"number": 1, "assignee": null, "state": "closed"}"#)
        #expect(issue.assignee == nil)
        #expect(issue.state == .closed)
    }

    @Test func ghIssues_topLevelArray() throws {
        let one = String(decoding: try Fixtures.data("github_issue.json"), as: UTF8.self)
        let json = "[\(one),\(one.replacingOccurrences(of: "1347", with: "7"))]"
        let issues = try JSONAdapter.models(GHIssue.self, from: json)
        #expect(issues.map(\.number) == [1347, 7])
        for size in chunkSizes {
            #expect(try JSONAdapter.models(GHIssue.self, from: .chunks(chunks(Array(json.utf8), size))) == issues)
        }
    }

    @Test func ghIssue_errorNamesPathAndProperty() throws {
        let json = #"[{"number": 1}, {"number": 2, "user": {"login": 42}}]"#
        do {
            _ = try JSONAdapter.models(GHIssue.self, from: json)
            Issue.record("expected an error")
        } catch let error as JSONError {
            #expect(error.code == .typeMismatch)
            #expect(error.path == "$[1].user.login")
            #expect(error.property == "GHIssue.reporterLogin")
            #expect(error.line == 1)
            #expect(error.offset == 48, "the start of the offending value")
            #expect(error.message.contains("String"))
            #expect(error.message.contains("number"))
        }
    }
}
