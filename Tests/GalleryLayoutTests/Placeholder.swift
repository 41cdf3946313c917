import Testing

@Test func placeholder_GalleryLayoutTests() { #expect(true) }
