import Foundation
import Testing
@testable import Magma

/// Class models: final and non-final classes, inherited mappings, dynamic-type encoding, and
/// equality, hashing and description from mapped properties.
@Suite struct ClassModelTests {
    final class Account: JSONModel, MappedEquality {
        var login = ""
        var karma = 0
        var cache: [String] = []      // not mapped: not compared
        required init() {}
        static let jsonMapping = JSONMapping<Account>(keyNaming: .snakeCase) { Map.properties(\.login, \.karma) }
    }

    class Vehicle: JSONModel, MappedEquality {
        var wheels = 0
        var name = ""
        required init() {}
        class var jsonMapping: JSONMapping<Vehicle> { vehicleMapping }
        static let vehicleMapping = JSONMapping<Vehicle> {
            Map(\.wheels, "wheels")
            Map(\.name, "name").named("name")
        }
    }

    class Car: Vehicle {
        var doors = 0
        override class var jsonMapping: JSONMapping<Vehicle> { carMapping }
        static let carMapping = JSONMapping<Vehicle>(Car.self, inheriting: vehicleMapping) { Map(\.doors, "doors") }
    }

    /// Extends Car's mapping and overrides the inherited `name` line with its own key.
    final class RaceCar: Car {
        var topSpeed = 0.0
        override class var jsonMapping: JSONMapping<Vehicle> { raceCarMapping }
        static let raceCarMapping = JSONMapping<Vehicle>(RaceCar.self, inheriting: carMapping, keyNaming: .snakeCase) {
            Map(\.topSpeed)
            Map(\.name, "team").named("name")
        }
    }

    /// Overrides the inherited `name` line with no `.named(...)`: matched by the property itself.
    class Van: Vehicle {
        override class var jsonMapping: JSONMapping<Vehicle> { vanMapping }
        static let vanMapping = JSONMapping<Vehicle>(Van.self, inheriting: vehicleMapping) { Map(\.name, "model") }
    }

    /// Not a Car: it cannot inherit Car's lines (they write Car's properties).
    class Bike: Vehicle {}

    /// Non-final, so its key paths have no names but the lines' own.
    class Badge: JSONModel {
        struct Unwritable: Error {}
        var label = ""
        var rank = 0
        var secret = 0
        required init() {}
        class var jsonMapping: JSONMapping<Badge> { badgeMapping }
        static let badgeMapping = JSONMapping<Badge> {
            Map(\.label, "label").named("label")
            Map(\.rank, "rank", required: true).named("rank")
            Map(\.secret, "secret", Transformer(forward: { _ in 0 }, reverse: { _ in throw Unwritable() })).named("secret")
        }
    }

    struct Garage: JSONModel, Equatable {
        var vehicles: [Vehicle] = []
        var favourite: Car?
        static let jsonMapping = JSONMapping<Garage> {
            Map(\.vehicles, "vehicles")
            Map(\.favourite, "favourite", .model(Car.self))
        }
    }

    @Test func finalClass_decodes_andComparesByMappedProperties() throws {
        let a = try decodeEverywhere(Account.self, #"{"login": "ann", "karma": 3}"#)
        let b = try decodeEverywhere(Account.self, #"{"karma": 3, "login": "ann", "other": 1}"#)
        b.cache = ["x"]
        #expect(a == b && a !== b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
        b.karma = 4
        #expect(a != b)
        #expect(a.description == #"Account {"karma":3,"login":"ann"}"#)
    }

    @Test func subclass_inheritsAndExtendsItsSuperclassMapping() throws {
        let car = try decodeEverywhere(Car.self, #"{"wheels": 4, "name": "mini", "doors": 3}"#)
        #expect(car.wheels == 4 && car.name == "mini" && car.doors == 3)
        let race = try decodeEverywhere(RaceCar.self, #"{"wheels": 4, "doors": 2, "top_speed": 330.5, "team": "red", "name": "x"}"#)
        #expect(race.wheels == 4 && race.doors == 2 && race.topSpeed == 330.5 && race.name == "red")
        #expect(String(decoding: try JSONAdapter.json(from: race), as: UTF8.self) == #"{"wheels":4,"doors":2,"top_speed":330.5,"team":"red"}"#)
    }

    @Test func subclassLine_replacesTheInheritedLineForTheSameProperty_unnamed() throws {
        try Van.vanMapping.validate()
        let van = try decodeEverywhere(Van.self, #"{"wheels": 4, "name": "x", "model": "transit"}"#)
        #expect(van.wheels == 4 && van.name == "transit")
        #expect(String(decoding: try JSONAdapter.json(from: van), as: UTF8.self) == #"{"wheels":4,"model":"transit"}"#)
        // Two lines of the subclass's own for an inherited property are still one too many.
        let twice = JSONMapping<Vehicle>(Van.self, inheriting: Vehicle.vehicleMapping) {
            Map(\.name, "model")
            Map(\.name, "label")
        }
        #expect(throws: JSONError.self) { try twice.validate() }
    }

    @Test func inheritingTheLinesOfAClassItIsNotASubclassOf_failsWhenBuilt() {
        let broken = JSONMapping<Vehicle>(Bike.self, inheriting: Car.carMapping) {}
        let error = #expect(throws: JSONError.self, "a mapping inheriting the lines of a sibling class built") {
            try broken.validate()
        }
        #expect(error?.code == .invalidMapping && error?.message.contains("Car") == true)
    }

    @Test func errors_nameAClassPropertyByItsLinesName() throws {
        let mismatch = failureEverywhere(Badge.self, #"{"label": 5, "rank": 1}"#)
        #expect(mismatch?.code == .typeMismatch)
        #expect(mismatch?.property == "Badge.label")
        let missing = failureEverywhere(Badge.self, #"{"label": "x"}"#)
        #expect(missing?.code == .missingKey)
        #expect(missing?.property == "Badge.rank")
        #expect(missing?.message.contains("Badge.rank") == true)
        do {
            _ = try JSONAdapter.json(from: Badge())
            Issue.record("encoded a property whose transformer throws")
        } catch let error as JSONError {
            #expect(error.property == "Badge.secret")
        }
    }

    @Test func subclass_encodedThroughItsBaseModelsAdapter() throws {
        let car = Car()
        car.wheels = 4
        car.doors = 5
        let asVehicle: Vehicle = car
        // Mantle encodes a model through its own class's mapping whatever the adapter's class.
        #expect(String(decoding: try JSONAdapter.json(from: asVehicle), as: UTF8.self) == #"{"wheels":4,"name":"","doors":5}"#)
        var garage = Garage()
        garage.vehicles = [car, Vehicle()]
        garage.favourite = car
        let text = String(decoding: try JSONAdapter.json(from: garage), as: UTF8.self)
        #expect(text == #"{"vehicles":[{"wheels":4,"name":"","doors":5},{"wheels":0,"name":""}],"favourite":{"wheels":4,"name":"","doors":5}}"#)
        // With no cluster, decoding the base gives the base (the subclass's keys are not its).
        let back = try decodeEverywhere(Garage.self, text)
        #expect(back.vehicles.map { String(describing: type(of: $0)) } == ["Vehicle", "Vehicle"])
        #expect(back.favourite == car)
    }

    @Test func equality_needsTheSameDynamicType() {
        let vehicle = Vehicle()
        let car = Car()
        #expect(vehicle != car)
        #expect(Car() == Car())
    }

    @Test func inheritingFromANonSubclass_failsWhenBuilt() {
        let broken = JSONMapping<Vehicle>(Account.self, inheriting: Vehicle.vehicleMapping) { Map(\.login, "login") }
        #expect(throws: JSONError.self) { try broken.validate() }
        // With no line to carry the error, too.
        let empty = JSONMapping<Vehicle>(Account.self, inheriting: JSONMapping<Vehicle> {}) {}
        let error = #expect(throws: JSONError.self, "a mapping inheriting from a class that is not a superclass built") {
            try empty.validate()
        }
        #expect(error?.code == .invalidMapping && error?.message.contains("not a subclass") == true)
    }

    struct Wrong: JSONModel {
        var x = 0
        static let jsonMapping = JSONMapping<Plain> { Map(\.y, "y") }
        struct Plain: JSONModel {
            var y = 0
            static let jsonMapping = JSONMapping<Plain> { Map(\.y, "y") }
        }
    }

    @Test func aMappingOfAnotherType_isRejected_notWrittenThrough() {
        // Wrong's MappingRoot is Plain: its plan would write Plain's properties into a Wrong.
        let error = failureEverywhere(Wrong.self, #"{"y": 1}"#)
        #expect(error?.code == .invalidMapping)
    }
}
