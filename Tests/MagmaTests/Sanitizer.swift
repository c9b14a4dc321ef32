import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The sanitizer this test process was built with (`swift test --sanitize=`, as
/// `scripts/sanitizers.sh` runs it), found by its runtime's entry point; nil for none. Code built
/// to link with the test's objects needs the same flag, and a sanitizer's `realloc` always moves a
/// block.
enum Sanitizer: String {
    case address, thread

    static let current: Sanitizer? = {
        guard let process = dlopen(nil, RTLD_NOW) else { return nil }
        defer { dlclose(process) }
        if dlsym(process, "__asan_init") != nil { return .address }
        if dlsym(process, "__tsan_init") != nil { return .thread }
        return nil
    }()

    /// `swiftc`'s flags for a program linked with this process's objects.
    static var swiftcFlags: [String] { current.map { ["-sanitize=\($0.rawValue)"] } ?? [] }
}
