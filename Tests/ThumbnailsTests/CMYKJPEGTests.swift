import Foundation
import PhotoFixtures
import Spawn
import Testing
import Thumbnails

/// CMYK and YCCK JPEGs (Adobe APP14, samples stored inverted) come out as sRGB in their own
/// colours: paper white, black ink black, cyan ink cyan, never a negative.
@Suite(.enabled(if: EmbeddedPreviewTests.hasDJPEG, "djpeg (libjpeg-turbo-progs) is not installed"))
struct CMYKJPEGTests {
    /// What is rendered: white paper, black ink, cyan ink.
    enum Ink: String, CaseIterable, Sendable { case none, black, cyan }

    /// The samples as stored for `ink` under `transform`.
    static func samples(_ ink: Ink, _ transform: PhotoFixtures.AdobeTransform) -> [UInt8] {
        switch (ink, transform) {
        case (.none, .cmyk): [255, 255, 255, 255]
        case (.black, .cmyk): [255, 255, 255, 0]
        case (.cyan, .cmyk): [0, 255, 255, 255]
        // YCbCr of R, G, B = 255 − the stored C, M, Y (the ink): (0, 0, 0) and (255, 0, 0).
        case (.none, .ycck): [0, 128, 128, 255]
        case (.black, .ycck): [0, 128, 128, 0]
        case (.cyan, .ycck): [76, 85, 255, 255]
        }
    }

    @Test(arguments: Ink.allCases, PhotoFixtures.AdobeTransform.allCases)
    func rendersInItsOwnColours(ink: Ink, transform: PhotoFixtures.AdobeTransform) throws {
        let scratch = try Scratch()
        let bytes = PhotoFixtures.adobeJPEG(width: 64, height: 48, samples: Self.samples(ink, transform), transform: transform)
        let image = scratch.cache.image(for: try scratch.photo("\(ink)-\(transform).jpg", bytes, id: 1), size: .thumbnail)
        #expect(!image.isPlaceholder, "\(image.error?.message ?? "")")
        #expect(jpegFrame(image.bytes)?.components == 3, "an sRGB JPEG, not CMYK passed through")
        let (red, green, blue) = try #require(try Self.centre(image.bytes))
        switch ink {
        case .none: #expect(min(red, green, blue) >= 235, "white: \(red), \(green), \(blue)")
        case .black: #expect(max(red, green, blue) <= 70, "black: \(red), \(green), \(blue)")
        case .cyan: #expect(red <= 80 && green >= 120 && blue >= 180 && blue > red + 100, "cyan: \(red), \(green), \(blue)")
        }
    }

    /// The centre pixel of a JPEG, decoded by `djpeg -ppm`.
    static func centre(_ jpeg: [UInt8]) throws -> (Int, Int, Int)? {
        let folder = try TemporaryDirectory()
        let input = try FileHandle(forReadingFrom: try folder.write("in.jpg", jpeg))
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["djpeg", "-ppm"]
        process.standardInput = input
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        // "P6\n<width> <height>\n255\n" then RGB.
        guard data.starts(with: Array("P6".utf8)) else { return nil }
        let fields = String(decoding: data.prefix(32), as: UTF8.self).split(whereSeparator: \.isWhitespace).prefix(4)
        guard fields.count == 4, let width = Int(fields[fields.startIndex + 1]), let height = Int(fields[fields.startIndex + 2]) else { return nil }
        var start = 0, newlines = 0
        while newlines < 3, start < data.count { if data[start] == 0x0A { newlines += 1 }; start += 1 }
        let offset = start + ((height / 2) * width + width / 2) * 3
        guard offset + 2 < data.count else { return nil }
        return (Int(data[offset]), Int(data[offset + 1]), Int(data[offset + 2]))
    }
}
