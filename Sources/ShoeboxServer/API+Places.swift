import Hummingbird
import PhotoLibrary

/// The places route: countries, regions and cities with counts, covers and their searches.
extension API {
    /// `GET /api/places`: `PlacesJSON`, counted once per snapshot.
    func places(_ request: Request) throws -> Response {
        let loaded = state.loaded
        return try json(loaded.cached("places") {
            try ContractJSON.encode(PlacesJSON(state.library.placeCounts()), compact: true)
        }, for: request)
    }
}
