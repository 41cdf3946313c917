/// The last two links of the capture-date chain: the file name and the modification time.
extension CaptureDate {
    /// A date found in a file name such as `IMG_20190101_120000.jpg`, or `nil`.
    public static func fromFileName(_ name: String) -> CaptureDate? {
        nil
    }

    /// The modification time as local wall-clock time at `utcOffsetSeconds` (the indexing machine's zone).
    public static func fromModificationTime(secondsSince1970: Int64, nanoseconds: Int = 0, utcOffsetSeconds: Int) -> CaptureDate {
        CaptureDate(local: LocalDateTime(year: 1970, month: 1, day: 1), source: .fileModified)
    }
}
