/// The markers of a JPEG held in memory, walked without decoding: segments by their declared
/// lengths, a scan's entropy-coded data byte by byte up to the next marker.
struct JPEGSegments {
    /// One marker and what belongs to it.
    struct Segment: Sendable, Hashable {
        /// The marker's second byte (`0xD8` SOI, `0xC0`–`0xCF` frames and tables, `0xDA` SOS,
        /// `0xDC` DNL, `0xD9` EOI, …).
        var marker: UInt8
        /// Offset of the marker's `0xFF`.
        var offset: Int
        /// Offset just past the segment: past its payload, and for SOS past its entropy-coded data.
        var end: Int
        /// Offset of the payload (after the two length bytes); `end` for a marker without one.
        var payload: Int
    }

    /// The segments from the SOI at `start` up to and including its EOI, in order. The walk stops
    /// early (without an EOI) at the first byte that is not where a marker should be, or at a
    /// length that runs past the end.
    ///
    /// - Complexity: O(n) in the bytes of the image.
    static func walk(_ bytes: [UInt8], from start: Int = 0) -> [Segment] {
        guard start >= 0, start + 1 < bytes.count, bytes[start] == 0xFF, bytes[start + 1] == 0xD8 else { return [] }
        var segments = [Segment(marker: 0xD8, offset: start, end: start + 2, payload: start + 2)]
        var index = start + 2
        while index + 1 < bytes.count, bytes[index] == 0xFF {
            // Fill bytes: any number of 0xFF before the marker.
            var markerIndex = index + 1
            while markerIndex < bytes.count, bytes[markerIndex] == 0xFF { markerIndex += 1 }
            guard markerIndex < bytes.count else { break }
            let marker = bytes[markerIndex]
            if marker == 0xD9 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                segments.append(Segment(marker: marker, offset: index, end: markerIndex + 1, payload: markerIndex + 1))
                if marker == 0xD9 { break }
                index = markerIndex + 1
                continue
            }
            guard marker != 0x00, markerIndex + 2 < bytes.count else { break }
            let length = Int(bytes[markerIndex + 1]) << 8 | Int(bytes[markerIndex + 2])
            let payload = markerIndex + 3
            guard length >= 2, markerIndex + 1 + length <= bytes.count else { break }
            var end = markerIndex + 1 + length
            if marker == 0xDA { end = entropyEnd(bytes, from: end) }
            segments.append(Segment(marker: marker, offset: index, end: end, payload: payload))
            index = end
        }
        return segments
    }

    /// Where the entropy-coded data starting at `start` ends: the next `0xFF` that begins a marker
    /// (or its fill bytes) other than a restart (a stuffed `0xFF 0x00` is data), or the end of the bytes.
    private static func entropyEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == 0xFF {
                let next = bytes[index + 1]
                if next != 0x00 && !(0xD0...0xD7).contains(next) { return index }
            }
            index += 1
        }
        return bytes.count
    }

    /// The last complete JPEG (SOI to EOI) of images written one after another, as ffmpeg's
    /// `mjpeg` muxer writes them; nil when there is none.
    static func lastImage(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        var start = 0
        var last: Range<Int>?
        while let end = walk(bytes, from: start).last, end.marker == 0xD9 {
            last = start..<end.end
            start = end.end
        }
        return last.map { bytes[$0] }
    }
}
