// Foundation's coder behaviours, part 6: Int128 and UInt128 (Swift 6), through MagmaDecoder and
// MagmaEncoder (see FoundationCoderConformanceTests.swift), and as `@JSONModel` properties.
import Foundation
import Testing
@testable import Magma

@Suite struct FoundationInt128ConformanceTests {
    static let int128s: [Int128] = [.min, .min + 1, -0x1_0000_0000_0000_0000, -0x8000_0000_0000_0000 - 1, -1, 0, 1,
                                    0x7FFF_FFFF_FFFF_FFFF, 0x8000_0000_0000_0000, 0xFFFF_FFFF_FFFF_FFFF, 0x1_0000_0000_0000_0000, .max - 1, .max]
    static let uint128s: [UInt128] = [0, 1, 0x7FFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF, 0x1_0000_0000_0000_0000, .max - 1, .max]

    @Test func int128_roundTripsThroughEveryContainer() {
        for v in Self.int128s {
            expectRoundTrip(v)
            expectRoundTrip(ObjectBox(value: v))
            expectRoundTrip(ArrayBox(v))
            expectRoundTrip(Int128?.some(v))
        }
        for v in Self.uint128s {
            expectRoundTrip(v)
            expectRoundTrip(ObjectBox(value: v))
            expectRoundTrip(ArrayBox(v))
        }
        expectRoundTrip(Wide(signed: .min, unsigned: .max, maybe: nil, many: [1, -1]), encoder: { $0.outputFormatting = .sortedKeys })
    }

    /// Past the type's range, a fraction, a string, null: JSONDecoder's errors.
    @Test(arguments: ["170141183460469231731687303715884105728", "-170141183460469231731687303715884105729",
                      "1.5", "1e3", "1E40", "-0", "\"1\"", "null", "[1]", "1e39", "18446744073709551615.0", "-18446744073709551615.0"])
    func int128_edges_decodeAlike(_ json: String) {
        expectSameDecode(Int128.self, json)
        expectSameDecode(UInt128.self, json)
        expectSameDecode(ObjectBox<Int128>.self, "{\"value\":\(json)}")
        expectSameDecode(ArrayBox<UInt128>.self, "[\(json)]")
    }

    /// JSONDecoder reads an integer written with ".0" through Double and Decimal, and gives up
    /// past 2^64 (its test keeps that rather than a wrong value); Magma reads each one exactly.
    @Test func int128_wholeFractionPast64Bits_readExactly() throws {
        for v in [Int128.min, -18_446_744_073_709_551_616, 18_446_744_073_709_551_616, .max] {
            #expect(throws: (any Error).self) { try JSONDecoder().decode(Int128.self, from: Data("\(v).0".utf8)) }
            #expect(try MagmaDecoder().decode(Int128.self, from: Data("\(v).0".utf8)) == v)
        }
    }

    @JSONModel struct Ledger: Equatable {
        let big: Int128
        var unsigned: UInt128 = 0
        let maybe: Int128?
        var many: [Int128] = []
    }

    /// As `@JSONModel` properties: read from their digits exactly (whole and in every chunking),
    /// written back as they were read.
    @Test func jsonModel_int128Properties_bothWays() throws {
        let json = #"{"big":-170141183460469231731687303715884105728,"unsigned":340282366920938463463374607431768211455,"maybe":null,"many":[1,-18446744073709551616,170141183460469231731687303715884105727]}"#
        let ledger = try decodeEverywhere(Ledger.self, json)
        #expect(ledger == Ledger(big: .min, unsigned: .max, maybe: nil, many: [1, -18_446_744_073_709_551_616, .max]))
        let written = try JSONAdapter.json(from: ledger)
        #expect(try JSONAdapter.model(Ledger.self, from: written) == ledger)
        #expect(String(decoding: written, as: UTF8.self).contains("340282366920938463463374607431768211455"))
    }

    /// Past the type's range, or with a fraction: `numberOutOfRange` at the property, never a wrap.
    @Test(arguments: [#"{"big":170141183460469231731687303715884105728}"#, #"{"big":1,"unsigned":-1}"#,
                      #"{"big":1,"unsigned":340282366920938463463374607431768211456}"#, #"{"big":1.5}"#,
                      #"{"big":1,"many":[1,1e39]}"#])
    func jsonModel_int128OutOfRange_isAnError(_ json: String) {
        #expect(failureEverywhere(Ledger.self, json)?.code == .numberOutOfRange)
    }
}

struct Wide: Codable, Equatable {
    var signed: Int128, unsigned: UInt128, maybe: Int128?, many: [Int128]
}
