import Foundation
import PhotoFixtures
import Testing
import Thumbnails

/// The demo library's photos (`PhotoFixtures.scene`) are colour pictures, told apart by their hue,
/// with the sky on top once their EXIF orientation is applied: a newcomer's first grid is not grey.
@Suite(.enabled(if: VideoSamples.available, "ffmpeg is not installed"))
struct DemoSceneTests {
    @Test(arguments: [1, 6])
    func aSceneShowsUprightInColour(orientation: Int) async throws {
        let folder = try TemporaryDirectory()
        let bytes = PhotoFixtures.scene(width: 96, height: 64, hue: 210, exif: ExifFields(orientation: orientation))
        let source = try Scratch.source(path: try folder.write("scene.jpg", bytes).path, id: 1)
        let image = await ThumbnailCache(directory: folder.path + "/cache").image(for: source, size: .preview)
        #expect(!image.isPlaceholder)
        let (width, height, pixels) = try HEIFFallbackTests.rgb(image.bytes)
        #expect(orientation == 6 ? width < height : width > height)
        func at(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
            let offset = (y * width + x) * 3
            return (Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2]))
        }
        // A blue sky (hue 210) at the top left, a darker, different ground at the bottom left.
        let sky = at(2, 2), ground = at(2, height - 3)
        #expect(sky.b > sky.r + 60, "sky \(sky)")
        #expect(sky.r + sky.g + sky.b > ground.r + ground.g + ground.b + 150, "sky \(sky), ground \(ground)")
    }

    /// The demo's PNG, TIFF and WebP "edits" are in colour too (WebP in its sky's one colour).
    @Test(arguments: ["png", "tif", "webp"])
    func otherFormatsShowTheirSky(format: String) async throws {
        let folder = try TemporaryDirectory()
        let bytes = switch format {
        case "png": PhotoFixtures.png(width: 64, height: 48, scene: 210)
        case "tif": PhotoFixtures.tiff(width: 64, height: 48, scene: 210)
        default: PhotoFixtures.webp(width: 64, height: 48, scene: 210)
        }
        let source = try Scratch.source(path: try folder.write("scene." + format, bytes).path, id: 1)
        let image = await ThumbnailCache(directory: folder.path + "/cache").image(for: source, size: .thumbnail)
        #expect(!image.isPlaceholder, "\(image.error?.message ?? "")")
        let (width, _, pixels) = try HEIFFallbackTests.rgb(image.bytes)
        let sky = (r: Int(pixels[(2 * width + 2) * 3]), b: Int(pixels[(2 * width + 2) * 3 + 2]))
        #expect(sky.b > sky.r + 60, "sky \(sky)")
    }

    @Test func photosOfTheDemoDifferInColour() {
        let first = PhotoFixtures.scene(width: 96, height: 64, hue: 0)
        #expect(first != PhotoFixtures.scene(width: 96, height: 64, hue: 120))
    }
}
