/// Finds stacks: different pictures of one moment, shown as one.
///
/// - RAW+JPEG: a raw and a picture of the same folder and base name (case ignored) captured in the
///   same second.
/// - Edits beside their original, in one folder: `IMG_E1234.JPG` beside `IMG_1234.JPG`,
///   `name-edited.jpg` (or `name_edited`) beside `name.jpg`.
/// - Bursts: one camera's shots in one folder, each at most `burstGap` after the one before (a
///   run); the capture times must differ (a copy of a shot is not a burst frame, and of files of
///   one instant only the shortest name joins), so they need sub-second times when several shots
///   fall in one second.
///
/// A stack's id is the id of its cover: the earliest second, a picture before a raw, an original
/// before its edit, then the earliest instant and the first name. It depends only on the photos, so it is the same on every run.
public enum StackFinder {
    /// The longest time between two frames of a burst, in milliseconds.
    public static let burstGap: Int64 = 1_000

    /// What the stack finder knows of one file.
    public struct Photo: Sendable, Hashable {
        public var id: Int64
        /// The folder's path relative to the root, as bytes (empty at the root).
        public var folder: [UInt8]
        /// The file name, as bytes.
        public var name: [UInt8]
        public var isRaw: Bool
        /// Camera make and model, when the file names them.
        public var camera: String?
        /// The capture time (local wall clock, milliseconds since 1970) when it came from the
        /// file's metadata, else nil.
        public var captured: Int64?

        public init(id: Int64, folder: [UInt8], name: [UInt8], isRaw: Bool, camera: String?, captured: Int64?) {
            self.id = id
            self.folder = folder
            self.name = name
            self.isRaw = isRaw
            self.camera = camera
            self.captured = captured
        }
    }

    /// For each photo in a stack, the stack's id (its cover's id); photos in no stack are absent.
    ///
    /// - Complexity: O(n log n): a sort per folder for the bursts, hash tables for the names.
    public static func stacks(of photos: [Photo]) -> [Int64: Int64] {
        var sets = DisjointSets(count: photos.count)
        // The times by position (0 for none, never read then): the burst sort reads them often.
        let captured = photos.map { $0.captured ?? 0 }
        for positions in positionsByFolder(photos) {
            // RAW+JPEG and edits, by lower-cased base name.
            var byStem: [Stem: [Int]] = [:]
            for position in positions { byStem[Stem(stem(photos[position].name)), default: []].append(position) }
            for same in byStem.values where same.count > 1 {
                for raw in same where photos[raw].isRaw {
                    for picture in same where !photos[picture].isRaw {
                        if let a = photos[raw].captured, let b = photos[picture].captured, a / 1000 == b / 1000 {
                            sets.union(raw, picture)
                        }
                    }
                }
            }
            for (edited, members) in byStem {
                guard let original = originalStem(ofEdit: edited.bytes), let originals = byStem[Stem(original)] else { continue }
                for member in members { for other in originals { sets.union(member, other) } }
            }

            // Bursts: per camera, consecutive distinct instants at most `burstGap` apart.
            var byCamera: [String: [Int]] = [:]
            for position in positions {
                if let camera = photos[position].camera, photos[position].captured != nil { byCamera[camera, default: []].append(position) }
            }
            for shots in byCamera.values where shots.count > 1 {
                let ordered = shots.sorted { a, b in
                    let ta = captured[a], tb = captured[b]
                    // Of files of one instant (copies), the shortest name joins the run.
                    if ta != tb { return ta < tb }
                    let na = photos[a].name, nb = photos[b].name
                    return na.count != nb.count ? na.count < nb.count : na.lexicographicallyPrecedes(nb)
                }
                var previous: Int?
                for position in ordered {
                    let time = captured[position]
                    if let previous {
                        let gap = time - captured[previous]
                        if gap == 0 { continue }
                        if gap <= burstGap { sets.union(previous, position) }
                    }
                    previous = position
                }
            }
        }

        var result: [Int64: Int64] = [:]
        for members in sets.groups() {
            let cover = members.min { isCover(photos[$0], before: photos[$1]) }!
            for member in members { result[photos[member].id] = photos[cover].id }
        }
        return result
    }

    /// The photos' positions grouped by folder, in the order the folders first come. Photos usually
    /// come folder by folder: a folder is looked up only where it changes, not hashed per photo.
    private static func positionsByFolder(_ photos: [Photo]) -> [[Int]] {
        var groups: [[Int]] = []
        var groupOfFolder: [[UInt8]: Int] = [:]
        var current = 0
        for position in photos.indices {
            if position == 0 || photos[position].folder != photos[position - 1].folder {
                let folder = photos[position].folder
                if let known = groupOfFolder[folder] {
                    current = known
                } else {
                    current = groups.count
                    groupOfFolder[folder] = current
                    groups.append([])
                }
            }
            groups[current].append(position)
        }
        return groups
    }

    /// Whether `a` is a better cover than `b`: the earliest second, a picture before a raw, an
    /// original before its edit, then the earliest instant and the first name.
    static func isCover(_ a: Photo, before b: Photo) -> Bool {
        let ta = a.captured ?? .max, tb = b.captured ?? .max
        if ta / 1000 != tb / 1000 { return ta < tb }
        if a.isRaw != b.isRaw { return !a.isRaw }
        let aEdit = originalStem(ofEdit: stem(a.name)) != nil, bEdit = originalStem(ofEdit: stem(b.name)) != nil
        if aEdit != bEdit { return !aEdit }
        if ta != tb { return ta < tb }
        if a.name != b.name { return a.name.lexicographicallyPrecedes(b.name) }
        return a.id < b.id
    }

    /// A stem as a dictionary key, hashed as one block of bytes (an array of bytes hashes byte by byte).
    private struct Stem: Hashable {
        var bytes: [UInt8]

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// The name without its extension, ASCII letters lower-cased.
    static func stem(_ name: [UInt8]) -> [UInt8] {
        let end = name.lastIndex(of: UInt8(ascii: ".")).map { $0 > 0 ? $0 : name.count } ?? name.count
        return name[..<end].map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    }

    /// The lower-cased stem of the original of an edit's stem: `img_1234` for `img_e1234`, `name`
    /// for `name-edited` or `name_edited`; nil for a stem that is not an edit's.
    static func originalStem(ofEdit stem: [UInt8]) -> [UInt8]? {
        if stem.count > appleEdit.count, stem.starts(with: appleEdit), stem[appleEdit.count...].allSatisfy({ (0x30...0x39).contains($0) }) {
            return appleOriginal + stem[appleEdit.count...]
        }
        for suffix in editSuffixes where stem.count > suffix.count && stem.suffix(suffix.count).elementsEqual(suffix) {
            return Array(stem.dropLast(suffix.count))
        }
        return nil
    }

    private static let appleEdit = Array("img_e".utf8), appleOriginal = Array("img_".utf8)
    private static let editSuffixes = ["-edited", "_edited"].map { Array($0.utf8) }
}
