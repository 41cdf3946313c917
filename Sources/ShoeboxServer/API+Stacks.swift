import Foundation
import Hummingbird
import LibraryIndex
import PhotoLibrary
import PhotoMetadata
import WallClock

/// The stack route: the photos a stack's cover stands for in the timeline, for the pager.
extension API {
    /// `GET /api/photos/{id}/stack`: `{"stack": id, "photos": [...]}`, the photos of the stack whose
    /// cover is `id` (the cover first, then in capture order), each as a section answer's photo in
    /// detail; a photo that is no stack's cover has a stack of itself alone.
    func stack(_ context: BasicRequestContext) throws -> Response {
        let id = try photoID(context)
        let store = state.library.store
        var members = try store.stackMembers(of: id)
        if members.isEmpty { members = [id] }
        let moments = try store.moments(ids: members)
        guard moments[id] != nil else {
            throw APIError(.notFound, code: "notFound", "There is no photo \(id) in the timeline.")
        }
        struct Body: Encodable {
            var stack: Int64
            var photos: [SectionJSON.Photo]
        }
        let photos = members.compactMap { member in
            moments[member].map { moment in
                SectionJSON.Photo(
                    path: moment.path, captured: moment.captured.description, dateSource: moment.source.rawValue,
                    pathBytes: moment.pathBytes.map { Data($0).base64EncodedString() }, id: moment.id,
                    width: moment.width, height: moment.height, mediaType: moment.mediaType.rawValue)
            }
        }
        return try json(ContractJSON.encode(Body(stack: id, photos: photos), compact: true))
    }
}
