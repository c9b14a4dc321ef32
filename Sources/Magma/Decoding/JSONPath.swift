// How a JSON path is written in messages (`$.items[3].user.login`): components, escapes, and long
// paths and keys shortened.

import Foundation

/// Renders JSON path components.
enum JSONPath {
    /// Components kept at each end of a path longer than twice as many.
    static let keptAtEachEnd = 6
    /// The longest key shown whole in a path; a longer one is cut, with `…`.
    static let longestKey = 64

    /// `$` and the components; a path deeper than `2 * keptAtEachEnd` shows its first and last
    /// components with the depth between (`$[0][0]…(depth 512)…[0][0]`), so a message stays short
    /// however deep the input nests.
    static func joined(_ components: [String]) -> String {
        guard components.count > 2 * keptAtEachEnd else { return "$" + components.joined() }
        return "$" + components.prefix(keptAtEachEnd).joined() + "…(depth \(components.count))…"
            + components.suffix(keptAtEachEnd).joined()
    }

    /// `.name` for identifier-like keys, `["key"]` for the rest; numeric components of key paths
    /// are shown as written (`.0`).
    static func component(_ key: String) -> String {
        let key = key.utf8.count > longestKey ? String(key.prefix(longestKey)) + "…" : key
        let plain = !key.isEmpty && key.utf8.allSatisfy { c in
            (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c == 95 || c == 45
        }
        if plain { return "." + key }
        let escaped = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "[\"\(escaped)\"]"
    }
}
