import Foundation

// Versioned archives: a model's JSON in an envelope that records the model version it was written
// with, `{"version": 2, "model": {…}}`. Mantle did this with NSCoding (+modelVersion,
// -decodeValueForKey:withCoder:modelVersion:); Magma writes JSON through the model's mapping and
// migrates old archives as JSON before decoding them.

/// A model whose archives record a version, and which can read archives of older versions: a
/// `@JSONModel` model or a `Map`-declared one.
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
public protocol VersionedModel: JSONObjectModel {
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
///
/// Key paths are read as a ``Map``'s are: dotted (`user.login`), with `a\.b` the key `a.b`, and
/// a component that is a non-negative integer (the `0` of `labels.0.name`) an index where the value
/// is an array and a key where it is an object (`{"labels": {"0": …}}`, the shape encoding writes
/// for such a key path). Escaping does not change that: `labels.\0` is `labels.0`, as in a `Map`.
///
/// Where a key path meets the JSON, ``property(_:before:_:)`` and ``renameKey(_:to:before:)``
/// behave as decoding does:
/// - Reading (the old key path of a rename, the value a property migration is given): a missing
///   key, a `null` on the way, or an index past the end of its array is an absent value (nil). A
///   key path that continues through a string, number or bool, or through an array with a
///   component that is not an index, fails with ``JSONError/Code/notAnObject``.
/// - Writing a value: missing keys and `null`s on the way become objects, as encoding writes them;
///   an index past the end of its array fails with ``JSONError/Code/missingKey`` (a migration
///   replaces elements, it does not invent the ones before). To leave short arrays alone, return
///   nil when given nil: `{ old in old.map(…) }`.
/// - Removing (nil): a key is removed from its object, an element from its array (the later
///   elements move up, as in a JSON Patch `remove`); a value already absent is left alone.
///
/// A property or rename migration that fails leaves the JSON as it was; its error's
/// ``JSONError/path`` is the value the key path stopped at, from the model's JSON (`$.labels`).
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
    ///
    /// `body` is given nil where the value is absent, including an index past the end of its
    /// array; see ``ArchiveMigration`` for how key paths meet arrays and other values.
    /// - Parameters:
    ///   - keyPath: The key path, dotted as a ``Map``'s (`user.login`, `labels.0.name`; `a\.b` is
    ///     the key `a.b`); a malformed one fails the migration with ``JSONError/Code/invalidMapping``.
    ///   - version: Archives written by versions below this one are changed.
    ///   - body: The new value from the old one (nil: absent); return nil to remove the value.
    public static func property(_ keyPath: String, before version: Int,
                                _ body: @escaping (JSONValue?) throws -> JSONValue?) -> ArchiveMigration {
        let path = MigrationKeyPath.parse(keyPath)
        return ArchiveMigration(before: version) { json in
            let path = try path.get()
            let new = try body(try json.value(at: path))
            try json.setValue(new, at: path)
        }
    }

    /// Moves the value at one key path to another in archives older than `version`; nothing
    /// happens where the old key path is absent.
    ///
    /// See ``ArchiveMigration`` for how key paths meet arrays and other values: moving an array
    /// element out removes it from its array.
    /// - Parameters:
    ///   - old: The key path the older versions wrote, dotted as a ``Map``'s (`labels.0.name`).
    ///   - new: The key path this version reads.
    ///   - version: Archives written by versions below this one are changed.
    public static func renameKey(_ old: String, to new: String, before version: Int) -> ArchiveMigration {
        let from = MigrationKeyPath.parse(old), to = MigrationKeyPath.parse(new)
        return ArchiveMigration(before: version) { json in
            let from = try from.get(), to = try to.get()
            guard let value = try json.value(at: from) else { return }
            // On a copy: if the new key path cannot be written, the JSON keeps the old one.
            var moved = json
            try moved.setValue(nil, at: from)
            try moved.setValue(value, at: to)
            json = moved
        }
    }
}

/// A migration's key path, split as a mapping's is, each component with the array index it
/// stands for where the JSON holds an array.
struct MigrationKeyPath {
    struct Component {
        let key: String
        /// The element this component picks from an array; nil if it only names an object key.
        let index: Int?
    }

    /// The key path as written, for messages.
    let text: String
    let components: [Component]

    /// Parsed when the migration is made; a malformed key path fails when migrating.
    static func parse(_ keyPath: String) -> Result<MigrationKeyPath, JSONError> {
        Result { () throws(JSONError) in
            let keys = try MappingPlan.components(of: keyPath, property: "an archive migration")
            let components = keys.map { Component(key: $0, index: PlanNode.arrayIndex($0)) }
            return MigrationKeyPath(text: keyPath, components: components)
        }
    }

    /// What a migration writing through a missing level makes there: an array where the
    /// component is an index (as encoding writes `labels.0.name`), else an object.
    func emptyContainer(at depth: Int) -> JSONValue {
        components[depth].index == nil ? .object([:]) : .array([])
    }

    /// The key path continues through `value` at `depth`, which is not a container it can enter.
    func notAContainer(_ value: JSONValue, at depth: Int, path: String) -> JSONError {
        let component = components[depth]
        let problem: String
        if case .array = value {
            problem = "it is an array, and \"\(component.key)\" is not an index"
        } else {
            problem = "it is \(JSONError.article(value.typeName)) \(value.typeName), not an object" + (component.index == nil ? "" : " or an array")
        }
        var error = JSONError(.notAnObject, "the archive migration's key path \"\(text)\" continues through this value, but \(problem)")
        error.path = path
        return error
    }
}

extension JSONValue {
    /// The value at a migration's key path; nil where it is absent (a missing key, a `null` on the
    /// way, an index past the end of its array).
    /// - Throws: ``JSONError/Code/notAnObject`` where the key path continues through a value it
    ///   cannot enter.
    func value(at path: MigrationKeyPath) throws(JSONError) -> JSONValue? {
        var current = self
        var trail = "$"
        for (depth, component) in path.components.enumerated() {
            switch (current, component.index) {
            case (.object(let members), _):
                guard let next = members[component.key] else { return nil }
                current = next
                trail += JSONPath.component(component.key)
            case (.array(let elements), let index?):
                guard index < elements.count else { return nil }
                current = elements[index]
                trail += "[\(index)]"
            case (.null, _):
                return nil
            default:
                throw path.notAContainer(current, at: depth, path: trail)
            }
        }
        return current
    }

    /// Sets (or, with nil, removes) the value at a migration's key path. On failure the value is
    /// unchanged: each level is changed on a copy and stored back only once the rest succeeded.
    /// - Throws: ``JSONError/Code/notAnObject`` where the key path continues through a value it
    ///   cannot enter; ``JSONError/Code/missingKey`` to write past the end of an array.
    mutating func setValue(_ new: JSONValue?, at path: MigrationKeyPath) throws(JSONError) {
        try setValue(new, at: path, depth: 0, trail: "$")
    }

    private mutating func setValue(_ new: JSONValue?, at path: MigrationKeyPath, depth: Int, trail: String) throws(JSONError) {
        let component = path.components[depth]
        let isLast = depth == path.components.count - 1
        switch (self, component.index) {
        case (.object(var members), _):
            if isLast {
                members[component.key] = new
            } else {
                guard var child = members[component.key] ?? (new == nil ? nil : path.emptyContainer(at: depth + 1)) else { return }
                try child.setValue(new, at: path, depth: depth + 1, trail: trail + JSONPath.component(component.key))
                members[component.key] = child
            }
            self = .object(members)
        case (.array(var elements), let index?):
            if index == 0, elements.isEmpty, new != nil {
                // A new array's first element, as encoding writes an index key path.
                elements.append(isLast ? new! : path.emptyContainer(at: depth + 1))
            }
            guard index < elements.count else {
                if new == nil { return }
                // An error rather than leaving the JSON unchanged or padding the array: dropping
                // the value the migration wrote loses it without a word, and padding invents
                // elements (nulls) that decoding then rejects far from the cause. Reading the
                // same index is an absent value, so `{ old in old.map(…) }` never gets here.
                var error = JSONError(.missingKey, "the archive migration's key path \"\(path.text)\" writes element \(index) "
                    + "of this array, which has \(elements.count) element\(elements.count == 1 ? "" : "s")")
                error.path = trail
                throw error
            }
            if !isLast {
                try elements[index].setValue(new, at: path, depth: depth + 1, trail: trail + "[\(index)]")
            } else if let new {
                elements[index] = new
            } else {
                elements.remove(at: index)
            }
            self = .array(elements)
        case (.null, _):
            // Absent, as when reading: a value makes it a container, as a missing key would be.
            guard new != nil else { return }
            var container = path.emptyContainer(at: depth)
            try container.setValue(new, at: path, depth: depth, trail: trail)
            self = container
        default:
            throw path.notAContainer(self, at: depth, path: trail)
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
        try objectModelCodec(M.self).write(model, into: &w)
        w.endObject()
        return w.takeData()
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
        return try objectModelCodec(M.self).decode(from: json, options: options)
    }
}
