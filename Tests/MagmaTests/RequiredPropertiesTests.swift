import Foundation
import Testing
@testable import Magma

// More required properties than one 64-bit word holds: each is checked, the ones past the 64th
// too, and the missing one is named.

/// 70 required properties (a wide record from a data export).
@JSONModel struct WideRecord: Equatable {
    let p0: Int
    let p1: Int
    let p2: Int
    let p3: Int
    let p4: Int
    let p5: Int
    let p6: Int
    let p7: Int
    let p8: Int
    let p9: Int
    let p10: Int
    let p11: Int
    let p12: Int
    let p13: Int
    let p14: Int
    let p15: Int
    let p16: Int
    let p17: Int
    let p18: Int
    let p19: Int
    let p20: Int
    let p21: Int
    let p22: Int
    let p23: Int
    let p24: Int
    let p25: Int
    let p26: Int
    let p27: Int
    let p28: Int
    let p29: Int
    let p30: Int
    let p31: Int
    let p32: Int
    let p33: Int
    let p34: Int
    let p35: Int
    let p36: Int
    let p37: Int
    let p38: Int
    let p39: Int
    let p40: Int
    let p41: Int
    let p42: Int
    let p43: Int
    let p44: Int
    let p45: Int
    let p46: Int
    let p47: Int
    let p48: Int
    let p49: Int
    let p50: Int
    let p51: Int
    let p52: Int
    let p53: Int
    let p54: Int
    let p55: Int
    let p56: Int
    let p57: Int
    let p58: Int
    let p59: Int
    let p60: Int
    let p61: Int
    let p62: Int
    let p63: Int
    let p64: Int
    let p65: Int
    let p66: Int
    let p67: Int
    let p68: Int
    let p69: Int
}

@Suite struct RequiredPropertiesTests {
    static func json(leaving left: Int? = nil) -> String {
        "{" + (0..<70).filter { $0 != left }.map { "\"p\($0)\": \($0 * 3)" }.joined(separator: ", ") + "}"
    }

    @Test func seventyRequired_decodeWhenAllPresent() throws {
        let record = try decodeEverywhere(WideRecord.self, Self.json())
        #expect(record.p0 == 0)
        #expect(record.p63 == 189)
        #expect(record.p64 == 192)
        #expect(record.p69 == 207)
    }

    @Test(arguments: [0, 63, 64, 69])
    func seventyRequired_missingOneIsNamed(_ left: Int) throws {
        let error = failureEverywhere(WideRecord.self, Self.json(leaving: left))
        #expect(error?.code == .missingKey)
        #expect(error?.property == "WideRecord.p\(left)")
    }

    @Test func requiredSet_numbersPastTheFirstWord() {
        var seen = RequiredSet.none
        for i in [0, 63, 64, 127] { seen.formUnion(RequiredSet(index: i)) }
        let mask = RequiredSet(first: 128)
        #expect(mask.subtracting(seen).first == 1)
        #expect(RequiredSet(first: 70).subtracting(RequiredSet(first: 65)).first == 65)
        #expect(RequiredSet(first: 64).subtracting(RequiredSet.all).isEmpty)
    }
}
