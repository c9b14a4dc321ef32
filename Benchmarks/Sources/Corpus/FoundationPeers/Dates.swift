import Foundation
import Magma

/// The date patterns of the corpora and the Foundation formatters and decoders that read them.
///
/// Magma's mappings use the same patterns (`.date(format:)`), so all systems agree on what a date
/// string means. Formatters are fixed to `en_US_POSIX` and UTC, as Apple's docs require for
/// fixed-format dates.
public enum Dates {
    /// GitHub: `2021-01-28T22:17:31Z`.
    public static let gitHubPattern = "yyyy-MM-dd'T'HH:mm:ss'Z'"
    /// Twitter: `Sun Aug 31 00:29:15 +0000 2014`.
    public static let twitterPattern = "EEE MMM dd HH:mm:ss Z yyyy"

    /// Makes a fixed-format `DateFormatter` (each decoder gets its own: they are not thread-safe).
    public static func formatter(_ pattern: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = pattern
        return formatter
    }

    /// The JSONDecoder for GitHub payloads.
    ///
    /// `.iso8601` rather than `.formatted(DateFormatter)`: on these dates it is equivalent and, on
    /// Linux, several times faster (it parses with `Date.ISO8601FormatStyle`); we give Foundation
    /// its best configuration.
    public static func gitHubDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// The JSONDecoder for GitHub payloads with the mapping's own pattern, through a
    /// `DateFormatter`: what a Codable user writes to read `yyyy-MM-dd'T'HH:mm:ss'Z'` literally.
    public static func gitHubPatternDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .formatted(formatter(gitHubPattern))
        return decoder
    }

    /// The JSONDecoder for twitter.json (no ISO dates there: a formatter is the only option).
    public static func twitterDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .formatted(formatter(twitterPattern))
        return decoder
    }

    /// The MagmaDecoder for twitter.json: the same strategy, set as on JSONDecoder.
    public static func twitterMagmaDecoder() -> MagmaDecoder {
        let decoder = MagmaDecoder()
        decoder.dateDecodingStrategy = .formatted(formatter(twitterPattern))
        return decoder
    }

    /// The MagmaEncoder for twitter models: the same strategy, set as on JSONEncoder.
    public static func twitterMagmaEncoder() -> MagmaEncoder {
        let encoder = MagmaEncoder()
        encoder.dateEncodingStrategy = .formatted(formatter(twitterPattern))
        return encoder
    }

    /// The JSONDecoder for citm_catalog.json (epoch milliseconds).
    public static func citmDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }

    /// The JSONEncoder for GitHub models (`2021-01-28T22:17:31Z`).
    public static func gitHubEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// The JSONEncoder for twitter models.
    public static func twitterEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .formatted(formatter(twitterPattern))
        return encoder
    }

    /// The JSONEncoder for citm models (epoch milliseconds).
    public static func citmEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return encoder
    }
}
