/// The textual and rational forms in which files record a position.
extension GeoPosition {
    /// One coordinate from EXIF's GPS IFD: up to three unsigned rationals (degrees, minutes,
    /// seconds, each as numerator and denominator) and its reference letter.
    ///
    /// `positive` and `negative` are the reference letters (`N`/`S` or `E`/`W`, any case). A
    /// missing or unknown reference gives `nil`: the hemisphere is unknown, and a guess would put
    /// the photo on another continent. A zero denominator is accepted only for 0/0 (read as 0).
    static func exifCoordinate(
        _ parts: [(numerator: Double, denominator: Double)], reference: String?, positive: Character, negative: Character
    ) -> Double? {
        guard let letter = reference?.first?.uppercased().first, !parts.isEmpty, parts.count <= 3 else { return nil }
        let sign: Double
        switch letter {
        case positive: sign = 1
        case negative: sign = -1
        default: return nil
        }
        var value = 0.0
        for (index, part) in parts.enumerated() {
            guard part.numerator >= 0, part.denominator >= 0 else { return nil }
            if part.denominator == 0 {
                guard part.numerator == 0 else { return nil }
                continue
            }
            value += part.numerator / part.denominator / [1.0, 60.0, 3600.0][index]
        }
        return sign * value
    }

    /// A position from an XMP pair: `exif:GPSLatitude`/`exif:GPSLongitude`, written `DDD,MM,SSk`
    /// or `DDD,MM.mmk` (k one of `N`, `S`, `E`, `W`), or as a signed decimal number. Minutes or
    /// seconds of 60 or more are refused, as in ISO 6709 texts.
    package init?(xmpLatitude latitude: String, longitude: String) {
        guard let lat = Self.xmpCoordinate(latitude, positive: "N", negative: "S"),
              let lon = Self.xmpCoordinate(longitude, positive: "E", negative: "W")
        else { return nil }
        self.init(latitude: lat, longitude: lon)
    }

    /// One XMP coordinate (see `init(xmpLatitude:longitude:)`).
    package static func xmpCoordinate(_ text: String, positive: Character, negative: Character) -> Double? {
        var body = Substring(text.trimmingSpaces)
        guard let last = body.last else { return nil }
        var sign = 1.0
        switch last.uppercased().first {
        case positive: body = body.dropLast()
        case negative: body = body.dropLast(); sign = -1
        default: break
        }
        let fields = body.split(separator: ",", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count) else { return nil }
        var value = 0.0
        for (index, field) in fields.enumerated() {
            guard let number = Double(String(field).trimmingSpaces), number.isFinite else { return nil }
            // Only a lone decimal number may carry a sign; minutes and seconds stay below 60.
            guard index == 0 || number >= 0, fields.count == 1 || number >= 0, index == 0 || number < 60 else { return nil }
            value += number / [1.0, 60.0, 3600.0][index]
        }
        return sign * value
    }

    /// A position from an ISO 6709 text such as `+37.3349-122.0090+010.000/` (QuickTime `©xyz`,
    /// `com.apple.quicktime.location.ISO6709`). Degrees may be written `±DD.DD`, `±DDMM.MM` or
    /// `±DDMMSS.SS` (longitude with three degree digits); an altitude and the `/` are ignored.
    package init?(iso6709 text: String) {
        var scalars = Substring(text.trimmingSpaces)
        func take(degreeDigits: Int) -> Double? {
            guard let signCharacter = scalars.first, signCharacter == "+" || signCharacter == "-" else { return nil }
            scalars = scalars.dropFirst()
            let number = scalars.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            scalars = scalars.dropFirst(number.count)
            let integerDigits = number.prefix { $0 != "." }.count
            guard integerDigits >= degreeDigits, let value = Double(number) else { return nil }
            let sign = signCharacter == "-" ? -1.0 : 1.0
            switch integerDigits - degreeDigits {
            case 0:
                return sign * value
            case 2:
                let degrees = (value / 100).rounded(.down)
                let minutes = value - degrees * 100
                return minutes < 60 ? sign * (degrees + minutes / 60) : nil
            case 4:
                let degrees = (value / 10_000).rounded(.down)
                let minutes = ((value - degrees * 10_000) / 100).rounded(.down)
                let seconds = value - degrees * 10_000 - minutes * 100
                return minutes < 60 && seconds < 60 ? sign * (degrees + minutes / 60 + seconds / 3600) : nil
            default:
                return nil
            }
        }
        guard let latitude = take(degreeDigits: 2), let longitude = take(degreeDigits: 3) else { return nil }
        self.init(latitude: latitude, longitude: longitude)
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs, newlines and NULs.
    fileprivate var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\0" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
