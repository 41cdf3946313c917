import Foundation
import GalleryLayout

extension VectorAdapter {
    static func scrollingAlbum(_ name: String, _ input: JSONValue) throws -> JSONValue {
        switch name {
        case "hd_cell_size":
            let size = ParallaxPager.aspectFitSize(
                of: try input.size(widthKey: "image_width", heightKey: "image_height"),
                in: try input.size(widthKey: "view_width", heightKey: "view_height")
            )
            return .object(["width": .real(size.width), "height": .real(size.height)])

        case "thumbnail_full_width":
            let width = AccordionStrip.fullWidth(
                forImageSize: try input.size(widthKey: "image_width", heightKey: "image_height"),
                cellHeight: try input.real("cell_height")
            )
            return .object(["width": .real(width)])

        case "hd_index_fraction":
            let pager = ParallaxPager(pageSize: CGSize(width: try input.real("page_width"), height: 0))
            let position = pager.position(
                contentOffsetX: try input.real("content_offset_x"),
                insetLeft: try input.real("inset_left"),
                count: try input.int("count")
            )
            return position.json

        case "hd_parallax_layout":
            let pager = ParallaxPager(pageSize: CGSize(width: try input.real("page_width"), height: try input.real("page_height")))
            let sizes = try input.field("photo_sizes").asArray.map { try $0.size() }
            let layout = pager.layout(
                contentOffsetX: try input.real("content_offset_x"),
                insetLeft: try input.real("inset_left"),
                photoSizes: sizes
            )
            return .object([
                "index": .int(layout.position.index),
                "fraction": .real(layout.position.fraction),
                "items": .array(layout.frames.map(JSONValue.item)),
                "content_width": .real(layout.contentSize.width),
                "content_height": .real(layout.contentSize.height),
            ])

        case "accordion_progress":
            let kind: AccordionTransition.Kind = try input.enumeration("kind")
            let transition = AccordionTransition(kind: kind, cellLength: try input.real("cell_length"))
            let elapsed: TimeInterval? = try input.bool("started") ? Double(try input.real("elapsed")) : nil
            return .object([
                "duration": .real(CGFloat(transition.duration)),
                "progress": .real(transition.progress(elapsed: elapsed)),
            ])

        case "accordion_current_index":
            let strip = try strip(count: input.int("count"))
            let index = strip.currentIndex(
                contentOffsetX: try input.real("content_offset_x"),
                insetLeft: try input.real("inset_left")
            )
            return .object(["index": .int(index)])

        case "accordion_layout":
            let layout = try strip(input).layout(
                progress: try input.real("progress"),
                animatedIndex: try input.int("animated_index")
            )
            return .object([
                "adjacent_spacing": .real(layout.adjacentSpacing),
                "animated_width": .real(layout.animatedWidth),
                "symmetric_inset": .real(layout.symmetricInset),
                "items": .array(layout.frames.map(JSONValue.item)),
                "content_width": .real(layout.contentSize.width),
                "content_height": .real(layout.contentSize.height),
            ])

        case "unfold_center_offset":
            let unfold = try strip(count: input.int("count")).unfold(
                originalInset: try input.real("original_inset"),
                originalOffset: try input.real("original_offset")
            )
            return .object([
                "current_index": .int(unfold.animatedIndex),
                "center_offset": .real(unfold.centerOffset),
            ])

        case "unfold_content_offset":
            let offset = AccordionUnfold.contentOffsetX(
                progress: try input.real("progress"),
                originalInset: try input.real("original_inset"),
                originalOffset: try input.real("original_offset"),
                centerOffset: try input.real("center_offset"),
                symmetricInset: try input.real("symmetric_inset")
            )
            return .object(["content_offset_x": .real(offset)])

        case "unfold_frame":
            let unfold = try strip(input).unfold(
                originalInset: try input.real("original_inset"),
                originalOffset: try input.real("original_offset")
            )
            let frame = unfold.frame(progress: try input.real("progress"))
            return .object([
                "animated_index": .int(unfold.animatedIndex),
                "center_offset": .real(unfold.centerOffset),
                "symmetric_inset": .real(frame.symmetricInset),
                "content_offset_x": .real(frame.contentOffsetX),
                "animated_center_x": .real(frame.animatedCenterX),
                "visible_center_x": .real(frame.visibleCenterX),
            ])

        case "slave_layout":
            let puppet = PagerPosition(index: try input.int("puppet_index"), fraction: try input.real("puppet_fraction"))
            let layout = try strip(input).layout(following: puppet)
            return .object([
                "effective_fraction": .real(layout.position.fraction),
                "focused_width": .real(layout.focusedWidth),
                "next_width": .real(layout.nextWidth),
                "left_spacing": .real(layout.leftSpacing),
                "right_spacing": .real(layout.rightSpacing),
                "items": .array(layout.frames.map(JSONValue.item)),
                "content_width": .real(layout.contentSize.width),
                "inset": .real(layout.inset),
            ])

        case "sync_thumbnail_offset":
            let strip = AccordionStrip(fullWidths: try input.reals("thumb_full_widths"), cellHeight: 0, superviewWidth: 0)
            let synchronizer = StripSynchronizer(pager: ParallaxPager(pageSize: .zero), strip: strip)
            let position = PagerPosition(index: try input.int("hd_index"), fraction: try input.real("hd_fraction"))
            let result = synchronizer.stripOffset(for: position, stripInsetLeft: try input.real("slave_inset_left"))
            return .object([
                "content_offset_x": .real(result.contentOffsetX),
                "puppet": result.puppet?.json ?? .null,
            ])

        case "sync_hd_offset":
            let pager = ParallaxPager(pageSize: CGSize(width: try input.real("page_width"), height: 0))
            let synchronizer = StripSynchronizer(pager: pager, strip: try strip(count: 0))
            let offset = synchronizer.pagerContentOffsetX(
                forThumbnail: try input.int("thumb_index"),
                pagerInsetLeft: try input.real("hd_inset_left")
            )
            return .object(["content_offset_x": .real(offset)])

        case "sync_hd_to_thumbnail":
            let pager = ParallaxPager(pageSize: CGSize(width: try input.real("page_width"), height: 0))
            let strip = AccordionStrip(
                fullWidths: try input.reals("thumb_full_widths"),
                cellHeight: try input.real("cell_height"),
                superviewWidth: try input.real("superview_width")
            )
            let previous = try input.field("previous_puppet")
            let update = StripSynchronizer(pager: pager, strip: strip).stripUpdate(
                pagerContentOffsetX: try input.real("hd_content_offset_x"),
                pagerInsetLeft: try input.real("hd_inset_left"),
                previousPuppet: PagerPosition(index: try previous.int("index"), fraction: try previous.real("fraction"))
            )
            return .object([
                "index": .int(update.pagerPosition.index),
                "fraction": .real(update.pagerPosition.fraction),
                "puppet": update.puppet.json,
                "inset": .real(update.inset),
                "content_offset_x": .real(update.contentOffsetX),
                "visible_center_x": .real(update.visibleCenterX),
            ])

        default:
            throw unknown(name)
        }
    }

    /// A strip from `full_widths`, `cell_height` and `superview_width`.
    private static func strip(_ input: JSONValue) throws -> AccordionStrip {
        AccordionStrip(
            fullWidths: try input.reals("full_widths"),
            cellHeight: try input.real("cell_height"),
            superviewWidth: try input.real("superview_width")
        )
    }

    /// A strip of `count` cells for behaviours that depend on the count only.
    private static func strip(count: Int) throws -> AccordionStrip {
        AccordionStrip(fullWidths: Array(repeating: 0, count: max(0, count)), cellHeight: 0, superviewWidth: 0)
    }
}

extension PagerPosition {
    var json: JSONValue {
        .object(["index": .int(index), "fraction": .real(fraction)])
    }
}
