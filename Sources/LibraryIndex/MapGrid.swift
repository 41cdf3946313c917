import Foundation

/// Web-Mercator tile cells: at zoom `z` the world is `2^z × 2^z` cells, `x` growing east from
/// the antimeridian, `y` growing south from about 85.05° N (the projection's edge; positions
/// nearer a pole fall in the first or last row).
///
/// Each photo with a position stores its cell at ``storedZoom`` (`photo.mapX`, `photo.mapY`); the
/// cell of a coarser zoom `z` is that shifted right by `storedZoom − z`. The arithmetic is the
/// same for photos and for the edges of a box, so a box drawn on cell edges holds exactly the
/// photos of its cells.
public enum MapGrid {
    /// The zoom of the stored cells: about 38 m across at the equator.
    public static let storedZoom = 20
    /// The zooms a request may group by.
    public static let zooms = 0...storedZoom
    /// The latitude where the square Web-Mercator world ends, in degrees.
    public static let maximumLatitude = 85.051_128_779_806_59

    /// The cell column of `longitude` (degrees, −180…180) at `zoom`, 0…2^zoom − 1.
    public static func x(longitude: Double, zoom: Int = storedZoom) -> Int {
        min(edge(longitude: longitude, zoom: zoom), (1 << zoom) - 1)
    }

    /// The cell row of `latitude` (degrees, −90…90) at `zoom`, 0…2^zoom − 1.
    public static func y(latitude: Double, zoom: Int = storedZoom) -> Int {
        min(edge(latitude: latitude, zoom: zoom), (1 << zoom) - 1)
    }

    /// The grid line at or west of `longitude` (east of it when `up`), 0…2^zoom (180° is the last line).
    static func edge(longitude: Double, zoom: Int, up: Bool = false) -> Int {
        let lon = min(max(longitude, -180), 180)
        return snapped((lon + 180) / 360 * Double(1 << zoom), zoom: zoom, up: up)
    }

    /// The grid line at or north of `latitude` (south of it when `up`), 0…2^zoom (the south edge is
    /// the last line).
    static func edge(latitude: Double, zoom: Int, up: Bool = false) -> Int {
        let lat = min(max(latitude, -maximumLatitude), maximumLatitude) * .pi / 180
        let s = sin(lat)
        let v = (0.5 - log((1 + s) / (1 - s)) / (4 * .pi)) * Double(1 << zoom)
        return snapped(min(max(v, 0), Double(1 << zoom)), zoom: zoom, up: up)
    }

    /// `v` rounded down (up when `up`), or to the nearest line when it is within a thousandth of a
    /// stored cell of it: a cell's edge printed in decimal and read back lands on that edge, not one
    /// cell beside it.
    private static func snapped(_ v: Double, zoom: Int, up: Bool = false) -> Int {
        let r = v.rounded()
        let tolerance = 1e-3 / Double(1 << (storedZoom - min(zoom, storedZoom)))
        return abs(v - r) < tolerance ? Int(r) : Int(v.rounded(up ? .up : .down))
    }

    /// The longitude of grid line `x` at `zoom` (degrees; line 0 is −180, line 2^zoom is 180).
    public static func longitude(ofLine x: Int, zoom: Int) -> Double {
        Double(x) / Double(1 << zoom) * 360 - 180
    }

    /// The latitude of grid line `y` at `zoom` (degrees; line 0 is the north edge).
    public static func latitude(ofLine y: Int, zoom: Int) -> Double {
        let n = Double.pi * (1 - 2 * Double(y) / Double(1 << zoom))
        return atan(sinh(n)) * 180 / .pi
    }

    /// The box of cell (`x`, `y`) at `zoom`; the first and last rows reach the poles, so that the
    /// photos beyond the projection's edge are inside their cell's box.
    public static func box(x: Int, y: Int, zoom: Int) -> MapBox {
        let north = y == 0 ? 90 : latitude(ofLine: y, zoom: zoom)
        let south = y + 1 == 1 << zoom ? -90 : latitude(ofLine: y + 1, zoom: zoom)
        // Rounded to 7 decimals (about a centimetre): still on the cell's lines when read back.
        func round7(_ v: Double) -> Double { (v * 1e7).rounded() / 1e7 }
        return MapBox(
            west: round7(longitude(ofLine: x, zoom: zoom)), south: round7(south),
            east: round7(longitude(ofLine: x + 1, zoom: zoom)), north: round7(north))
    }
}

/// An area of the map: `west`, `south`, `east`, `north` in degrees. `west > east` crosses the
/// antimeridian (170, …, −170 is the 20° around it).
public struct MapBox: Sendable, Hashable {
    public var west: Double
    public var south: Double
    public var east: Double
    public var north: Double

    /// A box, or a message saying what is wrong with it: each side a finite number, longitudes
    /// −180…180, latitudes −90…90, south not above north.
    public static func validated(west: Double, south: Double, east: Double, north: Double) -> Result<MapBox, MapBoxError> {
        guard [west, south, east, north].allSatisfy(\.isFinite) else {
            return .failure(MapBoxError("bbox must be four finite numbers W,S,E,N in degrees."))
        }
        guard (-180...180).contains(west), (-180...180).contains(east) else {
            return .failure(MapBoxError("bbox longitudes (W and E) must be from -180 to 180 (got \(Self.decimal(west)) and \(Self.decimal(east)))."))
        }
        guard (-90...90).contains(south), (-90...90).contains(north) else {
            return .failure(MapBoxError("bbox latitudes (S and N) must be from -90 to 90 (got \(Self.decimal(south)) and \(Self.decimal(north)))."))
        }
        guard south <= north else {
            return .failure(MapBoxError("bbox is reversed: south (\(Self.decimal(south))) is above north (\(Self.decimal(north))); give W,S,E,N."))
        }
        return .success(MapBox(west: west, south: south, east: east, north: north))
    }

    /// Reads `W,S,E,N` (plain decimal degrees, see `PlainNumber`; no spaces), validated as
    /// ``validated(west:south:east:north:)``.
    public static func parse(_ text: String) -> Result<MapBox, MapBoxError> {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = parts.compactMap(PlainNumber.decimal)
        guard parts.count == 4, numbers.count == 4 else {
            return .failure(MapBoxError("bbox must be four decimal numbers W,S,E,N in degrees, plain (no spaces, signs or exponents but a minus), e.g. -10,35,5,44."))
        }
        return validated(west: numbers[0], south: numbers[1], east: numbers[2], north: numbers[3])
    }

    /// `W,S,E,N`, as ``parse(_:)`` reads it.
    public var text: String { [west, south, east, north].map(MapBox.decimal).joined(separator: ",") }

    /// Whether the box crosses the antimeridian.
    public var crossesAntimeridian: Bool { west > east }

    /// The cell columns at `zoom` the box touches: one half-open range, or two when it crosses the
    /// antimeridian.
    public func columns(zoom: Int) -> [Range<Int>] {
        let w = MapGrid.edge(longitude: west, zoom: zoom)
        let e = MapGrid.edge(longitude: east, zoom: zoom, up: true)
        let last = 1 << zoom
        if crossesAntimeridian { return e >= w ? [0..<last] : [w..<last, 0..<max(e, 1)].filter { !$0.isEmpty } }
        return [min(w, last - 1)..<max(e, min(w, last - 1) + 1)]
    }

    /// The cell rows at `zoom` the box touches.
    public func rows(zoom: Int) -> Range<Int> {
        let n = MapGrid.edge(latitude: north, zoom: zoom)
        let s = MapGrid.edge(latitude: south, zoom: zoom, up: true)
        let last = 1 << zoom
        return min(n, last - 1)..<max(s, min(n, last - 1) + 1)
    }

    /// How many cells of `zoom` the box touches.
    public func cellCount(zoom: Int) -> Int {
        columns(zoom: zoom).reduce(0) { $0 + $1.count } * rows(zoom: zoom).count
    }

    /// The finest zoom at which the box touches at most `cells` cells (0 when none does).
    public func finestZoom(touchingAtMost cells: Int) -> Int {
        MapGrid.zooms.last { cellCount(zoom: $0) <= cells } ?? 0
    }

    /// The stored cell columns the box touches (a cell's box holds its own cells and no other's;
    /// a box cutting through stored cells holds them whole, about 38 m): what a timeline scoped to
    /// the box holds.
    var storedColumns: [Range<Int>] {
        let zoom = MapGrid.storedZoom
        let w = MapGrid.edge(longitude: west, zoom: zoom)
        let e = MapGrid.edge(longitude: east, zoom: zoom, up: true)
        if crossesAntimeridian { return e >= w ? [0..<(1 << zoom)] : [w..<(1 << zoom), 0..<e].filter { !$0.isEmpty } }
        return w < e ? [w..<e] : []
    }

    /// The stored cell rows the box touches, as ``storedColumns``.
    var storedRows: Range<Int> {
        let zoom = MapGrid.storedZoom
        let n = MapGrid.edge(latitude: north, zoom: zoom)
        var s = MapGrid.edge(latitude: south, zoom: zoom, up: true)
        if south <= -MapGrid.maximumLatitude { s = 1 << zoom }
        return n < s ? n..<s : n..<n
    }

    static func decimal(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}

/// Why a box was refused, in a sentence a person can act on.
public struct MapBoxError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
