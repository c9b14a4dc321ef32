import Foundation

/// The output of a ``JSONWriter``: contiguous bytes that keep the writer's buffer alive, so
/// `Data(writer.bytes)` copies them once.
struct OutputBytes: RandomAccessCollection, ContiguousBytes {
    let owner: AnyObject
    let base: UnsafeMutablePointer<UInt8>
    let count: Int

    var startIndex: Int { 0 }
    var endIndex: Int { count }
    subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < count, "index out of range")
        return withExtendedLifetime(owner) { base[position] }
    }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(owner) { try body(UnsafeRawBufferPointer(start: base, count: count)) }
    }

    func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        try withExtendedLifetime(owner) { try body(UnsafeBufferPointer(start: base, count: count)) }
    }
}
