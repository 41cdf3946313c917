import Testing

@Test func placeholder_ZoomMappingTests() { #expect(true) }
