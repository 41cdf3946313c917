import Foundation
import LibvipsFirst
import Testing
import Thumbnails

/// The test runner starts libvips before its own threads (Tests/LibvipsFirst): libvips's start-up
/// writes VIPSHOME into the environment, and suites running in parallel read it (starting ffmpeg).
@Suite struct LibvipsFirstTests {
    @Test(.enabled(if: ThumbnailCache.decoderProblem == nil))
    func startedBeforeTheRunner() {
        #expect(shoebox_libvips_started_first() == 1)
        // Written by libvips's start-up, so there is nothing left for it to write later.
        #expect(getenv("VIPSHOME") != nil)
    }
}
