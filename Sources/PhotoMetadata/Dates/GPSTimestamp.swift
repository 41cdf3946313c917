public import WallClock

/// The UTC instant of a GPS fix, from EXIF `GPSDateStamp` and `GPSTimeStamp`.
public struct GPSTimestamp: Sendable, Hashable {
    /// The UTC date-time, to the second.
    public var utc: LocalDateTime

    /// Largest offset derived from a GPS time: the widest zone in use is UTC+14.
    public static let maximumOffsetSeconds = 14 * 3600
    /// Offsets are rounded to this step: every zone in use is a multiple of 15 minutes.
    public static let offsetStepSeconds = 15 * 60

    public init(utc: LocalDateTime) {
        self.utc = utc
    }

    /// A stamp from the EXIF texts and numbers: `YYYY:MM:DD` and hours, minutes and seconds
    /// (seconds may have a fraction, which is dropped). `nil` when any is missing or impossible.
    init?(dateStamp: String?, time: [Double]?) {
        guard let dateStamp, let parsed = ExifDateParser.dateTime(dateStamp), let time, time.count == 3,
              time.allSatisfy({ $0.isFinite && $0 >= 0 }), time[0] < 24, time[1] < 60, time[2] < 61
        else { return nil }
        var utc = parsed.local
        utc.hour = Int(time[0])
        utc.minute = Int(time[1])
        utc.second = min(Int(time[2]), 59)
        utc.millisecond = nil
        guard utc.isValid else { return nil }
        self.utc = utc
    }

    /// The offset of `local` from this UTC stamp, rounded to 15 minutes; `nil` beyond ±14 hours.
    public func offset(forLocal local: LocalDateTime) -> UTCOffset? {
        let difference = Self.seconds(local) - Self.seconds(utc)
        let steps = (Double(difference) / Double(Self.offsetStepSeconds)).rounded()
        let rounded = Int(steps) * Self.offsetStepSeconds
        guard abs(rounded) <= Self.maximumOffsetSeconds else { return nil }
        return UTCOffset(seconds: rounded)
    }

    private static func seconds(_ time: LocalDateTime) -> Int {
        CivilCalendar.daysSince1970(year: time.year, month: time.month, day: time.day) * 86_400
            + time.hour * 3600 + time.minute * 60 + time.second
    }
}

extension CaptureDate {
    /// This date with an offset derived from `gpsTime` when it has none; an offset already
    /// known, from whatever source, wins.
    public func withOffset(fromGPSTime gpsTime: GPSTimestamp?) -> CaptureDate {
        guard offset == nil, let gpsTime, let derived = gpsTime.offset(forLocal: local) else { return self }
        var date = self
        date.offset = derived
        date.offsetSource = .gpsTime
        return date
    }
}
