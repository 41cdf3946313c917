import Foundation
import PhotoFixtures
import Testing
import Thumbnails

/// A cache in a fresh temporary folder, plus a place for source photos beside it.
final class Scratch {
    let folder: TemporaryDirectory
    let cache: ThumbnailCache

    init(maxPixels: Int64 = ThumbnailCache.defaultMaxPixels) throws {
        folder = try TemporaryDirectory()
        cache = ThumbnailCache(directory: folder.path + "/cache", maxPixels: maxPixels)
    }

    /// Writes a photo and describes it as the index would (its real size and mtime).
    func photo(_ name: String, _ bytes: [UInt8], id: Int64) throws -> ThumbnailSource {
        let url = try folder.write("photos/" + name, bytes)
        return try Self.source(path: url.path, id: id)
    }

    static func source(path: String, id: Int64) throws -> ThumbnailSource {
        var status = stat()
        try #require(stat(path, &status) == 0, "cannot stat \(path)")
        let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        return ThumbnailSource(id: id, path: path, fileSize: Int64(status.st_size), modified: modified)
    }

    /// Every file under the cache folder, relative to it.
    var cachedFiles: [String] {
        (try? FileManager.default.subpathsOfDirectory(atPath: cache.directory))?
            .filter { $0.contains("/") }.sorted() ?? []
    }
}

/// The pixel size in a JPEG's start-of-frame segment, read by the test itself.
func jpegSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
    jpegFrame(bytes).map { ($0.width, $0.height) }
}

/// A JPEG's start-of-frame segment: pixel size and number of components, read by the test itself.
func jpegFrame(_ bytes: [UInt8]) -> (width: Int, height: Int, components: Int)? {
    guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
    var index = 2
    while index + 9 < bytes.count {
        guard bytes[index] == 0xFF else { return nil }
        let marker = bytes[index + 1]
        let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
        if (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
            let height = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
            let width = Int(bytes[index + 7]) << 8 | Int(bytes[index + 8])
            return (width, height, Int(bytes[index + 9]))
        }
        index += 2 + length
    }
    return nil
}

/// The size a rendition of a `width` × `height` (display) image must have: short edge 320 or
/// long edge 1600, never larger than the image.
func expectedSize(width: Int, height: Int, _ size: ThumbnailSize) -> (width: Int, height: Int) {
    let edge = size.isShortEdge ? min(width, height) : max(width, height)
    let scale = min(1, Double(size.edge) / Double(edge))
    return (Int((Double(width) * scale).rounded()), Int((Double(height) * scale).rounded()))
}

/// Whether `found` is `expected` give or take a pixel of rounding.
func isClose(_ found: (width: Int, height: Int)?, _ expected: (width: Int, height: Int)) -> Bool {
    guard let found else { return false }
    return abs(found.width - expected.width) <= 1 && abs(found.height - expected.height) <= 1
}

/// PNG chunk checksum (CRC-32, as in zlib).
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

func bigEndian32(_ value: Int) -> [UInt8] {
    [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
}

func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    return bigEndian32(data.count) + typed + bigEndian32(Int(crc32(typed)))
}
