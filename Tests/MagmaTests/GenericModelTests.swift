import Foundation
import Testing
@testable import Magma

/// A generic `@JSONModel` struct: its draft is generic too, its mapping computed and cached per
/// instantiation; its items may be macro or `Map` models.
@Suite struct GenericModelTests {
    @JSONModel
    struct Page<Item: JSONObjectModel & Equatable>: Equatable where Item.JSONForm == Item {
        let items: [Item]
        let next: Item?
        var total = 0
    }

    @Test func aGenericModel_decodesAndEncodesEachInstantiation() throws {
        let macro = #"{"items":[{"title":"a","anonymous":false,"review":{"by":"r"}}],"next":null,"total":1}"#
        let mapped = #"{"items":[{"first":"Ada","last":"Lovelace","id":1}],"next":{"first":"Alan","id":2},"total":0}"#
        for size in chunkSizes {
            let posts = try JSONAdapter.model(Page<SelectiveEncodingTests.Post>.self, from: .chunks(chunks(Array(macro.utf8), size)))
            #expect(posts == Page(items: [SelectiveEncodingTests.Post(title: "a", author: nil, reviewer: "r")], next: nil, total: 1),
                    "chunk size \(size)")
            let names = try JSONAdapter.model(Page<MappingTests.FullName>.self, from: .chunks(chunks(Array(mapped.utf8), size)))
            #expect(names == Page(items: [MappingTests.FullName(name: "Ada Lovelace", id: 1)], next: MappingTests.FullName(name: "Alan", id: 2)),
                    "chunk size \(size)")
        }
        let posts = try JSONAdapter.model(Page<SelectiveEncodingTests.Post>.self, from: macro)
        #expect(String(decoding: try JSONAdapter.json(from: posts), as: UTF8.self)
            == #"{"items":[{"title":"a","anonymous":false,"review":{"by":"r"}}],"total":1}"#, "nil is left out")
        #expect(throws: JSONError.self) { try JSONAdapter.model(Page<MappingTests.FullName>.self, from: #"{"next": null}"#) }
    }
}
