/// EXIF values to write into a fixture. `nil` fields are left out of the file.
public struct ExifFields: Sendable, Hashable {
    /// `YYYY:MM:DD HH:MM:SS`, written verbatim (so invalid values can be tested too).
    public var dateTimeOriginal: String?
    public var subSecTimeOriginal: String?
    public var offsetTimeOriginal: String?
    public var dateTimeDigitized: String?
    public var dateTime: String?
    public var orientation: Int?
    public var make: String?
    public var model: String?

    public init(
        dateTimeOriginal: String? = nil, subSecTimeOriginal: String? = nil, offsetTimeOriginal: String? = nil,
        dateTimeDigitized: String? = nil, dateTime: String? = nil, orientation: Int? = nil,
        make: String? = nil, model: String? = nil
    ) {
        self.dateTimeOriginal = dateTimeOriginal
        self.subSecTimeOriginal = subSecTimeOriginal
        self.offsetTimeOriginal = offsetTimeOriginal
        self.dateTimeDigitized = dateTimeDigitized
        self.dateTime = dateTime
        self.orientation = orientation
        self.make = make
        self.model = model
    }
}
