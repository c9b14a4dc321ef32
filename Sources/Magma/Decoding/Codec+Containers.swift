// Codec+Containers.swift — Magma
//
// The codecs of arrays and dictionaries, and the owners that fill them (moved out of Codec.swift).

import Foundation

// MARK: - Containers

/// `[Element]` from a JSON array.
final class ArrayCodec<Element>: Codec<[Element]>, @unchecked Sendable {
    let element: Codec<Element>
    private let owner: ArrayOwner<Element>
    /// Writes `[Element]` in place. Built once: writers are immutable, and building one costs an
    /// allocation and a protocol-conformance cast. Safe for recursive models: a model's writer
    /// looks its plan up when it first writes, not when it is made.
    let valueWriter: ValueWriter

    init(_ element: Codec<Element>) {
        self.element = element
        owner = ArrayOwner(element)
        valueWriter = ArrayValue<Element>(element.makeValueWriter())
    }

    override var typeName: String { "[\(element.typeName)]" }
    override var arrayOwner: ContainerOwner? { owner }
    override func encode(_ value: [Element]) throws -> JSONValue { .array(try value.map(element.encode)) }
    /// Through the element's value writer: each element is written where the array stores it.
    override func write(_ value: [Element], into w: inout JSONWriter) throws {
        try withUnsafePointer(to: value) { try valueWriter.write(UnsafeRawPointer($0), into: &w) }
    }
    override var isReversible: Bool { element.isReversible }
    override func makeValueWriter() -> ValueWriter { valueWriter }
    /// An array property, or the elements of an array of arrays (the element's nested target).
    override func fastTarget(offset: Int, form: DraftDestination, fallback: ValueTarget) -> ValueTarget? {
        if form == .element { return element.nestedElementTarget(fallback: fallback) }
        #if _runtime(_ObjC)
        return nil  // an array may be a bridged NSArray, released otherwise
        #else
        return ArrayField(owner: owner, offset: offset, form: form, fallback: fallback)
        #endif
    }
}

final class ArrayOwner<Element>: ContainerOwner {
    let elementSlot: Slot<Element>

    let elementTarget: ValueTarget

    /// `[]` as the one word an array is stored in (a reference to the runtime's immortal empty
    /// storage), read once. This method runs unspecialized: naming `[Element]` in it asks the
    /// runtime for `Array<Element>`'s metadata, a lookup per array; writing the word needs none.
    private let emptyArray: UInt

    init(_ element: Codec<Element>) {
        elementSlot = Slot(element, AppendReceiver<Element>())
        elementTarget = element.fastTarget(offset: 0, form: .element, fallback: elementSlot) ?? elementSlot
        precondition(MemoryLayout<[Element]>.size == MemoryLayout<UInt>.size)
        emptyArray = unsafeBitCast([Element](), to: UInt.self)
    }

    override func start(_ starter: ValueTarget, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        let storage = b.storage(size: MemoryLayout<UInt>.size, alignment: MemoryLayout<UInt>.alignment)
        storage.storeBytes(of: emptyArray, as: UInt.self)
        b.push(.array, owner: self, node: nil, target: elementTarget, starter: starter, storage: storage, parentContext: context)
    }
    override func finish(_ b: inout EventBuilder) throws {
        let frame = b.top
        b.pop()
        try frame.starter.unsafelyUnwrapped._withUnsafeGuaranteedRef { try $0.deliver(frame.storage, from: self, frame.parentContext, &b) }
    }
    override func discard(_ storage: UnsafeMutableRawPointer, _ b: inout EventBuilder) {
        storage.assumingMemoryBound(to: [Element].self).deinitialize(count: 1)
    }
}

final class AppendReceiver<Element>: Receiver<Element> {
    override func receive(_ value: consuming Element, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        context.assumingMemoryBound(to: [Element].self).pointee.append(value)
    }
}

/// `[String: Value]` from a JSON object.
final class DictionaryCodec<Value>: Codec<[String: Value]>, @unchecked Sendable {
    let value: Codec<Value>
    private let owner: DictionaryOwner<Value>
    /// Writes each member's value; built once, as `ArrayCodec.valueWriter` is.
    private let valueWriter: ValueWriter

    init(_ value: Codec<Value>) {
        self.value = value
        owner = DictionaryOwner(value)
        valueWriter = value.makeValueWriter()
    }

    override var typeName: String { "[String: \(value.typeName)]" }
    override var objectOwner: ContainerOwner? { owner }
    override func take(_ storage: UnsafeMutableRawPointer, from owner: ContainerOwner) throws -> [String: Value] {
        storage.assumingMemoryBound(to: DictionaryBox<Value>.self).move().members
    }
    override func encode(_ dictionary: [String: Value]) throws -> JSONValue {
        .object(try dictionary.mapValues(value.encode))
    }
    /// Members in the dictionary's order (byte order when sorted), each value through its writer.
    override func write(_ dictionary: [String: Value], into w: inout JSONWriter) throws {
        let writer = valueWriter
        w.beginObject()
        if w.options.sortedKeys {
            for (k, v) in dictionary.sorted(by: { JSONWriter.byteOrder($0.key, $1.key) }) {
                w.key(k)
                try withUnsafePointer(to: v) { try writer.write(UnsafeRawPointer($0), into: &w) }
            }
        } else {
            for (k, v) in dictionary {
                w.key(k)
                try withUnsafePointer(to: v) { try writer.write(UnsafeRawPointer($0), into: &w) }
            }
        }
        w.endObject()
    }
    override var isReversible: Bool { value.isReversible }
}

struct DictionaryBox<Value> {
    var members: [String: Value] = [:]
    var key = ""
}

final class DictionaryOwner<Value>: ContainerOwner {
    let valueSlot: Slot<Value>

    init(_ value: Codec<Value>) { valueSlot = Slot(value, InsertReceiver<Value>()) }

    override func start(_ starter: ValueTarget, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        let storage = b.storage(size: MemoryLayout<DictionaryBox<Value>>.size, alignment: MemoryLayout<DictionaryBox<Value>>.alignment)
        storage.bindMemory(to: DictionaryBox<Value>.self, capacity: 1).initialize(to: DictionaryBox())
        b.push(.dictionary, owner: self, node: nil, target: valueSlot, starter: starter, storage: storage, parentContext: context)
    }
    override func key(_ bytes: UnsafeRawBufferPointer, _ storage: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        storage.assumingMemoryBound(to: DictionaryBox<Value>.self).pointee.key = String(checkedUTF8: bytes)
    }
    override func finish(_ b: inout EventBuilder) throws {
        let frame = b.top
        b.pop()
        try frame.starter.unsafelyUnwrapped._withUnsafeGuaranteedRef { try $0.deliver(frame.storage, from: self, frame.parentContext, &b) }
    }
    override func discard(_ storage: UnsafeMutableRawPointer, _ b: inout EventBuilder) {
        storage.assumingMemoryBound(to: DictionaryBox<Value>.self).deinitialize(count: 1)
    }
    override func currentKey(_ storage: UnsafeMutableRawPointer, fromTop: Int) -> String? {
        storage.assumingMemoryBound(to: DictionaryBox<Value>.self).pointee.key
    }
}

final class InsertReceiver<Value>: Receiver<Value> {
    override func receive(_ value: consuming Value, _ context: UnsafeMutableRawPointer, _ b: inout EventBuilder) throws {
        let box = context.assumingMemoryBound(to: DictionaryBox<Value>.self)
        let key = box.pointee.key
        guard box.pointee.members.updateValue(value, forKey: key) != nil else { return }
        // A key seen before, or one a String compares equal to (canonically equivalent, as
        // "\u00e9" and "e\u0301" are): the dictionary keeps the first key's bytes, so merging
        // them would lose one silently.
        let stored = box.pointee.members.keys[box.pointee.members.index(forKey: key)!]
        if !stored.utf8.elementsEqual(key.utf8) {
            throw JSONError(.duplicateKey, "keys \(scalars(stored)) and \(scalars(key)) differ in bytes but are "
                + "canonically equivalent, one key in a Swift dictionary")
        }
        if b.options.duplicateKeys == .reject { throw JSONError(.duplicateKey, "duplicate key \"\(key.prefix(64))\"") }
    }

    /// A key with its non-ASCII scalars spelled out, so keys that look alike read apart.
    private func scalars(_ key: String) -> String {
        "\"" + key.unicodeScalars.prefix(64).map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined() + "\""
    }
}
