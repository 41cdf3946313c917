public import PhotoMetadata

/// Which files in a folder are the sidecars of a photo, by name alone.
///
/// XMP: `NAME.EXT.xmp`, else `NAME.xmp`. Google Takeout JSON: `NAME.EXT.json`, and the forms
/// Takeout writes when it has to: `NAME.EXT.supplemental-metadata.json` and any truncation of
/// it; a name cut to fit 51 characters (`A_VERY_LONG_NA.json` for `A_VERY_LONG_NAME.jpg`); the
/// copy number moved behind the extension (`IMG_1.jpg(1).json` for `IMG_1(1).jpg`); and the
/// original's file for an edited copy (`IMG_1.jpg.json` for `IMG_1-edited.jpg`).
public enum SidecarNames {
    /// Takeout cuts `NAME.EXT` so that its JSON file name stays within 51 bytes: 46 or 47 are left.
    static let shortestTruncation = 40

    /// The kind of sidecar a file name is, from its extension (any case), or `nil`.
    public static func kind(of name: some BidirectionalCollection<UInt8>) -> SidecarReader.Kind? {
        if hasSuffix(name, ".xmp") { return .xmp }
        if hasSuffix(name, ".json") { return .takeoutJSON }
        return nil
    }

    /// The sidecars of the file `photo` among the sidecar names `names` of the same folder, best
    /// first: XMP before JSON, exact names before derived ones.
    public static func sidecars(of photo: [UInt8], among names: [[UInt8]]) -> [[UInt8]] {
        guard !names.isEmpty, kind(of: photo) == nil else { return [] }
        let dot = photo.lastIndex(of: 0x2E)
        let stem = dot.map { Array(photo[..<$0]) } ?? photo
        let ext = dot.map { Array(photo[$0...]) } ?? []
        var ranked: [(rank: Int, name: [UInt8])] = []
        for name in names {
            guard let kind = kind(of: name) else { continue }
            let base = Array(name.dropLast(kind == .xmp ? 4 : 5))
            if let rank = kind == .xmp ? xmpRank(base, photo: photo, stem: stem) : jsonRank(base, photo: photo, stem: stem, ext: ext) {
                ranked.append((rank, name))
            }
        }
        return ranked.sorted { $0.rank != $1.rank ? $0.rank < $1.rank : $0.name.lexicographicallyPrecedes($1.name) }.map(\.name)
    }

    private static func xmpRank(_ base: [UInt8], photo: [UInt8], stem: [UInt8]) -> Int? {
        if base == photo { return 0 }
        if base == stem { return 1 }
        return nil
    }

    private static func jsonRank(_ base: [UInt8], photo: [UInt8], stem: [UInt8], ext: [UInt8]) -> Int? {
        if base == photo { return 10 }
        let supplemental = photo + Array(".supplemental-metadata".utf8)
        if base.count > photo.count, supplemental.starts(with: base) { return 11 }
        // `IMG_1(1).jpg` → `IMG_1.jpg(1).json`.
        if let open = stem.lastIndex(of: UInt8(ascii: "(")), stem.last == UInt8(ascii: ")"),
           stem[(open + 1)..<(stem.count - 1)].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), open + 2 < stem.count {
            let copy = Array(stem[open...])
            let original = Array(stem[..<open]) + ext
            if base == original + copy || (base.count > original.count + copy.count && (original + Array(".supplemental-metadata".utf8)).starts(with: Array(base.dropLast(copy.count))) && base.suffix(copy.count).elementsEqual(copy)) {
                return 12
            }
        }
        // `IMG_1-edited.jpg` → `IMG_1.jpg.json`.
        let edited = Array("-edited".utf8)
        if stem.count > edited.count, stem.suffix(edited.count).elementsEqual(edited) {
            let original = Array(stem.dropLast(edited.count)) + ext
            if base == original || (base.count > original.count && (original + Array(".supplemental-metadata".utf8)).starts(with: base)) { return 13 }
        }
        // A long name cut short.
        if base.count >= shortestTruncation, base.count < photo.count, photo.starts(with: base) { return 14 }
        return nil
    }

    private static func hasSuffix(_ name: some BidirectionalCollection<UInt8>, _ suffix: StaticString) -> Bool {
        suffix.withUTF8Buffer { expected in
            guard name.count > expected.count else { return false }
            return zip(name.suffix(expected.count), expected).allSatisfy { $0 | 0x20 == $1 | 0x20 }
        }
    }
}
