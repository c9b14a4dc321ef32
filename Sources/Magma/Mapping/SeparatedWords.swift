// The word splitting of `KeyNaming.snakeCase` and `.kebabCase`. The macro computes the same keys
// when it expands a model: Sources/MagmaMacros/SeparatedWords.swift is a link to this file, so the
// two cannot differ.

/// `name` in lower case, its words joined by `separator`: split where a lower-case letter or digit
/// meets an upper-case one, and before the last capital of an acronym that a lower-case word
/// follows (as `JSONEncoder`'s `convertToSnakeCase`).
func separatedWords(_ name: String, by separator: Character) -> String {
    let chars = Array(name)
    var out = ""
    for (i, c) in chars.enumerated() {
        if c.isUppercase, i > 0 {
            let previous = chars[i - 1]
            let nextIsLower = i + 1 < chars.count && chars[i + 1].isLowercase
            if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                if out.last != separator && previous != "_" { out.append(separator) }
            }
        }
        out += c.lowercased()
    }
    return out
}
