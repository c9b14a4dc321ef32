import Foundation
import Magma

// Models for citm_catalog.json: an event catalogue, ~11k small objects, maps keyed by id
// strings, and performance start times in epoch milliseconds.

@JSONModel
public struct CITMCatalog: Codable, Equatable, Sendable {
    public var areaNames: [String: String] = [:]
    public var audienceSubCategoryNames: [String: String] = [:]
    public var blockNames: [String: String] = [:]
    public var events: [String: CITMEvent] = [:]
    public var performances: [CITMPerformance] = []
    public var seatCategoryNames: [String: String] = [:]
    public var subTopicNames: [String: String] = [:]
    public var subjectNames: [String: String] = [:]
    public var topicNames: [String: String] = [:]
    public var topicSubTopics: [String: [Int64]] = [:]
    public var venueNames: [String: String] = [:]
}

@JSONModel
public struct CITMEvent: Codable, Equatable, Sendable {
    public var id: Int64 = 0
    public var name = ""
    public var description: String?
    public var logo: String?
    public var subTopicIds: [Int64] = []
    public var subjectCode: String?
    public var subtitle: String?
    public var topicIds: [Int64] = []
}

@JSONModel
public struct CITMPerformance: Codable, Equatable, Sendable {
    public var id: Int64 = 0
    public var eventId: Int64 = 0
    public var logo: String?
    public var name: String?
    public var prices: [CITMPrice] = []
    public var seatCategories: [CITMSeatCategory] = []
    public var seatMapImage: String?
    /// From epoch milliseconds.
    @Transform(.epochMilliseconds) public var start = Date(timeIntervalSince1970: 0)
    public var venueCode = ""
}

@JSONModel
public struct CITMPrice: Codable, Equatable, Sendable {
    public var amount = 0
    public var audienceSubCategoryId: Int64 = 0
    public var seatCategoryId: Int64 = 0
}

@JSONModel
public struct CITMSeatCategory: Codable, Equatable, Sendable {
    public var areas: [CITMArea] = []
    public var seatCategoryId: Int64 = 0
}

@JSONModel
public struct CITMArea: Codable, Equatable, Sendable {
    public var areaId: Int64 = 0
    public var blockIds: [Int64] = []
}
