// Times the places table against the issue's goals, side by side in one run: the table's load
// (< 0.5 s), nearest-place lookups on one core (≥ 200,000/s), geocoding 1,000,000 positions
// (≤ 10 s). Positions are seeded: most lie within 15 km of a real place, one in ten anywhere on
// the globe (mostly sea).
//
// Run: swift run -c release PlacesBenchmark [--table PATH] [--count N]
//      swift run -c release PlacesBenchmark --positions FILE   (lines "latitude longitude [label]":
//      prints what the nearest place and the suburb rule each give, to measure the rule; a label
//      "=City|Other_name" counts a match when the city is one of those, "_" standing for a space;
//      --factor F and --radius KM try other settings of the rule)
//
// The real-photo corpus's positions, for the same measurement (labels added by hand):
//      exiftool -q -q -r -n -if '$GPSLatitude' -p '$GPSLatitude $GPSLongitude $Directory/$FileName' \
//          ../shared/corpus/photos > corpus-positions.txt

import Foundation
import Places
import SeededRandom

func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

func argument(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}

let clock = ContinuousClock()
let path = argument("--table")
    ?? PlaceTable.installedPaths(environment: ProcessInfo.processInfo.environment, executableDirectory: nil).last!
var loads: [Duration] = []
var loaded: PlaceTable?
do {
    for _ in 0..<3 {
        let start = clock.now
        loaded = try PlaceTable.load(path: path)
        loads.append(clock.now - start)
    }
} catch {
    print("PlacesBenchmark: \(error.message) Run scripts/places-data first, or pass --table PATH.")
    exit(1)
}
var table = loaded!
// Variants of the suburb rule, to measure it: --factor F --radius KM.
if let factor = argument("--factor").flatMap(Int.init) { table.policy.populationFactor = factor }
if let radius = argument("--radius").flatMap(Double.init) { table.policy.suburbRadius = radius }

if let positionsFile = argument("--positions") {
    let text = try String(contentsOfFile: positionsFile, encoding: .utf8)
    var changed = 0, total = 0, labelled = 0, expected = 0, expectedNearest = 0
    for line in text.split(separator: "\n") {
        let fields = line.split(separator: " ", maxSplits: 2)
        guard fields.count >= 2, let latitude = Double(fields[0]), let longitude = Double(fields[1]) else { continue }
        total += 1
        let plain = table.nearestIgnoringPolicy(latitude: latitude, longitude: longitude)
        let place = table.nearest(latitude: latitude, longitude: longitude)
        let plainName = plain.map { "\($0.name) (\($0.population), \(String(format: "%.1f", $0.kilometres)) km)" } ?? "-"
        let chosen = place.map { "\($0.city ?? "-"), \($0.region ?? "-"), \($0.countryCode ?? "-") (\(String(format: "%.1f", $0.distanceKilometres)) km)" } ?? "null"
        let differs = plain != nil && place?.city != nil && place?.city != plain?.name
        if differs { changed += 1 }
        let label = fields.count > 2 ? String(fields[2]) : ""
        var verdict = " "
        if label.hasPrefix("=") {
            let names = label.dropFirst().prefix { $0 != " " }.split(separator: "|").map {
                $0.replacingOccurrences(of: "_", with: " ")
            }
            labelled += 1
            if let city = place?.city, names.contains(city) { expected += 1 } else { verdict = "✗" }
            if let name = plain?.name, names.contains(name) { expectedNearest += 1 }
        }
        print("\(verdict)\(differs ? "*" : " ") \(latitude) \(longitude)  nearest: \(plainName)  ->  \(chosen)  \(label)")
    }
    print("\(changed) of \(total) positions named differently by the suburb rule (\(table.policy.populationFactor)x within "
        + "\(table.policy.suburbRadius) km); of \(labelled) labelled, \(expected) as labelled (nearest place alone: \(expectedNearest))")
    exit(0)
}

let count = argument("--count").flatMap(Int.init) ?? 1_000_000
var rng = SplitMix64(seed: 27)
var positions: [(Double, Double)] = []
positions.reserveCapacity(count)
for _ in 0..<count {
    if Int.random(in: 0..<10, using: &rng) == 0 {
        let z = Double.random(in: -1...1, using: &rng)
        positions.append((asin(z) * 180 / .pi, Double.random(in: -180...180, using: &rng)))
    } else {
        let (latitude, longitude) = table.coordinates(ofSlot: Int.random(in: 0..<table.count, using: &rng))
        let north = Double.random(in: -15...15, using: &rng) / 111.2
        let east = Double.random(in: -15...15, using: &rng) / (111.2 * max(0.05, cos(latitude * .pi / 180)))
        var lon = longitude + east
        if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        positions.append((max(-90, min(90, latitude + north)), lon))
    }
}

// Nearest-place lookups: the index alone, one thread.
var start = clock.now
var checksum = 0.0
for (latitude, longitude) in positions {
    checksum += table.nearestIgnoringPolicy(latitude: latitude, longitude: longitude)?.kilometres ?? 0
}
let lookupTime = clock.now - start

// Geocoding: the full rules, a Place with its names for each position, one thread.
start = clock.now
var named = 0, countryOnly = 0, none = 0
for (latitude, longitude) in positions {
    switch table.nearest(latitude: latitude, longitude: longitude) {
    case let place? where place.city != nil: named += 1
    case .some: countryOnly += 1
    case nil: none += 1
    }
}
let geocodeTime = clock.now - start

// How often the suburb rule names a position differently from the nearest place (not timed).
var renamed = 0
for (latitude, longitude) in positions {
    if let city = table.nearest(latitude: latitude, longitude: longitude)?.city,
       city != table.nearestIgnoringPolicy(latitude: latitude, longitude: longitude)?.name {
        renamed += 1
    }
}

func row(_ what: String, _ measured: String, _ goal: String, _ met: Bool) {
    print(what.padding(toLength: 44, withPad: " ", startingAt: 0)
        + measured.padding(toLength: 20, withPad: " ", startingAt: 0)
        + goal.padding(toLength: 14, withPad: " ", startingAt: 0) + (met ? "met" : "MISSED"))
}
print("table: \(path), \(table.count) places; suburb rule: \(table.policy.populationFactor)x the people "
    + "within \(table.policy.suburbRadius) km")
print("\(count) positions: \(named) with a city (\(renamed) renamed by the suburb rule), \(countryOnly) country only, "
    + "\(none) no place (checksum \(Int(checksum)))")
print("measure".padding(toLength: 44, withPad: " ", startingAt: 0) + "measured".padding(toLength: 20, withPad: " ", startingAt: 0) + "goal")
let load = seconds(loads.min()!)
row("table load (best of 3; first \(String(format: "%.3f", seconds(loads[0]))) s)", String(format: "%.3f s", load), "< 0.5 s", load < 0.5)
let perSecond = Double(count) / seconds(lookupTime)
row("nearest-place lookups, one core", String(format: "%.0f /s", perSecond), "≥ 200000/s", perSecond >= 200_000)
let geocode = seconds(geocodeTime) * 1_000_000 / Double(count)
row("geocoding 1M positions (full rules)", String(format: "%.2f s", geocode) + (count == 1_000_000 ? "" : " (scaled)"), "≤ 10 s", geocode <= 10)
