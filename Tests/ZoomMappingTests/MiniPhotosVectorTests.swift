import Testing
import Timeline
import ZoomMapping

/// MiniPhotos' grids: A is the coarse grid, B the fine grid; no insets, 50-pt headers.
@Suite("MiniPhotos vectors")
struct MiniPhotosVectorTests {
    private func layout(_ grid: String, _ counts: [Int], width: Double) -> GridLayout {
        grid == "A"
            ? GridLayout(level: .coarse, sectionCounts: counts, metrics: .coarse, viewportWidth: width)
            : GridLayout(level: .fine, sectionCounts: counts, metrics: .fine, viewportWidth: width)
    }

    @Test("MP.item_frame")
    func itemFrames() throws {
        let vectors = try seedVectors(behaviour: "MP.item_frame")
        try #require(!vectors.isEmpty)
        for v in vectors {
            let grid = try #require(v.input["grid"] as? String)
            let layout = layout(grid, try v.ints("section_counts"), width: try v.double("screen_width"))
            let frame = try layout.frame(section: try v.int("section"), item: try v.int("item"))
            for (key, value) in [("min_x", frame.minX), ("min_y", frame.minY), ("width", frame.width), ("height", frame.height)] {
                #expect(abs(value - (try v.double(key, in: v.expected))) <= v.tolerance, "\(v.id) \(key): \(value)")
            }
        }
    }

    @Test("MP.content_height")
    func contentHeights() throws {
        let vectors = try seedVectors(behaviour: "MP.content_height")
        try #require(!vectors.isEmpty)
        for v in vectors {
            let grid = try #require(v.input["grid"] as? String)
            let layout = layout(grid, try v.ints("section_counts"), width: try v.double("screen_width"))
            let expected = try v.double("content_height", in: v.expected)
            #expect(abs(layout.contentHeight - expected) <= v.tolerance, "\(v.id): \(layout.contentHeight)")
        }
    }

    @Test("MP.zoom_in_offset (unclamped)")
    func zoomInOffsets() throws {
        let vectors = try seedVectors(behaviour: "MP.zoom_in_offset")
        try #require(!vectors.isEmpty)
        for v in vectors {
            let width = try v.double("screen_width")
            let a = layout("A", try v.ints("a_section_counts"), width: width)
            let b = layout("B", try v.ints("b_section_counts"), width: width)
            let aFrame = try a.frame(section: try v.int("a_section"), item: try v.int("a_item"))
            let bFrame = try b.frame(section: try v.int("b_section"), item: try v.int("b_item"))
            let offset = AnchoredOffset(
                sourceMinY: aFrame.minY, sourceContentOffsetY: try v.double("a_content_offset_y"),
                targetMinY: bFrame.minY, scrollRange: -Double.infinity...Double.infinity)
            let checks = [
                ("a_min_y", aFrame.minY), ("h", offset.anchorY), ("b_min_y", bFrame.minY),
                ("content_offset_y", offset.unclampedContentOffsetY),
            ]
            for (key, value) in checks {
                #expect(abs(value - (try v.double(key, in: v.expected))) <= v.tolerance, "\(v.id) \(key): \(value)")
            }
            #expect(!offset.clamped)
        }
    }

    @Test("MP cell sides: A is width/10, B is (width − 4.5)/4")
    func cellSides() {
        #expect(GridMetrics.coarse.cellSide(viewportWidth: 375) == 37.5)
        #expect(GridMetrics.fine.cellSide(viewportWidth: 375) == 92.625)
        #expect(GridMetrics.fine.cellSide(viewportWidth: 390) == 96.375)
    }
}
