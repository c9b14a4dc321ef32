import Foundation
import Testing
@testable import Magma

/// Class clusters: the concrete model picked by a discriminator, wherever it comes in the object.
@Suite struct ClusterTests {
    class Shape: JSONModel, MappedEquality {
        var id = 0
        var extra: JSONValue = .null
        required init() {}
        class var jsonMapping: JSONMapping<Shape> { shapeMapping }
        static let shapeMapping = JSONMapping<Shape> {
            Map(\.id, "id")
            Map(\.extra, "extra")
        }
        static let jsonCluster: JSONCluster<Shape>? = JSONCluster(discriminator: "type") {
            ClusterCase("circle", Circle.self)
            ClusterCase("square", Square.self)
        }
    }

    final class Circle: Shape {
        var radius = 0.0
        override class var jsonMapping: JSONMapping<Shape> { circleMapping }
        static let circleMapping = JSONMapping<Shape>(Circle.self, inheriting: shapeMapping) { Map(\.radius, "radius") }
    }

    final class Square: Shape {
        var side = 0
        var kind = ""
        override class var jsonMapping: JSONMapping<Shape> { squareMapping }
        /// Maps the discriminator itself: replayed into it, and written by it.
        static let squareMapping = JSONMapping<Shape>(Square.self, inheriting: shapeMapping) {
            Map(\.side, "side", required: true)
            Map(\.kind, "type")
        }
    }

    struct Drawing: JSONModel, Equatable {
        var main: Shape?
        var shapes: [Shape] = []
        static let jsonMapping = JSONMapping<Drawing> {
            Map(\.main, "main")
            Map(\.shapes, "shapes")
        }
    }

    @Test func discriminatorLast_bufferedAndReplayed() throws {
        let json = #"""
        {"shapes": [
           {"radius": 2.5, "extra": {"tags": ["a", {"x": [1, null, true, false]}], "n": -1.5e3}, "id": 1, "type": "circle"},
           {"type": "square", "side": 3, "id": 2},
           {"id": 3, "side": 4, "type": "square"}],
         "main": {"id": 9, "type": "circle", "radius": 1}}
        """#
        let drawing = try decodeEverywhere(Drawing.self, json)
        let circle = try #require(drawing.shapes.first as? Circle)
        #expect(circle.id == 1 && circle.radius == 2.5)
        #expect(circle.extra == .object(["tags": .array([.string("a"), .object(["x": .array([.number(1), .null, .bool(true), .bool(false)])])]),
                                         "n": .number(JSONNumber("-1.5e3")!)]))
        let squares = drawing.shapes.dropFirst().compactMap { $0 as? Square }
        #expect(squares.map(\.side) == [3, 4] && squares.map(\.id) == [2, 3] && squares.map(\.kind) == ["square", "square"])
        #expect((drawing.main as? Circle)?.radius == 1)
    }

    @Test func topLevelArray_ofTheBase() throws {
        let json = #"[{"id": 1, "type": "circle", "radius": 3}, {"side": 2, "type": "square"}]"#
        let whole = try JSONAdapter.models(Shape.self, from: json)
        for size in chunkSizes {
            #expect(try JSONAdapter.models(Shape.self, from: .chunks(chunks(Array(json.utf8), size))) == whole)
        }
        #expect(whole.map { String(describing: type(of: $0)) } == ["Circle", "Square"])
        #expect(try decodeEverywhere(Shape.self, #"{"radius": 5, "type": "circle"}"#) is Circle)
    }

    @Test func unknownDiscriminator_namesTheValue() throws {
        let error = failureEverywhere(Drawing.self, #"{"shapes": [{"type": "circle"}, {"id": 1, "type": "hexagon"}]}"#)
        #expect(error?.code == .unknownType)
        #expect(error?.message.contains("\"hexagon\"") == true)
        #expect(error?.message.contains("\"circle\", \"square\"") == true)
        #expect(error?.path == "$.shapes[1].type")
    }

    @Test func missingOrNonStringDiscriminator_isAnError() throws {
        let missing = failureEverywhere(Drawing.self, #"{"main": {"id": 1, "radius": 2}}"#)
        #expect(missing?.code == .unknownType)
        #expect(missing?.message.contains("\"type\"") == true)
        let number = failureEverywhere(Drawing.self, #"{"main": {"id": 1, "type": 7}}"#)
        #expect(number?.code == .unknownType)
        #expect(number?.path == "$.main.type")
        #expect(failureEverywhere(Drawing.self, #"{"main": {"type": ["circle"]}}"#)?.code == .unknownType)
    }

    @Test func missingDiscriminator_namesTheObject_notItsLastKey() throws {
        let missing = failureEverywhere(Drawing.self, #"{"main": {"id": 1, "radius_typo": 2}}"#)
        #expect(missing?.code == .unknownType)
        #expect(missing?.path == "$.main")
        let empty = failureEverywhere(Drawing.self, #"{"shapes": [{}]}"#)
        #expect(empty?.code == .unknownType)
        #expect(empty?.path == "$.shapes[0]")
    }

    @Test func errorsInsideTheChosenModel_afterReplay() throws {
        // Square's required "side" is missing: checked when its object ends, as for any model.
        let missing = failureEverywhere(Drawing.self, #"{"main": {"id": 1, "type": "square"}}"#)
        #expect(missing?.code == .missingKey)
        #expect(missing?.path == "$.main")
        // A type mismatch in a buffered key is reported when it is replayed.
        let mismatch = failureEverywhere(Drawing.self, #"{"main": {"id": "x", "type": "circle"}}"#)
        #expect(mismatch?.code == .typeMismatch)
        var strict = DecodingOptions()
        strict.unknownKeys = .reject
        let unknown = failureEverywhere(Drawing.self, #"{"main": {"colour": 1, "type": "circle"}}"#, options: strict)
        #expect(unknown?.code == .unknownKey)
        #expect(unknown?.path == "$.main.colour")
    }

    @Test func encoding_writesTheDiscriminator_andRoundTrips() throws {
        let circle = Circle()
        circle.id = 1
        circle.radius = 2
        let square = Square()
        square.side = 3
        square.kind = "square"
        var drawing = Drawing()
        drawing.main = square
        drawing.shapes = [circle, square]
        let text = String(decoding: try JSONAdapter.json(from: drawing), as: UTF8.self)
        #expect(text == #"{"main":{"id":0,"side":3,"type":"square"},"shapes":[{"type":"circle","id":1,"radius":2},{"id":0,"side":3,"type":"square"}]}"#)
        #expect(try decodeEverywhere(Drawing.self, text) == drawing)
        // A concrete model encoded through the base's adapter, or on its own, writes its discriminator.
        #expect(String(decoding: try JSONAdapter.json(from: circle as Shape), as: UTF8.self).hasPrefix(#"{"type":"circle","#))
        #expect(String(decoding: try JSONAdapter.json(from: circle), as: UTF8.self).hasPrefix(#"{"type":"circle","#))
    }

    // MARK: A cluster over a protocol, of struct models

    protocol Event { var at: Int { get } }
    @JSONModel struct Click: Event, Equatable {
        var at = 0
        var x = 0
    }
    @JSONModel struct KeyPress: Event, Equatable {
        var at = 0
        var key = ""
    }
    @JSONModel struct Unknown: Event, Equatable {
        var at = 0
    }
    static let events = JSONCluster<any Event>(discriminator: "kind") {
        ClusterCase("click", Click.self)
        ClusterCase("key", KeyPress.self)
        ClusterCase.fallback(Unknown.self)
    }
    /// A macro model holding a cluster's models.
    @JSONModel struct Log: Equatable {
        @Transform(.array(.cluster(ClusterTests.events))) var events: [any Event] = []
        static func == (a: Log, b: Log) -> Bool {
            a.events.count == b.events.count && zip(a.events, b.events).allSatisfy { x, y in
                (x as? Click) == (y as? Click) && (x as? KeyPress) == (y as? KeyPress) && (x as? Unknown) == (y as? Unknown)
            }
        }
    }

    @Test func protocolCluster_ofStructs_withFallback() throws {
        let json = #"{"events": [{"x": 5, "at": 1, "kind": "click"}, {"kind": "key", "key": "a", "at": 2}, {"at": 3, "kind": "scroll"}, {"at": 4}]}"#
        let log = try decodeEverywhere(Log.self, json)
        #expect(log.events.map(\.at) == [1, 2, 3, 4])
        #expect(log.events[0] as? Click == Click(at: 1, x: 5))
        #expect(log.events[1] as? KeyPress == KeyPress(at: 2, key: "a"))
        #expect(log.events[2] is Unknown && log.events[3] is Unknown)
        let text = String(decoding: try JSONAdapter.json(from: log), as: UTF8.self)
        #expect(text == #"{"events":[{"kind":"click","at":1,"x":5},{"kind":"key","at":2,"key":"a"},{"at":3},{"at":4}]}"#)
        let value = try JSONAdapter.value(from: Data(#"{"key": "q", "kind": "key"}"#.utf8), .cluster(ClusterTests.events))
        #expect(value as? KeyPress == KeyPress(at: 0, key: "q"))
    }
}

extension ClusterTests {
    @Test func streamOfClusterRecords_skipsBadOnes_inEveryChunking() throws {
        // The second record fails while its buffered keys are replayed, the third has an
        // unknown type, the fifth fails after its type is known.
        let json = #"""
        [{"radius": 1, "type": "circle"}, {"id": "x", "radius": [1, {"a": 2}], "type": "circle"},
         {"id": 3, "type": "hexagon", "more": [1]}, {"type": "square", "side": 4}, {"type": "square", "side": "x"},
         {"extra": [[], {}], "id": 6, "type": "circle"}]
        """#
        for size in chunkSizes {
            var records: [Shape] = []
            let decoder = RecordDecoder(Shape.self, layout: .array, errorPolicy: .skip) { records.append($0) }
            for chunk in chunks(Array(json.utf8), size) { try decoder.feed(chunk) }
            try decoder.finish()
            #expect(records.map { String(describing: type(of: $0)) } == ["Circle", "Square", "Circle"], "chunk size \(size)")
            #expect(records.last?.id == 6)
            #expect(decoder.skipped.map(\.recordIndex) == [1, 2, 4], "chunk size \(size)")
            #expect(decoder.skipped.map(\.code) == [.typeMismatch, .unknownType, .typeMismatch])
        }
    }
}

extension ClusterTests {
    @JSONModel struct NotAShape: Equatable {
        var id = 0
    }
    /// A `Map` model: the cluster asks a default model whether it conforms, when it is built.
    struct NotAnEvent: JSONModel, Equatable {
        var at = 0
        static let jsonMapping = JSONMapping<NotAnEvent> { Map(\.at, "at") }
    }

    static let illegalClusters: [(String, JSONCluster<Shape>)] = [
        ("a case that is not a subclass", JSONCluster(discriminator: "type") {
            ClusterCase("circle", Circle.self)
            ClusterCase("other", NotAShape.self)
        }),
        ("a value given twice", JSONCluster(discriminator: "type") {
            ClusterCase("circle", Circle.self)
            ClusterCase("circle", Square.self)
        }),
        ("two fallbacks", JSONCluster(discriminator: "type") {
            ClusterCase("circle", Circle.self)
            ClusterCase.fallback(Circle.self)
            ClusterCase.fallback(Square.self)
        }),
    ]

    @Test(arguments: illegalClusters.indices)
    func illegalCluster_failsWhenBuilt_beforeAnyModelIsRead(_ index: Int) throws {
        let (what, cluster) = ClusterTests.illegalClusters[index]
        // Even an object of a legal case is not read through an illegal cluster.
        let error = #expect(throws: JSONError.self, "\(what): decoded through an illegal cluster") {
            try JSONAdapter.value(from: Data(#"{"type": "circle"}"#.utf8), .cluster(cluster))
        }
        #expect(error?.code == .invalidMapping, "\(what)")
        #expect(throws: JSONError.self, "\(what)") { try cluster.validate() }
        #expect(throws: JSONError.self, "\(what)") { try JSONAdapter.json(from: Circle() as Shape, .cluster(cluster)) }
    }

    @Test func protocolCluster_ofANonConformingModel_failsWhenBuilt() throws {
        let events = JSONCluster<any Event>(discriminator: "kind") {
            ClusterCase("click", Click.self)
            ClusterCase("other", NotAnEvent.self)
        }
        #expect(throws: JSONError.self) { try JSONAdapter.value(from: Data(#"{"kind": "click"}"#.utf8), .cluster(events)) }
        #expect(throws: JSONError.self) { try events.validate() }
        try ClusterTests.events.validate()
        try Shape.jsonCluster?.validate()
        // Any model is an Any: boxed, not reinterpreted.
        let anything = JSONCluster<Any>(discriminator: "kind") { ClusterCase("click", Click.self) }
        let value = try JSONAdapter.value(from: Data(#"{"x": 2, "kind": "click"}"#.utf8), .cluster(anything))
        #expect(value as? Click == Click(at: 0, x: 2))
    }

    @JSONModel struct MacroNotAnEvent: Equatable {
        var at = 0
    }

    /// A `@JSONModel` model has no default to ask: a protocol cluster finds it does not conform
    /// when its first model is read (a class cluster, when built: `NotAShape` above).
    @Test func protocolCluster_ofANonConformingMacroModel_failsAtItsFirstModel() throws {
        let events = JSONCluster<any Event>(discriminator: "kind") {
            ClusterCase("click", Click.self)
            ClusterCase("other", MacroNotAnEvent.self)
        }
        #expect(try JSONAdapter.value(from: Data(#"{"kind": "click", "at": 1}"#.utf8), .cluster(events)).at == 1)
        let error = #expect(throws: JSONError.self) { try JSONAdapter.value(from: Data(#"{"kind": "other"}"#.utf8), .cluster(events)) }
        #expect(error?.code == .invalidMapping)
        #expect(error?.message == "MacroNotAnEvent is in the cluster of Event but is not a Event")
    }
}

extension ClusterTests {
    /// Macro models picked by rules, and by a fallback, in a protocol cluster; a macro model
    /// holding one.
    static let ruledEvents = JSONCluster<any Event>(rules: {
        ClusterCase(KeyPress.self, whenKey: "key")
        ClusterCase(Click.self) { if case .number? = $0["x"] { true } else { false } }
        ClusterCase.fallback(Unknown.self)
    })

    @JSONModel struct RuledLog {
        @Transform(.array(.cluster(ClusterTests.ruledEvents))) let events: [any Event]
        @Transform(.cluster(ClusterTests.ruledEvents)) let last: (any Event)?
    }

    @Test func ruleCluster_ofMacroModels() throws {
        let json = #"{"events": [{"at": 1, "x": 5}, {"key": "a", "at": 2}, {"at": 3, "x": "no"}], "last": {"at": 4, "key": "b"}}"#
        for (name, pieces) in splitWays(Array(json.utf8)) {
            let log = try JSONAdapter.model(RuledLog.self, from: .chunks(pieces))
            #expect(log.events.map(\.at) == [1, 2, 3], "\(name)")
            #expect(log.events[0] as? Click == Click(at: 1, x: 5) && log.events[1] as? KeyPress == KeyPress(at: 2, key: "a"))
            #expect(log.events[2] is Unknown && log.last as? KeyPress == KeyPress(at: 4, key: "b"), "\(name)")
        }
        let log = try JSONAdapter.model(RuledLog.self, from: json)
        #expect(String(decoding: try JSONAdapter.json(from: log), as: UTF8.self)
            == #"{"events":[{"at":1,"x":5},{"at":2,"key":"a"},{"at":3}],"last":{"at":4,"key":"b"}}"#)
    }
}

extension ClusterTests {
    /// The offset of `needle`'s first occurrence in `json`.
    private func offset(of needle: String, in json: String) -> Int {
        let bytes = Array(json.utf8), n = Array(needle.utf8)
        return (0...(bytes.count - n.count)).first { Array(bytes[$0..<($0 + n.count)]) == n }!
    }

    @Test func errorsInReplayedEvents_pointAtTheirOwnToken() throws {
        let json = #"{"main": {"id": "x", "extra": [1, {"n": 2}], "radius": 1, "type": "circle"}}"#
        let mismatch = failureEverywhere(Drawing.self, json)
        #expect(mismatch?.code == .typeMismatch)
        #expect(mismatch?.path == "$.main.id")
        #expect(mismatch?.offset == offset(of: #""x""#, in: json))
        #expect(mismatch?.column == offset(of: #""x""#, in: json) + 1)
        // A key rejected when replayed, and a value inside a replayed container.
        var strict = DecodingOptions()
        strict.unknownKeys = .reject
        let unknown = failureEverywhere(Drawing.self, #"{"main": {"id": 1, "colour": 1, "type": "circle"}}"#, options: strict)
        #expect(unknown?.offset == offset(of: #""colour""#, in: #"{"main": {"id": 1, "colour": 1, "type": "circle"}}"#))
        let deep = #"{"shapes": [{"id": 1, "radius": "big", "type": "circle"}]}"#
        #expect(failureEverywhere(Drawing.self, deep)?.offset == offset(of: #""big""#, in: deep))
    }

    @Test func skippedClusterRecords_reportTheOffendingTokensOffset() throws {
        let json = #"[{"id": 1, "type": "circle"}, {"radius": 1, "id": "x", "type": "circle"}, {"type": "square", "side": 4}]"#
        for size in chunkSizes {
            var records: [Shape] = []
            let decoder = RecordDecoder(Shape.self, layout: .array, errorPolicy: .skip) { records.append($0) }
            for chunk in chunks(Array(json.utf8), size) { try decoder.feed(chunk) }
            try decoder.finish()
            #expect(records.count == 2, "chunk size \(size)")
            #expect(decoder.skipped.map(\.offset) == [offset(of: #""x""#, in: json)], "chunk size \(size)")
        }
    }
}
