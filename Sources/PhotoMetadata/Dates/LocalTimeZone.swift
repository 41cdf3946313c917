import WallClock
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns UTC instants into local wall-clock time: the indexing machine's zone, or a fixed offset.
///
/// Video containers (`mvhd`, Matroska `DateUTC`) and Takeout sidecars record UTC; Shoebox stores
/// the local time of the machine that indexes them, with the offset that applied at that instant.
public struct LocalTimeZone: Sendable {
    private let offsetAt: @Sendable (Int64) -> Int

    /// A zone whose offset, in seconds east of UTC, at a UTC instant (seconds since 1970) is `offsetAt`.
    public init(offsetAt: @escaping @Sendable (Int64) -> Int) {
        self.offsetAt = offsetAt
    }

    /// The zone of this process (`TZ`, else the system's), daylight saving time included.
    public static let system = LocalTimeZone { seconds in
        var time = time_t(seconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }

    /// Always the same offset (tests, and `TZ=UTC` runs without touching the environment).
    public static func fixed(_ offset: UTCOffset) -> LocalTimeZone {
        LocalTimeZone { _ in offset.seconds }
    }

    /// The offset in seconds east of UTC at `secondsSince1970`.
    public func offset(atUTC secondsSince1970: Int64) -> Int { offsetAt(secondsSince1970) }

    /// The local date-time of a UTC instant, with the offset kept beside it.
    public func captureDate(utcSecondsSince1970 seconds: Int64, millisecond: Int? = nil, source: DateSource) -> CaptureDate {
        var date = CaptureDate.fromModificationTime(
            secondsSince1970: seconds, nanoseconds: (millisecond ?? 0) * 1_000_000, utcOffsetSeconds: offset(atUTC: seconds))
        date.source = source
        date.local.millisecond = millisecond
        return date
    }
}
