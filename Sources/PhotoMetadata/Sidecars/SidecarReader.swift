#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the capture date and position of a sidecar: an XMP file beside a photo (darktable, Lightroom,
/// digiKam) or the JSON file of a Google Takeout export.
///
/// Hostile sidecars cost bounded time and memory: a file larger than `maximumSize` is refused
/// before it is read, and the text is scanned once, byte by byte, for the few names Shoebox
/// needs. Nothing is parsed into a tree, no entity is expanded, no nesting is followed, so
/// neither a billion laughs nor ten thousand nested arrays cost more than reading the bytes.
public struct SidecarReader: Sendable {
    /// The two kinds of sidecar, by the fields they hold.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `exif:DateTimeOriginal`, else `xmp:CreateDate`, else `photoshop:DateCreated`; position
        /// in `exif:GPSLatitude` and `exif:GPSLongitude`.
        case xmp
        /// `photoTakenTime.timestamp`: seconds since 1970, UTC; position in `geoData` (else
        /// `geoDataExif`) `latitude` and `longitude`.
        case takeoutJSON
    }

    /// Largest sidecar read. Real XMP sidecars take a few KiB (darktable's with a long edit
    /// history some hundreds); Takeout JSON files about one.
    public static let maximumSize = 2 * 1024 * 1024

    /// The zone in which Takeout's UTC timestamps are shown.
    public var timeZone: LocalTimeZone

    public init(timeZone: LocalTimeZone = .system) {
        self.timeZone = timeZone
    }

    /// What a sidecar says about its photo.
    public struct Contents: Sendable, Hashable {
        public var date: CaptureDate?
        public var position: GeoPosition?

        public init(date: CaptureDate? = nil, position: GeoPosition? = nil) {
            self.date = date
            self.position = position
        }
    }

    /// The date in the sidecar at `path`, or `nil` when it holds none.
    ///
    /// - Throws: `.unreadable` when it cannot be opened, `.budgetExceeded` when it is larger than
    ///   `maximumSize`, `.malformed` when it is not XML (or JSON) at all.
    public func date(atPath path: String, kind: Kind) throws(MetadataError) -> CaptureDate? {
        try contents(atPath: path, kind: kind).date
    }

    /// The date and position in the sidecar at `path` (errors as `date(atPath:kind:)`).
    public func contents(atPath path: String, kind: Kind) throws(MetadataError) -> Contents {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw MetadataError(.unreadable, "The sidecar cannot be opened: \(String(cString: strerror(errno))).")
        }
        defer { close(descriptor) }
        return try contents(fileDescriptor: descriptor, kind: kind)
    }

    /// The date in an open sidecar. The descriptor is neither moved nor closed.
    public func date(fileDescriptor descriptor: Int32, kind: Kind) throws(MetadataError) -> CaptureDate? {
        try contents(fileDescriptor: descriptor, kind: kind).date
    }

    /// The date and position in an open sidecar. The descriptor is neither moved nor closed.
    public func contents(fileDescriptor descriptor: Int32, kind: Kind) throws(MetadataError) -> Contents {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw MetadataError(.unreadable, "The sidecar cannot be examined: \(String(cString: strerror(errno))).")
        }
        guard Int(status.st_size) <= Self.maximumSize else {
            throw MetadataError(.budgetExceeded, "The sidecar is larger than \(Self.maximumSize / 1024 / 1024) MiB.")
        }
        let file = try FileBytes(descriptor: descriptor)
        return try contents(in: try file.view(at: 0, count: file.size), kind: kind)
    }

    /// The date in sidecar bytes already in memory (tests, fuzzing).
    package func date(in bytes: [UInt8], kind: Kind) throws(MetadataError) -> CaptureDate? {
        try contents(in: bytes, kind: kind).date
    }

    /// The date and position in sidecar bytes already in memory (tests, fuzzing).
    package func contents(in bytes: [UInt8], kind: Kind) throws(MetadataError) -> Contents {
        guard bytes.count <= Self.maximumSize else {
            throw MetadataError(.budgetExceeded, "The sidecar is larger than \(Self.maximumSize / 1024 / 1024) MiB.")
        }
        return try contents(in: ByteView(bytes), kind: kind)
    }

    func contents(in text: ByteView, kind: Kind) throws(MetadataError) -> Contents {
        let scanner = SidecarScanner(text)
        switch kind {
        case .xmp:
            guard scanner.firstSignificantByte == UInt8(ascii: "<") else { throw .malformed("The XMP sidecar is not XML.") }
            return Contents(date: Self.xmpDate(scanner), position: Self.xmpPosition(scanner))
        case .takeoutJSON:
            guard scanner.firstSignificantByte == UInt8(ascii: "{") else { throw .malformed("The Takeout sidecar is not JSON.") }
            var contents = Contents()
            if let seconds = scanner.takeoutTimestamp(), seconds > 0, VideoDates.plausible(seconds) {
                contents.date = timeZone.captureDate(utcSecondsSince1970: seconds, source: .takeoutJSON)
            }
            // Takeout writes 0.0/0.0 in `geoData` when it knows no place; `geoDataExif` may still have one.
            for object in ["geoData", "geoDataExif"] {
                guard let latitude = scanner.jsonNumber("latitude", inObject: object),
                      let longitude = scanner.jsonNumber("longitude", inObject: object),
                      let position = GeoPosition(latitude: latitude, longitude: longitude)
                else { continue }
                contents.position = position
                break
            }
            return contents
        }
    }

    /// `exif:DateTimeOriginal`, else `xmp:CreateDate`, else `photoshop:DateCreated`.
    private static func xmpDate(_ scanner: SidecarScanner) -> CaptureDate? {
        for name in ["exif:DateTimeOriginal", "xmp:CreateDate", "photoshop:DateCreated"] {
            guard let value = scanner.xmpValue(of: Array(name.utf8)),
                  let parsed = ExifDateParser.dateTime(String(decoding: value, as: UTF8.self))
            else { continue }
            return CaptureDate(local: parsed.local, offset: parsed.offset, source: .xmpSidecar, offsetSource: parsed.offset == nil ? nil : .exif)
        }
        return nil
    }

    /// `exif:GPSLatitude` and `exif:GPSLongitude` (XMP, embedded or sidecar).
    static func xmpPosition(_ scanner: SidecarScanner) -> GeoPosition? {
        guard let latitude = scanner.xmpValue(of: Array("exif:GPSLatitude".utf8)),
              let longitude = scanner.xmpValue(of: Array("exif:GPSLongitude".utf8))
        else { return nil }
        return GeoPosition(xmpLatitude: String(decoding: latitude, as: UTF8.self), longitude: String(decoding: longitude, as: UTF8.self))
    }
}
