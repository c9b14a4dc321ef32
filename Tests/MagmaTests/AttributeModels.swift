import Foundation
@testable import Magma

// Models of the attributes of issue 33 (tagged enums, @Flatten, @Default, @Lossy, @Key(encode:)),
// shared by their suites.

@JSONModel struct Tag33: Equatable {
    let name: String
}

@JSONModel(keyNaming: .snakeCase)
struct Order33: Equatable {
    enum Status: String { case open, closed }

    let id: Int
    @Default(0) let retries: Int
    @Default("none") let note: String?
    @Default(Status.open, onInvalid: true) let status: Status
    @Default([Int](), onInvalid: true) let counts: [Int]
    @Default(Tag33(name: "none"), onInvalid: true) let primary: Tag33
    @Lossy let tags: [Tag33]
    @Lossy var scores: [String: Int] = [:]
    @Lossy @Default([Tag33](), onInvalid: true) let extra: [Tag33]
    @Key("user_name", encode: "userName") let userName: String?
}

@JSONModel struct Address33: Equatable {
    let street: String
    let city: String?
}

struct Geo33: JSONModel, Equatable {
    var lat = 0.0
    var lng = 0.0
    static let jsonMapping = JSONMapping<Geo33> {
        Map(\.lat, "lat")
        Map(\.lng, "lng")
    }
}

@JSONModel struct Place33: Equatable {
    let name: String
    @Flatten let address: Address33
    @Flatten let geo: Geo33
}

@JSONModel(keyNaming: .snakeCase, tagging: .internal(key: "type"))
enum Shape33: Equatable {
    case circle(radius: Double)
    @Key("rect") case rectangle(width: Double, height: Double = 1)
    case bigPlace(Place33)
    case labelled(name: String?, tags: [Tag33])
    @Fallback case unknown
}

@JSONModel(tagging: .external)
enum ExternalShape33: Equatable {
    case circle(radius: Double)
    case dot
}

@JSONModel(tagging: .adjacent(tag: "t", content: "c"))
enum AdjacentShape33: Equatable {
    case circle(radius: Double)
    case dot
}

@JSONModel struct Drawing33: Equatable {
    let shapes: [Shape33]
    let main: ExternalShape33?
    @Lossy var others: [AdjacentShape33] = []
}

@JSONModel(tagging: .adjacent(tag: "kind", content: "of"))
enum Amount33: Equatable {
    case signed(value: Int128)
    case unsigned(value: UInt128)
}

@JSONModel struct Wide33: Equatable {
    @Default(Int128.min, onInvalid: true) let big: Int128
    @Lossy var ids: [UInt128] = []
    @Key("amt", encode: "amount") let amount: Amount33?
}
