import Duplicates
import Hummingbird
import LibraryIndex
import PhotoLibrary

/// The duplicates route: the groups the last `shoebox duplicates` stored.
extension API {
    /// `GET /api/duplicates[?tier=exact|same-picture|similar][&offset=N][&limit=N]`: a page of
    /// `DuplicatesJSON` (`limit` groups, 200 unless given, from the `offset`-th, by the kept file's
    /// path) with the totals of all of them, read from the stored groups: nothing is hashed or
    /// compared here. A million photos' groups are megabytes; a page is what a screen shows.
    func duplicates(_ request: Request) throws -> Response {
        let query = Query(request)
        let text = query.raw("tier") ?? DuplicateKind.similar.rawValue
        guard let tier = DuplicateKind(rawValue: text) else {
            throw APIError.badRequest("tier must be exact, same-picture or similar (got \(text.prefix(40))).")
        }
        let offset = try query.int("offset", in: Query.Limits.duplicatesOffset) ?? 0
        let limit = try query.int("limit", in: Query.Limits.duplicateGroups) ?? 200
        let store = state.library.store
        let page = DuplicatesJSON(
            tier: tier, groups: try store.storedDuplicateGroups(tier: tier, offset: offset, limit: limit), offset: offset,
            totals: try store.duplicateTotals(tier: tier))
        return try json(ContractJSON.encode(page, compact: true))
    }
}
