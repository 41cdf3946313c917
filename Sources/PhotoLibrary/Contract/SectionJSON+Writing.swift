public import Foundation

/// `SectionJSON` written by hand, byte for byte as `ContractJSON.encode(_, compact: true)` writes
/// it: a section page of the viewer is 120 photos, and `JSONEncoder` spent half of an uncached
/// page's time on them.
extension SectionJSON {
    /// The compact object (keys sorted, no spaces), as the server sends it.
    public func compactJSON() -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(160 + (photos?.count ?? 0) * 140)
        out.append(contentsOf: #"{"count":"#.utf8)
        out.append(contentsOf: String(count).utf8)
        out.append(contentsOf: #","end":"#.utf8)
        JSONText.appendString(end, to: &out)
        out.append(contentsOf: #","index":"#.utf8)
        out.append(contentsOf: String(index).utf8)
        out.append(contentsOf: #","label":"#.utf8)
        JSONText.appendString(label, to: &out)
        out.append(contentsOf: #","level":"#.utf8)
        JSONText.appendString(level, to: &out)
        if let photoCount {
            out.append(contentsOf: #","photoCount":"#.utf8)
            out.append(contentsOf: String(photoCount).utf8)
        }
        if let photos {
            out.append(contentsOf: #","photos":["#.utf8)
            for (i, photo) in photos.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                photo.appendCompactJSON(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(contentsOf: #","places":["#.utf8)
        for (i, place) in places.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONText.appendString(place, to: &out)
        }
        out.append(contentsOf: #"],"shown":"#.utf8)
        out.append(contentsOf: String(shown).utf8)
        out.append(contentsOf: #","start":"#.utf8)
        JSONText.appendString(start, to: &out)
        out.append(UInt8(ascii: "}"))
        return Data(out)
    }
}

extension SectionJSON.Photo {
    /// The compact object with the fields `encode(to:)` writes: the detail fields (explicit
    /// nulls included) only when `id` is set.
    func appendCompactJSON(to out: inout [UInt8]) {
        out.append(contentsOf: #"{"captured":"#.utf8)
        JSONText.appendString(captured, to: &out)
        out.append(contentsOf: #","dateSource":"#.utf8)
        JSONText.appendString(dateSource, to: &out)
        if let id {
            out.append(contentsOf: #","height":"#.utf8)
            JSONText.appendOptionalInteger(height, to: &out)
            out.append(contentsOf: #","id":"#.utf8)
            out.append(contentsOf: String(id).utf8)
            if let matchedMember {
                out.append(contentsOf: #","matchedMember":"#.utf8)
                out.append(contentsOf: String(matchedMember).utf8)
            }
            out.append(contentsOf: #","mediaType":"#.utf8)
            JSONText.appendOptionalString(mediaType, to: &out)
        }
        out.append(contentsOf: #","path":"#.utf8)
        JSONText.appendString(path, to: &out)
        if let pathBytes {
            out.append(contentsOf: #","pathBytes":"#.utf8)
            JSONText.appendString(pathBytes, to: &out)
        }
        if id != nil, let stack, let stackCount {
            out.append(contentsOf: #","stack":"#.utf8)
            out.append(contentsOf: String(stack).utf8)
            out.append(contentsOf: #","stackCount":"#.utf8)
            out.append(contentsOf: String(stackCount).utf8)
        }
        if id != nil {
            out.append(contentsOf: #","width":"#.utf8)
            JSONText.appendOptionalInteger(width, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}
