import Foundation
import Testing
import Timeline
import ZoomMapping

@Suite("Zoom settings")
struct ZoomSettingsTests {
    private func decode(_ json: String) throws -> ZoomSettings {
        try JSONDecoder().decode(ZoomSettings.self, from: Data(json.utf8))
    }

    @Test("defaults")
    func defaults() {
        let s = ZoomSettings()
        #expect(s.coarse == GridMetrics(columns: 10, itemSpacing: 0, lineSpacing: 0, headerHeight: 50))
        #expect(s.fine == GridMetrics(columns: 4, itemSpacing: 1.5, lineSpacing: 1.5, headerHeight: 50))
        #expect(s.contentInsets == ContentInsets(top: 0, bottom: 0))
        #expect(s.viewport == ViewportSize(width: 390, height: 844))
    }

    @Test("missing keys take the level's own defaults")
    func partial() throws {
        #expect(try decode("{}") == ZoomSettings())
        let s = try decode(#"{"coarse": {"columns": 8}, "fine": {"lineSpacing": 3}, "viewport": {"width": 375}, "contentInsets": {"top": 64}}"#)
        #expect(s.coarse == GridMetrics(columns: 8, itemSpacing: 0, lineSpacing: 0))
        #expect(s.fine == GridMetrics(columns: 4, itemSpacing: 1.5, lineSpacing: 3))
        #expect(s.viewport == ViewportSize(width: 375, height: 844))
        #expect(s.contentInsets == ContentInsets(top: 64, bottom: 0))
        let insets = try decode(#"{"coarse": {"sectionInsets": {"left": 4}}, "fine": null}"#)
        #expect(insets.coarse.sectionInsets == SectionInsets(top: 0, left: 4, bottom: 0, right: 0))
        #expect(insets.coarse.columns == 10)
        #expect(insets.fine == .fine)
    }

    @Test("JSON round trip")
    func roundTrip() throws {
        var s = ZoomSettings()
        s.coarse.sectionInsets = SectionInsets(top: 1, left: 2, bottom: 3, right: 4)
        s.contentInsets = ContentInsets(top: 64, bottom: 34)
        s.viewport = ViewportSize(width: 1024, height: 768)
        #expect(try JSONDecoder().decode(ZoomSettings.self, from: JSONEncoder().encode(s)) == s)
    }

    @Test("validation names every bad value", arguments: [
        (ZoomSettings(coarse: GridMetrics(columns: 0, itemSpacing: 0, lineSpacing: 0)), "coarse.columns must be at least 1 (got 0)"),
        (ZoomSettings(fine: GridMetrics(columns: 4, itemSpacing: -1, lineSpacing: 0)), "fine.itemSpacing must be a finite number of at least 0 (got -1)"),
        (ZoomSettings(viewport: ViewportSize(width: 0)), "viewport.width must be a positive number (got 0)"),
        (ZoomSettings(viewport: ViewportSize(height: .nan)), "viewport.height must be a positive number (got nan)"),
        (ZoomSettings(fine: GridMetrics(columns: 100, itemSpacing: 4, lineSpacing: 0)), "the fine grid leaves no room for cells"),
        (ZoomSettings(contentInsets: ContentInsets(top: -3)), "contentInsets.top must be a finite number of at least 0 (got -3)"),
    ])
    func validation(settings: ZoomSettings, message: String) throws {
        #expect {
            try settings.validate()
        } throws: { error in
            guard let error = error as? ZoomError else { return false }
            return error.code == .invalidSettings && error.message.contains(message)
        }
        #expect(throws: ZoomError.self) { try ZoomMap(timeline: PhotoTimeline(photos: []), settings: settings) }
    }
}
