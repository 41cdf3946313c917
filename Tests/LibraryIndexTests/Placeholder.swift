import Testing

@Test func placeholder_LibraryIndexTests() { #expect(true) }
