import LibraryIndex

/// What a timeline route shows: the whole library, the photos matching a search `q`, the photos
/// inside a map box `bbox`, or those matching both. Each is a timeline of its own, with both
/// zoom levels, its own sections, layout and zoom.
struct TimelineScope: Sendable {
    var search: SearchQuery?
    var box: MapBox?

    /// The whole library.
    static let library = TimelineScope()

    var isLibrary: Bool { search == nil && box == nil }

    /// The cache-key prefix of a route's answer in this scope ("" for the whole library).
    var key: String {
        (search.map { "q=\($0.normalized)/" } ?? "") + (box.map { "bbox=\($0.text)/" } ?? "")
    }
}
