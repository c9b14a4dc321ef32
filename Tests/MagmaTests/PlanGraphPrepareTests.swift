import Foundation
import Synchronization
import Testing
@testable import Magma

/// The parallel entry points compile the plans of every model a record can hold on the calling
/// thread before the workers start: no worker waits on Swift's one-time initialisation of a
/// nested model's mapping while another builds it.
@Suite struct PlanGraphPrepareTests {
    /// The thread each model's mapping was built on, by model name. Each model below is used by
    /// one test only, so that its mapping is built (and noted) once, by that test.
    static let builtOn = Mutex<[String: pthread_t]>([:])
    static func note(_ name: String) { builtOn.withLock { $0[name] = pthread_self() } }

    struct Deep: JSONModel {
        var n = 0
        static var jsonMapping: JSONMapping<Deep> { note("Deep"); return JSONMapping { Map(\.n, "n") } }
    }
    struct Value: JSONModel {
        var deep = Deep()
        static var jsonMapping: JSONMapping<Value> { note("Value"); return JSONMapping { Map(\.deep, "deep") } }
    }
    struct Optional1: JSONModel {
        var n = 0
        static var jsonMapping: JSONMapping<Optional1> { note("Optional1"); return JSONMapping { Map(\.n, "n") } }
    }
    struct Element: JSONModel {
        var n = 0
        static var jsonMapping: JSONMapping<Element> { note("Element"); return JSONMapping { Map(\.n, "n") } }
    }
    struct Member: JSONModel {
        var n = 0
        static var jsonMapping: JSONMapping<Member> { note("Member"); return JSONMapping { Map(\.n, "n") } }
    }
    struct AtPath: JSONModel {
        var n = 0
        static var jsonMapping: JSONMapping<AtPath> { note("AtPath"); return JSONMapping { Map(\.n, "n") } }
    }
    class Shape: JSONModel {
        var id = 0
        required init() {}
        class var jsonMapping: JSONMapping<Shape> { note("Shape"); return shapeMapping }
        static let shapeMapping = JSONMapping<Shape> { Map(\.id, "id") }
        static let jsonCluster: JSONCluster<Shape>? = JSONCluster(discriminator: "type") {
            ClusterCase("circle", Circle.self)
        }
    }
    final class Circle: Shape {
        var radius = 0.0
        override class var jsonMapping: JSONMapping<Shape> {
            note("Circle")
            return JSONMapping<Shape>(Circle.self, inheriting: shapeMapping) { Map(\.radius, "radius") }
        }
    }

    struct Prepared: JSONModel {
        var n = 0
        static var jsonMapping: JSONMapping<Prepared> { note("Prepared"); return JSONMapping { Map(\.n, "n") } }
    }
    @JSONModel struct PreparedRoot {
        var items: [Prepared] = []
    }

    /// `JSONAdapter.prepare` compiles the nested mappings before any input is read.
    @Test func prepare_buildsNestedMappingsBeforeAnyInput() throws {
        #expect(Self.builtOn.withLock { $0["Prepared"] } == nil)
        JSONAdapter.prepare(PreparedRoot.self)
        let thread = try #require(Self.builtOn.withLock { $0["Prepared"] }, "prepare did not build the nested mapping")
        #expect(pthread_equal(thread, pthread_self()) != 0)
        #expect(try JSONAdapter.model(PreparedRoot.self, from: #"{"items": [{"n": 4}]}"#).items.map(\.n) == [4])
    }

    /// A macro record holding each kind of nested model.
    @JSONModel struct Record {
        @Required var id = 0
        var value = Value()
        var optional: Optional1?
        var elements: [Element] = []
        var members: [String: Member] = [:]
        @Key("meta.owner") var owner = AtPath()
        var shape: Shape?
    }

    @Test func everyNestedMapping_isBuiltOnTheCallingThread() throws {
        var text = ""
        for i in 0..<2_000 {
            text += #"{"id": \#(i), "value": {"deep": {"n": 1}}, "optional": {"n": 2}, "elements": [{"n": 3}], "#
            text += #""members": {"a": {"n": 4}}, "meta": {"owner": {"n": 5}}, "shape": {"type": "circle", "id": 6, "radius": 7}}"#
            text += "\n"
        }
        let url = try ParallelStreamTests.temporaryFile(Data(text.utf8))
        defer { try? FileManager.default.removeItem(at: url) }
        let (states, _) = try JSONAdapter.forEachRecordInParallel(
            Record.self, from: .file(url.path), windowBytes: 16 << 10, concurrency: 2, makeState: { 0 }
        ) { sum, record in
            sum += record.value.deep.n + record.optional!.n + record.elements[0].n + record.members["a"]!.n + record.owner.n
                + (record.shape as! Circle).id
        }
        #expect(states.reduce(0, +) == 2_000 * 21)
        let caller = pthread_self()
        let built = Self.builtOn.withLock { $0 }
        for name in ["Deep", "Value", "Optional1", "Element", "Member", "AtPath", "Circle"] {
            let thread = try #require(built[name], "\(name)'s mapping was never built")
            #expect(pthread_equal(thread, caller) != 0, "\(name)'s mapping was built on a worker thread")
        }
    }
}
