import Foundation
import Testing
@testable import Magma

/// Versioned archives: the model version written with the model; older archives migrated, newer refused.
@Suite struct ArchiveTests {
    /// Version 1 wrote `{"name": "Ann Lee", "closed": true, "nick": "ann"}`; version 2 has a
    /// first and last name, a state, and `handle` for `nick`; version 3 will come later.
    struct Person: VersionedModel, Equatable {
        var first = ""
        var last = ""
        var state = "open"
        var handle = ""
        static let jsonMapping = JSONMapping<Person> { Map.properties(\.first, \.last, \.state, \.handle) }
        static let modelVersion = 2
        static let migrations: [ArchiveMigration] = [
            .renameKey("nick", to: "handle", before: 2),
            .property("closed", before: 2) { _ in nil },
            .property("state", before: 2) { old in old ?? .string("open") },
        ]
        static func migrate(_ json: inout JSONValue, from version: Int) throws {
            if version < 2, case .string(let name)? = json[path: ["name"]] {
                let parts = name.split(separator: " ").map(String.init)
                json[path: ["first"]] = .string(parts.first ?? "")
                json[path: ["last"]] = .string(parts.dropFirst().joined(separator: " "))
                json[path: ["name"]] = nil
            }
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
    struct Endpoint: VersionedModel, Equatable {
        var host = ""
        var port = 0
        static let jsonMapping = JSONMapping<Endpoint> {
            Map(\.host, "host")
            Map(\.port, "port\\.number")
        }
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
        var migrated = try JSONAdapter.value(from: Data(#"{"server.host": "example.org", "server": {"port": 8080}}"#.utf8), .json)
        for migration in Endpoint.migrations { try migration.body(&migrated) }
        #expect(migrated == .object(["host": .string("example.org"), "port.number": .number(8080),
                                     "server": .object([:]), "server.host": .string("stale")]))
        do {
            try ArchiveMigration.renameKey("a.", to: "b", before: 2).body(&migrated)
            Issue.record("a malformed key path was migrated")
        } catch let error as JSONError {
            #expect(error.code == .invalidMapping)
        }
    }

    final class Note: VersionedModel, MappedEquality {
        var text = ""
        required init() {}
        static let jsonMapping = JSONMapping<Note> { Map(\.text) }
        static let modelVersion = 1
    }

    @Test func classModels_archiveToo() throws {
        let note = Note()
        note.text = "hi"
        #expect(try JSONArchive.unarchive(Note.self, from: JSONArchive.archive(note)) == note)
    }
}
