import Foundation

// Versioned archives: a model's JSON in an envelope that records the model version it was written
// with, `{"version": 2, "model": {…}}`. Mantle did this with NSCoding (+modelVersion,
// -decodeValueForKey:withCoder:modelVersion:); Magma writes JSON through the model's mapping and
// migrates old archives as JSON before decoding them.

/// A model whose archives record a version, and which can read archives of older versions.
///
/// ```swift
/// extension GHIssue: VersionedModel {
///     static let modelVersion = 2
///     static let migrations: [ArchiveMigration] = [
///         .renameKey("reporter", to: "user.login", before: 2),
///         .property("state", before: 2) { old in old == .bool(true) ? .string("closed") : .string("open") },
///     ]
/// }
/// let data  = try JSONArchive.archive(issue)
/// let issue = try JSONArchive.unarchive(GHIssue.self, from: data)
/// ```
public protocol VersionedModel: JSONModel {
    /// The version this code writes and reads; archives of older versions are migrated, newer
    /// ones refused.
    static var modelVersion: Int { get }
    /// Per-property or per-archive changes from older versions, applied in order to the
    /// archive's JSON before it is decoded. Default none.
    static var migrations: [ArchiveMigration] { get }
    /// Migrates an older archive's model JSON as a whole, after ``migrations``. Default: nothing.
    /// - Parameters:
    ///   - json: The model's JSON as the older version wrote it, to change in place.
    ///   - version: The version that wrote it.
    /// - Throws: Any error: a ``JSONError`` as it is, any other as ``JSONError/Code/invalidValue``.
    static func migrate(_ json: inout JSONValue, from version: Int) throws
}

extension VersionedModel {
    public static var migrations: [ArchiveMigration] { [] }
    public static func migrate(_ json: inout JSONValue, from version: Int) throws {}
}

/// One change to an older archive's model JSON.
public struct ArchiveMigration: @unchecked Sendable {
    /// Archives written by versions below this one are migrated.
    public let before: Int
    let body: (inout JSONValue) throws -> Void

    /// Changes the whole model JSON of archives older than `version`.
    /// - Parameters:
    ///   - version: Archives written by versions below this one are changed.
    ///   - body: Changes the JSON in place.
    public static func archive(before version: Int, _ body: @escaping (inout JSONValue) throws -> Void) -> ArchiveMigration {
        ArchiveMigration(before: version, body: body)
    }

    /// Replaces the value at a key path of archives older than `version`.
    /// - Parameters:
    ///   - keyPath: The key path, dotted as a ``Map``'s (`user.login`; `a\.b` is the key `a.b`);
    ///     a malformed one fails the migration with ``JSONError/Code/invalidMapping``.
    ///   - version: Archives written by versions below this one are changed.
    ///   - body: The new value from the old one (nil: absent); return nil to remove the key.
    public static func property(_ keyPath: String, before version: Int,
                                _ body: @escaping (JSONValue?) throws -> JSONValue?) -> ArchiveMigration {
        let path = components(of: keyPath)
        return ArchiveMigration(before: version) { json in
            let path = try path.get()[...]
            let new = try body(json[path: path])
            json[path: path] = new
        }
    }

    /// Moves the value at one key path to another in archives older than `version`.
    /// - Parameters:
    ///   - old: The key path the older versions wrote, dotted as a ``Map``'s.
    ///   - new: The key path this version reads.
    ///   - version: Archives written by versions below this one are changed.
    public static func renameKey(_ old: String, to new: String, before version: Int) -> ArchiveMigration {
        let from = components(of: old), to = components(of: new)
        return ArchiveMigration(before: version) { json in
            let from = try from.get()[...], to = try to.get()[...]
            guard let value = json[path: from] else { return }
            json[path: from] = nil
            json[path: to] = value
        }
    }

    /// A key path's keys, split as a mapping's are; a malformed key path fails when migrating.
    private static func components(of keyPath: String) -> Result<[String], JSONError> {
        Result { () throws(JSONError) in try MappingPlan.components(of: keyPath, property: "an archive migration") }
    }
}

extension JSONValue {
    /// The value at a key path; setting nil removes it, setting a value creates the objects on
    /// the way.
    subscript(path path: ArraySlice<String>) -> JSONValue? {
        get {
            guard let key = path.first, case .object(let members) = self else { return path.isEmpty ? self : nil }
            return path.count == 1 ? members[key] : members[key]?[path: path.dropFirst()]
        }
        set {
            guard let key = path.first else { return }
            var members: [String: JSONValue] = [:]
            if case .object(let existing) = self { members = existing } else if newValue == nil { return }
            if path.count == 1 {
                members[key] = newValue
            } else {
                var child = members[key] ?? .object([:])
                child[path: path.dropFirst()] = newValue
                members[key] = child
            }
            self = .object(members)
        }
    }
}

/// Writes and reads versioned archives of models.
public enum JSONArchive {
    /// Writes `model` with its version: `{"version": N, "model": {…}}`.
    /// - Parameters:
    ///   - model: The model.
    ///   - options: How to write the JSON.
    /// - Returns: The archive, UTF-8 JSON.
    /// - Throws: ``JSONError`` if a property cannot be encoded.
    public static func archive<M: VersionedModel>(_ model: M, options: EncodingOptions = .init()) throws -> Data {
        var w = JSONWriter(options: options)
        w.beginObject()
        w.key("version")
        w.int64(Int64(M.modelVersion))
        w.key("model")
        try ModelCodec<M>().write(model, into: &w)
        w.endObject()
        return Data(w.bytes)
    }

    /// Reads an archive: as it is if this version wrote it, through ``VersionedModel/migrations``
    /// and ``VersionedModel/migrate(_:from:)`` if an older one did.
    /// - Parameters:
    ///   - type: The model type.
    ///   - data: The archive.
    ///   - options: How to read the model.
    /// - Returns: The model.
    /// - Throws: ``JSONError``: ``JSONError/Code/unsupportedVersion`` for an archive of a newer
    ///   version; ``JSONError/Code/missingKey`` or ``JSONError/Code/typeMismatch`` for a malformed
    ///   envelope; a migration's ``JSONError`` as it is, and its other errors as
    ///   ``JSONError/Code/invalidValue``; else decoding errors.
    public static func unarchive<M: VersionedModel>(_ type: M.Type, from data: Data, options: DecodingOptions = .init()) throws -> M {
        let envelope = try JSONAdapter.value(from: data, .json, options: options)
        guard case .object(let members) = envelope else {
            throw JSONError.typeMismatch(expected: "an archive object", found: envelope.typeName)
        }
        guard let versionValue = members["version"] else { throw JSONError(.missingKey, "the archive has no \"version\"") }
        guard case .number(let number) = versionValue, let version = number.int64Value.map(Int.init) else {
            throw JSONError.typeMismatch(expected: "an integer version", found: versionValue.typeName)
        }
        guard var json = members["model"] else { throw JSONError(.missingKey, "the archive has no \"model\"") }
        if version > M.modelVersion {
            throw JSONError(.unsupportedVersion, "the archive was written by \(M.self) version \(version); "
                + "this code reads versions up to \(M.modelVersion)")
        }
        if version < M.modelVersion {
            do {
                for migration in M.migrations where version < migration.before { try migration.body(&json) }
                try M.migrate(&json, from: version)
            } catch let error as JSONError {
                throw error
            } catch {
                throw JSONError(.invalidValue, "migrating \(M.self) from version \(version): \(error)", underlying: error)
            }
        }
        return try ModelCodec<M>().decode(from: json, options: options)
    }
}
