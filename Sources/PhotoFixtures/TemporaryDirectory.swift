public import Foundation

/// A fresh folder under the system's temporary directory, removed when the value is released.
public final class TemporaryDirectory {
    public let path: String

    public init() throws {
        path = NSTemporaryDirectory() + "shoebox-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        // Make everything removable again (tests chmod folders to 000).
        _ = try? Process.run(URL(fileURLWithPath: "/bin/chmod"), arguments: ["-R", "u+rwx", path]).waitUntilExit()
        try? FileManager.default.removeItem(atPath: path)
    }

    public func url(_ relative: String) -> URL {
        URL(fileURLWithPath: path).appendingPathComponent(relative)
    }

    /// Writes `bytes` at `relative`, creating folders.
    @discardableResult
    public func write(_ relative: String, _ bytes: [UInt8]) throws -> URL {
        let url = url(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url
    }
}
