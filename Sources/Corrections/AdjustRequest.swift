import WallClock

/// A correction as a person or a client asks for it: the modes as text, checked by `modes()`.
///
/// The fields are those of `POST /api/adjust` (`shift`, `setDate`, `timeZone`, `keepInstant`,
/// `place`, `position`); each error names the one at fault.
public struct AdjustRequest: Sendable, Hashable, Codable {
    /// `±[Nd][Nh][Nm][Ns]`: moves the local clock.
    public var shift: String?
    /// `YYYY-MM-DDTHH:MM:SS[.fff]`: the earliest selected photo gets it, the others move by as much.
    public var setDate: String?
    /// `±HH:MM` or `Area/City`: the offset the clocks are in (relabelled, or converted with `keepInstant`).
    public var timeZone: String?
    /// Convert the clocks to `timeZone` keeping the instant, instead of relabelling them.
    public var keepInstant: Bool
    /// A place name from the places table (`Lisbon`, `Paris, France`).
    public var place: String?
    /// `LAT,LON` in degrees.
    public var position: String?

    public init(
        shift: String? = nil, setDate: String? = nil, timeZone: String? = nil, keepInstant: Bool = false,
        place: String? = nil, position: String? = nil
    ) {
        self.shift = shift
        self.setDate = setDate
        self.timeZone = timeZone
        self.keepInstant = keepInstant
        self.place = place
        self.position = position
    }

    /// The modes, checked; `place` still to be resolved (see `AdjustModes.place`).
    ///
    /// - Throws: `AdjustError` (`invalidValue`) naming the field at fault.
    public func modes() throws(AdjustError) -> AdjustModes {
        var modes = AdjustModes()
        if let shift { modes.shift = try ClockShift(parsing: shift) }
        if let setDate {
            guard let date = LocalDateTimeText.parse(setDate) else {
                throw AdjustError(.invalidValue, field: "setDate", subject: setDate, "\"\(setDate)\" is not a date and time: write YYYY-MM-DDTHH:MM:SS, e.g. 1975-06-01T12:00:00.")
            }
            guard AdjustModes.years.contains(date.year) else {
                throw AdjustError(.invalidValue, field: "setDate", subject: setDate, "\(setDate) is outside the years a sidecar date can hold (\(AdjustModes.years.lowerBound)–\(AdjustModes.years.upperBound)).")
            }
            modes.setDate = date
        }
        if let timeZone { modes.timeZone = try TimeZoneSpec(parsing: timeZone) }
        if keepInstant && modes.timeZone == nil {
            throw AdjustError(.invalidValue, field: "keepInstant", "Keeping the instant converts to a time zone: give one too, e.g. --time-zone Europe/Lisbon --keep-instant.")
        }
        modes.keepInstant = keepInstant
        if let place {
            let name = place.trimmingSpaces
            guard !name.isEmpty else {
                throw AdjustError(.invalidValue, field: "place", subject: place, "The place name is empty: give one from the places table, e.g. --place Lisbon.")
            }
            modes.place = name
        }
        if let position {
            guard place == nil else {
                throw AdjustError(.invalidValue, field: "position", "Give a place or a position, not both.")
            }
            modes.position = try AdjustModes.parsePosition(position)
        }
        guard modes.changesDate || modes.place != nil || modes.position != nil else {
            throw AdjustError(.invalidValue, field: "shift", "Nothing to change: give --shift, --set-date, --time-zone, --place or --position.")
        }
        return modes
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks.
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
