@testable import Thumbnails
import Testing

/// libvips's error buffer as the one line a log or a placeholder header carries.
@Suite struct VipsErrorTextTests {
    @Test func aLineRepeatedBackToBackIsSaidOnceWithItsCount() {
        let buffer = "VipsJpeg: Corrupt JPEG data: 2 extraneous bytes before marker 0xdb\n"
            + "VipsJpeg: Corrupt JPEG data: 2 extraneous bytes before marker 0xdb\n"
            + "VipsJpeg: Corrupt JPEG data: 2 extraneous bytes before marker 0xdb\n"
            + "VipsJpeg: Invalid JPEG file structure: SOS before SOF\n"
        #expect(Vips.oneLine(buffer) == "VipsJpeg: Corrupt JPEG data: 2 extraneous bytes before marker 0xdb (×3); VipsJpeg: Invalid JPEG file structure: SOS before SOF")
    }

    @Test func anEmptyBufferSaysSo() {
        #expect(Vips.oneLine("\n") == "unknown libvips error")
        #expect(Vips.oneLine("a\nb\na") == "a; b; a")
    }

    /// The buffer is the process's: another render's lines (they begin with its path) are not this file's.
    @Test func anotherFilesLinesAreLeftOut() {
        let buffer = "/photos/b.heic: bad seek to 2182715\n"
            + "VipsJpeg: Premature end of JPEG file\n"
            + "/photos/a.jpg: unable to read\n"
            + "/photos/a.jpg.bak: other\n"
        #expect(Vips.oneLine(buffer, about: "/photos/a.jpg") == "VipsJpeg: Premature end of JPEG file; /photos/a.jpg: unable to read")
        #expect(Vips.oneLine("/photos/b.heic: bad seek to 1\n", about: "/photos/a.jpg") == "unknown libvips error")
        #expect(Vips.oneLine(buffer).hasPrefix("/photos/b.heic: bad seek"))
    }
}
