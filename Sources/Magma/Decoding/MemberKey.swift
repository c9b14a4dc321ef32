/// An object key prepared once per mapping: `"key":` as bytes, used when no option changes them.
/// The bytes live as long as the member that owns the key (``EncodeMember`` frees them).
struct MemberKey {
    let name: String
    /// The quoted key and its colon.
    let quoted: UnsafeRawBufferPointer
    /// Whether the key is printable ASCII without `"`, `\` or `/`: escaping options leave it as is.
    let isPlain: Bool

    init(_ name: String) {
        self.name = name
        isPlain = name.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x80 && $0 != 0x22 && $0 != 0x5C && $0 != 0x2F }
        let bytes = [UInt8(ascii: "\"")] + Array(name.utf8) + [UInt8(ascii: "\""), UInt8(ascii: ":")]
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        storage.copyBytes(from: bytes)
        quoted = UnsafeRawBufferPointer(storage)
    }

    func deallocate() { quoted.deallocate() }
}
