import Foundation
import Testing
@testable import Magma

/// Mappings loaded at run time from a JSON mapping file, for declared properties.
@Suite struct ExternalMappingTests {
    struct Item: JSONModel, Equatable {
        enum Kind: String { case book, film }
        var title = ""
        var priceInCents = 0
        var kind = Kind.book
        var updatedAt: Date?
        var notes: String?
        static let jsonMapping = declared
        /// The properties, declared once; keys from their names.
        static let declared = JSONMapping<Item> {
            Map.properties(\.title, \.priceInCents, \.updatedAt, \.notes)
            Map(\.kind)
        }
    }

    static let registry: TransformerRegistry = {
        let registry = TransformerRegistry()
        registry.register(Transformer<JSONValue, Int>(forward: { value in
            guard case .number(let n) = value, let d = n.doubleValue else { throw JSONError(.invalidValue, "not a price") }
            return Int((d * 100).rounded())
        }, reverse: { .number(JSONNumber(Double($0) / 100)) }), named: "cents")
        registry.register(Transformer<JSONValue, Date>.epochSeconds, named: "epoch")
        return registry
    }()

    static let file = #"""
    {
      "keyNaming": "snake_case",
      "properties": {
        "title": "info.name",
        "priceInCents": {"key": "price", "transformer": "cents", "required": true},
        "updatedAt": {"transformer": "epoch"},
        "notes": null
      }
    }
    """#

    @Test func loadedMapping_givesKeyPathsAndNamedTransformers() throws {
        let mapping = try JSONMapping(declared: Item.declared, loading: Data(Self.file.utf8), registry: Self.registry)
        let json = #"{"info": {"name": "Dune"}, "price": 12.5, "kind": "film", "updated_at": 1700000000, "notes": "x"}"#
        let item = try JSONAdapter.value(from: Data(json.utf8), .model(Item.self, mapping: mapping))
        #expect(item == Item(title: "Dune", priceInCents: 1250, kind: .film, updatedAt: Date(timeIntervalSince1970: 1_700_000_000)))
        let text = String(decoding: try JSONAdapter.json(from: item, .model(Item.self, mapping: mapping)), as: UTF8.self)
        #expect(text == #"{"info":{"name":"Dune"},"price":12.5,"updated_at":1700000000,"kind":"film"}"#)
        #expect(try JSONAdapter.value(from: Data("[\(json)]".utf8), .array(.model(Item.self, mapping: mapping))) == [item])
        // `required` from the file.
        #expect(throws: JSONError.self) { try JSONAdapter.value(from: Data(#"{"kind": "book"}"#.utf8), .model(Item.self, mapping: mapping)) }
        // The model's own mapping is untouched.
        #expect(try JSONAdapter.model(Item.self, from: #"{"priceInCents": 3}"#).priceInCents == 3)
    }

    @Test func recordStream_readsEachRecordThroughAGivenMapping() throws {
        let mapping = try JSONMapping(declared: Item.declared, loading: Data(Self.file.utf8), registry: Self.registry)
        let bytes = Array("""
        {"info": {"name": "Dune"}, "price": 12.5}
        {"info": {"name": "Emma"}}
        {"info": {"name": "Solaris"}, "price": 3}
        """.utf8)
        for size in chunkSizes {
            var titles: [String] = []
            let decoder = RecordDecoder(Item.self, layout: .ndjson, mapping: mapping, errorPolicy: .skip) { titles.append($0.title) }
            for chunk in chunks(bytes, size) { try decoder.feed(chunk) }
            try decoder.finish()
            #expect(titles == ["Dune", "Solaris"], "chunk size \(size)")
            // The second line misses the required "price" of the given mapping (the model's own requires nothing).
            #expect(decoder.skipped.map(\.code) == [.missingKey], "chunk size \(size)")
            #expect(decoder.skipped.first?.line == 2)
        }
    }

    @Test func arrayOfModels_roundTripsThroughALoadedMapping() throws {
        let mapping = try JSONMapping(declared: Item.declared, loading: Data(Self.file.utf8), registry: Self.registry)
        let json = #"[{"info":{"name":"Dune"},"price":12.5,"updated_at":1700000000,"kind":"film"},"#
            + #"{"info":{"name":"Emma"},"price":7.25,"kind":"book"}]"#
        let items = try JSONAdapter.value(from: Data(json.utf8), .array(.model(Item.self, mapping: mapping)))
        #expect(items == [Item(title: "Dune", priceInCents: 1250, kind: .film, updatedAt: Date(timeIntervalSince1970: 1_700_000_000)),
                          Item(title: "Emma", priceInCents: 725, kind: .book)])
        let written = try JSONAdapter.json(from: items, .array(.model(Item.self, mapping: mapping)))
        // The loaded mapping's keys and transformers, not the model's own.
        #expect(String(decoding: written, as: UTF8.self) == json)
        let own = String(decoding: try JSONAdapter.json(from: items), as: UTF8.self)
        #expect(own.hasPrefix(#"[{"title":"Dune","priceInCents":1250,"#), "\(own)")
        #expect(try JSONAdapter.value(from: written, .array(.model(Item.self, mapping: mapping))) == items)
        #expect(String(decoding: try JSONAdapter.json(from: [Item](), .array(.model(Item.self, mapping: mapping))), as: UTF8.self) == "[]")
    }

    /// A property of another model, read through the loaded mapping: the given mapping is a
    /// transformer, so it goes wherever a transformer goes.
    struct Order: JSONModel, Equatable {
        var item = Item()
        var byShelf: [String: Item] = [:]
        static let jsonMapping = JSONMapping<Order> {
            Map(\.item, "item", .model(Item.self, mapping: loaded))
            Map(\.byShelf, "shelves", .dictionary(.model(Item.self, mapping: loaded)))
        }
        // swiftlint:disable:next force_try
        static let loaded = try! JSONMapping(declared: Item.declared, loading: Data(file.utf8), registry: registry)
    }

    @Test func givenMapping_readsAndWritesAPropertyAndADictionaryOfModels() throws {
        let json = #"{"item":{"info":{"name":"Dune"},"price":12.5,"kind":"book"},"shelves":{"a":{"info":{"name":"Emma"},"price":3,"kind":"film"}}}"#
        let order = try JSONAdapter.model(Order.self, from: json)
        #expect(order == Order(item: Item(title: "Dune", priceInCents: 1250),
                               byShelf: ["a": Item(title: "Emma", priceInCents: 300, kind: .film)]))
        #expect(String(decoding: try JSONAdapter.json(from: order), as: UTF8.self) == json)
        // The mapping's `required` holds inside the property too, placed at the property's path.
        let missing = #"{"item":{"info":{"name":"Dune"}}}"#
        #expect { try JSONAdapter.model(Order.self, from: missing) } throws: { ($0 as? JSONError)?.code == .missingKey && ($0 as? JSONError)?.path == "$.item" }
    }

    /// The `mapping:` entry points from before the mapping was a transformer forward to it
    /// (deprecated for one release; this test is marked deprecated so that calling them does not warn).
    @available(*, deprecated)
    @Test func theOldMappingSpellingsForward() throws {
        let json = #"{"info":{"name":"Dune"},"price":12.5,"kind":"book"}"#
        let item = try JSONAdapter.model(Item.self, from: json, mapping: Order.loaded)
        #expect(item == Item(title: "Dune", priceInCents: 1250))
        #expect(try JSONAdapter.models(Item.self, from: "[\(json)]", mapping: Order.loaded) == [item])
        #expect(String(decoding: try JSONAdapter.json(from: item, mapping: Order.loaded), as: UTF8.self) == json)
        #expect(String(decoding: try JSONAdapter.json(from: [item], mapping: Order.loaded), as: UTF8.self) == "[\(json)]")
    }

    final class Shelf: JSONModel {
        var label = ""
        required init() {}
        static let jsonMapping = JSONMapping<Shelf> { Map(\.label) }
    }

    /// A struct written through a given mapping goes through the plan its codec's owner caches
    /// (as with its own mapping), not through a mapping lookup per value; a class, whose values
    /// may be subclasses, still goes through its codec.
    @Test func givenMapping_writesAStructThroughItsPlan() throws {
        let mapping = try JSONMapping(declared: Item.declared, loading: Data(Self.file.utf8), registry: Self.registry)
        #expect(ModelCodec<Item>(mapping: mapping).makeValueWriter() is ModelValue<Item>)
        let array = ArrayCodec(ModelCodec<Item>(mapping: mapping))
        #expect((array.valueWriter as? ArrayValue<Item>)?.element is ModelValue<Item>)
        let shelves = try JSONMapping(declared: Shelf.jsonMapping, loading: Data(#"{"properties": {"label": "l"}}"#.utf8))
        #expect(ModelCodec<Shelf>(mapping: shelves).makeValueWriter() is CodecValue<Shelf>)
    }

    /// Optional properties mapped through a transformer of the wrapped type.
    struct Visit: JSONModel, Equatable {
        var seen: Date?
        var left: Date?
        static let jsonMapping = JSONMapping<Visit> {
            Map(\.seen, "seen", .iso8601)
            Map(\.left, "left", .iso8601)
        }
    }

    @Test func optionalLines_remakeAsOptionals_withTheirOwnOrANamedTransformer() throws {
        let file = #"{"properties": {"seen": "s", "left": {"key": "l", "transformer": "epoch"}}}"#
        let mapping = try JSONMapping(declared: Visit.jsonMapping, loading: Data(file.utf8), registry: Self.registry)
        let visit = try JSONAdapter.value(from: Data(#"{"s": "2023-11-14T22:13:20Z", "l": null}"#.utf8), .model(Visit.self, mapping: mapping))
        #expect(visit == Visit(seen: Date(timeIntervalSince1970: 1_700_000_000), left: nil))
        let left = try JSONAdapter.value(from: Data(#"{"l": 5}"#.utf8), .model(Visit.self, mapping: mapping))
        #expect(left == Visit(seen: nil, left: Date(timeIntervalSince1970: 5)))
    }

    @Test func loadingFromAFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("magma-mapping-\(UUID()).json")
        try Data(Self.file.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let loaded = try JSONMapping(declared: Item.declared, contentsOf: url, registry: Self.registry)
        let json = #"{"info": {"name": "Dune"}, "price": 12.5, "kind": "film", "updated_at": 1700000000, "notes": "x"}"#
        let item = try JSONAdapter.value(from: Data(json.utf8), .model(Item.self, mapping: loaded))
        #expect(item == Item(title: "Dune", priceInCents: 1250, kind: .film, updatedAt: Date(timeIntervalSince1970: 1_700_000_000)))
    }

    @Test(arguments: [
        (#"{"properties": {"price": "p"}}"#, "\"price\""),
        (#"{"properties": {"priceInCents": {"transformer": "dollars"}}}"#, "\"dollars\""),
        (#"{"properties": {"title": {"transformer": "cents"}}}"#, "\"cents\""),
        (#"{"properties": {"title": 3}}"#, "title"),
        (#"{"properties": {"title": {"keys": "x"}}}"#, "\"keys\""),
        (#"{"keyNaming": "camel"}"#, "camel"),
        (#"{"props": {}}"#, "\"props\""),
        (#"{"properties": {"title": ""}}"#, "empty"),
    ])
    func badFile_failsAtLoadTime(_ file: String, _ mentioned: String) {
        do {
            _ = try JSONMapping(declared: Item.declared, loading: Data(file.utf8), registry: Self.registry)
            Issue.record("loaded \(file)")
        } catch let error as JSONError {
            #expect(error.code == .invalidMapping, "\(file)")
            #expect(error.message.contains(mentioned), "\(error.message)")
        } catch {
            Issue.record("\(error)")
        }
    }
}
