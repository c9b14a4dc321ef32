import Foundation
import Testing
@testable import Magma

/// Versioned archives: the model version written with the model; older archives migrated, newer refused.
@Suite struct ArchiveTests {
    /// Version 1 wrote `{"name": "Ann Lee", "closed": true, "nick": "ann"}`; version 2 has a
    /// first and last name, a state, and `handle` for `nick`; version 3 will come later.
    @JSONModel struct Person: VersionedModel, Equatable {
        var first = ""
        var last = ""
        var state = "open"
        var handle = ""
        static let modelVersion = 2
        static let migrations: [ArchiveMigration] = [
            .renameKey("nick", to: "handle", before: 2),
            .property("closed", before: 2) { _ in nil },
            .property("state", before: 2) { old in old ?? .string("open") },
        ]
        static func migrate(_ json: inout JSONValue, from version: Int) throws {
            guard version < 2, case .object(var members) = json,
                  case .string(let name)? = members.removeValue(forKey: "name") else { return }
            let parts = name.split(separator: " ").map(String.init)
            members["first"] = .string(parts.first ?? "")
            members["last"] = .string(parts.dropFirst().joined(separator: " "))
            json = .object(members)
        }
    }

    @Test func archive_recordsTheVersion_andReadsBack() throws {
        let person = Person(first: "Ann", last: "Lee", state: "closed", handle: "ann")
        let data = try JSONArchive.archive(person)
        #expect(String(decoding: data, as: UTF8.self) == #"{"version":2,"model":{"first":"Ann","last":"Lee","state":"closed","handle":"ann"}}"#)
        #expect(try JSONArchive.unarchive(Person.self, from: data) == person)
    }

    @Test func olderArchive_isMigrated_perPropertyAndPerArchive() throws {
        let old = Data(#"{"model": {"name": "Ann Lee", "closed": true, "nick": "ann"}, "version": 1}"#.utf8)
        #expect(try JSONArchive.unarchive(Person.self, from: old) == Person(first: "Ann", last: "Lee", state: "open", handle: "ann"))
    }

    @Test func newerArchive_failsClearly() throws {
        let newer = Data(#"{"version": 3, "model": {"first": "Ann"}}"#.utf8)
        do {
            _ = try JSONArchive.unarchive(Person.self, from: newer)
            Issue.record("a newer archive was read")
        } catch let error as JSONError {
            #expect(error.code == .unsupportedVersion)
            #expect(error.message.contains("version 3") && error.message.contains("up to 2"))
        }
    }

    @Test func malformedEnvelope_isAnError() {
        for (json, code) in [(#"{"model": {}}"#, JSONError.Code.missingKey), (#"{"version": "2", "model": {}}"#, .typeMismatch),
                             (#"{"version": 2}"#, .missingKey), (#"[1]"#, .typeMismatch)] {
            #expect(throws: JSONError.self) { _ = try JSONArchive.unarchive(Person.self, from: Data(json.utf8)) }
            do { _ = try JSONArchive.unarchive(Person.self, from: Data(json.utf8)) } catch let error as JSONError {
                #expect(error.code == code, "\(json)")
            } catch {}
        }
    }

    /// Version 1 wrote the host under the dotted key `"server.host"` and the port at
    /// `server.port`; version 2 reads `host` and the dotted key `"port.number"`.
    @JSONModel struct Endpoint: VersionedModel, Equatable {
        var host = ""
        @Key("port\\.number") var port = 0
        static let modelVersion = 2
        static let migrations: [ArchiveMigration] = [
            .renameKey("server\\.host", to: "host", before: 2),
            .renameKey("server.port", to: "port\\.number", before: 2),
            .property("server\\.host", before: 2) { _ in .string("stale") },   // after the rename: recreates the key
        ]
    }

    @Test func migrationKeyPaths_readEscapedDots_asTheMappingDoes() throws {
        let old = Data(#"{"version": 1, "model": {"server.host": "example.org", "server": {"port": 8080}}}"#.utf8)
        #expect(try JSONArchive.unarchive(Endpoint.self, from: old) == Endpoint(host: "example.org", port: 8080))
        var migrated = try Self.migrated(#"{"server.host": "example.org", "server": {"port": 8080}}"#, Endpoint.migrations)
        #expect(migrated == .object(["host": .string("example.org"), "port.number": .number(8080),
                                     "server": .object([:]), "server.host": .string("stale")]))
        do {
            try ArchiveMigration.renameKey("a.", to: "b", before: 2).body(&migrated)
            Issue.record("a malformed key path was migrated")
        } catch let error as JSONError {
            #expect(error.code == .invalidMapping)
        }
    }

    @JSONModel final class Note: VersionedModel, MappedEquality {
        var text = ""
        init(text: String = "") { self.text = text }
        static let modelVersion = 1
    }

    @Test func classModels_archiveToo() throws {
        let note = Note(text: "hi")
        #expect(try JSONArchive.unarchive(Note.self, from: JSONArchive.archive(note)) == note)
    }

    // MARK: Key paths through arrays

    /// Version 1 wrote each label's text as `title` and its colour without `#`; version 2 reads
    /// the first label's `name` and `color` through index key paths, as its mapping does.
    struct Ticket: JSONModel, VersionedModel, Equatable {
        var firstLabel = ""
        var firstColor = ""
        static let jsonMapping = JSONMapping<Ticket> {
            Map(\.firstLabel, "labels.0.name")
            Map(\.firstColor, "labels.0.color")
        }
        static let modelVersion = 2
        static let migrations: [ArchiveMigration] = [
            .renameKey("labels.0.title", to: "labels.0.name", before: 2),
            .property("labels.0.color", before: 2) { old in
                old.map { if case .string(let hex) = $0 { .string("#" + hex) } else { $0 } }
            },
        ]
    }

    /// A model's JSON as text, parsed.
    static func json(_ text: String) throws -> JSONValue { try JSONAdapter.value(from: Data(text.utf8), .json) }

    /// `json` after `migrations`, applied in order as an archive's are.
    static func migrated(_ text: String, _ migrations: [ArchiveMigration]) throws -> JSONValue {
        var value = try json(text)
        for migration in migrations { try migration.body(&value) }
        return value
    }

    static func migrated(_ text: String, _ migrations: ArchiveMigration...) throws -> JSONValue { try migrated(text, migrations) }

    /// The error `migration` fails with on `text`, and the JSON it left.
    static func failure(_ text: String, _ migration: ArchiveMigration) throws -> (error: JSONError?, left: JSONValue) {
        var value = try json(text)
        do { try migration.body(&value) } catch let error as JSONError { return (error, value) }
        return (nil, value)
    }

    @Test func indexKeyPaths_renameAndRewrite_theArrayElement() throws {
        let old = Data(#"{"version": 1, "model": {"labels": [{"title": "bug", "color": "f00"}, {"title": "ui"}]}}"#.utf8)
        #expect(try JSONArchive.unarchive(Ticket.self, from: old) == Ticket(firstLabel: "bug", firstColor: "#f00"))
        #expect(try Self.migrated(#"{"labels": [{"title": "bug", "color": "f00"}, {"title": "ui"}]}"#, Ticket.migrations)
            == Self.json(##"{"labels": [{"name": "bug", "color": "#f00"}, {"title": "ui"}]}"##))
        // No first label: the rename finds nothing, and the colour migration is given nil and returns it.
        let empty = Data(#"{"version": 1, "model": {"labels": []}}"#.utf8)
        #expect(try JSONArchive.unarchive(Ticket.self, from: empty) == Ticket())
    }

    /// Key paths a `Map` reads through arrays, objects with numeric keys, and escapes.
    struct LabelProbe: JSONModel, Equatable {
        var first: JSONValue?
        var second: JSONValue?
        var escaped: JSONValue?
        var beyond: JSONValue?
        static let keyPaths = ["labels.0.name", "labels.1.name", #"labels.\0.name"#, "labels.5.name"]
        static let jsonMapping = JSONMapping<LabelProbe> {
            Map(\.first, keyPaths[0])
            Map(\.second, keyPaths[1])
            Map(\.escaped, keyPaths[2])
            Map(\.beyond, keyPaths[3])
        }
    }

    @Test(arguments: [
        #"{"labels": [{"name": "bug"}, {"name": "ui"}]}"#,
        #"{"labels": [{"name": "only"}]}"#,
        #"{"labels": [null, {"name": 2, "color": "c"}]}"#,
        #"{"labels": {"0": {"name": "zero"}, "1": {"name": "one"}}}"#,
        #"{"labels": {"00": {"name": "not zero"}, "x": 1}}"#,
        #"{"labels": null}"#,
        #"{}"#,
    ])
    func propertyMigration_readsWhatTheMappingDecodes(_ text: String) throws {
        let decoded = try decodeEverywhere(LabelProbe.self, text)
        let expected = [decoded.first, decoded.second, decoded.escaped, decoded.beyond]
        for (keyPath, value) in zip(LabelProbe.keyPaths, expected) {
            var given: JSONValue?? = .none
            let unchanged = try Self.migrated(text, .property(keyPath, before: 2) { old in given = old; return old })
            #expect(given == .some(value), "\(keyPath)")
            #expect(try unchanged == Self.json(text), "\(keyPath): giving the value back changes nothing")
        }
    }

    @Test func indexKeyPaths_removeElements_andMoveThemOut() throws {
        #expect(try Self.migrated(#"{"tags": ["a", "b", "c"]}"#, .property("tags.0", before: 2) { _ in nil })
            == Self.json(#"{"tags": ["b", "c"]}"#))
        #expect(try Self.migrated(#"{"tags": ["a", "b"]}"#, .renameKey("tags.1", to: "last", before: 2))
            == Self.json(#"{"tags": ["a"], "last": "b"}"#))
        #expect(try Self.migrated(#"{"labels": [{"name": "a", "old": 1}]}"#, .property("labels.0.old", before: 2) { _ in nil })
            == Self.json(#"{"labels": [{"name": "a"}]}"#))
        // Removing what is not there changes nothing.
        #expect(try Self.migrated(#"{"tags": ["a"]}"#, .property("tags.3", before: 2) { _ in nil }) == Self.json(#"{"tags": ["a"]}"#))
    }

    @Test func writingPastTheEndOfAnArray_isAnError_andLeavesTheJSON() throws {
        let text = #"{"title": "bug", "labels": [{"name": "a"}]}"#
        for migration in [ArchiveMigration.property("labels.2.name", before: 2) { _ in .string("x") },
                          .renameKey("title", to: "labels.1.name", before: 2)] {
            let (error, left) = try Self.failure(text, migration)
            #expect(error?.code == .missingKey)
            #expect(error?.path == "$.labels")
            #expect(error?.message.contains("which has 1 element") == true, "\(String(describing: error))")
            #expect(try left == Self.json(text))
        }
        // Through unarchive, the migration's error as it is.
        let archive = Data(#"{"version": 1, "model": {"labels": "bug"}}"#.utf8)
        #expect { _ = try JSONArchive.unarchive(Ticket.self, from: archive) } throws: { ($0 as? JSONError)?.code == .notAnObject }
    }

    @Test(arguments: [
        // (json, key path, path of the value the key path stopped at, words of the message)
        (#"{"labels": "bug"}"#, "labels.0.name", "$.labels", "a string, not an object or an array"),
        (#"{"labels": ["bug"]}"#, "labels.0.name", "$.labels[0]", "a string, not an object"),
        (#"{"labels": [{"name": "a"}]}"#, "labels.name", "$.labels", #"an array, and "name" is not an index"#),
        (#"{"labels": [{"name": "a"}]}"#, "labels.+0.name", "$.labels", #""+0" is not an index"#),
        (#"{"labels": [{"name": "a"}]}"#, "labels.-1.name", "$.labels", #""-1" is not an index"#),
        (#"{"ratios": [1, 2]}"#, #"ratios.1\.5"#, "$.ratios", #""1.5" is not an index"#),
        (#"{"user": 7}"#, "user.login", "$.user", "a number, not an object"),
    ])
    func keyPathThroughAValueItCannotEnter_isAnError(_ text: String, _ keyPath: String, _ path: String, _ words: String) throws {
        for migration in [ArchiveMigration.property(keyPath, before: 2) { $0 }, .renameKey(keyPath, to: "moved", before: 2)] {
            let (error, left) = try Self.failure(text, migration)
            #expect(error?.code == .notAnObject, "\(keyPath)")
            #expect(error?.path == path, "\(keyPath)")
            #expect(error?.message.contains(words) == true, "\(String(describing: error))")
            #expect(error?.message.contains(keyPath) == true, "\(String(describing: error))")
            #expect(try left == Self.json(text))
        }
        // Writing there fails the same way: the value is not replaced by an object.
        let (error, left) = try Self.failure(text, .renameKey("absent", to: keyPath, before: 2))
        #expect(error == nil, "a rename with nothing to move writes nothing")
        #expect(try left == Self.json(text))
        let (writeError, written) = try Self.failure(text, .property(keyPath, before: 2) { _ in .string("x") })
        #expect(writeError?.code == .notAnObject && writeError?.path == path, "\(keyPath)")
        #expect(try written == Self.json(text))
    }

    @Test func keysThatOnlyLookLikeIndices_areKeys() throws {
        // Numeric components name keys of objects, as in a mapping.
        #expect(try Self.migrated(#"{"labels": {"0": {"title": "a"}, "+1": 1, "-1": 2}}"#,
                                  .renameKey("labels.0.title", to: "labels.0.name", before: 2),
                                  .renameKey("labels.+1", to: "plus", before: 2),
                                  .property("labels.-1", before: 2) { _ in nil })
            == Self.json(#"{"labels": {"0": {"name": "a"}}, "plus": 1}"#))
        // An escaped dot makes one key, numeric-looking or not.
        #expect(try Self.migrated(#"{"ratios": {"1.5": 3, "1": {"5": 4}}}"#, .renameKey(#"ratios.1\.5"#, to: "r", before: 2))
            == Self.json(#"{"ratios": {"1": {"5": 4}}, "r": 3}"#))
        // Where there is nothing yet, a numeric component makes an array (its next element): the
        // shape encoding writes for such a key path, which decoding reads back.
        let made = try Self.migrated("{}", .property("labels.0.name", before: 2) { _ in .string("x") },
                                     .property("labels.0.color", before: 2) { _ in .string("#fff") })
        #expect(try made == Self.json(String(decoding: JSONAdapter.json(from: Ticket(firstLabel: "x", firstColor: "#fff")), as: UTF8.self)))
        #expect(try Self.migrated(#"{"labels": null}"#, .property("labels.0.name", before: 2) { _ in .string("x") })
            == Self.json(#"{"labels": [{"name": "x"}]}"#))
    }
}
