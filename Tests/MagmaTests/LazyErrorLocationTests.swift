import Foundation
import Testing
@testable import Magma

/// A `DecodingError` gets its line, column and offset when it leaves `decode`, not when it is
/// made: an error a `try?` in `init(from:)` drops costs no location text.
@Suite struct LazyErrorLocationTests {
    /// Records what `init(from:)` saw of the error it caught, then throws it on.
    final class Probe: Decodable {
        nonisolated(unsafe) static var seenInside: String?
        nonisolated(unsafe) static var placedInside: Bool?
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyKey.self)
            do {
                _ = try c.decode(Int.self, forKey: AnyKey("a"))
            } catch DecodingError.typeMismatch(_, let context) {
                Self.seenInside = context.debugDescription
                Self.placedInside = context.underlyingError is JSONError
                throw DecodingError.typeMismatch(Int.self, context)
            }
        }
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    @Test func caughtInside_hasNoLocationYet_placedWhenItLeavesDecode() throws {
        let json = Array("{\n  \"a\": \"x\"\n}".utf8)
        do {
            _ = try MagmaDecoder().decode(Probe.self, from: json)
            Issue.record("decoded")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(Probe.seenInside == "Expected to decode Int but found a string instead.")
            #expect(Probe.placedInside == false)
            #expect(context.debugDescription == "Expected to decode Int but found a string instead.")
            let underlying = try #require(context.underlyingError as? JSONError)
            #expect(underlying.path == "$.a" && underlying.line == 2 && underlying.column == 8 && underlying.offset == 9)
        }
    }

    /// `Tape.place` is what every way out of a decode (`decode`, a stream's records) goes through.
    @Test func place_addsTheLocation() throws {
        struct Item: Decodable { var a: Int }
        let bytes = Array("{\"a\":\"x\"}".utf8)
        let placed: (any Error)? = try bytes.withUnsafeBytes { input in
            let tape = try Tape.parse(input, options: DecodingOptions())
            do {
                _ = try TapeDecoder(tape: tape, settings: MagmaDecoder().settings, path: .root, value: 0).unwrap(0, as: Item.self, for: .root, nil)
                return nil
            } catch {
                guard case DecodingError.typeMismatch(_, let context)? = error as? DecodingError else { return error }
                #expect(context.underlyingError is PendingLocation)
                return tape.place(error)
            }
        }
        guard case DecodingError.typeMismatch(_, let context)? = placed as? DecodingError else { Issue.record("\(String(describing: placed))"); return }
        let underlying = context.underlyingError as? JSONError
        #expect(underlying?.offset == 5 && underlying?.line == 1 && underlying?.column == 6)
        #expect(context.debugDescription == "Expected to decode Int but found a string instead.")
    }
}
