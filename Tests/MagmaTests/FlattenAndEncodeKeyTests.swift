import Foundation
import Testing
@testable import Magma

/// `@Flatten` (a nested model's keys read from the parent's object and written back there) and
/// `@Key(_:encode:)` (a property written back at another key), in every entry point.
@Suite struct FlattenAndEncodeKeyTests {
    static let place = #"{"name": "home", "street": "1 Main St", "city": null, "lat": 1.5, "lng": -2}"#

    @Test func flatten_readsTheNestedModelsKeysFromTheParent() throws {
        let (models, _) = try decodeEveryEntryPoint(Place33.self, [Self.place, #"{"lng": 3, "street": "x", "name": "b"}"#])
        #expect(models[0] == Place33(name: "home", address: Address33(street: "1 Main St", city: nil), geo: Geo33(lat: 1.5, lng: -2)))
        #expect(models[1] == Place33(name: "b", address: Address33(street: "x", city: nil), geo: Geo33(lat: 0, lng: 3)))
    }

    @Test func flatten_writesTheNestedModelBackIntoTheParent_andRoundTrips() throws {
        let place = try JSONAdapter.model(Place33.self, from: Self.place)
        let json = String(decoding: try JSONAdapter.json(from: place), as: UTF8.self)
        #expect(json == #"{"name":"home","street":"1 Main St","lat":1.5,"lng":-2}"#)
        #expect(try JSONAdapter.model(Place33.self, from: json) == place)
        #expect(try objectModelCodec(Place33.self).encode(place) == JSONAdapter.value(from: Data(json.utf8), .json))
    }

    @Test func flatten_aRequiredNestedKeyMissing_isNamedAsTheNestedModels() {
        let error = failureEverywhere(Place33.self, #"{"name": "x", "lat": 1}"#)
        #expect(error?.code == .missingKey)
        #expect(error?.property == "Address33.street")
        #expect(error?.message == #"missing key "street" for required property Address33.street"#)
    }

    @Test func flatten_aKeyTheParentAlsoReads_failsTheMapping() {
        let clash = JSONMapping<Geo33Holder> {
            Map(\.lat, "lat")
            Map.flattening(\.geo)
        }
        #expect(throws: JSONError.self) { try clash.validate() }
        #expect((try? clash.validate()) == nil)
        do { try clash.validate() } catch let error as JSONError {
            #expect(error.code == .invalidMapping)
            #expect(error.message.contains(#""lat" is read by Geo33Holder.lat and by Geo33Holder.geo (its Geo33.lat)"#), "\(error.message)")
        } catch {}
        let twice = JSONMapping<Geo33Holder> {
            Map.flattening(\.geo)
            Map.flattening(\.other)
        }
        #expect(throws: JSONError.self) { try twice.validate() }
        // A nested key path that runs through a flattened key: claimed by both too.
        let through = JSONMapping<Geo33Holder> {
            Map(\.lat, "lng.deg")
            Map.flattening(\.geo)
        }
        #expect(throws: JSONError.self) { try through.validate() }
        let apart = JSONMapping<Geo33Holder> {
            Map(\.lat, "latitude")
            Map.flattening(\.geo)
        }
        #expect(throws: Never.self) { try apart.validate() }
    }

    @Test func flatten_aMacroModelWhoseKeysClash_failsWhenRead() {
        let error = failureEverywhere(Clash33.self, #"{"street": "x"}"#)
        #expect(error?.code == .invalidMapping)
    }

    @Test func encodeKey_readsOneKeyAndWritesAnother() throws {
        let order = try decodeEverywhere(Order33.self, #"{"id": 1, "tags": [], "user_name": "ann", "userName": "ignored"}"#)
        #expect(order.userName == "ann")
        let json = String(decoding: try JSONAdapter.json(from: order), as: UTF8.self)
        #expect(json.contains(#""userName":"ann""#) && !json.contains("user_name"), "\(json)")
        // What it writes is what a model reading "userName" reads.
        #expect(try JSONAdapter.model(UserNameReader33.self, from: json).userName == "ann")
        #expect(try objectModelCodec(Order33.self).encode(order) == JSONAdapter.value(from: Data(json.utf8), .json))
    }

    @Test func encodeKey_writtenByTwoProperties_failsTheMapping() {
        let twice = JSONMapping<Geo33> {
            Map(\.lat, "lat").encodingKey("lng")
            Map(\.lng, "lng")
        }
        do {
            try twice.validate()
            Issue.record("validated")
        } catch let error as JSONError {
            #expect(error.code == .invalidMapping)
            #expect(error.message == #""lng" is written back by Geo33.lat and by Geo33.lng: give one of them another encoding key"#)
        } catch {}
        let several = JSONMapping<Geo33> {
            Map(\.lat, ["a", "b"], Transformer(forward: { _ in 0.0 })).encodingKey("c")
        }
        #expect(throws: JSONError.self) { try several.validate() }
    }
}

struct Geo33Holder: JSONModel {
    var lat = 0.0
    var geo = Geo33()
    var other = Geo33()
    static let jsonMapping = JSONMapping<Geo33Holder> { Map(\.lat, "lat") }
}

@JSONModel struct Clash33 {
    let street: String
    @Flatten let address: Address33
}

@JSONModel struct UserNameReader33 {
    let userName: String
}
