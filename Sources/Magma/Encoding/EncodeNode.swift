// Encoding, model to JSON. Each plan holds a tree of EncodeNodes (one per JSON object: the model,
// and the objects its dotted key paths rebuild). A node's members are EncodeMembers made once,
// when the plan is sealed:
//   FieldMember     a struct's stored property, read in place at `MemoryLayout.offset(of:)`
//   KeyPathMember   a class model's or a computed property, read once through its key path
//                   (both PropertyMembers: a property written through its ValueWriter)
//   MultiKeyMember  one key path of a property fed by several
//   ObjectMember    a rebuilt object, taken back when none of its members is written; or a
//                   rebuilt array, when every key below it is an index (`labels.0.name`)
// A member writes its key and value, or nothing (nil under `.omit`); the value goes through a
// ValueWriter (ValueWriter.swift), which reads memory and appends to the JSONWriter's buffer.
// The model is passed down as a raw pointer: no model, nested model or array element is copied,
// and the loop over members retains nothing.
// The same nodes give a model as a `JSONValue` (`object(_:choosing:omitsNil:)`, for a model
// codec's `encode`: a model transformer's reverse, `mappedJSON`): each member gives its value,
// its property's codec's `encode`, or nil where it writes nothing. No bytes are written and read
// back; the choices (filter, nil policy, an empty rebuilt object left out) are the writes'.

/// One object of a model's JSON: its members in mapping order, each a property or a nested
/// object rebuilt from dotted key paths. Built while the plan is compiled, then sealed: from
/// then on it is immutable and shared by every encode.
final class EncodeNode {
    private enum Entry {
        case property(PropertyWriter, part: String?, keyPath: AnyKeyPath?)
        case object(EncodeNode)
    }

    /// Whether the model at a pointer writes the property of a key path (the model's choice of
    /// what is written, per value); nil, the common case: every member is written.
    private var filter: ((UnsafeRawPointer, AnyKeyPath) -> Bool)?

    private var entries: [(key: String, entry: Entry)] = []
    /// A node below the model's own object whose keys are all array indices (`labels.0.name`,
    /// `labels.2.name`): written as a JSON array, as it was read; set by `seal()`.
    private(set) var isArray = false
    /// For an array node: the index each member stands for, in `members` order (ascending).
    private var indices: [Int] = []
    /// The members in mapping order; made by `seal()`, which also fills the two unretained lists
    /// the write loop walks (mapping order and key byte order: no retain per member).
    private var members: [EncodeMember] = []
    @exclusivity(unchecked) private var inOrder = UnsafeMutableBufferPointer<Unmanaged<EncodeMember>>(start: nil, count: 0)
    @exclusivity(unchecked) private var inKeyOrder = UnsafeMutableBufferPointer<Unmanaged<EncodeMember>>(start: nil, count: 0)

    deinit {
        inOrder.deallocate()
        inKeyOrder.deallocate()
    }

    func add(_ path: ArraySlice<String>, _ writer: PropertyWriter, part: String?, keyPath: AnyKeyPath? = nil) {
        let key = path.first!
        let existing = entries.firstIndex(where: { $0.key == key })
        if path.count == 1 {
            // Several properties read from one key: the first mapped writes it (the others read
            // the same value back), so the key is never written twice. A key mapped as a value
            // and continued through (`owner` and `owner.login`) writes the value: it holds what
            // the key paths through it read, and they are left out.
            if let existing {
                if case .object = entries[existing].entry { entries[existing].entry = .property(writer, part: part, keyPath: keyPath) }
                return
            }
            entries.append((key, .property(writer, part: part, keyPath: keyPath)))
        } else if let existing {
            if case .object(let node) = entries[existing].entry { node.add(path.dropFirst(), writer, part: part, keyPath: keyPath) }
        } else {
            let node = EncodeNode()
            node.add(path.dropFirst(), writer, part: part, keyPath: keyPath)
            entries.append((key, .object(node)))
        }
    }

    /// Checks that every rebuilt node is either an array (its keys all indices) or an object
    /// (none): a key path read both ways could not be written back.
    /// - Parameter path: The key path of this node, for the message.
    func checkArrays(path: [String] = []) throws(JSONError) {
        for (key, entry) in entries {
            guard case .object(let node) = entry else { continue }
            let keys = node.entries.map(\.key)
            let indices = keys.filter { PlanNode.arrayIndex($0) != nil }
            if !indices.isEmpty, indices.count != keys.count {
                let here = (path + [key]).joined(separator: ".")
                let named = keys.first { PlanNode.arrayIndex($0) == nil }!
                throw .invalidMapping("key path \"\(here)\" is read as an array (\"\(here).\(indices[0])\") and as an object "
                                      + "(\"\(here).\(named)\"): it could not be written back as both")
            }
            try node.checkArrays(path: path + [key])
        }
    }

    /// Call once the tree is complete.
    /// - Parameter filter: The model's choice of the properties it writes, per value; nil: all.
    func seal(filter: ((UnsafeRawPointer, AnyKeyPath) -> Bool)? = nil) {
        self.filter = filter
        for (_, entry) in entries {
            guard case .object(let node) = entry else { continue }
            let indices = node.entries.compactMap { PlanNode.arrayIndex($0.key) }
            if !indices.isEmpty, indices.count == node.entries.count {
                // Index order, one entry per index (`0` and `\0` are the same component).
                node.entries.sort { PlanNode.arrayIndex($0.key)! < PlanNode.arrayIndex($1.key)! }
                node.isArray = true
                node.indices = node.entries.map { PlanNode.arrayIndex($0.key)! }
            }
        }
        members = entries.map { key, entry in
            switch entry {
            case .property(let writer, let part, let keyPath):
                let member = writer.member(MemberKey(key), part: part)
                member.mappedProperty = keyPath
                return member
            case .object(let node):
                node.seal(filter: filter)
                return ObjectMember(MemberKey(key), node: node)
            }
        }
        let sorted = members.sorted { JSONWriter.byteOrder($0.key.name, $1.key.name) }
        inOrder.deallocate()
        inKeyOrder.deallocate()
        inOrder = .allocate(capacity: members.count)
        _ = inOrder.initialize(from: members.map { Unmanaged.passUnretained($0) })
        inKeyOrder = .allocate(capacity: sorted.count)
        _ = inKeyOrder.initialize(from: sorted.map { Unmanaged.passUnretained($0) })
    }

    /// Writes the model at `model` (a struct's storage, or a class reference) as one object.
    func write(_ model: UnsafeRawPointer, into w: inout JSONWriter) throws {
        w.beginObject()
        try writeMembers(model, into: &w)
        w.endObject()
    }

    func writeMembers(_ model: UnsafeRawPointer, into w: inout JSONWriter) throws {
        // `members` keeps every member alive as long as the node.
        if let filter { return try writeMembers(model, choosing: filter, into: &w) }
        for member in w.options.sortedKeys ? inKeyOrder : inOrder {
            try member._withUnsafeGuaranteedRef { try $0.write(model, into: &w) }
        }
    }

    /// Writes the model at `model` as one object, its members (those of the objects its dotted
    /// key paths rebuild too) chosen by `filter` instead of the node's own: a `@JSONModel`
    /// model's choice, asked of the model while its draft is written.
    func write(_ model: UnsafeRawPointer, choosing filter: (UnsafeRawPointer, AnyKeyPath) -> Bool, into w: inout JSONWriter) throws {
        w.beginObject()
        try writeMembers(model, choosing: filter, into: &w)
        w.endObject()
    }

    func writeMembers(_ model: UnsafeRawPointer, choosing filter: (UnsafeRawPointer, AnyKeyPath) -> Bool,
                                  into w: inout JSONWriter) throws {
        for member in w.options.sortedKeys ? inKeyOrder : inOrder {
            try member._withUnsafeGuaranteedRef { member in
                if let property = member.mappedProperty, !filter(model, property) { return }
                if let object = member as? ObjectMember { return try object.write(model, choosing: filter, into: &w) }
                try member.write(model, into: &w)
            }
        }
    }

    /// Writes an array node's elements: each index's value in its place, `null` where no key
    /// path names an index or its value is left out; elements after the last value are not
    /// written. Returns false, having written nothing, when no element has a value.
    func writeElements(_ model: UnsafeRawPointer, choosing filter: ((UnsafeRawPointer, AnyKeyPath) -> Bool)?,
                       into w: inout JSONWriter) throws -> Bool {
        let start = w.count
        w.beginArray()
        var next = 0, end = w.count
        for (index, member) in zip(indices, members) {
            if let filter, let property = member.mappedProperty, !filter(model, property) { continue }
            while next < index {
                w.element()
                w.null()
                next += 1
            }
            w.element()
            let mark = w.count
            try member.writeElement(model, choosing: filter, into: &w)
            next = index + 1
            if !w.endsWithNull(from: mark) { end = w.count }
        }
        guard end > start + 1 else {
            w.abandonObject(at: start)   // the bracket and its indent
            return false
        }
        w.truncate(to: end)
        w.endArray()
        return true
    }
}

extension EncodeNode {
    /// The model at `model` as the members of one object, each what `write` would write under
    /// its key, none written or read back.
    /// - Parameters:
    ///   - filter: The members chosen, as for `write(_:choosing:into:)`; nil: the node's own.
    ///   - omitsNil: Whether a nil property is left out (`.omit`) rather than `null`.
    func object(_ model: UnsafeRawPointer, choosing filter: ((UnsafeRawPointer, AnyKeyPath) -> Bool)?,
                omitsNil: Bool) throws -> [String: JSONValue] {
        let filter = filter ?? self.filter
        var object: [String: JSONValue] = [:]
        object.reserveCapacity(members.count)
        for member in members {
            if let filter, let property = member.mappedProperty, !filter(model, property) { continue }
            if let value = try member.value(model, choosing: filter, omitsNil: omitsNil) { object[member.key.name] = value }
        }
        return object
    }

    /// An array node's value, as `writeElements` writes it: nil when no element has one.
    func array(_ model: UnsafeRawPointer, choosing filter: ((UnsafeRawPointer, AnyKeyPath) -> Bool)?,
               omitsNil: Bool) throws -> JSONValue? {
        var elements: [JSONValue] = []
        for (index, member) in zip(indices, members) {
            if let filter, let property = member.mappedProperty, !filter(model, property) { continue }
            guard let value = try member.value(model, choosing: filter, omitsNil: false), value != .null else { continue }
            if elements.count <= index { elements += repeatElement(.null, count: index + 1 - elements.count) }
            elements[index] = value
        }
        return elements.isEmpty ? nil : .array(elements)
    }
}

/// One member of an object: writes its key and value, or nothing when the value is omitted.
class EncodeMember {
    let key: MemberKey
    /// The model property the member writes (nil for a rebuilt object), for a model's filter.
    var mappedProperty: AnyKeyPath?
    init(_ key: MemberKey) { self.key = key }
    deinit { key.deallocate() }

    func write(_ model: UnsafeRawPointer, into w: inout JSONWriter) throws {}
    /// The value `write` writes, or nil when it writes nothing.
    func value(_ model: UnsafeRawPointer, choosing filter: ((UnsafeRawPointer, AnyKeyPath) -> Bool)?,
               omitsNil: Bool) throws -> JSONValue? { nil }

    /// Writes the value alone, as an element of a rebuilt array: `null` where `write` would
    /// write nothing, so that the elements after it keep their indices.
    func writeElement(_ model: UnsafeRawPointer, choosing filter: ((UnsafeRawPointer, AnyKeyPath) -> Bool)?,
                      into w: inout JSONWriter) throws {
        try w.value(try value(model, choosing: filter, omitsNil: false) ?? .null)
    }
}

/// A member that writes one property through its value writer; its value is the property's
/// (`PropertyWriter.value(at:omitsNil:)`), read where the member finds it.
class PropertyMember: EncodeMember {
    let property: PropertyWriter
    let value: ValueWriter

    init(_ key: MemberKey, property: PropertyWriter, value: ValueWriter) {
        self.property = property
        self.value = value
        super.init(key)
    }
}

/// A stored property of a struct model, read in place at its offset.
final class FieldMember: PropertyMember {
    let offset: Int

    init(_ key: MemberKey, offset: Int, value: ValueWriter, property: PropertyWriter) {
        self.offset = offset
        super.init(key, property: property, value: value)
    }

    override func write(_ model: UnsafeRawPointer, into w: inout JSONWriter) throws {
        do {
            try value.writeMember(model + offset, key, into: &w)
        } catch {
            throw property.failure(error, model: model)
        }
    }
    override func value(_ model: UnsafeRawPointer, choosing filter: ((UnsafeRawPointer, AnyKeyPath) -> Bool)?,
                        omitsNil: Bool) throws -> JSONValue? {
        try property.value(at: model + offset, omitsNil: omitsNil)
    }
    override func writeElement(_ model: UnsafeRawPointer, choosing filter: ((UnsafeRawPointer, AnyKeyPath) -> Bool)?,
                               into w: inout JSONWriter) throws {
        do {
            try value.write(model + offset, into: &w)
        } catch {
            throw property.failure(error, model: model)
        }
    }
}

/// A property read through its key path (a class model's, or a computed one): read once, then
/// written from the local copy.
final class KeyPathMember<Model, V>: PropertyMember {
    /// `property`, typed: it reads the value.
    private let typed: TypedPropertyWriter<Model, V>

    init(_ key: MemberKey, property: TypedPropertyWriter<Model, V>, value: ValueWriter) {
        typed = property
        super.init(key, property: property, value: value)
    }

    override func write(_ model: UnsafeRawPointer, into w: inout JSONWriter) throws {
        let current = typed.value(model)
        do {
            try withUnsafePointer(to: current) { try value.writeMember(UnsafeRawPointer($0), key, into: &w) }
        } catch {
            throw property.failure(error, value: current)
        }
    }
    override func value(_ model: UnsafeRawPointer, choosing filter: ((UnsafeRawPointer, AnyKeyPath) -> Bool)?,
                        omitsNil: Bool) throws -> JSONValue? {
        try withUnsafePointer(to: typed.value(model)) { try property.value(at: UnsafeRawPointer($0), omitsNil: omitsNil) }
    }
}

/// One key path of a multi-key property: written when the reverse transformer produced it.
final class MultiKeyMember<Model, V>: EncodeMember {
    let property: MultiKeyPropertyWriter<Model, V>
    let part: String

    init(_ key: MemberKey, property: MultiKeyPropertyWriter<Model, V>, part: String) {
        self.property = property
        self.part = part
        super.init(key)
    }

    override func write(_ model: UnsafeRawPointer, into w: inout JSONWriter) throws {
        guard let value = try property.parts(model)[part] else { return }
        w.key(key)
        try w.value(value)
    }
    override func value(_ model: UnsafeRawPointer, choosing filter: ((UnsafeRawPointer, AnyKeyPath) -> Bool)?,
                        omitsNil: Bool) throws -> JSONValue? {
        try property.parts(model)[part]
    }
}

/// An object rebuilt from dotted key paths. Left out when none of its members is written: the
/// key and brace are written first and taken back then.
final class ObjectMember: EncodeMember {
    let node: EncodeNode

    init(_ key: MemberKey, node: EncodeNode) {
        self.node = node
        super.init(key)
    }

    override func write(_ model: UnsafeRawPointer, into w: inout JSONWriter) throws {
        let mark = w.count
        w.key(key)
        if node.isArray {
            if try !node.writeElements(model, choosing: nil, into: &w) { w.truncate(to: mark) }
            return
        }
        w.beginObject()
        try node.writeMembers(model, into: &w)
        if w.containerIsEmpty { w.abandonObject(at: mark) } else { w.endObject() }
    }

    /// The object with its members chosen by `filter` (see ``EncodeNode/write(_:choosing:into:)``).
    func write(_ model: UnsafeRawPointer, choosing filter: (UnsafeRawPointer, AnyKeyPath) -> Bool, into w: inout JSONWriter) throws {
        let mark = w.count
        w.key(key)
        if node.isArray {
            let written = try withoutActuallyEscaping(filter) { try node.writeElements(model, choosing: $0, into: &w) }
            if !written { w.truncate(to: mark) }
            return
        }
        w.beginObject()
        try node.writeMembers(model, choosing: filter, into: &w)
        if w.containerIsEmpty { w.abandonObject(at: mark) } else { w.endObject() }
    }

    override func writeElement(_ model: UnsafeRawPointer, choosing filter: ((UnsafeRawPointer, AnyKeyPath) -> Bool)?,
                               into w: inout JSONWriter) throws {
        if node.isArray {
            if try !node.writeElements(model, choosing: filter, into: &w) { w.null() }
            return
        }
        let mark = w.count
        w.beginObject()
        if let filter { try node.writeMembers(model, choosing: filter, into: &w) } else { try node.writeMembers(model, into: &w) }
        if w.containerIsEmpty {
            w.abandonObject(at: mark)
            w.null()
        } else {
            w.endObject()
        }
    }

    override func value(_ model: UnsafeRawPointer, choosing filter: ((UnsafeRawPointer, AnyKeyPath) -> Bool)?,
                        omitsNil: Bool) throws -> JSONValue? {
        if node.isArray { return try node.array(model, choosing: filter, omitsNil: omitsNil) }
        let object = try node.object(model, choosing: filter, omitsNil: omitsNil)
        return object.isEmpty ? nil : .object(object)
    }
}
