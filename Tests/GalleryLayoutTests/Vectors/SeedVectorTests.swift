import Testing

/// Checks the library against every seed-layout vector (SPEC.md).
///
/// The vectors live outside the package, in `../shared/seed-layouts`; without them the tests
/// are skipped, not failed.
@Suite("Seed layout vectors")
struct SeedVectorTests {
    @Test(
        "vectors.json decodes into all 135 vectors",
        .enabled(if: SeedVectors.isAvailable, "../shared/seed-layouts/vectors.json is absent: seed vectors skipped")
    )
    func vectorFileIsComplete() throws {
        let vectors = try SeedVectors.load()
        #expect(vectors.count == 135)
        #expect(SeedVectors.all.count == vectors.count)
        #expect(Set(vectors.map(\.id)).count == vectors.count, "vector ids are unique")
    }

    @Test(
        "vector",
        .enabled(if: SeedVectors.isAvailable, "../shared/seed-layouts/vectors.json is absent: seed vectors skipped"),
        arguments: SeedVectors.all
    )
    func vector(_ vector: SeedVector) throws {
        let actual = try VectorAdapter.output(for: vector.behaviour, input: vector.input)
        let differences = JSONComparison.differences(
            expected: vector.expected,
            actual: actual,
            tolerance: vector.tolerance
        )
        #expect(differences.isEmpty, "\(vector.id): \(differences.joined(separator: "; "))")
    }
}
