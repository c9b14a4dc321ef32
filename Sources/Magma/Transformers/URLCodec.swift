import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// URLs written as JSON strings. `URL(string:)` is slow on Linux, and API JSON repeats its URLs
/// (a user's avatar URL with every issue they touch, a label's URL with every issue it labels),
/// so each thread keeps the URLs it parsed in a small cache keyed by their bytes (see `URLCache`).
final class URLCodec: Codec<URL>, @unchecked Sendable {
    static let shared = URLCodec()

    override var typeName: String { "URL" }
    override func string(_ bytes: UnsafeRawBufferPointer, _ flags: CodecFlags) throws -> URL {
        guard let url = URLCache.url(for: bytes) else {
            throw JSONError(.invalidValue, "\(JSONError.quote(bytes, asString: true)) is not a valid URL")
        }
        return url
    }
    override func encode(_ value: URL) throws -> JSONValue { .string(value.absoluteString) }
    override func write(_ value: URL, into w: inout JSONWriter) throws { w.string(value.absoluteString) }
    override var typedWrite: TypedWrite? { typed }
    private let typed = TypedWrite(.string) { bytes, address, form in
        guard let url = URLCache.url(for: bytes) else { return false }
        form.store(url, at: address)
        return true
    }
    override func makeValueWriter() -> ValueWriter { ScalarValue { (v: URL, w) in w.string(v.absoluteString) } }
}
