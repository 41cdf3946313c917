import Foundation
import GalleryLayout
import Hummingbird
import LibraryIndex
import PhotoLibrary
import Timeline
import ZoomMapping

/// The timeline routes: the sections of a level, one section's photos page by page, the grid's
/// layout for a viewport, a zoom between the levels, and where a photo is in both grids.
extension API {
    func sections(_ request: Request) throws -> Response {
        let query = Query(request)
        if query.raw("level") == PackedLevel.years.rawValue { return try years(request) }
        let level = try query.level("level")
        let scope = try query.scope()
        let loaded = state.loaded
        return try json(sectionsAnswer(level, scope: scope, loaded: loaded), for: request)
    }

    /// The Years level: `[{"index", "year", "count", "months", "key", "keyDay"}]`, the key photo
    /// (shaped as a section page's photos) nearest `today` (the server's date unless given).
    func years(_ request: Request) throws -> Response {
        let query = Query(request)
        let scope = try query.scope()
        let today = try query.today()
        let loaded = state.loaded
        return try json(loaded.cached(scope.key + "sections/years/\(today.isoString)") {
            let snapshot = try loaded.snapshot(in: scope, library: state.library)
            return try ContractJSON.encode(snapshot.yearList(today: today, detail: true), compact: true)
        }, for: request)
    }

    /// The encoded section list of `level` (of the timeline of `scope`), once per snapshot.
    func sectionsAnswer(_ level: TimelineLevel, scope: TimelineScope, loaded: LibraryState.Loaded) throws -> CachedAnswer {
        try loaded.cached(scope.key + "sections/\(level)") {
            try ContractJSON.encode(sectionList(level, scope: scope, loaded: loaded), compact: true)
        }
    }

    /// The sections of `level` of the library or of a scoped timeline, each with its places.
    func sectionList(_ level: TimelineLevel, scope: TimelineScope, loaded: LibraryState.Loaded) throws -> [SectionJSON] {
        let (snapshot, places) = if !scope.isLibrary {
            try loaded.result(in: scope, library: state.library).pair
        } else {
            (loaded.snapshot, try state.library.sectionPlaces())
        }
        return try snapshot.summaries(level).map { summary in
            var section = SectionJSON(summary, snapshot: snapshot, photos: .none)
            section.places = places.names(from: section.start, to: section.end)
            return section
        }
    }

    /// A search (`q`, a map box `bbox`, or both): `{"photos": [...], "sections": [...], "total"}`, the matching items (as
    /// `/api/photos/{id}` answers, in capture order, the first `limit`; a stack's cover with its
    /// `stack`, `stackCount` and, when only a member matched, `matchedMember`), how many photos
    /// the result's timeline holds (a stack with all of its photos), and its own sections at `level` (coarse by default). An empty result is
    /// empty lists, not an error.
    func search(_ request: Request) throws -> Response {
        let query = Query(request)
        let level = try query.raw("level") == nil ? .coarse : query.level("level")
        let limit = try query.int("limit", in: Query.Limits.searchPhotos) ?? 1_000
        let scope = try query.scope()
        let loaded = state.loaded
        return try json(loaded.cached(scope.key + "search/\(level)/\(limit)") {
            guard !scope.isLibrary else { return Data(#"{"photos":[],"sections":[],"total":0}"#.utf8) }
            // The result's timeline is kept: only the first `limit` photos' rows are read, and
            // written by hand (a thousand photos through JSONEncoder take most of an answer's time).
            let result = try loaded.result(in: scope, library: state.library).snapshot
            let items = result.timeline.photos.count
            let listed = 0..<min(limit, items)
            let rows = try state.library.photos(ids: listed.map(result.id(ofPhoto:)))
            var out = Array(#"{"photos":["#.utf8)
            // `rows` keeps the order of the ids asked for: one per listed item, unless a row
            // vanished meanwhile, which then shows without its stack.
            let aligned = rows.count == listed.count
            for (index, row) in rows.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                var detail = PhotoDetailJSON(row, id: row.id ?? 0)
                // A stack is one item standing for all of its photos, as in a section.
                if aligned, let count = result.stackCount(ofPhoto: index) {
                    detail.photo.stack = detail.id
                    detail.stackCount = count
                    detail.matchedMember = result.matchedMember(ofPhoto: index)
                }
                try detail.appendCompactJSON(to: &out)
            }
            out += Array(#"],"sections":"#.utf8)
            // The same answer as `/api/sections?q=`, encoded once for both.
            out += Array(try sectionsAnswer(level, scope: scope, loaded: loaded).plain.readableBytesView)
            out += Array(#","total":\#(result.photoCount)}"#.utf8)
            return Data(out)
        }, for: request)
    }

    func section(_ request: Request, _ context: BasicRequestContext) throws -> Response {
        guard let level = context.parameters.get("level").flatMap(TimelineLevel.init(rawValue:)) else {
            throw APIError.badRequest("The level must be coarse or fine.")
        }
        let index = try Query.int(context.parameters.get("index") ?? "", name: "The section", in: Query.Limits.section)
        let query = Query(request)
        // Both at most a billion, so `from + count` cannot overflow.
        let from = try query.int("from", in: Query.Limits.item) ?? 0
        let count = try query.int("count", in: Query.Limits.item)
        let scope = try query.scope()
        let loaded = state.loaded
        let snapshot = try loaded.snapshot(in: scope, library: state.library)
        let sections = snapshot.timeline.sectionCount(level)
        guard index < sections else {
            throw APIError(.notFound, code: "notFound", sections == 0
                ? "There are no \(level) sections: the index is empty."
                : "Section \(index) is out of range: the \(level) level has sections 0–\(sections - 1).")
        }
        let items = from..<(count.map { from + $0 } ?? Int.max)
        // Only a miss looks the section up.
        return try json(loaded.cachedPage(scope.key + "\(level)/\(index)/\(from)/\(count.map(String.init) ?? "all")") {
            let summary = try snapshot.summaries(level, section: index)[0]
            return SectionJSON(summary, snapshot: snapshot, photos: .detail, items: items).compactJSON()
        }, for: request)
    }

    /// Where a photo is in both grids: `{"id", "coarse": {"section", "item"} or null, "fine": {…}}`
    /// (coarse is null when the sample does not show it).
    func position(_ request: Request, _ context: BasicRequestContext) throws -> Response {
        let id = try photoID(context)
        let snapshot = try state.loaded.snapshot(in: try Query(request).scope(), library: state.library)
        guard let position = snapshot.position(ofPhotoID: id) else {
            throw APIError(.notFound, code: "notFound", "Photo \(id) is in no section (unknown id, a Live Photo's video half, or no usable date).")
        }
        let map = try snapshot.zoomMap(settings: state.library.configuration.zoom)
        struct Place: Encodable { var section: Int; var item: Int }
        struct Body: Encodable {
            var id: Int64
            var coarse: Place?
            var fine: Place?
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(id, forKey: .id)
                try c.encode(coarse, forKey: .coarse)
                try c.encode(fine, forKey: .fine)
            }
            enum CodingKeys: String, CodingKey { case id, coarse, fine }
        }
        let place = { (level: TimelineLevel) in map.indexPath(ofPhoto: position, in: level).map { Place(section: $0.section, item: $0.item) } }
        return try json(ContractJSON.encode(Body(id: id, coarse: place(.coarse), fine: place(.fine)), compact: true))
    }

    func layout(_ request: Request) throws -> Response {
        let query = Query(request)
        if try query.packed() { return try packedLayout(request) }
        let level = try query.level("level")
        let viewport = try query.viewport()
        let scope = try query.scope()
        let loaded = state.loaded
        var settings = state.library.configuration.zoom
        if let viewport { (settings.viewport.width, settings.viewport.height) = viewport }
        return try json(loaded.cached(scope.key + "layout/\(level)/\(settings.viewport.width)x\(settings.viewport.height)") {
            let snapshot = try loaded.snapshot(in: scope, library: state.library)
            return try ContractJSON.encode(LayoutJSON(level: level, map: snapshot.zoomMap(settings: settings)), compact: true)
        }, for: request)
    }

    /// `/api/layout?packed=1&level=years|coarse|fine&viewport=WxH`: the packed level's blocks.
    func packedLayout(_ request: Request) throws -> Response {
        let query = Query(request)
        guard let level = try query.packedLevel("level") else { throw APIError.badRequest("Give level=years, level=coarse or level=fine.") }
        let zoom = state.library.configuration.zoom
        let viewport = try query.viewport().map { ViewportSize(width: $0.width, height: $0.height) } ?? zoom.viewport
        let today = try query.today()
        let scope = try query.scope()
        let loaded = state.loaded
        // The day matters to years only (its key photos); the blocks of a level do not depend on it.
        let day = level == .years ? today.isoString : "-"
        return try json(loaded.cached(scope.key + "packed/\(level)/\(viewport.width)x\(viewport.height)/\(day)") {
            let snapshot = try loaded.snapshot(in: scope, library: state.library)
            let map = try snapshot.packedMap(viewport: viewport, contentInsets: zoom.contentInsets, today: today)
            return try ContractJSON.encode(PackedLayoutJSON(level: level, map: map), compact: true)
        }, for: request)
    }

    func zoom(_ request: Request) throws -> Response {
        let query = Query(request)
        let packed = try query.packed()
        let packedFrom = packed ? try query.packedLevel("from") : nil
        let from: TimelineLevel = packed ? .coarse : try query.level("from")
        if !packed, query.raw("to") != nil { throw APIError.badRequest("to belongs to the packed timeline: add packed=1.") }
        let anchor: ZoomRequest.Anchor
        // Every parameter given is read, even one the answer would not use.
        let focalX = try query.double("focalX", in: Query.Limits.focal)
        if let focalY = try query.double("focalY", in: Query.Limits.focal) {
            guard query.raw("section") == nil, query.raw("item") == nil else {
                throw APIError.badRequest("Give either section and item or focalY, not both.")
            }
            anchor = .focalPoint(x: focalX, y: focalY)
        } else {
            guard focalX == nil else { throw APIError.badRequest("focalX goes with focalY (a pinch's focal point): give both, or section and item.") }
            guard let section = try query.int("section", in: Query.Limits.section),
                  let item = try query.int("item", in: Query.Limits.item) else {
                throw APIError.badRequest("Give section and item (the tapped photo) or focalY (a pinch).")
            }
            anchor = .item(section: section, item: item)
        }
        let offset = try query.double("offset", in: Query.Limits.offset) ?? 0
        let snapshot = try state.loaded.snapshot(in: try query.scope(), library: state.library)
        if packed {
            guard let packedFrom else { throw APIError.badRequest("Give from=years, from=coarse or from=fine.") }
            let packedRequest = PackedZoomRequest(
                from: packedFrom, to: try query.packedLevel("to"), anchor: anchor, offset: offset, viewport: try query.viewport(), today: try query.today())
            return try json(ContractJSON.encode(snapshot.packedZoom(packedRequest, settings: state.library.configuration.zoom), compact: true))
        }
        let zoomRequest = ZoomRequest(from: from, anchor: anchor, offset: offset, viewport: try query.viewport())
        return try json(ContractJSON.encode(snapshot.zoom(zoomRequest, settings: state.library.configuration.zoom), compact: true))
    }
}
