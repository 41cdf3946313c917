/// A HEIF with real coded pictures, made from an encoder's Annex B output (ffmpeg's `-f hevc` or
/// `-f h264`): the parameter sets go into the item's decoder configuration (`hvcC`/`avcC`), each
/// picture becomes one image item, and more than one picture makes a grid.
extension PhotoFixtures {
    public enum HEIFCodec: Sendable {
        /// `hvc1` items with an `hvcC`, as phones and cameras write them.
        case hevc(chromaFormat: Int, bitDepth: Int)
        /// `avc1` items with an `avcC` (HEIF allows H.264; libheif 1.15 cannot decode it).
        case h264
    }

    /// A HEIF whose primary image is `stream`'s pictures: one picture is the image itself; more
    /// make a grid of `columns` (filled row by row) whose output is `width` × `height`.
    /// `rotation` is an `irot` (anticlockwise quarter turns), `mirror` an `imir` axis, each left
    /// out when nil; an `irot` comes before an `imir` in the associations. A grid's output size is
    /// written in 32 bits when a side does not fit in 16.
    ///
    /// - Parameter reusedTiles: a hostile grid instead: this many tiles, every one located
    ///   (`iloc`) at the bytes of the stream's first picture, which the file holds once.
    public static func codedHEIF(
        stream: [UInt8], codec: HEIFCodec, columns: Int = 1, width: Int, height: Int,
        rotation: Int? = nil, mirror: Int? = nil, reusedTiles: Int? = nil
    ) -> [UInt8] {
        let (config, split) = splitPictures(stream, codec: codec)
        let pictures = reusedTiles == nil ? split : Array(split.prefix(1))
        let itemType: StaticString
        let configBox: [UInt8]
        switch codec {
        case .hevc: (itemType, configBox) = ("hvc1", box("hvcC", config))
        case .h264: (itemType, configBox) = ("avc1", box("avcC", config))
        }
        let tileCount = reusedTiles ?? pictures.count
        let isGrid = tileCount > 1
        let rows = max(1, tileCount / max(1, columns))
        let tileIDs = isGrid ? Array(2..<(2 + tileCount)) : [1]
        let wide = width > 0xFFFF || height > 0xFFFF
        let outputSize = wide ? be32(width) + be32(height) : be16(width) + be16(height)
        let gridData: [UInt8] = isGrid ? [0, wide ? 1 : 0, UInt8(rows - 1), UInt8(columns - 1)] + outputSize : []
        // The tile size, from the first picture's encoder: every tile has the same.
        let tileWidth = isGrid ? (width + columns - 1) / columns : width
        let tileHeight = isGrid ? (height + rows - 1) / rows : height

        let ftyp = box("ftyp", fourCC("heic") + be32(0) + fourCC("mif1") + fourCC("heic"))
        func meta(mdatContent: Int) -> [UInt8] {
            var children = fullBox("hdlr", version: 0, be32(0) + fourCC("pict") + [UInt8](repeating: 0, count: 12) + [0])
            children += fullBox("pitm", version: 0, be16(1))
            var entries: [UInt8] = []
            if isGrid { entries += fullBox("infe", version: 2, be16(1) + be16(0) + fourCC("grid") + [0]) }
            for id in tileIDs {
                // Tiles are hidden items (flag 1), as encoders mark them.
                entries += fullBox("infe", version: 2, flags: isGrid ? 1 : 0, be16(id) + be16(0) + fourCC(itemType) + [0])
            }
            children += fullBox("iinf", version: 0, be16(entries.isEmpty ? 0 : tileIDs.count + (isGrid ? 1 : 0)) + entries)
            if isGrid {
                children += fullBox("iref", version: 0, box("dimg", be16(1) + be16(tileIDs.count) + tileIDs.flatMap { be16($0) }))
            }

            var items: [(id: Int, offset: Int, length: Int, method: UInt8)] = []
            var offset = mdatContent
            if reusedTiles != nil, let first = pictures.first {
                for id in tileIDs { items.append((id, offset, first.count, 0)) }
            } else {
                for (id, picture) in zip(tileIDs, pictures) {
                    items.append((id, offset, picture.count, 0))
                    offset += picture.count
                }
            }
            if isGrid { items.insert((1, 0, gridData.count, 1), at: 0) }
            var locations = [UInt8(0x44), 0x00] + be16(items.count)
            for item in items {
                locations += be16(item.id) + [0, item.method] + be16(0) + be16(1) + be32(item.offset) + be32(item.length)
            }
            children += fullBox("iloc", version: 1, locations)

            // Properties: 1 the configuration, 2 the tile ispe, 3 the image ispe, then irot, imir.
            var properties = configBox + fullBox("ispe", version: 0, be32(tileWidth) + be32(tileHeight))
            properties += fullBox("ispe", version: 0, be32(width) + be32(height))
            var primary: [UInt8] = isGrid ? [0x03] : [0x81, 0x03]
            var next: UInt8 = 4
            if let rotation {
                properties += box("irot", [UInt8(rotation & 3)])
                primary.append(0x80 | next)
                next += 1
            }
            if let mirror {
                properties += box("imir", [UInt8(mirror & 1)])
                primary.append(0x80 | next)
            }
            var associations = be16(1) + [UInt8(primary.count)] + primary
            if isGrid {
                for id in tileIDs { associations += be16(id) + [2, 0x81, 0x02] }
            }
            let entryCount = 1 + (isGrid ? tileIDs.count : 0)
            children += box("iprp", box("ipco", properties) + fullBox("ipma", version: 0, be32(entryCount) + associations))
            if isGrid { children += box("idat", gridData) }
            return fullBox("meta", version: 0, children)
        }
        let mdatContent = ftyp.count + meta(mdatContent: 0).count + 8
        return ftyp + meta(mdatContent: mdatContent) + box("mdat", pictures.flatMap { $0 })
    }

    /// The decoder configuration made of `stream`'s parameter sets, and its pictures, each as
    /// 4-byte-length-prefixed NAL units (SEI and access unit delimiters dropped).
    static func splitPictures(_ stream: [UInt8], codec: HEIFCodec) -> (config: [UInt8], pictures: [[UInt8]]) {
        var parameterSets: [Int: [[UInt8]]] = [:]
        var pictures: [[UInt8]] = []
        // Encoders may repeat the parameter sets before every picture (x264 does): kept once.
        func keep(_ unit: [UInt8], type: Int) {
            if !(parameterSets[type] ?? []).contains(unit) { parameterSets[type, default: []].append(unit) }
        }
        for unit in annexBUnits(stream) where !unit.isEmpty {
            switch codec {
            case .hevc:
                let type = Int(unit[0] >> 1) & 0x3F
                if (32...34).contains(type) { keep(unit, type: type); continue }
                guard type < 32, unit.count > 2 else { continue }
                // first_slice_segment_in_pic_flag starts a picture.
                if unit[2] & 0x80 != 0 || pictures.isEmpty { pictures.append([]) }
            case .h264:
                let type = Int(unit[0] & 0x1F)
                if type == 7 || type == 8 { keep(unit, type: type); continue }
                guard type == 1 || type == 5, unit.count > 1 else { continue }
                // first_mb_in_slice is 0 (ue(v) "1") at a picture's first slice.
                if unit[1] & 0x80 != 0 || pictures.isEmpty { pictures.append([]) }
            }
            pictures[pictures.count - 1] += be32(unit.count) + unit
        }

        switch codec {
        case .hevc(let chromaFormat, let bitDepth):
            // The profile, tier and level: 12 bytes after the SPS's NAL header and first byte.
            let sps = removingEmulationPrevention(parameterSets[33]?.first ?? [])
            let profile = sps.count >= 15 ? Array(sps[3..<15]) : [UInt8](repeating: 0, count: 12)
            var config: [UInt8] = [1] + profile
            config += [0xF0, 0x00, 0xFC, 0xFC | UInt8(chromaFormat & 3), 0xF8 | UInt8((bitDepth - 8) & 7), 0xF8 | UInt8((bitDepth - 8) & 7)]
            config += [0, 0, 0x0F, 3]
            for type in 32...34 {
                let units = parameterSets[type] ?? []
                config += [0x80 | UInt8(type)] + be16(units.count)
                for unit in units { config += be16(unit.count) + unit }
            }
            return (config, pictures)
        case .h264:
            let sps = parameterSets[7] ?? [], pps = parameterSets[8] ?? []
            let head = sps.first.map { Array($0.dropFirst().prefix(3)) } ?? [66, 0, 30]
            var config: [UInt8] = [1] + head + [0xFF, 0xE0 | UInt8(sps.count)]
            for unit in sps { config += be16(unit.count) + unit }
            config.append(UInt8(pps.count))
            for unit in pps { config += be16(unit.count) + unit }
            return (config, pictures)
        }
    }

    /// The NAL units of an Annex B stream, start codes and trailing zero bytes removed.
    public static func annexBUnits(_ stream: [UInt8]) -> [[UInt8]] {
        var starts: [Int] = []
        var index = 0
        while index + 2 < stream.count {
            if stream[index] == 0, stream[index + 1] == 0, stream[index + 2] == 1 {
                starts.append(index + 3)
                index += 3
            } else {
                index += 1
            }
        }
        return starts.enumerated().map { position, start in
            var end = position + 1 < starts.count ? starts[position + 1] - 3 : stream.count
            while end > start, stream[end - 1] == 0 { end -= 1 }
            return Array(stream[start..<end])
        }
    }

    /// A NAL unit's payload without its emulation prevention bytes (`00 00 03` → `00 00`).
    static func removingEmulationPrevention(_ unit: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var zeros = 0
        for byte in unit {
            if zeros >= 2 && byte == 3 { zeros = 0; continue }
            out.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return out
    }
}
