public import Foundation
import Spawn

/// A fresh folder under the system's temporary directory, removed when the value is released.
public final class TemporaryDirectory {
    public let path: String

    public init() throws {
        path = NSTemporaryDirectory() + "shoebox-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        // Make everything removable again (tests chmod folders to 000).
        _ = try? ChildProcess.run(URL(fileURLWithPath: "/bin/chmod"), arguments: ["-R", "u+rwx", path]).waitUntilExit()
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

    /// Writes the shell script `text` at `relative` (its folder must exist), executable.
    ///
    /// A child process writes it, so no descriptor of this process ever has the file open for
    /// writing: a test process is multi-threaded, a child another thread forks meanwhile inherits
    /// such a descriptor, and running the script then fails with "Text file busy" (ETXTBSY).
    @discardableResult
    public func writeScript(_ relative: String, _ text: String) throws -> URL {
        let url = url(relative)
        let writer = ChildProcess()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh", url.path]
        let input = Pipe()
        writer.standardInput = input
        try writer.run()
        try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
        try input.fileHandleForWriting.close()
        writer.waitUntilExit()
        guard writer.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
        return url
    }
}
