import Foundation

extension CanadaFeatureCollection {
    public init(handMapping d: JSONDictionary) throws {
        type = try d.required("type")
        features = try d.objects("features") { f in
            var feature = CanadaFeature()
            feature.type = try f.required("type")
            feature.properties = try f.required("properties")
            feature.geometry = try f.requiredObject("geometry") { g in
                var geometry = CanadaGeometry()
                geometry.type = try g.required("type")
                // Mantle-style code casts the nested arrays; each level is checked.
                let polygons: [Any] = try g.required("coordinates")
                geometry.coordinates.reserveCapacity(polygons.count)
                for polygon in polygons {
                    guard let rings = polygon as? [Any] else { throw HandMappingError(key: "coordinates", problem: "not an array") }
                    var mappedRings: [[Double]] = []
                    mappedRings.reserveCapacity(rings.count)
                    for ring in rings {
                        guard let point = ring as? [Double] else {
                            throw HandMappingError(key: "coordinates", problem: "not [Double]")
                        }
                        mappedRings.append(point)
                    }
                    geometry.coordinates.append(mappedRings)
                }
                return geometry
            }
            return feature
        } ?? []
    }
}

extension CITMCatalog {
    public init(handMapping d: JSONDictionary) throws {
        areaNames = try d.required("areaNames")
        audienceSubCategoryNames = try d.required("audienceSubCategoryNames")
        blockNames = try d.required("blockNames")
        let events: JSONDictionary = try d.required("events")
        self.events.reserveCapacity(events.count)
        for (key, value) in events {
            guard let e = value as? JSONDictionary else { throw HandMappingError(key: "events.\(key)", problem: "not an object") }
            var event = CITMEvent()
            event.id = try e.required("id")
            event.name = try e.required("name")
            event.description = try e.optional("description")
            event.logo = try e.optional("logo")
            event.subTopicIds = try e.required("subTopicIds")
            event.subjectCode = try e.optional("subjectCode")
            event.subtitle = try e.optional("subtitle")
            event.topicIds = try e.required("topicIds")
            self.events[key] = event
        }
        performances = try d.objects("performances") { p in
            var performance = CITMPerformance()
            performance.id = try p.required("id")
            performance.eventId = try p.required("eventId")
            performance.logo = try p.optional("logo")
            performance.name = try p.optional("name")
            performance.prices = try p.objects("prices") { pr in
                var price = CITMPrice()
                price.amount = try pr.required("amount")
                price.audienceSubCategoryId = try pr.required("audienceSubCategoryId")
                price.seatCategoryId = try pr.required("seatCategoryId")
                return price
            } ?? []
            performance.seatCategories = try p.objects("seatCategories") { sc in
                var category = CITMSeatCategory()
                category.areas = try sc.objects("areas") { a in
                    var area = CITMArea()
                    area.areaId = try a.required("areaId")
                    area.blockIds = try a.required("blockIds")
                    return area
                } ?? []
                category.seatCategoryId = try sc.required("seatCategoryId")
                return category
            } ?? []
            performance.seatMapImage = try p.optional("seatMapImage")
            let milliseconds: Int64 = try p.required("start")
            performance.start = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            performance.venueCode = try p.required("venueCode")
            return performance
        } ?? []
        seatCategoryNames = try d.required("seatCategoryNames")
        subTopicNames = try d.required("subTopicNames")
        subjectNames = try d.required("subjectNames")
        topicNames = try d.required("topicNames")
        topicSubTopics = try d.required("topicSubTopics")
        venueNames = try d.required("venueNames")
    }
}
