extension PhotoFixtures {
    /// An atom placed before the movie by `legacyQuickTime(_:leading:largeSizes:mediaDataFirst:lastRunsToEnd:)`:
    /// its type (`free`, `skip`, `wide`, `pnot`, `PICT`, ...) and its whole size, header included,
    /// the rest zeros.
    public struct LeadingAtom: Sendable {
        public var type: String
        public var size: Int

        public init(_ type: String, size: Int) {
            self.type = type
            self.size = size
        }
    }

    /// `movie`, an ISO BMFF or QuickTime file (`ftyp`, `moov` and `mdat` in any order), rewritten
    /// as a QuickTime movie from before `ftyp` existed: the `leading` atoms, then `moov`, then
    /// `mdat`, every chunk offset (`stco`, `co64`) moved to where the media data now lies.
    ///
    /// `largeSizes` writes the leading atoms with 64-bit sizes (size field 1; each then needs 16
    /// bytes at least); `mediaDataFirst`
    /// puts `mdat` before `moov`; `lastRunsToEnd` writes the last atom's size as 0 ("to the end of
    /// the file"). Nil when `movie` has no `moov` or `mdat`, or a moved offset does not fit `stco`.
    public static func legacyQuickTime(
        _ movie: [UInt8], leading: [LeadingAtom], largeSizes: Bool = false, mediaDataFirst: Bool = false, lastRunsToEnd: Bool = false
    ) -> [UInt8]? {
        let atoms = topLevelAtoms(movie)
        guard let moov = atoms.first(where: { $0.type == "moov" }), let mdat = atoms.first(where: { $0.type == "mdat" }) else { return nil }
        var prefix: [UInt8] = []
        for atom in leading {
            let type = Array(atom.type.utf8.prefix(4))
            if largeSizes {
                prefix += be32(1) + type + be32(atom.size >> 32) + be32(atom.size & 0xFFFF_FFFF)
                prefix += [UInt8](repeating: 0, count: max(atom.size - 16, 0))
            } else {
                prefix += be32(atom.size) + type + [UInt8](repeating: 0, count: max(atom.size - 8, 0))
            }
        }
        let mediaData = Array(movie[mdat.range])
        let newMediaDataStart = prefix.count + (mediaDataFirst ? 0 : moov.range.count)
        var movieAtom = Array(movie[moov.range])
        guard shiftChunkOffsets(in: &movieAtom, range: 0..<movieAtom.count, by: newMediaDataStart - mdat.range.lowerBound) else { return nil }
        var last = mediaDataFirst ? movieAtom : mediaData
        if lastRunsToEnd {
            guard Array(last[0..<4]) != be32(1) else { return nil }
            last.replaceSubrange(0..<4, with: be32(0))
        }
        return prefix + (mediaDataFirst ? mediaData : movieAtom) + last
    }

    /// The top-level atoms of a movie: their types and byte ranges, headers included.
    private static func topLevelAtoms(_ bytes: [UInt8]) -> [(type: String, range: Range<Int>)] {
        var atoms: [(type: String, range: Range<Int>)] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            guard let (size, _) = atomSize(bytes, at: offset, end: bytes.count) else { break }
            atoms.append((String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self), offset..<offset + size))
            offset += size
        }
        return atoms
    }

    /// The whole size and the header size of the atom at `offset`, or nil when it is malformed.
    private static func atomSize(_ bytes: [UInt8], at offset: Int, end: Int) -> (size: Int, header: Int)? {
        func read(_ at: Int, _ count: Int) -> Int { bytes[at..<at + count].reduce(0) { $0 << 8 | Int($1) } }
        var size = read(offset, 4), header = 8
        if size == 1 {
            guard offset + 16 <= end else { return nil }
            size = read(offset + 8, 8)
            header = 16
        } else if size == 0 {
            size = end - offset
        }
        return size >= header && size <= end - offset ? (size, header) : nil
    }

    /// Adds `delta` to every `stco` and `co64` entry inside the atoms of `range`, descending into
    /// the containers that lead to them. False when an entry leaves its field's range.
    private static func shiftChunkOffsets(in bytes: inout [UInt8], range: Range<Int>, by delta: Int) -> Bool {
        let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl"]
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            guard let (size, header) = atomSize(bytes, at: offset, end: range.upperBound) else { return true }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let content = offset + header
            if containers.contains(type) {
                guard shiftChunkOffsets(in: &bytes, range: content..<offset + size, by: delta) else { return false }
            } else if type == "stco" || type == "co64", size - header >= 8 {
                let width = type == "stco" ? 4 : 8
                let count = bytes[content + 4..<content + 8].reduce(0) { $0 << 8 | Int($1) }
                for index in 0..<min(count, (size - header - 8) / width) {
                    let at = content + 8 + index * width
                    let moved = bytes[at..<at + width].reduce(0) { $0 << 8 | Int($1) } + delta
                    guard moved >= 0, width == 8 || moved <= Int(UInt32.max) else { return false }
                    bytes.replaceSubrange(at..<at + width, with: (0..<width).reversed().map { UInt8(truncatingIfNeeded: moved >> (8 * $0)) })
                }
            }
            offset += size
        }
        return true
    }
}
