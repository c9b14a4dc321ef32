// MagmaDecoder's and MagmaEncoder's `.formatted(DateFormatter)`: the formatter is kept (Foundation's
// `.formatted` on Linux is a closure), its pattern parsed and printed on bytes where Magma's
// parser agrees, and DateFormatter asked for everything else: values and errors as JSONDecoder's.
import Foundation
import Testing
@testable import Magma

/// A DateFormatter that counts how often it is asked to parse or format.
final class CountingFormatter: DateFormatter, @unchecked Sendable {
    nonisolated(unsafe) var parses = 0
    nonisolated(unsafe) var formats = 0
    override func date(from string: String) -> Date? {
        parses += 1
        return super.date(from: string)
    }
    override func string(from date: Date) -> String {
        formats += 1
        return super.string(from: date)
    }

    convenience init(_ pattern: String, zone: TimeZone = TimeZone(secondsFromGMT: 0)!) {
        self.init()
        locale = Locale(identifier: "en_US_POSIX")
        timeZone = zone
        dateFormat = pattern
    }
}

@Suite struct DateStrategyTests {
    struct Stamped: Codable, Equatable {
        var when: Date
        var maybe: Date?
    }

    static let twitter = "EEE MMM dd HH:mm:ss Z yyyy", gitHub = "yyyy-MM-dd'T'HH:mm:ss'Z'"

    /// Canonical dates (the fast path's), forms only DateFormatter reads, and bad ones.
    static let documents: [(pattern: String, json: String)] = [
        (twitter, #"{"when":"Sun Aug 31 00:29:15 +0000 2014","maybe":"Mon Sep 01 23:59:59 -0130 2014"}"#),
        (twitter, #"{"when":"Sun Aug 31 00:29:15 +0000 2014","maybe":null}"#),
        (twitter, #"{"when":"Sunday Aug 31 00:29:15 +0000 2014"}"#),          // DateFormatter's to decide
        (twitter, #"{"when":"Sun Aug 31 00:29:15 2014"}"#),                    // no zone: an error
        (twitter, #"{"when":"Sun Aug 31 00:29:15 +0000 2014","maybe":7}"#),   // a number: typeMismatch
        (twitter, #"{"when":"Sun Au\u0067 31 00:29:15 +0000 2014"}"#),        // escaped text
        (gitHub, #"{"when":"2021-01-28T22:17:31Z","maybe":"1999-12-31T23:59:59Z"}"#),
        (gitHub, #"{"when":"2021-1-28T22:17:31Z"}"#),                         // DateFormatter takes it
        (gitHub, #"{"when":"2021-02-30T22:17:31Z"}"#),                        // no such day
        (gitHub, #"{"when":null}"#),
        (gitHub, #"{"maybe":"2021-01-28T22:17:31Z"}"#),                       // missing key
    ]

    @Test func formatted_decodesAsJSONDecoder() {
        for (pattern, json) in Self.documents {
            let (f, m) = bothDecoders(Stamped.self, Array(json.utf8)) {
                $0.dateDecodingStrategy = .formatted(CountingFormatter(pattern))
                $1.dateDecodingStrategy = .formatted(CountingFormatter(pattern))
            }
            #expect(f == m, "\(json)")
        }
    }

    @Test func formatted_canonicalDates_neverCallTheFormatter() throws {
        let formatter = CountingFormatter(Self.twitter)
        let decoder = MagmaDecoder()
        decoder.dateDecodingStrategy = .formatted(formatter)
        let json = "[" + (0..<200).map { #"{"when":"Sun Aug 31 00:29:\#(10 + $0 % 50) +0000 2014"}"# }.joined(separator: ",") + "]"
        let decoded = try decoder.decode([Stamped].self, from: Data(json.utf8))
        #expect(formatter.parses == 0)
        let reference = JSONDecoder()
        reference.dateDecodingStrategy = .formatted(CountingFormatter(Self.twitter))
        #expect(decoded == (try reference.decode([Stamped].self, from: Data(json.utf8))))

        // A form the fast path leaves goes to the user's formatter, once.
        _ = try? decoder.decode(Stamped.self, from: Data(#"{"when":"Sunday Aug 31 00:29:15 +0000 2014"}"#.utf8))
        #expect(formatter.parses >= 1)
    }

    @Test func formatted_lenientFormatter_isAskedForEveryDate() throws {
        let formatter = CountingFormatter(Self.gitHub)
        formatter.isLenient = true   // settings Magma's parser does not model: DateFormatter decides all
        let decoder = MagmaDecoder()
        decoder.dateDecodingStrategy = .formatted(formatter)
        _ = try decoder.decode([Stamped].self, from: Data(#"[{"when":"2021-01-28T22:17:31Z"},{"when":"2021-01-29T22:17:31Z"}]"#.utf8))
        #expect(formatter.parses == 2)
    }

    @Test func formatted_encodesAsJSONEncoder_withoutTheFormatter() throws {
        let zones = [TimeZone(secondsFromGMT: 0)!, TimeZone(secondsFromGMT: -5400)!, TimeZone(identifier: "Europe/Berlin")!]
        let values = (0..<40).map { Stamped(when: Date(timeIntervalSince1970: 1_400_000_000 + Double($0) * 7_777_777.5),
                                            maybe: $0 % 3 == 0 ? nil : Date(timeIntervalSince1970: -Double($0) * 86_400 * 400)) }
        for pattern in [Self.twitter, Self.gitHub] {
            for zone in zones {
                let foundation = JSONEncoder(), magma = MagmaEncoder()
                foundation.outputFormatting = .sortedKeys
                magma.outputFormatting = .sortedKeys
                foundation.dateEncodingStrategy = .formatted(CountingFormatter(pattern, zone: zone))
                let formatter = CountingFormatter(pattern, zone: zone)
                magma.dateEncodingStrategy = .formatted(formatter)
                let expected = String(decoding: try foundation.encode(values), as: UTF8.self)
                #expect(String(decoding: try magma.encode(values), as: UTF8.self) == expected, "\(pattern) \(zone.identifier)")
                #expect(formatter.formats == 0, "\(pattern) \(zone.identifier)")
            }
        }
    }

    @Test func foundationStrategies_carryOver() throws {
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .millisecondsSince1970
        let copied = MagmaDecoder(foundation)
        guard case .millisecondsSince1970 = copied.dateDecodingStrategy else {
            Issue.record("strategy not copied: \(copied.dateDecodingStrategy)")
            return
        }
        // Foundation's `.formatted` arrives as its closure, and still decodes as JSONDecoder does.
        foundation.dateDecodingStrategy = .formatted(CountingFormatter(Self.gitHub))
        let json = Data(#"{"when":"2021-01-28T22:17:31Z"}"#.utf8)
        #expect(try MagmaDecoder(foundation).decode(Stamped.self, from: json) == foundation.decode(Stamped.self, from: json))
    }
}
