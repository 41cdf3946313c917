import Testing

@Test func placeholder_TimelineTests() { #expect(true) }
