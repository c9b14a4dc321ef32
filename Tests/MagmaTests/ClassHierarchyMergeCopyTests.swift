import Foundation
import Testing
@testable import Magma

/// Merging across a class hierarchy (Mantle's `mergeValuesForKeysFromModel:`) and copying class
/// models (Mantle's `copy`).
@Suite struct ClassHierarchyMergeCopyTests {
    typealias Vehicle = ClassModelTests.Vehicle
    typealias Car = ClassModelTests.Car

    static func car(wheels: Int, name: String, doors: Int) -> Car {
        let car = Car()
        (car.wheels, car.name, car.doors) = (wheels, name, doors)
        return car
    }

    @Test func aSubclassModel_mergesIntoItsSuperclass_theSharedProperties() throws {
        var vehicle = Vehicle()
        try vehicle.merge(from: Self.car(wheels: 4, name: "mini", doors: 3))
        #expect(type(of: vehicle) == Vehicle.self)
        #expect(vehicle.wheels == 4 && vehicle.name == "mini")
    }

    @Test func aSuperclassModel_mergesIntoASubclass_leavingItsOwnProperties() throws {
        var car: Vehicle = Self.car(wheels: 4, name: "mini", doors: 3)
        let plain = Vehicle()
        (plain.wheels, plain.name) = (2, "bike")
        try car.merge(from: plain)
        #expect(car.wheels == 2 && car.name == "bike")
        #expect((car as? Car)?.doors == 3)
    }

    @Test func unrelatedClasses_doNotMerge() throws {
        var car: Vehicle = Car()
        let error = try #require(throws: JSONError.self) { try car.merge(from: ClassModelTests.Van()) }
        #expect(error.code == .invalidValue)
        #expect(error.message == "cannot merge a Van into a Car: neither is a subclass of the other's mapped class")
    }

    final class Session: JSONModel, MappedEquality, TransitoryCopying {
        var token = ""
        var user: GHUser?
        var lastSeen = 0          // not mapped: transitory
        var scratch = 0           // not mapped, and not copied by the hook
        required init() {}
        static let jsonMapping = JSONMapping<Session> { Map(\.token, "token"); Map(\.user, "user") }
        func copyTransitoryProperties(to copy: Session) { copy.lastSeen = lastSeen }
    }

    @Test func aClassModelCopy_isANewInstance_withEqualMappedAndTransitoryValues() {
        let original = Session()
        (original.token, original.user, original.lastSeen, original.scratch) = ("t", GHUser(login: "ann"), 42, 7)
        let copy = original.copy()
        #expect(copy !== original)
        #expect(copy == original)
        #expect(copy.token == "t" && copy.user?.login == "ann" && copy.lastSeen == 42 && copy.scratch == 0)
        copy.token = "changed"
        #expect(original.token == "t")
    }

    @Test func aCopy_keepsTheDynamicClass_andItsSubclassProperties() {
        let car: Vehicle = Self.car(wheels: 4, name: "mini", doors: 3)
        let copy = car.copy()
        #expect(type(of: copy) == Car.self)
        #expect(copy == car && copy !== car)
        #expect((copy as? Car)?.doors == 3)
    }
}
