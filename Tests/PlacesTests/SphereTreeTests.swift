import Foundation
@testable import Places
import Testing

@Suite("The k-d tree against a brute-force search")
struct SphereTreeTests {
    /// Great-circle distance by the haversine formula, independent of the tree's chord arithmetic.
    static func haversine(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.0 - a.0) * radians, dLon = (b.1 - a.1) * radians
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.0 * radians) * cos(b.0 * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6371.0088 * asin(min(1, h.squareRoot()))
    }

    /// A seeded generator, so a failure can be replayed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func randomPositions(_ count: Int, _ rng: inout Generator) -> [(Double, Double)] {
        (0..<count).map { _ in
            // Clustered like real places: half in a small box (many equal-ish coordinates), half anywhere.
            Bool.random(using: &rng)
                ? (Double.random(in: 48...49, using: &rng), Double.random(in: 2...3, using: &rng))
                : (asin(Double.random(in: -1...1, using: &rng)) * 180 / .pi, Double.random(in: -180...180, using: &rng))
        }
    }

    @Test(arguments: [0, 1, 7, 9, 100, 3_000])
    func nearestMatchesBruteForce(count: Int) throws {
        var rng = Generator(state: UInt64(count))
        let places = Self.randomPositions(count, &rng)
        let tree = SphereTree(points: places.map { SphereTree.unitVector(latitude: $0.0, longitude: $0.1) })
        #expect(tree._checkInvariants())
        #expect(tree.order.sorted() == (0..<Int32(count)).map { $0 })
        for query in Self.randomPositions(500, &rng) {
            let expected = places.map { Self.haversine(query, $0) }.min()
            let found = tree.nearest(to: SphereTree.unitVector(latitude: query.0, longitude: query.1))
            if let expected {
                let found = try #require(found)
                #expect(abs(SphereTree.kilometres(chordSquared: found.chordSquared) - expected) < 1e-6)
                let place = places[Int(tree.order[found.slot])]
                #expect(abs(Self.haversine(query, place) - expected) < 1e-6)
            } else {
                #expect(found == nil)
            }
        }
    }

    @Test(arguments: [0, 1, 5_000, 99_000])
    func radiusSearchMatchesBruteForce(minimumWeight: UInt32) {
        var rng = Generator(state: 42)
        let places = Self.randomPositions(2_000, &rng)
        let weights = places.map { _ in UInt32.random(in: 0..<100_000, using: &rng) }
        let tree = SphereTree(points: places.map { SphereTree.unitVector(latitude: $0.0, longitude: $0.1) }, weights: weights)
        #expect(tree._checkInvariants())
        for query in Self.randomPositions(100, &rng) {
            let radius = 30.0
            let expected = Set(places.indices.filter {
                Self.haversine(query, places[$0]) <= radius - 1e-6 && weights[$0] >= minimumWeight
            })
            let near = places.indices.filter { abs(Self.haversine(query, places[$0]) - radius) < 1e-6 }
            var found = Set<Int>()
            tree.forEach(
                within: SphereTree.chordSquared(kilometres: radius),
                of: SphereTree.unitVector(latitude: query.0, longitude: query.1), minimumWeight: minimumWeight
            ) { slot, _ in
                #expect(tree.weights[slot] == weights[Int(tree.order[slot])])
                found.insert(Int(tree.order[slot]))
            }
            #expect(found.subtracting(near) == expected)
        }
    }

    @Test func manyEqualCoordinatesStillBuildAValidTree() {
        let points = [SIMD3<Double>](repeating: SphereTree.unitVector(latitude: 10, longitude: 10), count: 1_000)
            + [SphereTree.unitVector(latitude: 11, longitude: 10)]
        let tree = SphereTree(points: points)
        #expect(tree._checkInvariants())
        let found = tree.nearest(to: SphereTree.unitVector(latitude: 11.01, longitude: 10))
        #expect(found.map { Int(tree.order[$0.slot]) } == 1_000)
    }
}
