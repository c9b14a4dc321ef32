// The mapping layer (rank 5 in ARCHITECTURE.md): models and their declarations (`@JSONModel`
// drafts, `Map`, clusters, mapping files) compiled into a MappingPlan once per model type and
// mapping, before the first byte is read, and checked then (an illegal mapping fails here, not
// mid-decode). The plan is what the engine below reads: a PlanNode per JSON object (a KeyTable
// from key bytes to entries, each a ValueTarget made by the property's codec) and, for encoding,
// an EncodeNode tree. Plans are immutable once compiled, cached per type (MappingCache), and
// shared by every decode and every thread.

/// A model's mapping compiled into a tree of plan nodes, checked before the first byte is read.
final class MappingPlan {
    let model: String
    let root: PlanNode
    /// One bit per required property.
    let requiredMask: RequiredSet
    private let requiredNames: [(property: String, key: String)]
    /// Properties fed by several key paths, applied when the object ends.
    let multiKey: [MultiKeyBinding]
    /// Captured values a model frame holds for `multiKey`.
    let captureCount: Int
    /// Child models that get a back-reference to the model when its object ends (class models
    /// that declare relationships; empty for every other model).
    let relationships: [RelationshipLink]
    /// `!relationships.isEmpty`, read per model without touching the array (no retain).
    let hasRelationships: Bool
    /// The model's JSON object for encoding: properties in mapping order, dotted key paths as
    /// nested objects; one-way properties left out.
    let encodeRoot: EncodeNode

    init<Model>(_ maps: [Map<Model>], model: String) throws(JSONError) {
        self.model = model
        let tree = NodeBuilder()
        var seen: [AnyKeyPath: String] = [:]
        var requiredNames: [(String, String)] = []
        var multiKey: [MultiKeyBinding] = []
        var captureCount = 0
        var relationships: [RelationshipLink] = []
        let encodeRoot = EncodeNode()
        var reads: [KeyClaim] = []
        var writes: [KeyClaim] = []

        for map in maps {
            if let problem = map.problem { throw problem }
            let name = map.propertyName   // worked out once (see `Map.names`)
            let keyPaths: [String]
            switch map.source {
            case .single(let k, _): keyPaths = [k]
            case .multiple(let ks, _): keyPaths = ks
            }
            let shown = keyPaths.map { "\"\($0)\"" }.joined(separator: ", ")
            if let earlier = seen[map.property] {
                throw .invalidMapping("\(name) is mapped twice (from \(earlier) and from \(shown))")
            }
            seen[map.property] = shown
            if let relationship = map.relationship { relationships.append(relationship) }
            if keyPaths.isEmpty { throw .invalidMapping("\(name) is mapped from no key path") }
            var bit = RequiredSet.none
            if map.required {
                if requiredNames.count == RequiredSet.capacity {
                    throw .invalidMapping("\(model) has more than \(RequiredSet.capacity) required properties")
                }
                bit = RequiredSet(index: requiredNames.count)
                requiredNames.append((name, keyPaths.joined(separator: "\" or \"")))
            }
            var paths: [[String]] = []
            for keyPath in keyPaths {
                let components = try MappingPlan.components(of: keyPath, property: name)
                paths.append(components)
            }
            var written = paths
            if let encodeKey = map.encodeKey { written = [try MappingPlan.components(of: encodeKey, property: name)] }
            reads += paths.map { KeyClaim(path: $0, origin: map.origin, property: name, separate: false) }
            if map.writer != nil {
                writes += written.map { KeyClaim(path: $0, origin: map.origin, property: name, separate: map.encodeKey != nil) }
            }
            switch map.source {
            case .single(_, let makeTarget):
                try tree.insert(paths[0], makeTarget(name), bit: bit, keyPath: keyPaths[0], property: name)
            case .multiple(_, let makeBinding):
                let binding = makeBinding(name)
                binding.firstCapture = captureCount
                for (i, path) in paths.enumerated() {
                    let slot = Slot(JSONValueCodec.shared, CaptureReceiver(captureCount + i), property: name)
                    try tree.insert(path, slot, bit: bit, keyPath: keyPaths[i], property: name)
                }
                captureCount += paths.count
                multiKey.append(binding)
            }
            if let makeWriter = map.writer {
                let writer = makeWriter(name)
                for (i, path) in written.enumerated() {
                    encodeRoot.add(path[...], writer, part: paths.count > 1 ? keyPaths[i] : nil, keyPath: map.property)
                }
            }
        }
        try KeyClaim.check(reads: reads, writes: writes)
        try encodeRoot.checkArrays()
        root = try tree.build()
        requiredMask = RequiredSet(first: requiredNames.count)
        self.requiredNames = requiredNames
        self.multiKey = multiKey
        self.relationships = relationships
        hasRelationships = !relationships.isEmpty
        self.captureCount = captureCount
        encodeRoot.seal(filter: (Model.self as? any SelectiveEncoding.Type).map { SelectiveEncodingFilter.make($0) })
        self.encodeRoot = encodeRoot
    }

    /// The first required property among `missing` bits.
    func requiredName(for missing: RequiredSet) -> (property: String, key: String) {
        requiredNames[missing.first]
    }

    /// The array index a key path component stands for (`PlanNode.arrayIndex`, whose rule it is).
    static func arrayIndex(_ component: String) -> Int? { PlanNode.arrayIndex(component) }

    /// Splits a key path on unescaped dots; `\.` is a literal dot and `\\` a backslash.
    static func components(of keyPath: String, property: String) throws(JSONError) -> [String] {
        if keyPath.isEmpty { throw .invalidMapping("\(property) is mapped from an empty key path") }
        var components: [String] = []
        var current = ""
        var escaped = false
        for c in keyPath {
            if escaped {
                current.append(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "." {
                components.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        if escaped { throw .invalidMapping("\(property): key path \"\(keyPath)\" ends with a lone backslash") }
        components.append(current)
        if components.contains(where: \.isEmpty) {
            throw .invalidMapping("\(property): key path \"\(keyPath)\" has an empty component")
        }
        return components
    }
}

/// A key path a line reads or writes, for the keys two of them may not share: one a flattened
/// model reads and the model (or another flattened model) reads too, or one a line writes back at
/// its own encoding key and another line writes too. Lines of the model's own that read one key
/// share it (each gets the value; the first writes it back).
private struct KeyClaim {
    let path: [String]
    /// The flattened property the line came from; nil for the model's own.
    let origin: String?
    let property: String
    /// Written at an encoding key of its own.
    let separate: Bool

    /// The same key, or one holding the other (`a` and `a.b`).
    func overlaps(_ other: KeyClaim) -> Bool {
        let n = min(path.count, other.path.count)
        return path.prefix(n) == other.path.prefix(n)
    }

    var claimant: String { origin.map { "\($0) (its \(property))" } ?? property }
    var key: String { "\"" + path.joined(separator: ".") + "\"" }

    static func check(reads: [KeyClaim], writes: [KeyClaim]) throws(JSONError) {
        let flattens = reads.contains { $0.origin != nil }, separates = writes.contains(where: \.separate)
        for (i, a) in reads.enumerated() where flattens {
            for b in reads[(i + 1)...] where a.origin != b.origin && a.overlaps(b) {
                let key = a.path.count <= b.path.count ? a.key : b.key
                throw .invalidMapping("\(key) is read by \(a.claimant) and by \(b.claimant): a flattened model's keys "
                                      + "are its own, in the object it is flattened into")
            }
        }
        for (i, a) in writes.enumerated() where separates {
            for b in writes[(i + 1)...] where (a.separate || b.separate) && a.overlaps(b) {
                let key = a.path.count <= b.path.count ? a.key : b.key
                throw .invalidMapping("\(key) is written back by \(a.claimant) and by \(b.claimant): give one of them "
                                      + "another encoding key")
            }
        }
    }
}

/// The mutable tree a plan is compiled from.
private final class NodeBuilder {
    /// A key's value targets, and the node of the key paths that continue through it: a key
    /// may have both (`owner` to a nested model, `owner.login` to a flat property).
    struct Child {
        var values: [ValueTarget] = []
        var bits = RequiredSet.none
        var node: NodeBuilder?
    }

    var order: [String] = []
    var children: [String: Child] = [:]

    func insert(_ path: [String], _ target: ValueTarget, bit: RequiredSet, keyPath: String, property: String) throws(JSONError) {
        let key = path[0]
        if children[key] == nil {
            order.append(key)
            children[key] = Child()
        }
        if path.count == 1 {
            children[key]!.values.append(target)
            children[key]!.bits.formUnion(bit)
            return
        }
        let node = children[key]!.node ?? NodeBuilder()
        children[key]!.node = node
        try node.insert(Array(path.dropFirst()), target, bit: bit, keyPath: keyPath, property: property)
    }

    func build() throws(JSONError) -> PlanNode {
        var targets: [ValueTarget] = []
        var bits: [RequiredSet] = []
        for key in order {
            let child = children[key]!
            // A key both mapped as a value and continued through feeds both: its value is
            // captured once and replayed into each (as for several properties of one key).
            var ts = child.values
            if let node = child.node { ts.append(PathTarget(try node.build())) }
            targets.append(ts.count == 1 ? ts[0] : TeeTarget(ts))
            bits.append(child.bits)
        }
        return PlanNode(names: order, targets: targets, requiredBits: bits)
    }
}

extension MappingPlan {
    /// The cluster's `discriminator` a model of this plan is given first, or nil: none, or the
    /// mapping maps that key itself (its member writes it).
    func addedDiscriminator(_ discriminator: (key: String, value: String)?) -> (key: String, value: String)? {
        guard let discriminator, !root.names.contains(discriminator.key) else { return nil }
        return discriminator
    }

    /// Writes the model at `model` as one object: `addedDiscriminator(discriminator)` first; its
    /// members chosen by `filter` when there is one (a `SelectiveEncoding` `@JSONModel` model's
    /// choice, asked while its draft is written).
    func write(_ model: UnsafeRawPointer, discriminator: (key: String, value: String)?,
               choosing filter: ((UnsafeRawPointer, AnyKeyPath) -> Bool)?, into w: inout JSONWriter) throws {
        guard let discriminator = addedDiscriminator(discriminator) else {
            if let filter { return try encodeRoot.write(model, choosing: filter, into: &w) }
            return try encodeRoot.write(model, into: &w)
        }
        w.beginObject()
        w.key(discriminator.key)
        w.string(discriminator.value)
        if let filter {
            try encodeRoot.writeMembers(model, choosing: filter, into: &w)
        } else {
            try encodeRoot.writeMembers(model, into: &w)
        }
        w.endObject()
    }
}
