import Foundation
import PhotoFixtures
import Spawn
import Testing
import Thumbnails

/// Small videos made at test time by `scripts/make-test-videos` (ffmpeg, lavfi sources), once
/// per test process; nil when ffmpeg is not installed (the tests that need them are then skipped).
enum VideoSamples {
    static let tool = VideoTool()
    static var available: Bool { tool.problem == nil }

    /// The folder holding the samples.
    nonisolated(unsafe) static let folder: TemporaryDirectory? = {
        guard available, let folder = try? TemporaryDirectory() else { return nil }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/make-test-videos")
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [script.path, folder.path]
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        return process.terminationStatus == 0 ? folder : nil
    }()

    static func path(_ name: String) throws -> String {
        let folder = try #require(folder, "the test videos could not be made")
        return folder.path + "/" + name
    }
}

