import Foundation
import Testing

/// Checks the library against every seed-layout vector (SPEC.md).
///
/// The vectors live outside the package, in `../shared/seed-layouts`; without them the tests
/// are skipped, not failed.
@Suite("Seed layout vectors")
struct SeedVectorTests {
    @Test(
        "the vector file decodes, with unique ids, and covers every behaviour of SPEC.md",
        .enabled(if: SeedVectors.isAvailable, "the seed-layout vectors (../shared/seed-layouts/vectors.json or $SHOEBOX_LAYOUT_VECTORS) are absent: skipped")
    )
    func vectorFileIsComplete() throws {
        let vectors = try SeedVectors.load()
        // The shared file holds 135; another set generated the same way may hold more or fewer.
        #expect(!vectors.isEmpty)
        #expect(SeedVectors.all.count == vectors.count)
        #expect(Set(vectors.map(\.id)).count == vectors.count, "vector ids are unique")
        // Every behaviour id SPEC.md names ("SA.hd_cell_size", ...) has vectors.
        let spec = try String(contentsOf: SeedVectors.specURL, encoding: .utf8)
        let named = Set(spec.matches(of: /\b(?:SA|PA|CA|MP)\.[a-z_]+/).map { String($0.output) })
        #expect(named.count >= 38)
        #expect(named.subtracting(vectors.map(\.behaviour)).isEmpty, "behaviours without vectors: \(named.subtracting(vectors.map(\.behaviour)).sorted())")
    }

    @Test(
        "vector",
        .enabled(if: SeedVectors.isAvailable, "the seed-layout vectors (../shared/seed-layouts/vectors.json or $SHOEBOX_LAYOUT_VECTORS) are absent: skipped"),
        arguments: SeedVectors.all
    )
    func vector(_ vector: SeedVector) throws {
        try check(vector)
    }

    @Test("the package's independent vectors (Tools/LayoutReference) decode and cover every behaviour")
    func independentVectorFileIsComplete() throws {
        let vectors = try SeedVectors.load(SeedVectors.independentURL)
        #expect(vectors.count == SeedVectors.independent.count)
        #expect(Set(vectors.map(\.behaviour)).count == 38)
        #expect(Set(vectors.map(\.id)).count == vectors.count, "vector ids are unique")
    }

    @Test("independent vector", arguments: SeedVectors.independent)
    func independentVector(_ vector: SeedVector) throws {
        try check(vector)
    }

    private func check(_ vector: SeedVector) throws {
        let actual = try VectorAdapter.output(for: vector.behaviour, input: vector.input)
        let differences = JSONComparison.differences(
            expected: vector.expected,
            actual: actual,
            tolerance: vector.tolerance
        )
        #expect(differences.isEmpty, "\(vector.id): \(differences.joined(separator: "; "))")
    }
}
