@testable import ShoeboxServer
import Testing

/// The log line for a photo shown as a placeholder names the file by its path under the root,
/// never by the descriptor libvips was handed.
@Suite struct PlaceholderReasonTests {
    @Test func theDescriptorPathBecomesThePhotosPath() {
        let message = #"libvips cannot read /proc/self/fd/23: VipsForeignLoad: "/proc/self/fd/23" is not a known file format"#
        let text = PlaceholderReason.text(message, openedAs: "/proc/self/fd/23", path: "2019/raw $1.x3f")
        #expect(text == #"libvips cannot read 2019/raw $1.x3f: VipsForeignLoad: "2019/raw $1.x3f" is not a known file format"#)
    }

    @Test func anotherDescriptorWhoseNumberStartsTheSameIsLeftAlone() {
        let text = PlaceholderReason.text("/proc/self/fd/2 and /proc/self/fd/23", openedAs: "/proc/self/fd/2", path: "a.jpg")
        #expect(text == "a.jpg and /proc/self/fd/23")
    }
}
