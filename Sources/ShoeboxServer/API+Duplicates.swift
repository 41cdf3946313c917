import Duplicates
import Hummingbird
import LibraryIndex
import PhotoLibrary

/// The duplicates route: the groups the last `shoebox duplicates` stored.
extension API {
    /// `GET /api/duplicates[?tier=exact|same-picture|similar]`: `DuplicatesJSON`, read from the
    /// stored groups (one indexed query over the group rows; nothing is hashed or compared here).
    func duplicates(_ request: Request) throws -> Response {
        let text = Query(request).raw("tier") ?? DuplicateKind.similar.rawValue
        guard let tier = DuplicateKind(rawValue: text) else {
            throw APIError.badRequest("tier must be exact, same-picture or similar (got \(text.prefix(40))).")
        }
        let groups = try state.library.store.storedDuplicateGroups(tier: tier)
        return try json(ContractJSON.encode(DuplicatesJSON(tier: tier, groups: groups), compact: true))
    }
}
