#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a move or restore could not be done, with the path it is about.
public struct MoveError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String

    init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    init(path: String, posix action: String, code: Int32 = errno) {
        self.path = path
        message = "\(action) \(path): \(String(cString: strerror(code)))."
    }

    public var description: String { message }
}
