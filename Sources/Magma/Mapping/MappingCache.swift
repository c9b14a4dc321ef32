import Synchronization

/// Each model type's mapping, kept once it has been read: a generic model cannot hold its
/// mapping in a `static let` (Swift has no stored statics in generic types), so its
/// `jsonMapping` builds and compiles a new mapping on every access; Magma reads it through here
/// and builds it once per specialisation (`Page<Issue>` and `Page<User>` each once).
///
/// Reads take no lock: the dictionary is an immutable snapshot behind an atomic pointer,
/// replaced (under a lock) when a type is added. A replaced snapshot is never freed, since a
/// reader may still hold it; there are as many as there are model types, each small.
enum MappingCache {
    private final class Snapshot {
        let mappings: [ObjectIdentifier: AnyObject]
        init(_ mappings: [ObjectIdentifier: AnyObject]) { self.mappings = mappings }
    }

    /// The snapshot's address (0: none yet); an `Int` since a pointer is not `Sendable`.
    private static let current = Atomic<Int>(0)
    private static let writers = Mutex<Void>(())

    /// `type`'s mapping (its dynamic type's, for a class model), built on first use.
    static func mapping<Model: JSONModel>(_ type: Model.Type) -> JSONMapping<Model.MappingRoot> {
        let key = ObjectIdentifier(type)
        if let found = lookUp(key) { return unsafeDowncast(found, to: JSONMapping<Model.MappingRoot>.self) }
        let built = type.jsonMapping
        let kept = writers.withLock { _ -> AnyObject in
            if let found = lookUp(key) { return found }
            var mappings = snapshot()?.mappings ?? [:]
            mappings[key] = built
            current.store(Int(bitPattern: Unmanaged.passRetained(Snapshot(mappings)).toOpaque()), ordering: .releasing)
            return built
        }
        return unsafeDowncast(kept, to: JSONMapping<Model.MappingRoot>.self)
    }

    private static func lookUp(_ key: ObjectIdentifier) -> AnyObject? { snapshot()?.mappings[key] }

    private static func snapshot() -> Snapshot? {
        guard let address = UnsafeRawPointer(bitPattern: current.load(ordering: .acquiring)) else { return nil }
        return Unmanaged<Snapshot>.fromOpaque(address).takeUnretainedValue()
    }
}

extension JSONModel {
    /// ``JSONModel/jsonMapping``, built once per type (see `MappingCache`): what Magma reads.
    static var cachedMapping: JSONMapping<MappingRoot> { MappingCache.mapping(self) }
}
