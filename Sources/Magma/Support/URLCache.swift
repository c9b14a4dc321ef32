import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The benchmarks' hold on the per-thread URL cache.
///
/// Timed runs decode the same input again and again on one thread, and the cache would keep
/// every URL an earlier run parsed: the later runs would time lookups where a first decode (of
/// any new input) parses. The benchmarks clear it before each timed decode.
@_spi(Benchmarks)
public enum URLCacheControl {
    /// Empties the calling thread's URL cache, so the next decode on it parses every URL it meets.
    public static func clearThisThread() { URLCache.clearThisThread() }
}

/// The URLs parsed on one thread, by their bytes: direct-mapped, 1,024 entries, keys of up to
/// 256 bytes kept in one slab, so its memory is bounded (about 290 KB per thread that decodes
/// URLs, freed when the thread ends) whatever the input, and a hit costs a thread-local load, a
/// hash, a `memcmp` and the URL's retain.
///
/// Per thread rather than per decode: a decode per NDJSON line or per HTTP response then still
/// finds the URLs earlier decodes parsed, and no decode pays for allocating a cache. A lookup runs
/// to completion on its thread, so decodes nested on one thread (a transformer that decodes) and
/// decodes that move between threads (an async stream) never touch one cache at the same time.
///
/// "Freed when the thread ends" rarely happens in practice: the threads that decode are mostly
/// pool threads (Dispatch's, under `modelsInParallel`; Swift concurrency's cooperative pool) or a
/// server's workers, which may never exit. Then each thread's ~290 KB, and the URLs it holds,
/// live as long as the process: a fixed cost per thread that ever decoded a URL, bounded by the
/// number of such threads, not by the input.
final class URLCache {
    private static let size = 1024
    private static let keyCapacity = 256
    private let hashes = UnsafeMutablePointer<UInt64>.allocate(capacity: URLCache.size)
    private let lengths = UnsafeMutablePointer<Int>.allocate(capacity: URLCache.size)
    private let keys = UnsafeMutableRawPointer.allocate(byteCount: URLCache.size * URLCache.keyCapacity, alignment: 16)
    private let urls = UnsafeMutablePointer<URL?>.allocate(capacity: URLCache.size)
    /// Lookups that had to parse (for tests: a repeat must not).
    private(set) var misses = 0

    private init() {
        hashes.initialize(repeating: 0, count: URLCache.size)
        lengths.initialize(repeating: -1, count: URLCache.size)
        urls.initialize(repeating: nil, count: URLCache.size)
    }

    deinit {
        urls.deinitialize(count: URLCache.size)
        urls.deallocate()
        hashes.deallocate()
        lengths.deallocate()
        keys.deallocate()
    }

    /// How a URL's text is read: `strict` for models (see `parse`); `foundation` as
    /// `URL(string:)` reads it, for MagmaDecoder (JSONDecoder's reading). Entries of the two
    /// readings never answer for each other.
    enum Reading: Int {
        case strict = 0
        case foundation = 1
    }

    /// The URL for `bytes`, parsed once per distinct value while it stays in this thread's cache;
    /// nil if the text is not a URL.
    static func url(for bytes: UnsafeRawBufferPointer, reading: Reading = .strict) -> URL? {
        let n = bytes.count
        guard n <= URLCache.keyCapacity, n > 0 else { return parse(bytes, reading) }
        return current._withUnsafeGuaranteedRef { $0.lookup(bytes, reading) }
    }

    private func lookup(_ bytes: UnsafeRawBufferPointer, _ reading: Reading) -> URL? {
        let n = bytes.count
        let h = URLCache.hash(bytes) ^ (UInt64(truncatingIfNeeded: reading.rawValue) &* 0xC2B2_AE3D_27D4_EB4F)
        let i = Int(truncatingIfNeeded: h & UInt64(URLCache.size - 1))
        let key = keys + i * URLCache.keyCapacity
        // The length and the reading in one word (lengths are at most `keyCapacity`).
        let tag = n | reading.rawValue << 16
        if hashes[i] == h, lengths[i] == tag, memcmp(key, bytes.baseAddress!, n) == 0 { return urls[i] }
        misses &+= 1
        guard let url = URLCache.parse(bytes, reading) else { return nil }
        hashes[i] = h
        lengths[i] = tag
        key.copyMemory(from: bytes.baseAddress!, byteCount: n)
        urls[i] = url
        return url
    }

    /// `.foundation`: `URL(string:)` as it is. `.strict`, strict where it matters: `URL(string:)`
    /// alone percent-encodes anything a URL may not hold (on Linux `"not a valid URL"` becomes
    /// `not%20a%20valid%20URL`), so a malformed value would pass. A value RFC 3986 accepts as it
    /// is, is taken as it is. Otherwise it is taken with Foundation's percent-encoding (as
    /// `JSONDecoder` takes it) only when what needs encoding is what real producers leave
    /// unescaped and browsers encode the same way: non-ASCII letters and `[ ] { } | ^` and a
    /// backquote in a path or query (GitHub's `…/ben207[bot]`). Whitespace, control characters,
    /// `"`, `<`, `>` and `\` mean the text is not a URL at all.
    static func parse(_ bytes: UnsafeRawBufferPointer, _ reading: Reading = .strict) -> URL? {
        let text = String(checkedUTF8: bytes)
        if reading == .foundation { return URL(string: text) }
        if let url = URL(string: text, encodingInvalidCharacters: false) { return url }
        for byte in bytes where byte <= 0x20 || byte == 0x7F || byte == 0x22 || byte == 0x3C || byte == 0x3E || byte == 0x5C {
            return nil
        }
        return URL(string: text)
    }

    /// Lookups on this thread that had to parse.
    static var missesOnThisThread: Int { current.takeUnretainedValue().misses }

    /// Forgets every URL this thread's cache holds (see `URLCacheControl`).
    static func clearThisThread() {
        current._withUnsafeGuaranteedRef { cache in
            cache.lengths.update(repeating: -1, count: URLCache.size)
            cache.urls.update(repeating: nil, count: URLCache.size)
        }
    }

    /// This thread's cache, made on first use; the thread's exit releases it.
    private static var current: Unmanaged<URLCache> {
        if let cache = pthread_getspecific(threadKey) { return Unmanaged.fromOpaque(cache) }
        let cache = Unmanaged.passRetained(URLCache())
        pthread_setspecific(threadKey, cache.toOpaque())
        return cache
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { cache in
            if let cache { Unmanaged<URLCache>.fromOpaque(cache).release() }
        }
        return key
    }()

    /// Mixes every 8-byte word: URLs share long prefixes, so all the bytes must count.
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let k: UInt64 = 0x9E37_79B9_7F4A_7C15
        var h = UInt64(truncatingIfNeeded: bytes.count) &* k
        var i = 0
        while i + 8 <= bytes.count {
            h = (h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* k
            h ^= h >> 29
            i += 8
        }
        while i < bytes.count {
            h = (h ^ UInt64(bytes[i])) &* k
            i += 1
        }
        return h ^ (h >> 32)
    }
}
