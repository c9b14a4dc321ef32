import Foundation
import Testing
@testable import Magma

/// Enums with associated values as tagged unions, `@JSONModel(tagging:)`: internal, external and
/// adjacent tags, a case's name through the key naming or `@Key`, labelled values read as a
/// model's properties, one unlabelled model flattened, the fallback; in every entry point, both ways.
@Suite struct TaggedEnumTests {
    @Test func internal_eachCase_theTagBeforeOrAfterItsValues() throws {
        let objects = [#"{"type": "circle", "radius": 2}"#, #"{"radius": 2.5, "type": "circle"}"#, #"{"type": "rect", "width": 3}"#,
                       #"{"street": "s", "type": "big_place", "name": "p", "lat": 1, "lng": 2}"#,
                       #"{"type": "labelled", "tags": [{"name": "a"}]}"#, #"{"type": "unknown"}"#]
        let (shapes, report) = try decodeEveryEntryPoint(Shape33.self, objects)
        #expect(shapes == [.circle(radius: 2), .circle(radius: 2.5), .rectangle(width: 3, height: 1),
                           .bigPlace(Place33(name: "p", address: Address33(street: "s", city: nil), geo: Geo33(lat: 1, lng: 2))),
                           .labelled(name: nil, tags: [Tag33(name: "a")]), .unknown])
        #expect(report.isEmpty)
    }

    @Test func internal_anUnknownOrMissingTag_isTheFallback() throws {
        #expect(try decodeEverywhere(Shape33.self, #"{"type": "hexagon", "sides": 6}"#) == .unknown)
        #expect(try decodeEverywhere(Shape33.self, #"{"radius": 1}"#) == .unknown)
    }

    @Test func eachTagging_writesWhatItReads() throws {
        let shapes: [Shape33] = [.circle(radius: 2), .rectangle(width: 3, height: 4), .labelled(name: "n", tags: []), .unknown,
                                 .bigPlace(Place33(name: "p", address: Address33(street: "s", city: "c"), geo: Geo33(lat: 1, lng: 2)))]
        let written = try shapes.map { String(decoding: try JSONAdapter.json(from: $0), as: UTF8.self) }
        #expect(written == [#"{"type":"circle","radius":2}"#, #"{"type":"rect","width":3,"height":4}"#,
                            #"{"type":"labelled","name":"n","tags":[]}"#, #"{"type":"unknown"}"#,
                            #"{"type":"big_place","name":"p","street":"s","city":"c","lat":1,"lng":2}"#])
        for (shape, json) in zip(shapes, written) {
            #expect(try JSONAdapter.model(Shape33.self, from: json) == shape)
            #expect(try objectModelCodec(Shape33.self).encode(shape) == JSONAdapter.value(from: Data(json.utf8), .json))
        }
        let external: [ExternalShape33] = [.circle(radius: 1), .dot]
        let externalJSON = try external.map { String(decoding: try JSONAdapter.json(from: $0), as: UTF8.self) }
        #expect(externalJSON == [#"{"circle":{"radius":1}}"#, #"{"dot":{}}"#])
        #expect(try externalJSON.map { try JSONAdapter.model(ExternalShape33.self, from: $0) } == external)
        let adjacent: [AdjacentShape33] = [.circle(radius: 1), .dot]
        let adjacentJSON = try adjacent.map { String(decoding: try JSONAdapter.json(from: $0), as: UTF8.self) }
        #expect(adjacentJSON == [#"{"t":"circle","c":{"radius":1}}"#, #"{"t":"dot"}"#])
        #expect(try adjacentJSON.map { try JSONAdapter.model(AdjacentShape33.self, from: $0) } == adjacent)
    }

    @Test func external_andAdjacent_inEveryEntryPoint() throws {
        let external = try decodeEveryEntryPoint(ExternalShape33.self, [#"{"circle": {"radius": 1}}"#, #"{"dot": {}}"#, #"{"dot": null}"#])
        #expect(external.models == [.circle(radius: 1), .dot, .dot])
        let adjacent = try decodeEveryEntryPoint(AdjacentShape33.self, [#"{"c": {"radius": 1}, "t": "circle"}"#, #"{"t": "dot"}"#])
        #expect(adjacent.models == [.circle(radius: 1), .dot])
    }

    @Test func anUnknownTag_namesItAndTheKnownOnes() {
        let external = failureEverywhere(ExternalShape33.self, #"{"square": {"side": 1}}"#)
        #expect(external?.code == .unknownType)
        #expect(external?.message == #"no case of ExternalShape33 is tagged "square" (known: "circle", "dot")"#)
        let adjacent = failureEverywhere(AdjacentShape33.self, #"{"c": {}, "t": "square"}"#)
        #expect(adjacent?.code == .unknownType)
        #expect(adjacent?.message == #"no model of AdjacentShape33 for "t": "square" (known: "circle", "dot")"#)
        #expect(adjacent?.path == "$.t")
    }

    @Test func aCaseFailsAsAModel() {
        let missing = failureEverywhere(Shape33.self, #"{"type": "circle"}"#)
        #expect(missing?.code == .missingKey)
        #expect(missing?.property == "Shape33.circle.radius")
        let mismatch = failureEverywhere(Shape33.self, #"{"radius": "x", "type": "circle"}"#)
        #expect(mismatch?.code == .typeMismatch)
        #expect(mismatch?.path == "$.radius")
        let noContent = failureEverywhere(AdjacentShape33.self, #"{"t": "circle"}"#)
        #expect(noContent?.code == .missingKey)
        #expect(failureEverywhere(ExternalShape33.self, #"{}"#)?.code == .unknownType)
        let twoTags = failureEverywhere(ExternalShape33.self, #"{"circle": {"radius": 1}, "dot": {}}"#)
        #expect(twoTags?.code == .unknownType)
        #expect(twoTags?.message == #"an object holds one case: "circle" and "dot" are two"#)
    }

    @Test func inAModel_inArrays_optional_andLossy() throws {
        let json = #"{"shapes": [{"type": "circle", "radius": 1}, {"type": "rect", "width": 2}], "main": {"dot": {}},"#
            + #" "others": [{"t": "dot"}, {"t": "hexagon"}, {"t": "circle", "c": {"radius": 3}}]}"#
        let (drawings, report) = try decodeEveryEntryPoint(Drawing33.self, [json])
        #expect(drawings[0] == Drawing33(shapes: [.circle(radius: 1), .rectangle(width: 2, height: 1)], main: .dot,
                                          others: [.dot, .circle(radius: 3)]))
        #expect(report.dropped.map(\.path) == ["$[0].others[1]"])
        #expect(report.dropped.first?.error.code == .unknownType)
        let written = try JSONAdapter.json(from: drawings[0])
        #expect(try JSONAdapter.model(Drawing33.self, from: written) == drawings[0])
    }
}
