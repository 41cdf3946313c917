public import PhotoMetadata
public import WallClock

/// Turns selected photos and checked modes into an `AdjustPlan`: pure, so a dry run prints it and
/// tests inspect it without a disk.
public enum AdjustPlanner {
    /// A selected photo as the planner needs it.
    public struct Photo: Sendable, Hashable {
        /// Relative to the library root.
        public var path: String
        /// The sidecar to merge into (or create), relative to the library root, as file-system bytes.
        public var sidecar: [UInt8]
        /// The sidecar's bytes, `nil` when there is none yet.
        public var existing: [UInt8]?
        public var before: PhotoDating
        /// Whether `before.offset` was stated by the file or its sidecar (rather than guessed from
        /// the GPS time stamp, a place or the indexing machine): only then is it written again.
        public var offsetStated: Bool

        public init(path: String, sidecar: [UInt8], existing: [UInt8]?, before: PhotoDating, offsetStated: Bool) {
            self.path = path
            self.sidecar = sidecar
            self.existing = existing
            self.before = before
            self.offsetStated = offsetStated
        }
    }

    /// The plan for `photos` (one or more) under `modes`, whose `place` is already resolved into
    /// `position`.
    ///
    /// Order of the modes: `setDate`, then `shift`, then `timeZone`, then the position.
    ///
    /// - Complexity: O(n + s) for n photos and s bytes of existing sidecars.
    /// - Throws: `AdjustError`: a date that would leave `AdjustModes.years` (naming the field and
    ///   the photo), `keepInstant` for a photo without an offset, an unusable sidecar.
    public static func plan(_ photos: [Photo], modes: AdjustModes) throws(AdjustError) -> AdjustPlan {
        guard !photos.isEmpty else { throw AdjustError(.notFound, field: "ids", "No photo is selected: nothing to change.") }
        var delta: Int64 = 0
        if let target = modes.setDate, let earliest = photos.map(\.before.captured).min() {
            // The earliest gets exactly the time typed (a scan's file-time milliseconds are noise);
            // every photo moves by the same milliseconds, so the spacing stays exact.
            delta = target.millisecondsSince1970 - earliest.millisecondsSince1970
        }
        var changes: [AdjustPlan.PhotoChange] = []
        var files: [AdjustPlan.FileChange] = []
        var fileIndex: [[UInt8]: Int] = [:]
        var kept: [Photo] = []
        for photo in photos {
            let after = try dating(of: photo, modes: modes, setDateDelta: delta)
            // Already so (a zone relabelled to the offset the camera wrote): no sidecar to write.
            guard after != photo.before || (modes.changesDate && !photo.offsetStated && photo.before.offset != nil) else { continue }
            kept.append(photo)
            let name = String(decoding: photo.sidecar, as: UTF8.self)
            let values = XMPSidecar.Values(
                date: modes.changesDate ? after.captured : nil, offset: modes.changesDate ? after.offset : nil,
                position: modes.changesPosition ? after.position : nil)
            if let index = fileIndex[photo.sidecar] {
                // Two photos of one sidecar (IMG.xmp for IMG.CR2 and IMG.JPG): merged in turn.
                files[index].after = try XMPSidecar.merged(into: files[index].after, values, name: name)
            } else {
                fileIndex[photo.sidecar] = files.count
                files.append(AdjustPlan.FileChange(
                    sidecar: photo.sidecar, before: photo.existing,
                    after: try XMPSidecar.merged(into: photo.existing, values, name: name)))
            }
            changes.append(AdjustPlan.PhotoChange(path: photo.path, sidecar: name, before: photo.before, after: after))
        }
        // What each sidecar will say, read back as the index reads it: a photo sharing its sidecar
        // with another shows the last one's values, and a merge the reader would not see is refused.
        for (index, photo) in kept.enumerated() {
            let file = files[fileIndex[photo.sidecar]!]
            let read: SidecarReader.Contents
            do {
                read = try SidecarReader().contents(in: file.after, kind: .xmp)
            } catch {
                throw AdjustError(.unusableSidecar, subject: changes[index].sidecar, "The sidecar \(changes[index].sidecar) cannot be read back after merging (\(error.message)): move it aside, then try again.")
            }
            var after = changes[index].after
            if modes.changesDate {
                guard let date = read.date else { throw unreadable(changes[index].sidecar) }
                after.captured = date.local
                after.offset = date.offset
            }
            if modes.changesPosition {
                guard let position = read.position else { throw unreadable(changes[index].sidecar) }
                after.position = position
            }
            changes[index].after = after
        }
        return AdjustPlan(photos: changes, files: files, unchanged: photos.count - kept.count)
    }

    private static func unreadable(_ sidecar: String) -> AdjustError {
        AdjustError(.unusableSidecar, subject: sidecar, "The sidecar \(sidecar) names its namespaces so that Shoebox would not read the new values back: move it aside, then try again.")
    }

    /// One photo's dating after the modes.
    static func dating(of photo: Photo, modes: AdjustModes, setDateDelta: Int64) throws(AdjustError) -> PhotoDating {
        var after = photo.before
        if modes.changesDate { after.offset = photo.offsetStated ? photo.before.offset : nil }
        func moved(_ date: LocalDateTime, by milliseconds: Int64, field: String) throws(AdjustError) -> LocalDateTime {
            guard let result = date.adding(milliseconds: milliseconds), AdjustModes.years.contains(result.year) else {
                throw AdjustError(.invalidValue, field: field, subject: photo.path, "That would move \(photo.path) outside the years a sidecar date can hold (\(AdjustModes.years.lowerBound)–\(AdjustModes.years.upperBound)): check the \(field == "setDate" ? "date" : field).")
            }
            return result
        }
        if let target = modes.setDate {
            after.captured = try moved(after.captured, by: setDateDelta, field: "setDate")
            // A whole second typed without sub-seconds is written without them.
            if target.millisecond == nil && after.captured.millisecond == 0 { after.captured.millisecond = nil }
        }
        if let shift = modes.shift {
            after.captured = try moved(after.captured, by: shift.seconds * 1000, field: "shift")
        }
        if let zone = modes.timeZone {
            if modes.keepInstant {
                guard let offset = photo.before.offset else {
                    throw AdjustError(.invalidValue, field: "keepInstant", subject: photo.path, "\(photo.path) has no UTC offset to convert from: relabel it with --time-zone alone.")
                }
                let instant = after.captured.millisecondsSince1970 - Int64(offset.seconds) * 1000
                guard let target = zone.offset(atUTCMilliseconds: instant) else { throw unconvertible(photo, zone) }
                after.captured = try moved(after.captured, by: Int64(target - offset.seconds) * 1000, field: "timeZone")
                after.offset = UTCOffset(seconds: target)
            } else {
                guard let target = zone.offset(atLocal: after.captured) else { throw unconvertible(photo, zone) }
                after.offset = UTCOffset(seconds: target)
            }
        }
        if let position = modes.position { after.position = position }
        return after
    }

    private static func unconvertible(_ photo: Photo, _ zone: TimeZoneSpec) -> AdjustError {
        AdjustError(.invalidValue, field: "timeZone", subject: photo.path, "The zone \(zone.text) has no offset for the date of \(photo.path).")
    }
}
