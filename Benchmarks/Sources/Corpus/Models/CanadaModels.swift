import Magma

// Models for canada.json: a GeoJSON FeatureCollection, 111,080 doubles in nested arrays.

@JSONModel
public struct CanadaFeatureCollection: Codable, Equatable, Sendable {
    public var type = ""
    public var features: [CanadaFeature] = []
}

@JSONModel
public struct CanadaFeature: Codable, Equatable, Sendable {
    public var type = ""
    public var properties: [String: String] = [:]
    public var geometry = CanadaGeometry()
}

@JSONModel
public struct CanadaGeometry: Codable, Equatable, Sendable {
    public var type = ""
    /// Polygons -> rings -> [longitude, latitude].
    public var coordinates: [[[Double]]] = []
}
