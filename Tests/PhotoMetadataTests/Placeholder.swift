import Testing

@Test func placeholder_PhotoMetadataTests() { #expect(true) }
