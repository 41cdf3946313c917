/// TIFF tag numbers used by the readers.
enum TIFFTag {
    static let newSubfileType: UInt16 = 0x00FE
    static let imageWidth: UInt16 = 0x0100
    static let imageLength: UInt16 = 0x0101
    static let compression: UInt16 = 0x0103
    static let photometric: UInt16 = 0x0106
    static let make: UInt16 = 0x010F
    static let model: UInt16 = 0x0110
    static let orientation: UInt16 = 0x0112
    static let dateTime: UInt16 = 0x0132
    static let subIFDs: UInt16 = 0x014A
    static let exifIFD: UInt16 = 0x8769
    static let gpsIFD: UInt16 = 0x8825
    static let dngVersion: UInt16 = 0xC612
    static let dateTimeOriginal: UInt16 = 0x9003
    static let dateTimeDigitized: UInt16 = 0x9004
    static let offsetTime: UInt16 = 0x9010
    static let offsetTimeOriginal: UInt16 = 0x9011
    static let offsetTimeDigitized: UInt16 = 0x9012
    static let subSecTime: UInt16 = 0x9290
    static let subSecTimeOriginal: UInt16 = 0x9291
    static let subSecTimeDigitized: UInt16 = 0x9292

    /// The tags copied into a compact EXIF block for libexif, from IFD0 and from the Exif IFD. (An
    /// array: for a dozen tags a scan beats hashing, which every entry of every photo pays.)
    static let exifFields: [UInt16] = [
        make, model, orientation, dateTime, dateTimeOriginal, dateTimeDigitized,
        offsetTime, offsetTimeOriginal, offsetTimeDigitized, subSecTime, subSecTimeOriginal, subSecTimeDigitized,
    ]

    /// The GPS IFD tags copied: latitude and longitude with their references, date and time stamps.
    static let gpsFields: [UInt16] = [0x0001, 0x0002, 0x0003, 0x0004, 0x0007, 0x001D]
}
