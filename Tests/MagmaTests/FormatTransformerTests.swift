import Foundation
import Testing
@testable import Magma

/// The number-formatter transformer, and calendar, time zone and locale on `.date(format:)`.
@Suite struct FormatTransformerTests {
    @JSONModel struct Amount {
        @Transform(.formattedNumber(style: .decimal, locale: Locale(identifier: "en_US"))) var value = 0.0
    }

    @Test func formattedNumber_readsAndWritesTheLocalesForm() throws {
        let amount = try JSONAdapter.model(Amount.self, from: #"{"value": "12,345.678"}"#)
        #expect(amount.value == 12345.678)
        #expect(String(decoding: try JSONAdapter.json(from: amount), as: UTF8.self) == #"{"value":"12,345.678"}"#)
        #expect(try JSONAdapter.model(Amount.self, from: #"{"value": "-12345.5"}"#).value == -12345.5)
        let german = Transformer<JSONValue, Double>.formattedNumber(locale: Locale(identifier: "de_DE"))
        #expect(try german.transform(.string("12.345,678")) == 12345.678)
        #expect(try german.reverseTransform(12345.678) == .string("12.345,678"))
        let currency = Transformer<JSONValue, Double>.formattedNumber(style: .currency, locale: Locale(identifier: "en_US"))
        #expect(try currency.transform(.string("$12.50")) == 12.5)
        #expect(try currency.reverseTransform(12.5) == .string("$12.50"))
    }

    /// `NumberFormatter.number(from:)` reads a prefix on Linux: these must not pass.
    @Test(arguments: ["12,345.678abc", "12.345,678", "abc", "", " 12", "1,2"])
    func formattedNumber_rejectsWhatTheFormatterWouldNotWrite(text: String) {
        let error = failureEverywhere(Amount.self, #"{"value": "\#(text)"}"#)
        #expect(error?.code == .invalidValue)
        #expect(error?.message == "\"\(text)\" is not a valid number in the form 12,345.678")
    }

    @Test func dateFormat_takesACalendar() throws {
        let buddhist = Transformer<JSONValue, Date>.date(format: "yyyy-MM-dd", calendar: Calendar(identifier: .buddhist))
        let date = try buddhist.transform(.string("2567-01-31"))
        #expect(date == Date(timeIntervalSince1970: 1_706_659_200))   // 2024-01-31T00:00:00Z
        #expect(try buddhist.reverseTransform(date) == .string("2567-01-31"))
        #expect(!DatePattern(pattern: "yyyy-MM-dd", calendar: Calendar(identifier: .buddhist)).isFastPathSupported)
    }

    @Test func dateFormat_keepsTheFastPath_forAGregorianCalendar_timeZoneAndLocale() throws {
        let gregorian = DatePattern(pattern: "yyyy-MM-dd HH:mm", locale: Locale(identifier: "en_GB"),
                                    timeZone: TimeZone(identifier: "Europe/Paris")!, calendar: Calendar(identifier: .gregorian))
        #expect(gregorian.isFastPathSupported)
        let paris = Transformer<JSONValue, Date>.date(format: "yyyy-MM-dd HH:mm", locale: Locale(identifier: "en_GB"),
                                                      timeZone: TimeZone(identifier: "Europe/Paris")!, calendar: Calendar(identifier: .gregorian))
        #expect(try paris.transform(.string("2024-07-01 12:00")) == Date(timeIntervalSince1970: 1_719_828_000))   // 10:00Z
        let french = Transformer<JSONValue, Date>.date(format: "d MMMM yyyy", locale: Locale(identifier: "fr_FR"))
        #expect(try french.transform(.string("31 janvier 2024")) == Date(timeIntervalSince1970: 1_706_659_200))
    }
}
