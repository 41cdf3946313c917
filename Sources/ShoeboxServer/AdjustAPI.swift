import Corrections
import Foundation
import HTTPTypes
import Hummingbird
import LibraryIndex
import Logging
import PhotoLibrary
import Places
import Synchronization

/// The corrections: `POST /api/adjust` and `POST /api/adjust/undo`, the only routes that write.
///
/// A write is refused (403) when the server runs `--read-only`, when the request comes from
/// another site (`Sec-Fetch-Site: cross-site`, or an `Origin` that is not the server's own), and
/// (415) when its body is not `application/json`, so a cross-site form post can never correct a
/// photo; the token, when the server has one, is checked before any route. A bad value is a 400
/// naming the field, with nothing written.
struct AdjustAPI: Sendable {
    let state: LibraryState
    let events: EventHub
    let logger: Logger
    let databasePath: String
    let readOnly: Bool
    let places: LazyPlaceTable
    /// One correction at a time: a second one meanwhile is a 409.
    private let busy = OneAtATime()
    /// The places table's names in order, made on the first suggestion asked for.
    private let names = PlaceNames()

    /// The largest request body: a hundred thousand ids.
    static let bodyLimit = 2 * 1024 * 1024
    /// Photos one request may correct.
    static let idLimit = 1...100_000

    init(state: LibraryState, events: EventHub, logger: Logger, databasePath: String, readOnly: Bool, places: LazyPlaceTable) {
        self.state = state
        self.events = events
        self.logger = logger
        self.databasePath = databasePath
        self.readOnly = readOnly
        self.places = places
    }

    func register(on router: Router<BasicRequestContext>) {
        let api = router.group("api")
        api.post("adjust") { request, _ in try await adjust(request) }
        api.post("adjust/undo") { request, _ in try await undo(request) }
        // The Adjust sheet's place field: names from the whole places table as a person types.
        api.get("places/names") { request, _ in try placeNames(request) }
        api.head("places/names") { request, _ in try placeNames(request) }
    }

    // MARK: Routes

    /// `GET /api/places/names?q=TEXT`: `{"places": [{"label", "name", "region", "country",
    /// "countryCode", "latitude", "longitude"}]}`, the ten most populous places of the places table
    /// whose name starts with `q` (a comma narrows by region or country, as `place` does); none
    /// without a table.
    private func placeNames(_ request: Request) throws -> Response {
        guard let text = Query(request).raw("q"), !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw APIError(.badRequest, code: "invalidValue", field: "q", "Give q, the start of a place's name, e.g. q=Lisb.")
        }
        guard text.utf8.count <= 200 else {
            throw APIError(.badRequest, code: "invalidValue", field: "q", "q must be at most 200 bytes (got \(text.utf8.count)).")
        }
        struct Suggestion: Encodable {
            var label: String
            var name: String
            var region: String?
            var country: String
            var countryCode: String
            var latitude: Double
            var longitude: Double
        }
        struct Body: Encodable { var places: [Suggestion] }
        let found = names.index(of: places)?.suggestions(for: text) ?? []
        let body = Body(places: found.map {
            Suggestion(label: $0.label, name: $0.name, region: $0.region, country: $0.country, countryCode: $0.countryCode,
                       latitude: $0.latitude, longitude: $0.longitude)
        })
        return json(try ContractJSON.encode(body, compact: true))
    }

    private func adjust(_ request: Request) async throws -> Response {
        let body = try await checkedBody(request, fields: AdjustBody.fields)
        let decoded = try Self.decode(AdjustBody.self, from: body)
        guard let ids = decoded.ids, !ids.isEmpty else {
            throw APIError(.badRequest, code: "invalidValue", field: "ids", "Give ids, the photos to correct, e.g. {\"ids\": [12, 13], \"shift\": \"+1h\"}.")
        }
        guard Self.idLimit.contains(ids.count) else {
            throw APIError(.badRequest, code: "invalidValue", field: "ids", "At most \(Self.idLimit.upperBound) photos a request (got \(ids.count)).")
        }
        let dryRun = decoded.dryRun ?? false
        let result = try await exclusively { corrector in
            try await corrector.adjust(.ids(ids), decoded.request, dryRun: dryRun)
        }
        if !dryRun {
            if let note = result.indexNote { logger.notice("Corrected \(result.photos.count) photos; \(note)") }
            refresh(state: state, events: events, logger: logger, force: true)
        }
        return try json(ContractJSON.encode(result, compact: true))
    }

    private func undo(_ request: Request) async throws -> Response {
        let body = try await checkedBody(request, fields: UndoBody.fields)
        let decoded = try Self.decode(UndoBody.self, from: body)
        let result = try await exclusively { corrector in
            try await corrector.undo(batch: decoded.batch, force: decoded.force ?? false)
        }
        refresh(state: state, events: events, logger: logger, force: true)
        return try json(ContractJSON.encode(result, compact: true))
    }

    // MARK: Checks

    /// The body of a write that may be made: refused when read-only, cross-site or not JSON; at
    /// most `bodyLimit` bytes, a JSON object with only `fields`.
    private func checkedBody(_ request: Request, fields: Set<String>) async throws -> Data {
        if readOnly {
            throw APIError(.forbidden, code: "readOnly", "This server is read-only (shoebox serve --read-only): corrections are refused.")
        }
        // `HostMiddleware` refuses cross-site API requests already; a write says so again here.
        if request.headers[.secFetchSite] == "cross-site" {
            throw APIError(.forbidden, code: "crossSite", "Corrections are accepted from this server's own pages only.")
        }
        if let origin = request.headers[.origin], !Self.isSameOrigin(origin, host: request.head.authority) {
            throw APIError(.forbidden, code: "crossSite", "Corrections are accepted from this server's own pages only (Origin \(Query.shown(origin))).")
        }
        let type = request.headers[.contentType]?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard type == "application/json" else {
            throw APIError(.unsupportedMediaType, code: "notJSON", "Send the correction as JSON, with Content-Type: application/json.")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: Self.bodyLimit)
        } catch {
            throw APIError(.contentTooLarge, code: "tooLarge", "A correction is at most \(Self.bodyLimit / 1024 / 1024) MiB of JSON.")
        }
        let data = Data(buffer.readableBytesView)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw APIError.badRequest("The body must be a JSON object, e.g. {\"ids\": [12], \"shift\": \"+1h\"}.")
        }
        if let unknown = object.keys.sorted().first(where: { !fields.contains($0) }) {
            throw APIError(.badRequest, code: "invalidValue", field: unknown, "\(Query.shown(unknown)) is no field of this request; it takes \(fields.sorted().joined(separator: ", ")).")
        }
        return data
    }

    /// Whether `origin` (`http://host:port`) is the server the request was sent to (`host`).
    static func isSameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host, !host.isEmpty else { return false }
        return origin == "http://" + host || origin == "https://" + host
    }

    /// `body` as `type`; a field of the wrong type is a 400 naming it.
    static func decode<T: Decodable>(_ type: T.Type, from body: Data) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch let error as DecodingError {
            let field: String? = switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                context.codingPath.first?.stringValue
            case .keyNotFound(let key, _): key.stringValue
            @unknown default: nil
            }
            let name = field ?? "body"
            throw APIError(.badRequest, code: "invalidValue", field: field, "\(name) has the wrong type: \(Self.expected[name] ?? "see the API's documentation").")
        }
    }

    static let expected = [
        "ids": "a list of photo ids (whole numbers)", "shift": "text such as \"+1h30m\"", "setDate": "text such as \"1975-06-01T12:00:00\"",
        "timeZone": "text such as \"+02:00\" or \"Europe/Lisbon\"", "keepInstant": "true or false", "place": "a place name",
        "position": "text \"LAT,LON\" or [lat, lon]", "dryRun": "true or false", "batch": "a batch number", "force": "true or false",
    ]

    /// Runs `body` with a corrector of the library, one at a time; its errors as API errors.
    private func exclusively<T: Sendable>(_ body: (Corrector) async throws -> T) async throws -> T {
        guard busy.enter() else {
            throw APIError(.conflict, code: "busy", "Another correction is being written: try again in a moment.")
        }
        defer { busy.leave() }
        let store: LibraryStore
        do {
            store = try LibraryStore(path: databasePath, mode: .readWrite)
        } catch {
            throw APIError(LibraryError(error))
        }
        do {
            return try await body(Corrector(store: store, places: places))
        } catch let error as AdjustError {
            throw APIError(error)
        }
    }

    /// `data` as a JSON answer that is never cached.
    private func json(_ data: Data) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// A gate one task at a time may pass.
final class OneAtATime: Sendable {
    private let running = Mutex(false)

    /// Whether the caller may go on (then it must `leave()`); false while another is inside.
    func enter() -> Bool {
        running.withLock { running in
            if running { return false }
            running = true
            return true
        }
    }

    func leave() { running.withLock { $0 = false } }
}

/// `POST /api/adjust`'s body.
struct AdjustBody: Decodable {
    var ids: [Int64]?
    var shift: String?
    var setDate: String?
    var timeZone: String?
    var keepInstant: Bool?
    var place: String?
    var position: PositionValue?
    var dryRun: Bool?

    static let fields: Set<String> = ["ids", "shift", "setDate", "timeZone", "keepInstant", "place", "position", "dryRun"]

    /// `"LAT,LON"` or `[lat, lon]`, as the text the corrector reads.
    struct PositionValue: Decodable {
        var text: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self.text = text
            } else {
                let pair = try container.decode([Double].self)
                // Written plainly (no exponent) for the corrector's one number grammar; a bad pair is its error.
                self.text = pair.map { $0.isFinite ? String(format: "%.8f", $0) : "nan" }.joined(separator: ",")
            }
        }
    }

    var request: AdjustRequest {
        AdjustRequest(shift: shift, setDate: setDate, timeZone: timeZone, keepInstant: keepInstant ?? false, place: place, position: position?.text)
    }
}

/// `POST /api/adjust/undo`'s body: the batch (the last one when absent) and `force`.
struct UndoBody: Decodable {
    var batch: Int64?
    var force: Bool?

    static let fields: Set<String> = ["batch", "force"]
}

extension APIError {
    /// A refused correction, with the status its code calls for and the field at fault.
    init(_ error: AdjustError) {
        let (status, code): (HTTPResponse.Status, String) = switch error.code {
        case .invalidValue, .ambiguous, .outsideLibrary: (.badRequest, "invalidValue")
        case .notFound: error.field == nil ? (.notFound, "notFound") : (.badRequest, "invalidValue")
        case .changedSince: (.conflict, "changedSince")
        case .notWritable: (.conflict, "notWritable")
        case .unusableSidecar, .notAFile, .vanished: (.conflict, "\(error.code)")
        default: (.internalServerError, "failed")
        }
        self.init(status, code: code, field: error.field, error.message)
    }
}

/// A `PlaceNameIndex` of the server's places table, made once, on first use.
final class PlaceNames: Sendable {
    private let made = Mutex<PlaceNameIndex?>(nil)

    /// The index, made now when it is the first call and a table is installed; nil without one.
    func index(of places: LazyPlaceTable) -> PlaceNameIndex? {
        made.withLock { index in
            if index == nil, let table = places.table { index = PlaceNameIndex(table: table) }
            return index
        }
    }
}
