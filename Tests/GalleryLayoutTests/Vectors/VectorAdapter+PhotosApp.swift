import Foundation
import GalleryLayout

extension VectorAdapter {
    static func photosApp(_ name: String, _ input: JSONValue) throws -> JSONValue {
        switch name {
        case "preview_parallax":
            let preview = PreviewParallax(itemWidth: try input.real("item_width"))
            let parallax = preview.parallax(
                cellCenterX: try input.real("cell_center_x"),
                contentOffsetX: try input.real("content_offset_x")
            )
            return .object([
                "parallax": .optionalReal(parallax),
                "translate_x": .real(preview.pageTranslationX(parallax: parallax)),
            ])

        case "preview_image_shift":
            let shift = PreviewParallax(itemWidth: 0).imageTranslationX(
                cellWidth: try input.real("cell_width"),
                parallax: try input.optionalReal("parallax")
            )
            return .object(["translate_x": .real(shift)])

        case "strip_metrics":
            let strip = SnappingStrip(boundsWidth: try input.real("bounds_width"), height: try input.real("strip_height"))
            let metrics = strip.metrics(count: try input.int("count"))
            return .object([
                "item_width": .real(metrics.itemSize.width),
                "item_height": .real(metrics.itemSize.height),
                "pitch": .real(metrics.pitch),
                "far_inset": .real(metrics.farInset),
                "content_width": .real(metrics.contentWidth),
                "min_offset_x": .real(metrics.minOffsetX),
                "max_offset_x": .real(metrics.maxOffsetX),
            ])

        case "strip_cells":
            let strip = SnappingStrip(
                boundsWidth: try input.real("bounds_width"),
                itemSize: try input.size(widthKey: "item_width", heightKey: "item_height")
            )
            let updates = try input.field("updates").asArray.map(cellUpdate)
            let cells = strip.cells(
                contentOffsetX: try input.real("content_offset_x"),
                aspects: try input.reals("aspects"),
                expandingRate: try input.real("expanding_rate"),
                updates: updates
            )
            return .object(["cells": .array(cells.map { cell in
                .object([
                    "row": .int(cell.row),
                    "expanding": .real(cell.expanding),
                    "collapsing": .real(cell.collapsing),
                    "deleting": .real(cell.deleting),
                    "slot_center_x": .real(cell.slotCenterX),
                    "translate_x": .real(cell.translateX),
                    "center_x": .real(cell.centerX),
                    "width": .real(cell.size.width),
                    "height": .real(cell.size.height),
                    "alpha": .real(cell.alpha),
                ])
            })])

        case "strip_nearest_index":
            let index = try strip(itemWidth: input.real("item_width")).nearestIndex(
                contentOffsetX: try input.real("content_offset_x"),
                insetLeft: try input.real("inset_left"),
                count: try input.int("count")
            )
            return .object(["index": .optionalInt(index)])

        case "strip_snap_offset":
            let offset = try strip(itemWidth: input.real("item_width")).snapOffsetX(
                proposedOffsetX: try input.real("proposed_offset_x"),
                insetLeft: try input.real("inset_left"),
                count: try input.int("count")
            )
            return .object(["content_offset_x": .real(offset)])

        case "strip_offset_for_index":
            let strip = try strip(itemWidth: input.real("item_width"), boundsWidth: input.real("bounds_width"))
            return .object(["content_offset_x": .real(strip.contentOffsetX(forIndex: try input.int("index")))])

        case "strip_offset_from_preview":
            let strip = try strip(itemWidth: input.real("item_width"), boundsWidth: input.real("bounds_width"))
            let follow = strip.follow(
                previewContentOffsetX: try input.real("preview_content_offset_x"),
                previewItemWidth: try input.real("preview_item_width"),
                count: try input.int("count")
            )
            return .object([
                "content_offset_x": .real(follow.contentOffsetX),
                "active_index": .optionalInt(follow.activeIndex),
            ])

        case "rotation_offsets":
            let offsets = SnappingStrip.rotationOffsets(
                activeIndex: try input.int("active_index"),
                stripBoundsWidth: try input.real("strip_bounds_width"),
                stripHeight: try input.real("strip_height"),
                previewItemWidth: try input.real("preview_item_width")
            )
            return .object([
                "item_width": .real(offsets.strip.itemSize.width),
                "item_height": .real(offsets.strip.itemSize.height),
                "far_inset": .real(offsets.strip.farInset),
                "strip_content_offset_x": .real(offsets.stripContentOffsetX),
                "preview_content_offset_x": .real(offsets.previewContentOffsetX),
            ])

        case "move_animation_frame":
            let strip = try strip(itemWidth: input.real("item_width"), boundsWidth: input.real("bounds_width"))
            let frame = strip.moveAnimation(
                fromOffsetX: try input.real("from_offset_x"),
                fromIndex: try input.int("from_index"),
                toIndex: try input.int("to_index")
            ).frame(t: try input.real("t"))
            return .object([
                "eased_t": .real(frame.easedTime),
                "content_offset_x": .real(frame.contentOffsetX),
                "expanding_rate": .real(frame.expandingRate),
                "updates": .array(frame.updates.map(json)),
            ])

        case "delete_plan":
            let plan = StripDeletion(row: try input.int("row"), count: try input.int("count"))
            return .object([
                "direction": .string(plan.direction.rawValue),
                "expanding_row": .optionalInt(plan.expandingRow),
                "active_index_after": .optionalInt(plan.activeIndexAfter),
            ])

        case "easing":
            let curve: Easing = try input.enumeration("curve")
            return .object(["y": .real(curve.value(at: try input.real("x")))])

        case "scroll_animation":
            let phase: ExpandingRateAnimation.Phase = try input.enumeration("phase")
            let animation = ExpandingRateAnimation(phase: phase, currentRate: try input.real("current_rate"))
            return .object([
                "target_rate": .real(animation.targetRate),
                "duration": .real(CGFloat(animation.duration)),
                "rate": .real(animation.rate(t: try input.real("t"))),
            ])

        default:
            throw unknown(name)
        }
    }

    /// A strip whose pitch (and far inset, when `boundsWidth` matters) the vector defines.
    private static func strip(itemWidth: CGFloat, boundsWidth: CGFloat = 0) -> SnappingStrip {
        SnappingStrip(boundsWidth: boundsWidth, itemSize: CGSize(width: itemWidth, height: itemWidth * 2))
    }

    private static func cellUpdate(_ value: JSONValue) throws -> SnappingStrip.CellUpdate {
        SnappingStrip.CellUpdate(
            row: try value.int("row"),
            expanding: value.has("expanding") ? try value.real("expanding") : nil,
            collapsing: value.has("collapsing") ? try value.real("collapsing") : nil,
            deleting: value.has("deleting") ? try value.real("deleting") : nil,
            direction: value.has("direction") ? try value.enumeration("direction") : nil
        )
    }

    private static func json(_ update: SnappingStrip.CellUpdate) -> JSONValue {
        var fields: [String: JSONValue] = ["row": .int(update.row)]
        if let expanding = update.expanding { fields["expanding"] = .real(expanding) }
        if let collapsing = update.collapsing { fields["collapsing"] = .real(collapsing) }
        if let deleting = update.deleting { fields["deleting"] = .real(deleting) }
        if let direction = update.direction { fields["direction"] = .string(direction.rawValue) }
        return .object(fields)
    }
}
