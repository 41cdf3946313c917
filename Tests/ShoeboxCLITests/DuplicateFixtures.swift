import Foundation
import LibvipsFirst
import PhotoFixtures
import Thumbnails

/// Pictures for the duplicate tests, made here: distinct seeded pictures written by libvips, their
/// variants, bursts and RAW+JPEG pairs.
enum DuplicateFixtures {
    /// Writes a JPEG of seed `seed` at `path` with `exif` (parents created).
    static func writePicture(_ path: String, seed: UInt64, width: Int = 320, height: Int = 240, shift: Int = 0, noise: Int = 0, exif: ExifFields = ExifFields()) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try PictureVariants.writeJPEG(rgb: PhotoFixtures.blobPixels(width: width, height: height, seed: seed, shift: shift, noise: noise), width: width, height: height, to: path)
        if !exif.isEmpty {
            let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            try Data(withExif(jpeg, exif)).write(to: URL(fileURLWithPath: path))
        }
    }

    /// The JPEG with an EXIF segment after its start marker.
    static func withExif(_ jpeg: [UInt8], _ exif: ExifFields) -> [UInt8] {
        let payload = Array("Exif".utf8) + [0, 0] + PhotoFixtures.exifTIFF(exif)
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg[2...]
    }

    /// The JPEG with a comment added (a caption edit: new bytes, the same picture).
    static func withComment(_ jpeg: [UInt8]) -> [UInt8] {
        let text = Array("a new caption".utf8)
        return [0xFF, 0xD8, 0xFF, 0xFE, 0, UInt8(text.count + 2)] + text + jpeg[2...]
    }

    /// Sets a file's modification time (seconds since 1970).
    static func setModified(_ path: String, _ seconds: Int) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: TimeInterval(seconds))], ofItemAtPath: path)
    }
}
