import Hummingbird
import PhotoLibrary

/// The places route: countries, regions and cities with counts, covers and their searches.
extension API {
    /// `GET /api/places`: `PlacesJSON`, counted once per snapshot (usually in the background
    /// after the library loads, see `LibraryState.Loaded.prepareInBackground(of:)`).
    func places(_ request: Request) throws -> Response {
        try json(state.loaded.placesAnswer(in: state.library), for: request)
    }
}
