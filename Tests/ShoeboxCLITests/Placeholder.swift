import Testing

@Test func placeholder_ShoeboxCLITests() { #expect(true) }
