/// One object level of a compiled mapping: the keys that matter here and where each one's value
/// goes (a property slot, or a deeper node for dotted key paths).
final class PlanNode {
    struct Entry {
        let target: Unmanaged<ValueTarget>
        /// Bits of the model's required properties that this key supplies.
        let requiredBits: RequiredSet
    }

    let keys: KeyTable
    /// Entries by index; `keys` maps key bytes to these indices.
    let entries: UnsafeMutableBufferPointer<Entry>
    /// The key of each entry as written in the mapping, for error paths and messages.
    let names: [String]
    /// Array-index components (`labels.0.name`): element index -> entry index, sorted by index.
    private let indices: [(index: Int, entry: Int)]
    /// Keeps the entries' targets alive.
    private let targets: [ValueTarget]

    var hasIndices: Bool { !indices.isEmpty }

    /// The properties this node's keys feed, at any depth below it, each once, in mapping order.
    var properties: [String] {
        var seen: [String] = []
        for target in targets {
            for property in PlanNode.properties(of: target) where !seen.contains(property) { seen.append(property) }
        }
        return seen
    }

    private static func properties(of target: ValueTarget) -> [String] {
        if let path = target as? PathTarget { return path.node.properties }
        if let tee = target as? TeeTarget { return tee.targets.flatMap(properties(of:)) }
        return target.property.map { [$0] } ?? []
    }

    /// A name that is a canonical number (`arrayIndex`) also stands for that element
    /// of an array.
    init(names: [String], targets: [ValueTarget], requiredBits: [RequiredSet]) {
        self.names = names
        self.targets = targets
        indices = names.enumerated().compactMap { entry, name in PlanNode.arrayIndex(name).map { (index: $0, entry: entry) } }
            .sorted { $0.index < $1.index }
        keys = KeyTable(names.map { Array($0.utf8) })
        entries = .allocate(capacity: max(targets.count, 1))
        for i in targets.indices {
            (entries.baseAddress! + i).initialize(to: Entry(target: .passUnretained(targets[i]), requiredBits: requiredBits[i]))
        }
    }

    deinit {
        entries.deallocate()
        keys.deallocate()
    }

    /// The array index a key path component stands for, or nil when it is an object key: digits
    /// written canonically (`0`, `12`; not `-0`, `+1` or `007`), which a key that merely holds a
    /// number keeps clear of. Mappings, record envelopes and archive migrations all read a
    /// component by this rule.
    static func arrayIndex(_ component: String) -> Int? {
        let utf8 = component.utf8
        guard let first = utf8.first, utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              first != UInt8(ascii: "0") || utf8.count == 1 else { return nil }
        return Int(component)
    }

    /// The entry for array element `index`, if a key path names it.
    @inline(__always)
    func element(at index: Int) -> Int? {
        for e in indices where e.index == index { return e.entry }
        return nil
    }
}
