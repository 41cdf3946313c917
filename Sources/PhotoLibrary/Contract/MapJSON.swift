public import LibraryIndex

/// Where the photos were taken, as `GET /api/map` and `shoebox map --json` answer: one cluster per
/// Web-Mercator cell of `zoom` that the asked box touches and that holds photos, with the photos'
/// mean position, their count, a cover photo's id and the cell's own `bbox` (the box whose
/// timeline is exactly these photos); `total` is their sum. `located` and `unlocated` count the
/// whole library's photos with and without a position (those are not on the map).
public struct MapJSON: Encodable, Sendable {
    public struct Cluster: Encodable, Sendable {
        public var lat: Double
        public var lon: Double
        public var count: Int
        public var photo: Int64
        /// `[west, south, east, north]` of the cluster's cell, in degrees.
        public var bbox: [Double]
    }

    public var zoom: Int
    public var bbox: [Double]
    public var clusters: [Cluster]
    public var total: Int
    public var located: Int
    public var unlocated: Int

    public init(_ result: MapClusters, box: MapBox) {
        zoom = result.zoom
        bbox = [box.west, box.south, box.east, box.north]
        clusters = result.clusters.map { cluster in
            let cell = MapGrid.box(x: cluster.x, y: cluster.y, zoom: result.zoom)
            return Cluster(
                lat: Self.rounded(cluster.latitude), lon: Self.rounded(cluster.longitude), count: cluster.count,
                photo: cluster.cover, bbox: [cell.west, cell.south, cell.east, cell.north])
        }
        total = result.total
        located = result.located
        unlocated = result.unlocated
    }

    /// Degrees to 5 decimals, about a metre.
    static func rounded(_ degrees: Double) -> Double { (degrees * 100_000).rounded() / 100_000 }
}
