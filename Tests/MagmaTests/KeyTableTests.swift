import Testing
@testable import Magma

/// `KeyTable` matches raw key bytes: every byte of a key counts, whatever its length (short keys
/// are compared in overlapping loads, long ones by `memcmp`).
@Suite struct KeyTableTests {
    @Test func lookup_everyByteOfEveryLengthCounts() {
        let keys: [[UInt8]] = (1...40).map { length in (0..<length).map { UInt8(ascii: "a") &+ UInt8(($0 &* 7 &+ length) % 26) } }
        let table = KeyTable(keys)
        defer { table.deallocate() }
        for (index, key) in keys.enumerated() {
            #expect(key.withUnsafeBytes { table.index(of: $0) } == index)
            for position in key.indices {
                var other = key
                other[position] = UInt8(ascii: "A")
                #expect(other.withUnsafeBytes { table.index(of: $0) } == -1, "\(String(decoding: other, as: UTF8.self))")
            }
            #expect((key + [UInt8(ascii: "x")]).withUnsafeBytes { table.index(of: $0) } != index)
        }
        #expect([UInt8]().withUnsafeBytes { table.index(of: $0) } == -1)
    }
}
