/// GeoNames places (population ≥ 500) in memory, indexed for the nearest place to a position.
///
/// Load the table the set-up wrote with ``load(path:)`` or ``loadInstalled(environment:executableDirectory:)``,
/// then ask ``nearest(latitude:longitude:)``. A table is immutable and can be shared between threads.
public struct PlaceTable: Sendable {
    /// One place as the set-up writes it.
    package struct Entry: Sendable, Hashable {
        package var name: String
        package var latitude: Double
        package var longitude: Double
        package var population: Int
        package var region: String?
        package var countryCode: String
        package var countryName: String
        package var timeZone: String

        package init(
            name: String, latitude: Double, longitude: Double, population: Int, region: String?,
            countryCode: String, countryName: String, timeZone: String
        ) {
            self.name = name
            self.latitude = latitude
            self.longitude = longitude
            self.population = population
            self.region = region
            self.countryCode = countryCode
            self.countryName = countryName
            self.timeZone = timeZone
        }
    }

    /// A place in tree order, its names as indices into `strings`.
    struct Row: Sendable {
        var population: UInt32
        var name: UInt32
        /// `Row.none` when the place has no region name.
        var region: UInt32
        var timeZone: UInt32
        var country: UInt16

        static let none = UInt32.max
    }

    struct Country: Sendable {
        var code: UInt32
        var name: UInt32
    }

    let strings: StringTable
    let countries: [Country]
    /// Indexed by tree slot.
    let rows: [Row]
    let tree: SphereTree
    /// The attribution the table carries (GeoNames, CC BY 4.0, and the packages it came from).
    public let credit: String
    /// The rules ``nearest(latitude:longitude:)`` applies.
    public var policy: MatchPolicy

    /// The number of places.
    public var count: Int { rows.count }

    /// Builds the index over rows in input order, `points[i]` being row `i`'s unit vector
    /// (`SphereTree.unitVector`).
    ///
    /// - Complexity: O(*n* log *n*).
    /// With `axes` the rows are already in tree order, the split axis of each node given (a table
    /// file the set-up wrote), and the index is not built again: O(*n*).
    init(strings: StringTable, countries: [Country], rows input: [Row], points: [SIMD3<Double>], axes: [UInt8]? = nil, credit: String) {
        let weights = input.map(\.population)
        let tree = axes.map { SphereTree(slotOrdered: points, axes: $0, weights: weights) }
            ?? SphereTree(points: points, weights: weights)
        self.strings = strings
        self.countries = countries
        // A tree read in slot order keeps its rows where they are, rather than copying every row.
        self.rows = axes == nil ? tree.order.map { input[Int($0)] } : input
        self.tree = tree
        self.credit = credit
        self.policy = MatchPolicy()
    }

    /// A table of the given places, for tests and tools; names are shared, not repeated.
    package init(entries: [Entry], credit: String = "") {
        var strings = StringTable()
        var ids: [String: UInt32] = [:]
        func intern(_ text: String) -> UInt32 {
            if let id = ids[text] { return id }
            let id = strings.append(text)
            ids[text] = id
            return id
        }
        var countries: [Country] = []
        var countryIndex: [String: UInt16] = [:]
        var rows: [Row] = []
        rows.reserveCapacity(entries.count)
        for entry in entries {
            let country: UInt16
            if let known = countryIndex[entry.countryCode] {
                country = known
            } else {
                country = UInt16(countries.count)
                countryIndex[entry.countryCode] = country
                countries.append(Country(code: intern(entry.countryCode), name: intern(entry.countryName)))
            }
            rows.append(Row(
                population: UInt32(clamping: entry.population), name: intern(entry.name),
                region: entry.region.map(intern) ?? Row.none, timeZone: intern(entry.timeZone), country: country))
        }
        self.init(
            strings: strings, countries: countries, rows: rows,
            points: entries.map { SphereTree.unitVector(latitude: $0.latitude, longitude: $0.longitude) }, credit: credit)
    }
}

