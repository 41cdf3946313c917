import Foundation
import GalleryLayout

extension VectorAdapter {
    static func carousel(_ name: String, _ input: JSONValue) throws -> JSONValue {
        switch name {
        case "scale_alpha":
            let carousel = CoverCarousel(side: 0, viewWidth: 0, count: 0)
            let (scale, alpha) = carousel.scaleAndAlpha(distance: try input.real("distance"), centerX: try input.real("center_x"))
            return .object(["scale": .real(scale), "alpha": .real(alpha)])

        case "scroll_step":
            let step = try carousel(input, originX: input.real("cv_origin_x"))
                .step(contentOffsetX: try input.real("content_offset_x"))
            return .object([
                "center_x": .real(step.centerX),
                "cells": .array(step.cells.map { cell in
                    .object([
                        "index": .int(cell.index),
                        "cell_center_x": .real(cell.centerX),
                        "distance": .real(cell.distance),
                        "scale": .real(cell.scale),
                        "alpha": .real(cell.alpha),
                        "frame_width": .real(cell.frameWidth),
                    ])
                }),
                "snap_index": .int(step.snapIndex),
            ])

        case "snap_offset":
            let carousel = try carousel(input, originX: 0)
            return .object([
                "content_inset": .real(carousel.contentInset),
                "content_offset_x": .real(carousel.snapOffsetX(forIndex: try input.int("index"))),
            ])

        default:
            throw unknown(name)
        }
    }

    private static func carousel(_ input: JSONValue, originX: CGFloat) throws -> CoverCarousel {
        CoverCarousel(
            side: try input.real("side"),
            viewWidth: try input.real("cv_width"),
            originX: originX,
            count: try input.int("count"),
            configuration: CoverCarousel.Configuration(lineSpacing: try input.real("line_spacing"))
        )
    }

    static func miniPhotos(_ name: String, _ input: JSONValue) throws -> JSONValue {
        switch name {
        case "item_frame":
            let frame = try grid(input).itemFrame(
                at: GridIndexPath(section: try input.int("section"), item: try input.int("item")),
                sectionCounts: try input.ints("section_counts")
            )
            return .object([
                "min_x": .real(frame.minX),
                "min_y": .real(frame.minY),
                "width": .real(frame.width),
                "height": .real(frame.height),
            ])

        case "content_height":
            let height = try grid(input).contentHeight(sectionCounts: try input.ints("section_counts"))
            return .object(["content_height": .real(height)])

        case "zoom_in_offset":
            let zoom = MiniPhotosZoom(width: try input.real("screen_width")).zoomIn(
                from: GridIndexPath(section: try input.int("a_section"), item: try input.int("a_item")),
                clusterCounts: try input.ints("a_section_counts"),
                contentOffsetY: try input.real("a_content_offset_y"),
                to: GridIndexPath(section: try input.int("b_section"), item: try input.int("b_item")),
                momentCounts: try input.ints("b_section_counts")
            )
            return .object([
                "a_min_y": .real(zoom.sourceMinY),
                "h": .real(zoom.visibleMinY),
                "b_min_y": .real(zoom.targetMinY),
                "content_offset_y": .real(zoom.contentOffsetY),
            ])

        case "sample_indices":
            let count = try input.int("count")
            let sampler = StrideSampler()
            return .object([
                "target_count": .int(sampler.targetCount(for: count)),
                "indices": .ints(sampler.sampleIndices(count: count)),
            ])

        case "group_members":
            let dates = try input.field("creation_dates").asArray.map { $0.isNull ? nil : try $0.asReal }
            let indices = MiniPhotosLookup.members(of: dates, from: try input.real("start"), through: try input.real("end"))
            return .object(["indices": .ints(indices)])

        case "index_path_containing":
            let groups = try input.field("groups").asArray.map { try $0.asArray.map { try $0.asString } }
            let path = MiniPhotosLookup.indexPath(of: try input.string("asset_id"), in: groups)
            let json: JSONValue = path.map { .object(["section": .int($0.section), "item": .int($0.item)]) } ?? .null
            return .object(["index_path": json])

        case "nearest_index":
            let assets = try input.field("assets").asArray
            let target = try input.field("target")
            let index = MiniPhotosLookup.nearestIndex(
                ofID: try target.string("id"),
                date: try target.optionalReal("date"),
                ids: try assets.map { try $0.string("id") },
                dates: try assets.map { try $0.optionalReal("date") }
            )
            return .object(["index": .optionalInt(index)])

        case "push_out_vector":
            let boundary = try input.field("boundary")
            let push = MiniPhotosZoom.pushOut(
                boundary: CGRect(origin: try boundary.point(), size: try boundary.size()),
                pointer: try input.field("pointer").point(),
                start: try input.field("start").point(),
                step: try input.real("step")
            )
            return .object(["magnitude": .real(push.magnitude), "dx": .real(push.dx), "dy": .real(push.dy)])

        default:
            throw unknown(name)
        }
    }

    private static func grid(_ input: JSONValue) throws -> MiniPhotosGrid {
        let width = try input.real("screen_width")
        switch try input.string("grid") {
        case "A": return .clusters(width: width)
        case "B": return .moments(width: width)
        case let other: throw VectorInputError(description: "unknown grid \(other)")
        }
    }
}
