/// EXIF values to write into a fixture. `nil` fields are left out of the file.
///
/// Text fields are written verbatim (with a terminating NUL), so invalid values can be tested too.
public struct ExifFields: Sendable, Hashable {
    /// `YYYY:MM:DD HH:MM:SS`, in the Exif IFD.
    public var dateTimeOriginal: String?
    public var subSecTimeOriginal: String?
    public var offsetTimeOriginal: String?
    /// In the Exif IFD.
    public var dateTimeDigitized: String?
    public var subSecTimeDigitized: String?
    public var offsetTimeDigitized: String?
    /// IFD0 `DateTime`; its sub-seconds and offset go to the Exif IFD, as the standard places them.
    public var dateTime: String?
    public var subSecTime: String?
    public var offsetTime: String?
    /// 1–8 (other values are written as given).
    public var orientation: Int?
    public var make: String?
    public var model: String?
    /// GPS IFD `GPSLatitudeRef` (`N`/`S`) and `GPSLatitude`: degrees, minutes, seconds, each
    /// written as a rational with denominator `gpsDenominator`.
    public var gpsLatitudeRef: String?
    public var gpsLatitude: [Double]?
    /// `GPSLongitudeRef` (`E`/`W`) and `GPSLongitude`, as the latitude.
    public var gpsLongitudeRef: String?
    public var gpsLongitude: [Double]?
    /// `GPSDateStamp`, `YYYY:MM:DD` (UTC).
    public var gpsDateStamp: String?
    /// `GPSTimeStamp`: hours, minutes, seconds (UTC), rationals like the coordinates.
    public var gpsTimeStamp: [Double]?

    /// `MakerNote` (Exif IFD, UNDEFINED): a camera maker's own block, kilobytes in real photos.
    public var makerNote: [UInt8]?
    /// `PixelXDimension` and `PixelYDimension` (Exif IFD).
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    /// A JPEG thumbnail in IFD1 (`JPEGInterchangeFormat` and its length), as cameras store one.
    public var thumbnail: [UInt8]?

    /// The TIFF type of IFD0's pointers to the Exif and GPS IFDs: LONG, as the standard says, or
    /// another integer type, as some cameras write them.
    public var pointerType = PointerType.long

    /// An integer type an IFD pointer is written with, by its TIFF type number.
    public enum PointerType: UInt16, Sendable, Hashable, CaseIterable {
        case byte = 1, short = 3, long = 4, signedByte = 6, signedShort = 8, signedLong = 9, ifd = 13

        /// Bytes of one value.
        public var size: Int {
            switch self {
            case .byte, .signedByte: 1
            case .short, .signedShort: 2
            case .long, .signedLong, .ifd: 4
            }
        }

        /// The largest offset the type holds.
        public var maximum: Int {
            switch self {
            case .byte: 0xFF
            case .signedByte: 0x7F
            case .short: 0xFFFF
            case .signedShort: 0x7FFF
            case .signedLong: 0x7FFF_FFFF
            case .long, .ifd: 0xFFFF_FFFF
            }
        }
    }

    /// The denominator of every GPS rational written.
    public static let gpsDenominator = 1000

    public init(
        dateTimeOriginal: String? = nil, subSecTimeOriginal: String? = nil, offsetTimeOriginal: String? = nil,
        dateTimeDigitized: String? = nil, subSecTimeDigitized: String? = nil, offsetTimeDigitized: String? = nil,
        dateTime: String? = nil, subSecTime: String? = nil, offsetTime: String? = nil,
        orientation: Int? = nil, make: String? = nil, model: String? = nil
    ) {
        self.dateTimeOriginal = dateTimeOriginal
        self.subSecTimeOriginal = subSecTimeOriginal
        self.offsetTimeOriginal = offsetTimeOriginal
        self.dateTimeDigitized = dateTimeDigitized
        self.subSecTimeDigitized = subSecTimeDigitized
        self.offsetTimeDigitized = offsetTimeDigitized
        self.dateTime = dateTime
        self.subSecTime = subSecTime
        self.offsetTime = offsetTime
        self.orientation = orientation
        self.make = make
        self.model = model
    }

    /// Sets the GPS latitude and longitude (degrees, minutes, seconds) with their references from
    /// signed decimal degrees.
    public mutating func setPosition(latitude: Double, longitude: Double) {
        func parts(_ value: Double) -> [Double] {
            let magnitude = abs(value)
            let degrees = magnitude.rounded(.down)
            let minutes = ((magnitude - degrees) * 60).rounded(.down)
            let seconds = (magnitude - degrees - minutes / 60) * 3600
            return [degrees, minutes, seconds]
        }
        gpsLatitudeRef = latitude < 0 ? "S" : "N"
        gpsLatitude = parts(latitude)
        gpsLongitudeRef = longitude < 0 ? "W" : "E"
        gpsLongitude = parts(longitude)
    }

    /// Whether the GPS IFD would hold anything.
    var hasGPS: Bool {
        gpsLatitudeRef != nil || gpsLatitude != nil || gpsLongitudeRef != nil || gpsLongitude != nil
            || gpsDateStamp != nil || gpsTimeStamp != nil
    }

    /// Whether no field is set.
    public var isEmpty: Bool { self == ExifFields() }
}
