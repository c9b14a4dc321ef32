import Foundation
import Synchronization
import Testing
@testable import Magma

/// `MappedEquality` compares mapped values directly: it agrees with the JSON it replaced, hash
/// agrees with `==`, and neither encodes.
@Suite struct MappedEqualityTests {
    /// Calls of the `stamp` transformer's reverse: any encoding of a `Stamped` model counts.
    static let reverseCalls = Atomic<Int>(0)

    final class Stamped: JSONModel, MappedEquality {
        var stamp = 0
        var note: String?
        var tags: [String] = []
        var local = 0                 // not mapped: not compared
        var derived = ""              // one-way: not encoded, so not compared either
        required init() {}
        static let jsonMapping = JSONMapping<Stamped> {
            Map(\.stamp, "stamp", Transformer<JSONValue, Int>(forward: { { if case .number(let n) = $0 { return n.int64Value.map(Int.init) }; return nil }($0) ?? 0 }, reverse: {
                MappedEqualityTests.reverseCalls.add(1, ordering: .relaxed)
                return .number(JSONNumber($0))
            }))
            Map(\.note, "note")
            Map(\.tags, "tags")
            Map(\.derived, "derived", Transformer<JSONValue, String>(forward: { "\($0)" }))
        }
        static func make(_ stamp: Int, _ note: String?, _ tags: [String] = [], local: Int = 0, derived: String = "") -> Stamped {
            let s = Stamped()
            (s.stamp, s.note, s.tags, s.local, s.derived) = (stamp, note, tags, local, derived)
            return s
        }
    }

    @Test func equalityAndHash_compareMappedValues_withoutEncoding() {
        let before = MappedEqualityTests.reverseCalls.load(ordering: .relaxed)
        let a = Stamped.make(1, "x", ["t"], local: 1, derived: "p")
        let b = Stamped.make(1, "x", ["t"], local: 2, derived: "q")
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
        #expect(a != Stamped.make(2, "x", ["t"]))
        #expect(a != Stamped.make(1, nil, ["t"]))
        #expect(Stamped.make(1, nil) == Stamped.make(1, nil))
        #expect(a != Stamped.make(1, "x", ["t", "u"]))
        #expect(MappedEqualityTests.reverseCalls.load(ordering: .relaxed) == before, "== and hash must not encode")
    }

    /// A macro final class: compared through its draft's mapped values.
    @JSONModel final class Account: MappedEquality {
        var name = ""
        var tags: [String] = []
        var balance: Decimal?
        @Ignore var local = 0          // not mapped: not compared
        init(_ name: String, _ tags: [String] = [], balance: Decimal? = nil, local: Int = 0) {
            (self.name, self.tags, self.balance, self.local) = (name, tags, balance, local)
        }
    }

    @Test func macroModel_equalityHashAndDescription_fromMappedValues() throws {
        let a = Account("ann", ["x"], balance: Decimal(string: "1.50"), local: 1)
        let b = try JSONAdapter.model(Account.self, from: #"{"name": "ann", "tags": ["x"], "balance": 1.50}"#)
        #expect(a == b && a !== b)
        #expect(a.hashValue == b.hashValue && Set([a, b]).count == 1)
        #expect(a != Account("ann", ["x", "y"], balance: Decimal(string: "1.50")))
        #expect(a != Account("ann", ["x"]))
        #expect(Account("bob") == Account("bob", local: 7))
        #expect(a.mappedJSON == .object(["name": .string("ann"), "tags": .array([.string("x")]), "balance": .number(JSONNumber("1.5")!)]))
        #expect(a.description == #"Account {"balance":1.5,"name":"ann","tags":["x"]}"#)
    }

    class Vehicle: JSONModel, MappedEquality {
        var wheels = 0
        required init() {}
        class var jsonMapping: JSONMapping<Vehicle> { vehicleMapping }
        static let vehicleMapping = JSONMapping<Vehicle> { Map(\.wheels, "wheels").named("wheels") }
    }

    final class Car: Vehicle {
        var doors = 0
        override class var jsonMapping: JSONMapping<Vehicle> { carMapping }
        static let carMapping = JSONMapping<Vehicle>(Car.self, inheriting: vehicleMapping) { Map(\.doors, "doors").named("doors") }
    }

    @Test func subclassProperties_count_throughTheBaseType() {
        func car(_ doors: Int) -> Vehicle { let c = Car(); c.wheels = 4; c.doors = doors; return c }
        #expect(car(3) == car(3))
        #expect(car(3) != car(5), "a property only the subclass maps")
        #expect(car(3).hashValue == car(3).hashValue)
        #expect(Vehicle() != Car())
    }

    /// A property whose type is not Equatable: compared by the JSON, as before.
    struct Opaque: JSONRepresentable {
        var n = 0
        static var jsonTransformer: Transformer<JSONValue, Opaque> {
            Transformer(forward: { Opaque(n: { if case .number(let n) = $0 { return n.int64Value.map(Int.init) }; return nil }($0) ?? 0) }, reverse: { .number(JSONNumber($0.n)) })
        }
    }

    final class Holder: JSONModel, MappedEquality {
        var opaque = Opaque()
        required init() {}
        static let jsonMapping = JSONMapping<Holder> { Map(\.opaque, "opaque") }
    }

    @Test func aPropertyThatIsNotEquatable_comparesByJSON() {
        let a = Holder(), b = Holder(), c = Holder()
        (a.opaque.n, b.opaque.n, c.opaque.n) = (1, 1, 2)
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(a != c)
    }
}
