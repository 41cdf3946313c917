import Hummingbird
import LibraryIndex
import PhotoLibrary
import Timeline
import ZoomMapping

/// Typed access to a request's query parameters, with 400s that name the parameter.
///
/// Every number is range-checked here, where it enters, so the arithmetic behind a route never
/// traps: a value is accepted only when it is a plain decimal number (`PlainNumber`: `-12.5` is;
/// `+5`, `0390`, `1e5`, `0x10`, `NaN`, `Infinity`, spaces and empty are not) inside the range the
/// parameter allows.
struct Query {
    let request: Request

    init(_ request: Request) { self.request = request }

    func raw(_ name: String) -> String? { request.uri.queryParameters.get(name) }

    func level(_ name: String) throws -> TimelineLevel {
        guard let text = raw(name) else { throw APIError.badRequest("Give \(name)=coarse or \(name)=fine.") }
        guard let level = TimelineLevel(rawValue: text) else {
            throw APIError.badRequest("\(name) must be coarse or fine (got \(Self.shown(text))).")
        }
        return level
    }

    /// A packed level (`years`, `coarse` or `fine`), or nil when the parameter is absent.
    func packedLevel(_ name: String) throws -> PackedLevel? {
        guard let text = raw(name) else { return nil }
        guard let level = PackedLevel(rawValue: text) else {
            throw APIError.badRequest("\(name) must be years, coarse or fine (got \(Self.shown(text))).")
        }
        return level
    }

    /// Whether `packed=1` asks for the packed layouts; `packed=0` or absent keep the seed grid.
    func packed() throws -> Bool {
        switch raw("packed") {
        case nil, "0": return false
        case "1": return true
        case let text?: throw APIError.badRequest("packed must be 1 or 0 (got \(Self.shown(text))).")
        }
    }

    /// `today=YYYY-MM-DD` (the day that picks the Years level's key photos), else the server's date.
    func today() throws -> TimelineDay {
        guard let text = raw("today") else { return .today() }
        guard let day = TimelineDay(iso: text) else {
            throw APIError.badRequest("today must be a date YYYY-MM-DD, e.g. 2026-11-27 (got \(Self.shown(text))).")
        }
        return day
    }

    /// A whole number in `range`, or nil when the parameter is absent.
    func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = raw(name) else { return nil }
        return try Self.int(text, name: name, in: range)
    }

    /// A finite decimal number in `range`, or nil when the parameter is absent.
    func double(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = raw(name) else { return nil }
        guard let value = PlainNumber.decimal(text), range.contains(value) else {
            throw APIError.badRequest("\(name) must be a number from \(Self.shown(range.lowerBound)) to \(Self.shown(range.upperBound)) (got \(Self.shown(text))).")
        }
        return value
    }

    /// The search `q` scoping a timeline route, or `nil` for the whole library (no `q`, or one
    /// without a word). Its words are quoted for FTS5 by `SearchQuery`, never interpreted.
    func search() throws -> SearchQuery? {
        guard let text = raw("q") else { return nil }
        guard text.utf8.count <= Limits.searchBytes else {
            throw APIError.badRequest("q must be at most \(Limits.searchBytes) bytes (got \(text.utf8.count)).")
        }
        let query = SearchQuery(text)
        return query.isEmpty ? nil : query
    }

    /// A map box `W,S,E,N` in degrees (see `MapBox`), or nil when the parameter is absent.
    func box(_ name: String = "bbox") throws -> MapBox? {
        guard let text = raw(name) else { return nil }
        switch MapBox.parse(text) {
        case .success(let box): return box
        case .failure(let error): throw APIError.badRequest("\(error.message) (got \(Self.shown(text)))")
        }
    }

    /// The scope of a timeline route: its search `q` and map box `bbox`, each optional.
    func scope() throws -> TimelineScope {
        TimelineScope(search: try search(), box: try box())
    }

    /// `WIDTHxHEIGHT` in points, each a plain decimal from 1 to 100,000.
    func viewport() throws -> (width: Double, height: Double)? {
        guard let text = raw("viewport") else { return nil }
        guard let viewport = ZoomRequest.parseViewport(text) else {
            throw APIError.badRequest("viewport must be WIDTHxHEIGHT in points, each 1 to 100000, e.g. 390x844 (got \(Self.shown(text))).")
        }
        return viewport
    }

    /// A whole number in `range` from a query or path parameter `name`.
    static func int(_ text: some StringProtocol, name: String, in range: ClosedRange<Int>) throws -> Int {
        guard let value = PlainNumber.integer(text), range.contains(value) else {
            throw APIError.badRequest("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound) (got \(shown(String(text)))).")
        }
        return value
    }

    /// A request value quoted in a message: at most 40 characters, control characters escaped.
    static func shown(_ text: String) -> String {
        let cut = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return cut.unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }.joined()
    }

    private static func shown(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }

    /// The ranges request numbers must fall in.
    enum Limits {
        /// A section index (no library has ten million sections).
        static let section = 0...10_000_000
        /// A photo's place in a section, `from` and `count` of a page.
        static let item = 0...1_000_000_000
        /// A content offset, in points: far beyond any grid (a million sections of a thousand rows).
        static let offset = -1e12...1e12
        /// A focal point in the viewport, in points (the viewport is at most 100,000 a side).
        static let focal = -1e6...1e6
        /// A search, in UTF-8 bytes (its first 200 characters are read).
        static let searchBytes = 1_000
        /// Photos listed by one search answer.
        static let searchPhotos = 1...10_000
        /// Cells one map answer may cover: a 4K screen of 64-px cells is about 900.
        static let mapCells = 4_096
        /// Cells a map answer covers when no zoom is given.
        static let defaultMapCells = 256
        /// Duplicate groups one answer lists, and where a page of them may start.
        static let duplicateGroups = 1...1_000
        static let duplicatesOffset = 0...1_000_000_000
    }
}
