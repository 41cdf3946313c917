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

    /// Whether no field is set.
    public var isEmpty: Bool { self == ExifFields() }
}
