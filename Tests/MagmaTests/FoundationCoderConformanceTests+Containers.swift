// Foundation's coder behaviours, part 4: containers and their coding paths, super encoders and
// decoders, keys written twice, what a throw leaves behind, decoders kept past `decode`, the
// dynamic type of a class, configurations and user info (see FoundationCoderConformanceTests.swift).
import Foundation
import Testing
@testable import Magma

@Suite struct FoundationContainerConformanceTests {
    /// The coding paths every container reports while nested ones are made, directly and through
    /// a super encoder (each encoder's log of its last run of `encode(to:)`).
    @Test(arguments: [false, true])
    func nestedContainers_reportJSONEncodersPaths(_ throughSuperEncoder: Bool) {
        let log = PathLog()
        let value = NestedPaths(throughSuperEncoder: throughSuperEncoder, log: log)
        _ = try? JSONEncoder().encode(value)
        let foundation = log.take()
        _ = try? MagmaEncoder().encode(value)
        #expect(log.take() == foundation)
        #expect(!foundation.isEmpty)
        expectSameEncode(value, configure: { $0.outputFormatting = .sortedKeys })
    }

    /// The decoder's side: the paths of containers opened while reading.
    @Test func nestedDecodingContainers_reportJSONDecodersPaths() {
        let log = PathLog()
        let json = Data("{\"a\":{\"one\":{},\"two\":[]},\"b\":[{},[]]}".utf8)
        let decoder = JSONDecoder(), magma = MagmaDecoder()
        decoder.userInfo[PathReader.logKey] = log
        magma.userInfo[PathReader.logKey] = log
        _ = try? decoder.decode(PathReader.self, from: json)
        let foundation = log.take()
        _ = try? magma.decode(PathReader.self, from: json)
        #expect(log.take() == foundation)
        #expect(foundation.count > 5)
    }

    /// A super decoder for a key that is absent reads as null (and throws nothing until read).
    @Test func superDecoder_absentKey_isNull() {
        expectSameDecode(AbsentSuper.self, "{}")
        expectSameDecode(OptionalThroughSuper.self, "{\"a\":true}")
        expectSameDecode(OptionalThroughSuper.self, "{\"a\":true,\"nope\":\"x\"}")
        expectSameDecode(OptionalThroughSuper.self, "{\"a\":true,\"nope\":1}")
    }

    /// Through a metatype value of a superclass, the subclass is built (JSONDecoder's `type.init`).
    @Test func superclassMetatype_buildsTheDynamicType() throws {
        func dynamicType() -> Member.Type { Staff.self }
        let json = try JSONEncoder().encode(Staff.sample)
        let foundation = try JSONDecoder().decode(dynamicType(), from: json)
        let magma = try MagmaDecoder().decode(dynamicType(), from: json)
        #expect(type(of: magma) == type(of: foundation))
        #expect(magma is Staff && magma == foundation)
        let empty: BaseOnly.Type = DerivedOnly.self
        #expect(try MagmaDecoder().decode(empty, from: Data("{}".utf8)) is DerivedOnly)
        #expect(try MagmaDecoder().decode([BaseOnly].self, from: Data("[{}]".utf8)).first.map { type(of: $0) == BaseOnly.self } == true)
    }

    /// A value that throws under a super encoder's nested container, through the value, a custom
    /// date and a custom data strategy: the same error, and the encoder usable after it.
    @Test func encoderState_afterAThrowUnderASuperEncoder() {
        expectSameEncode(SuperWrapper([Float.infinity]))
        let dateThrows: (JSONEncoder) -> Void = { $0.dateEncodingStrategy = .custom { _, encoder in _ = encoder.unkeyedContainer(); throw Failure.thrown } }
        let dataThrows: (JSONEncoder) -> Void = { $0.dataEncodingStrategy = .custom { _, encoder in _ = encoder.unkeyedContainer(); throw Failure.thrown } }
        expectSameEncode(SuperWrapper(Date(timeIntervalSince1970: 0)), configure: dateThrows)
        expectSameEncode(SuperWrapper(Data()), configure: dataThrows)
        expectSameEncode(SuperWrapper([1.5]))
    }

    /// What a failed `try` leaves behind does not change the next read of the same value.
    @Test func decoderState_afterAThrow() {
        expectSameDecode(EitherOf<[String], [Int]>.self, "[1,2,3]")
        expectSameDecode(EitherOf<Date, Int>.self, "1", configure: { $0.dateDecodingStrategy = .custom { _ in throw Failure.thrown } })
        expectSameDecode(EitherOf<Data, Int>.self, "1", configure: { $0.dataDecodingStrategy = .custom { _ in throw Failure.thrown } })
    }

    /// A value encoded into a nested unkeyed container and read back from one.
    @Test func nestedUnkeyedOfKeyed_roundTrips() {
        expectRoundTrip(LevelOne(levelTwo: .init(name: "level2")))
    }

    /// A container, or the top-level decoder, kept by `init(from:)` reads after `decode` returned.
    @Test func delayedDecoding_keptContainerAndDecoder() throws {
        for data in [try JSONEncoder().encode([42]), try MagmaEncoder().encode([42])] {
            let byContainer = try MagmaDecoder().decode(KeepsContainer.self, from: data)
            #expect(try byContainer.value() == 42)
            let byDecoder = try MagmaDecoder().decode(KeepsDecoder.self, from: data)
            #expect(try byDecoder.value() == 42)
            #expect(try JSONDecoder().decode(KeepsDecoder.self, from: data).value() == 42)
        }
    }

    /// Nothing encoded: an error at the top level, an empty object inside a container.
    @Test func encodesNothing_errorAtTopEmptyObjectInside() {
        #expect(expectSameEncode(Silent()).error != nil)
        expectSameEncode([Silent()])
        expectSameEncode(["test": Silent()])
    }

    /// Two super encoders of a keyed container and two of an unkeyed one, written where JSONEncoder writes them.
    @Test func superEncoders_keyedAndUnkeyed() {
        expectSameEncode(SuperEncoders(), configure: { $0.outputFormatting = .sortedKeys })
    }

    /// A key written twice (value, nested keyed, nested unkeyed; then a value or a super
    /// encoder's value): the last one wins.
    @Test(arguments: Rewrites.Replaced.allCases, [false, true])
    func redundantKeys_lastWriteWins(_ replaced: Rewrites.Replaced, _ throughSuperEncoder: Bool) {
        expectSameEncode(Rewrites(replaced: replaced, throughSuperEncoder: throughSuperEncoder))
    }

    /// Two nested keyed containers at one key share one object, both ways.
    @Test func twoNestedContainersAtOneKey_shareAnObject() {
        expectRoundTrip(SharedKey(first: "Johnny Appleseed", second: "appleseed@apple.com"), encoder: { $0.outputFormatting = .sortedKeys })
    }

    /// A nested container asked for at a key already written as a value adds to that value.
    @Test func reopenedContainers_addToTheEarlierValue() {
        expectSameEncode(EncodesTwice(), configure: { $0.outputFormatting = .sortedKeys })
        expectSameEncode(AmendedDictionary(), configure: { $0.outputFormatting = .sortedKeys })
    }

    /// `encode(_:configuration:)` and `decode(_:from:configuration:)`, with a value and with a provider type.
    @Test func configurations_valueAndProvider() throws {
        let value = Configured(3)
        let foundationEncoder = JSONEncoder(), foundationDecoder = JSONDecoder()
        let encoder = MagmaEncoder(), decoder = MagmaDecoder()
        let byValue = try encoder.encode(value, configuration: .init(1))
        #expect(byValue == (try foundationEncoder.encode(value, configuration: .init(1))))
        #expect(try decoder.decode(Configured.self, from: byValue, configuration: .init(1)) == value)
        let byProvider = try encoder.encode(value, configuration: Configured.Provider.self)
        #expect(byProvider == (try foundationEncoder.encode(value, configuration: Configured.Provider.self)))
        #expect(try decoder.decode(Configured.self, from: byProvider, configuration: Configured.Provider.self) == value)
        #expect(try foundationDecoder.decode(Configured.self, from: byProvider, configuration: Configured.Provider.self) == value)
        let bad = Data("\"x\"".utf8)
        #expect(CoderOutcome { try decoder.decode(Configured.self, from: bad, configuration: .init(1)) }
                == CoderOutcome { try foundationDecoder.decode(Configured.self, from: bad, configuration: .init(1)) })
    }

    /// `userInfo` reaches `encode(to:)` and `init(from:)` at every depth.
    @Test func userInfo_reachesEveryLevel() throws {
        let key = CodingUserInfoKey(rawValue: "scale")!
        let foundation = JSONEncoder(), decoder = JSONDecoder()
        foundation.userInfo[key] = 10
        decoder.userInfo[key] = 10
        let value = [Scaled(raw: 2), Scaled(raw: 3)]
        let bytes = try MagmaEncoder(foundation).encode(value)
        #expect(bytes == (try foundation.encode(value)))
        #expect(try MagmaDecoder(decoder).decode([Scaled].self, from: bytes) == value)
    }
}

// MARK: - Fixture types

enum Failure: Error { case thrown }

/// Records the coding paths of the encoder and of each container it makes.
struct NestedPaths: Encodable {
    let throughSuperEncoder: Bool
    let log: PathLog
    enum Top: Int, CodingKey { case a, b, c }
    enum Middle: Int, CodingKey { case one, two }

    func note(_ label: String, _ path: [any CodingKey]) { log.add(label + " " + path.map(CoderError.key).joined(separator: "/")) }

    func encode(to encoder: any Encoder) throws {
        _ = log.take()  // MagmaEncoder may run `encode(to:)` again (its tree): keep the last run
        guard throughSuperEncoder else { return containers(in: encoder) }
        var top = encoder.container(keyedBy: Top.self)
        let sup = top.superEncoder(forKey: .a)
        note("encoder", encoder.codingPath); note("top", top.codingPath); note("super", sup.codingPath)
        containers(in: sup)
    }

    func containers(in encoder: any Encoder) {
        note("base", encoder.codingPath)
        var first = encoder.container(keyedBy: Top.self)
        note("first", first.codingPath)
        var second = first.nestedContainer(keyedBy: Middle.self, forKey: .a)
        let keyed = second.nestedContainer(keyedBy: Middle.self, forKey: .one)
        let unkeyed = second.nestedUnkeyedContainer(forKey: .two)
        note("second", second.codingPath); note("third keyed", keyed.codingPath); note("third unkeyed", unkeyed.codingPath)
        var list = first.nestedUnkeyedContainer(forKey: .b)
        let listKeyed = list.nestedContainer(keyedBy: Middle.self)
        let listUnkeyed = list.nestedUnkeyedContainer()
        note("list", list.codingPath); note("list keyed", listKeyed.codingPath); note("list unkeyed", listUnkeyed.codingPath)
        note("encoder after", encoder.codingPath); note("first after", first.codingPath)
    }
}

/// Records the coding paths of the decoder and of the containers it opens.
struct PathReader: Decodable, Equatable {
    static let logKey = CodingUserInfoKey(rawValue: "pathLog")!
    init(from decoder: any Decoder) throws {
        let log = decoder.userInfo[Self.logKey] as! PathLog
        func note(_ label: String, _ path: [any CodingKey]) { log.add(label + " " + path.map(CoderError.key).joined(separator: "/")) }
        note("decoder", decoder.codingPath)
        let top = try decoder.container(keyedBy: AnyKey.self)
        note("top", top.codingPath)
        let a = try top.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("a"))
        note("a", a.codingPath)
        note("a.one", try a.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("one")).codingPath)
        note("a.two", try a.nestedUnkeyedContainer(forKey: AnyKey("two")).codingPath)
        var b = try top.nestedUnkeyedContainer(forKey: AnyKey("b"))
        note("b", b.codingPath)
        note("b[0]", try b.nestedContainer(keyedBy: AnyKey.self).codingPath)
        note("b[1]", try b.nestedUnkeyedContainer().codingPath)
        note("super", try top.superDecoder().codingPath)
        note("super a", try top.superDecoder(forKey: AnyKey("a")).codingPath)
        do { _ = try b.decode(Int.self) } catch { log.add(CoderError(error).description) }
        note("decoder after", decoder.codingPath)
    }
}

struct AbsentSuper: Decodable, Equatable {
    init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: AnyKey.self).superDecoder(forKey: AnyKey("super"))
    }
}

/// An optional read through `superDecoder(forKey:)`, its `valueNotFound` caught.
struct OptionalThroughSuper: Decodable, Equatable {
    let a: Bool
    let nope: String?
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        a = try c.decode(Bool.self, forKey: AnyKey("a"))
        do {
            nope = try c.superDecoder(forKey: AnyKey("nope")).singleValueContainer().decode(String.self)
        } catch DecodingError.valueNotFound {
            nope = nil
        }
    }
}

class BaseOnly: Decodable {}
final class DerivedOnly: BaseOnly {}

/// Encodes its value in a nested container of a super encoder of an unkeyed container.
struct SuperWrapper<T: Encodable>: Encodable {
    let value: T
    init(_ value: T) { self.value = value }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        var nested = c.superEncoder().unkeyedContainer()
        try nested.encode(value)
    }
}

struct LevelOne: Codable, Equatable {
    struct LevelTwo: Codable, Equatable { let name: String }
    let levelTwo: LevelTwo
    enum CodingKeys: String, CodingKey { case levelTwo }
    init(levelTwo: LevelTwo) { self.levelTwo = levelTwo }
    init(from decoder: any Decoder) throws {
        var nested = try decoder.container(keyedBy: CodingKeys.self).nestedUnkeyedContainer(forKey: .levelTwo)
        levelTwo = try nested.decode(LevelTwo.self)
    }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        var nested = c.nestedUnkeyedContainer(forKey: .levelTwo)
        try nested.encode(levelTwo)
    }
}

/// Keeps its unkeyed container and reads it later.
struct KeepsContainer: Decodable {
    let container: any UnkeyedDecodingContainer
    init(from decoder: any Decoder) throws { container = try decoder.unkeyedContainer() }
    func value() throws -> Int {
        var copy = container
        return try copy.decode(Int.self)
    }
}

/// Keeps the top-level decoder and reads it later.
struct KeepsDecoder: Decodable {
    let decoder: any Decoder
    init(from decoder: any Decoder) throws { self.decoder = decoder }
    func value() throws -> Int {
        var c = try decoder.unkeyedContainer()
        return try c.decode(Int.self)
    }
}

struct Silent: Encodable { func encode(to encoder: any Encoder) throws {} }

struct SuperEncoders: Encodable {
    enum CodingKeys: String, CodingKey { case firstSuper, secondSuper, unkeyed }
    func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: CodingKeys.self)
        var first = keyed.superEncoder(forKey: .firstSuper).singleValueContainer()
        var second = keyed.superEncoder(forKey: .secondSuper).singleValueContainer()
        try first.encode("First")
        try second.encode("Second")
        var unkeyed = keyed.nestedUnkeyedContainer(forKey: .unkeyed)
        try unkeyed.encode(0)
        let firstInList = unkeyed.superEncoder(), secondInList = unkeyed.superEncoder()
        try unkeyed.encode(42)
        var a = firstInList.singleValueContainer(), b = secondInList.singleValueContainer()
        try a.encode("First")
        try b.encode("Second")
    }
}

struct Rewrites: Encodable {
    enum Replaced: CaseIterable, Sendable { case value, keyedContainer, unkeyedContainer }
    let replaced: Replaced
    let throughSuperEncoder: Bool
    enum CodingKeys: String, CodingKey { case key }
    func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: CodingKeys.self)
        switch replaced {
        case .value: try keyed.encode(0, forKey: .key)
        case .keyedContainer: _ = keyed.nestedContainer(keyedBy: CodingKeys.self, forKey: .key)
        case .unkeyedContainer: _ = keyed.nestedUnkeyedContainer(forKey: .key)
        }
        if throughSuperEncoder {
            var single = keyed.superEncoder(forKey: .key).singleValueContainer()
            try single.encode(42)
        } else {
            try keyed.encode(42, forKey: .key)
        }
    }
}

struct SharedKey: Codable, Equatable {
    let first: String, second: String
    enum Top: String, CodingKey { case top }
    enum First: String, CodingKey { case first }
    enum Second: String, CodingKey { case second }
    init(first: String, second: String) { self.first = first; self.second = second }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Top.self)
        first = try c.nestedContainer(keyedBy: First.self, forKey: .top).decode(String.self, forKey: .first)
        second = try c.nestedContainer(keyedBy: Second.self, forKey: .top).decode(String.self, forKey: .second)
    }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Top.self)
        var a = c.nestedContainer(keyedBy: First.self, forKey: .top)
        try a.encode(first, forKey: .first)
        var b = c.nestedContainer(keyedBy: Second.self, forKey: .top)
        try b.encode(second, forKey: .second)
    }
}

struct EncodesTwice: Encodable {
    enum CodingKeys: String, CodingKey { case container, somethingElse }
    struct Nested: Encodable { let foo = "Test" }
    func encode(to encoder: any Encoder) throws {
        var top = encoder.container(keyedBy: CodingKeys.self)
        try top.encode("Foo", forKey: .somethingElse)
        try top.encode(Nested(), forKey: .container)
        var again = top.nestedContainer(keyedBy: CodingKeys.self, forKey: .container)
        try again.encode("SecondAgain", forKey: .somethingElse)
    }
}

/// A dictionary written through a single-value container, then amended through a keyed one.
struct AmendedDictionary: Encodable {
    enum CodingKeys: String, CodingKey { case a }
    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(["a": "b", "other": "foo"])
        var keyed = encoder.container(keyedBy: CodingKeys.self)
        try keyed.encode("c", forKey: .a)
    }
}

/// Adds its configuration's number when encoding and takes it away when decoding.
struct Configured: CodableWithConfiguration, Equatable {
    struct Settings: Sendable { let add: Int; init(_ add: Int) { self.add = add } }
    struct Provider: EncodingConfigurationProviding, DecodingConfigurationProviding {
        static var encodingConfiguration: Settings { Settings(2) }
        static var decodingConfiguration: Settings { Settings(2) }
    }
    let number: Int
    init(_ number: Int) { self.number = number }
    init(from decoder: any Decoder, configuration: Settings) throws {
        number = try decoder.singleValueContainer().decode(Int.self) - configuration.add
    }
    func encode(to encoder: any Encoder, configuration: Settings) throws {
        var c = encoder.singleValueContainer()
        try c.encode(number + configuration.add)
    }
}

/// Multiplies by the user info's "scale" when encoding, divides when decoding.
struct Scaled: Codable, Equatable {
    static let key = CodingUserInfoKey(rawValue: "scale")!
    let raw: Int
    init(raw: Int) { self.raw = raw }
    init(from decoder: any Decoder) throws {
        raw = try decoder.singleValueContainer().decode(Int.self) / (decoder.userInfo[Self.key] as! Int)
    }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(raw * (encoder.userInfo[Self.key] as! Int))
    }
}
