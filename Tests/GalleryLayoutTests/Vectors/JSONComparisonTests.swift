import Testing

/// The vector comparison must be able to fail, or the vector test proves nothing.
@Suite("Vector comparison")
struct JSONComparisonTests {
    @Test func acceptsNumbersWithinTolerance() {
        let expected = JSONValue.object(["x": .number(1), "list": .array([.number(2), .null])])
        let actual = JSONValue.object(["x": .number(1 + 1e-12), "list": .array([.number(2), .null])])
        #expect(JSONComparison.differences(expected: expected, actual: actual, tolerance: 1e-9).isEmpty)
    }

    @Test func reportsEveryKindOfMismatch() {
        let tolerance = 1e-9
        #expect(!JSONComparison.differences(expected: .number(1), actual: .number(1.001), tolerance: tolerance).isEmpty)
        #expect(!JSONComparison.differences(expected: .null, actual: .number(0), tolerance: tolerance).isEmpty)
        #expect(!JSONComparison.differences(expected: .string("left"), actual: .string("right"), tolerance: tolerance).isEmpty)
        #expect(!JSONComparison.differences(expected: .array([.number(1)]), actual: .array([]), tolerance: tolerance).isEmpty)
        #expect(!JSONComparison.differences(
            expected: .object(["a": .number(1)]),
            actual: .object(["a": .number(1), "b": .number(2)]),
            tolerance: tolerance
        ).isEmpty)
    }
}
