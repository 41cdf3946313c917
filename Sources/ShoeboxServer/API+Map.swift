import Foundation
import Hummingbird
import LibraryIndex
import PhotoLibrary

/// The map routes: the clusters of a box, the country outlines, and Leaflet's files.
extension API {
    /// `GET /api/map?bbox=W,S,E,N&zoom=Z`: `MapJSON`, a cluster per cell of zoom `Z` (0–20) the
    /// box touches; without `zoom`, the finest at which the box touches at most
    /// `Query.Limits.defaultMapCells` cells. A box touching more than `Query.Limits.mapCells` cells is
    /// refused (every answer stays small).
    func map(_ request: Request) throws -> Response {
        let query = Query(request)
        guard let box = try query.box() else {
            throw APIError.badRequest("Give bbox=W,S,E,N in degrees (west, south, east, north; W > E crosses the antimeridian), e.g. bbox=-180,-90,180,90.")
        }
        let zoom = try query.int("zoom", in: MapGrid.zooms) ?? box.finestZoom(touchingAtMost: Query.Limits.defaultMapCells)
        let cells = box.cellCount(zoom: zoom)
        guard cells <= Query.Limits.mapCells else {
            throw APIError.badRequest(
                "bbox touches \(cells) cells at zoom \(zoom); at most \(Query.Limits.mapCells): give a lower zoom or a smaller box.")
        }
        return try json(ContractJSON.encode(state.library.map(box, zoom: zoom), compact: true))
    }

    /// `GET /api/map/bounds?q=…`: `{"bbox": [W, S, E, N], "count"}`, the box around the positions
    /// of the photos matching `q` (a place's query from `/api/places`, a section's place name), or
    /// `{"bbox": null, "count": 0}` when none has a position: where the Map page opens for a place.
    func mapBounds(_ request: Request) throws -> Response {
        guard let search = try Query(request).search() else {
            throw APIError.badRequest("Give q, the search whose photos the map should show (e.g. a place's query from /api/places).")
        }
        struct Body: Encodable {
            var bbox: [Double]?
            var count: Int
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(bbox, forKey: .bbox)
                try c.encode(count, forKey: .count)
            }
            enum CodingKeys: String, CodingKey { case bbox, count }
        }
        let found = try state.library.mapBounds(matching: search)
        let body = Body(bbox: found.map { [$0.box.west, $0.box.south, $0.box.east, $0.box.north] }, count: found?.count ?? 0)
        return try json(ContractJSON.encode(body, compact: true))
    }

    /// `GET /api/map/outlines`: the country outlines `scripts/map-data` set up (GeoJSON), or a 404
    /// that says how to set them up.
    func mapOutlines(_ request: Request) throws -> Response {
        guard let file = MapFiles.lookedAt.lazy.compactMap(MapFiles.load).first else {
            throw APIError(.notFound, code: "noOutlines",
                "No map outlines (looked at \(MapFiles.lookedAt.joined(separator: ", "))): run scripts/map-data once to draw the countries.")
        }
        return MapFiles.response(file, contentType: "application/geo+json", to: request, maxAge: 3600)
    }

    /// `GET /leaflet/…`: one of Leaflet's files from Debian's `libjs-leaflet` (`MapFiles.leafletFiles`).
    func leaflet(_ request: Request, path: String) throws -> Response {
        guard let type = MapFiles.leafletFiles[path] else {
            throw APIError(.notFound, code: "notFound", "No such Leaflet file.")
        }
        guard let file = MapFiles.load(MapFiles.leafletDirectory + "/" + path) else {
            throw APIError(.notFound, code: "noLeaflet",
                "Leaflet is not installed at \(MapFiles.leafletDirectory): install Debian's libjs-leaflet (scripts/dependencies).")
        }
        return MapFiles.response(file, contentType: type, to: request, maxAge: 86_400)
    }
}
