import Foundation
import Testing
@testable import Magma

/// A cluster that picks its model by a rule over the whole object, not by a discriminator.
@Suite struct ClusterRuleTests {
    class Shape: JSONModel, MappedEquality {
        var id = 0
        required init() {}
        class var jsonMapping: JSONMapping<Shape> { shapeMapping }
        static let shapeMapping = JSONMapping<Shape> { Map(\.id, "id").named("id") }
        static let jsonCluster: JSONCluster<Shape>? = JSONCluster(rules: {
            ClusterCase(Circle.self, whenKey: "radius")
            // A value's type: a side given as a number (not as text).
            ClusterCase(Square.self) { if case .number? = $0["side"] { true } else { false } }
            // A value's shape: points as an array of at least three.
            ClusterCase(Polygon.self) { if case .array(let points)? = $0["points"] { points.count >= 3 } else { false } }
        })
    }

    final class Circle: Shape {
        var radius = 0.0
        override class var jsonMapping: JSONMapping<Shape> { circleMapping }
        static let circleMapping = JSONMapping<Shape>(Circle.self, inheriting: shapeMapping) { Map(\.radius, "radius").named("radius") }
    }

    final class Square: Shape {
        var side = 0
        override class var jsonMapping: JSONMapping<Shape> { squareMapping }
        static let squareMapping = JSONMapping<Shape>(Square.self, inheriting: shapeMapping) { Map(\.side, "side").named("side") }
    }

    final class Polygon: Shape {
        var points: [[Double]] = []
        override class var jsonMapping: JSONMapping<Shape> { polygonMapping }
        static let polygonMapping = JSONMapping<Shape>(Polygon.self, inheriting: shapeMapping) { Map(\.points, "points").named("points") }
    }

    struct Drawing: JSONModel, Equatable {
        var shapes: [Shape] = []
        static let jsonMapping = JSONMapping<Drawing> { Map(\.shapes, "shapes") }
    }

    @Test func eachObject_getsTheModelOfTheFirstRuleThatHolds() throws {
        let json = #"{"shapes": [{"id": 1, "radius": 2.5}, {"side": 3, "id": 2}, {"id": 3, "points": [[0,0],[1,0],[0,1]]}]}"#
        let drawing = try decodeEverywhere(Drawing.self, json)
        #expect(drawing.shapes.map { String(describing: type(of: $0)) } == ["Circle", "Square", "Polygon"])
        #expect((drawing.shapes[0] as? Circle)?.radius == 2.5 && drawing.shapes[0].id == 1)
        #expect((drawing.shapes[1] as? Square)?.side == 3 && drawing.shapes[1].id == 2)
        #expect((drawing.shapes[2] as? Polygon)?.points.count == 3)
        #expect(String(decoding: try JSONAdapter.json(from: drawing), as: UTF8.self)
            == #"{"shapes":[{"id":1,"radius":2.5},{"id":2,"side":3},{"id":3,"points":[[0,0],[1,0],[0,1]]}]}"#)
    }

    /// `"side": "3"` would fail at the field in a Square: no rule holds, so it fails as "no model".
    @Test func anObjectNoRuleMatches_failsWithNoModel_atThatElement() {
        let json = #"{"shapes": [{"id": 1, "radius": 2}, {"id": 2, "side": "3"}, {"id": 3, "radius": "x"}]}"#
        let error = failureEverywhere(Drawing.self, json)
        #expect(error?.code == .unknownType)
        #expect(error?.message == "no model of Shape matches this object: no rule of its cluster holds")
        #expect(error?.path == "$.shapes[1]")
        let tooFew = failureEverywhere(Drawing.self, #"{"shapes": [{"points": [[0, 0]]}]}"#)
        #expect(tooFew?.code == .unknownType)
    }

    @Test func topLevelModels_pickByRuleToo() throws {
        let shapes = try JSONAdapter.models(Shape.self, from: #"[{"side": 1}, {"radius": 1}]"#)
        #expect(shapes.map { String(describing: type(of: $0)) } == ["Square", "Circle"])
    }

    @Test func aDiscriminatorCase_inARuleCluster_failsWhenBuilt() throws {
        let cluster = JSONCluster<Shape>(rules: { ClusterCase("circle", Circle.self) })
        let error = try #require(throws: JSONError.self) { try cluster.validate() }
        #expect(error.message == "Circle is picked by a discriminator value in the cluster of Shape, which picks by rules")
    }
}
