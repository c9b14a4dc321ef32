import Foundation
import Synchronization
import Testing
@testable import Magma

/// Builds of `Page`'s mapping, per specialisation's item type.
let pageMappingBuilds = Mutex<[String: Int]>([:])

/// A generic model: its mapping cannot be a `static let`, so `jsonMapping` builds a new one on
/// every access (and counts it).
struct Page<Item: JSONObjectModel & Equatable>: JSONModel, Equatable where Item.JSONForm == Item {
    var total = 0
    var items: [Item] = []
    static var jsonMapping: JSONMapping<Page<Item>> {
        pageMappingBuilds.withLock { $0["\(Item.self)", default: 0] += 1 }
        return JSONMapping { Map(\.total, "total"); Map(\.items, "items") }
    }
}

/// Another specialisation's item.
@JSONModel struct Tag: Equatable {
    var name = ""
}

@Suite struct GenericModelTests {
    @Test func aGenericModelsMapping_isBuiltOncePerSpecialisation() throws {
        let users = #"{"total": 2, "items": [{"login": "a", "id": 1}, {"login": "b", "id": 2}]}"#
        let tags = #"{"total": 1, "items": [{"name": "bug"}]}"#
        for _ in 0..<20 {
            let page = try decodeEverywhere(Page<GHUser>.self, users)
            #expect(page.items.map(\.login) == ["a", "b"])
            _ = try JSONAdapter.json(from: page)
            _ = try JSONAdapter.models(Page<GHUser>.self, from: "[\(users), \(users)]")
            _ = try decodeEverywhere(Page<Tag>.self, tags)
        }
        let builds = pageMappingBuilds.withLock { $0 }
        #expect(builds == ["GHUser": 1, "Tag": 1])
    }
}
