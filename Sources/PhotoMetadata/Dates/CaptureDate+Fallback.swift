import WallClock
/// The last two links of the capture-date chain: the file name and the modification time.
extension CaptureDate {
    /// Years accepted in file names, so that other digit runs are not taken for dates.
    public static let fileNameYears = 1900...2100

    /// A date found in a file name such as `IMG_20190101_120000.jpg`, or `nil`.
    ///
    /// Recognised, anywhere in the name (a path is reduced to its last component):
    /// - `YYYYMMDD`, optionally followed by `_`, `-`, `T` or a space and `HHMMSS` or `HHMMSSmmm`
    ///   (`IMG_20190101_120000`, `PXL_20210305_101112345`, `VID_…`, `Screenshot_20210203-101112`);
    /// - `YYYYMMDDHHMMSS` and `YYYYMMDDHHMMSSmmm` as one run of digits;
    /// - `YYYY-MM-DD` (or with `_` or `.`), optionally followed by a time `HH.MM.SS`, `HH-MM-SS`,
    ///   `HH_MM_SS`, `HH:MM:SS` or `HHMMSS`, an optional `.mmm`/`-mmm`, and `AM`/`PM`, after a
    ///   separator or ` at ` (`2020-01-30 09.57.18`, `Screenshot 2021-02-03 at 10.11.12`,
    ///   `signal-2021-02-03-101112`, `photo_2021-02-03_10-11-12`).
    ///
    /// A date without a valid time (`IMG-20190101-WA0001`) gives midnight of that day: the day is
    /// what places a photo in the timeline. Digit runs of other lengths, years outside
    /// `fileNameYears` and impossible calendar dates are not dates.
    public static func fromFileName(_ name: String) -> CaptureDate? {
        let component = name.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).last.map(Array.init) ?? []
        var index = 0
        while index < component.count {
            if FileNameDate.isDigit(component[index]), index == 0 || !FileNameDate.isDigit(component[index - 1]),
               let local = FileNameDate(bytes: component).parse(at: index) {
                return CaptureDate(local: local, source: .filename)
            }
            index += 1
        }
        return nil
    }

    /// The modification time as local wall-clock time at `utcOffsetSeconds` (the indexing machine's zone).
    ///
    /// The offset is stored with the date, since the instant is known exactly. `nanoseconds` gives
    /// the millisecond (truncated). Times outside years 1–9999 are clamped to that range.
    public static func fromModificationTime(secondsSince1970: Int64, nanoseconds: Int = 0, utcOffsetSeconds: Int) -> CaptureDate {
        // Years 0001 to 9999 only: beyond them the text forms have no meaning.
        let shifted = secondsSince1970.addingReportingOverflow(Int64(utcOffsetSeconds))
        let local = min(max(shifted.overflow ? secondsSince1970 : shifted.partialValue, -62_135_596_800), 253_402_300_799)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let secondOfDay = Int(local - days * 86_400)
        let (year, month, day) = CivilCalendar.date(daysSince1970: Int(days))
        let millisecond = min(max(nanoseconds / 1_000_000, 0), 999)
        return CaptureDate(
            local: LocalDateTime(year: year, month: month, day: day, hour: secondOfDay / 3600,
                                 minute: secondOfDay / 60 % 60, second: secondOfDay % 60, millisecond: millisecond),
            offset: UTCOffset(seconds: utcOffsetSeconds), source: .fileModified)
    }
}

/// The date patterns of `CaptureDate.fromFileName`, tried at the start of one run of digits.
private struct FileNameDate {
    let bytes: [UInt8]

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    func runLength(at index: Int) -> Int {
        var end = index
        while end < bytes.count, Self.isDigit(bytes[end]) { end += 1 }
        return end - index
    }

    func number(at index: Int, digits: Int) -> Int {
        bytes[index..<index + digits].reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// A date-time starting at `index`, the first digit of a run.
    func parse(at index: Int) -> LocalDateTime? {
        let run = runLength(at: index)
        var date: LocalDateTime
        var next: Int
        switch run {
        case 8, 14, 17:
            date = LocalDateTime(year: number(at: index, digits: 4), month: number(at: index + 4, digits: 2), day: number(at: index + 6, digits: 2))
            next = index + 8
            if run >= 14 {
                date.hour = number(at: index + 8, digits: 2)
                date.minute = number(at: index + 10, digits: 2)
                date.second = number(at: index + 12, digits: 2)
                if run == 17 { date.millisecond = number(at: index + 14, digits: 3) }
                return validated(date)
            }
        case 4:
            guard let separator = byte(at: index + 4), "-_.".utf8.contains(separator),
                  runLength(at: index + 5) == 2, byte(at: index + 7) == separator, runLength(at: index + 8) == 2
            else { return nil }
            date = LocalDateTime(year: number(at: index, digits: 4), month: number(at: index + 5, digits: 2), day: number(at: index + 8, digits: 2))
            next = index + 10
        default:
            return nil
        }
        guard validated(date) != nil else { return nil }
        if let time = parseTime(after: next), let withTime = validated(merge(date, time)) { return withTime }
        return date
    }

    /// A time after the date: a separator (or ` at `), then `HHMMSS[mmm]` or `HH?MM?SS[?mmm]` and `AM`/`PM`.
    private func parseTime(after dateEnd: Int) -> LocalDateTime? {
        var index = dateEnd
        guard let separator = byte(at: index), "_- T.".utf8.contains(separator) else { return nil }
        index += 1
        if matchesWord("at", at: index), let after = byte(at: index + 2), "_- ".utf8.contains(after) {
            index += 3
        }
        let run = runLength(at: index)
        var time = LocalDateTime(year: 2000, month: 1, day: 1)
        var end: Int
        switch run {
        case 6, 9:
            time.hour = number(at: index, digits: 2)
            time.minute = number(at: index + 2, digits: 2)
            time.second = number(at: index + 4, digits: 2)
            if run == 9 { time.millisecond = number(at: index + 6, digits: 3) }
            end = index + run
        case 2:
            guard let mark = byte(at: index + 2), ".:-_".utf8.contains(mark),
                  runLength(at: index + 3) == 2, byte(at: index + 5) == mark, runLength(at: index + 6) == 2
            else { return nil }
            time.hour = number(at: index, digits: 2)
            time.minute = number(at: index + 3, digits: 2)
            time.second = number(at: index + 6, digits: 2)
            end = index + 8
            if let mark = byte(at: end), ".-_".utf8.contains(mark), runLength(at: end + 1) == 3 {
                time.millisecond = number(at: end + 1, digits: 3)
                end += 4
            }
        default:
            return nil
        }
        var meridiemAt = end
        if byte(at: meridiemAt) == 0x20 { meridiemAt += 1 }
        if (1...12).contains(time.hour) {
            if matchesWord("pm", at: meridiemAt) {
                time.hour = time.hour % 12 + 12
            } else if matchesWord("am", at: meridiemAt) {
                time.hour %= 12
            }
        }
        return time
    }

    private func merge(_ date: LocalDateTime, _ time: LocalDateTime) -> LocalDateTime {
        LocalDateTime(year: date.year, month: date.month, day: date.day, hour: time.hour, minute: time.minute, second: time.second, millisecond: time.millisecond)
    }

    private func validated(_ date: LocalDateTime) -> LocalDateTime? {
        CaptureDate.fileNameYears.contains(date.year) && date.isValid ? date : nil
    }

    private func byte(at index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Whether a two-letter word (lowercase ASCII) is at `index`, not followed by another letter.
    private func matchesWord(_ word: StaticString, at index: Int) -> Bool {
        word.withUTF8Buffer { letters in
            guard index + letters.count <= bytes.count else { return false }
            for (offset, letter) in letters.enumerated() where bytes[index + offset] | 0x20 != letter {
                return false
            }
            if let following = byte(at: index + letters.count), (following | 0x20) >= 0x61, (following | 0x20) <= 0x7A {
                return false
            }
            return true
        }
    }
}
