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
}
