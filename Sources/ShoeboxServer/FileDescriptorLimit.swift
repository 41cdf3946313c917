#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's open-file limit (`RLIMIT_NOFILE`), which caps the connections a server can hold.
enum FileDescriptorLimit {
    /// Descriptors kept free of connections: the database, thumbnails being read, the watcher.
    static let reserve = 64

    /// Raises the soft limit to the hard one (Linux starts processes at 1,024); the limit now in
    /// force and whether it changed, or nil when it cannot be read.
    static func raise() -> (soft: Int, raised: Bool)? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        guard limit.rlim_cur < limit.rlim_max else { return (clamp(limit.rlim_cur), false) }
        var raised = limit
        raised.rlim_cur = limit.rlim_max
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 else { return (clamp(limit.rlim_cur), false) }
        return (clamp(raised.rlim_cur), true)
    }

    /// `configured`, lowered so the connections leave `reserve` descriptors free under `soft`.
    static func connectionCap(_ configured: Int, soft: Int?) -> Int {
        guard let soft else { return configured }
        return max(1, min(configured, soft - reserve))
    }

    private static func clamp(_ value: rlim_t) -> Int { value > rlim_t(Int.max) ? Int.max : Int(value) }
}
