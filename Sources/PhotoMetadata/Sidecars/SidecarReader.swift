#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the capture date of a sidecar: an XMP file beside a photo (darktable, Lightroom,
/// digiKam) or the JSON file of a Google Takeout export.
///
/// Hostile sidecars cost bounded time and memory: a file larger than `maximumSize` is refused
/// before it is read, and the text is scanned once, byte by byte, for the few names Shoebox
/// needs. Nothing is parsed into a tree, no entity is expanded, no nesting is followed, so
/// neither a billion laughs nor ten thousand nested arrays cost more than reading the bytes.
public struct SidecarReader: Sendable {
    /// The two kinds of sidecar, by the date fields they hold.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `exif:DateTimeOriginal`, else `xmp:CreateDate`, else `photoshop:DateCreated`.
        case xmp
        /// `photoTakenTime.timestamp`: seconds since 1970, UTC.
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

    /// The date in the sidecar at `path`, or `nil` when it holds none.
    ///
    /// - Throws: `.unreadable` when it cannot be opened, `.budgetExceeded` when it is larger than
    ///   `maximumSize`, `.malformed` when it is not XML (or JSON) at all.
    public func date(atPath path: String, kind: Kind) throws(MetadataError) -> CaptureDate? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw MetadataError(.unreadable, "The sidecar cannot be opened: \(String(cString: strerror(errno))).")
        }
        defer { close(descriptor) }
        return try date(fileDescriptor: descriptor, kind: kind)
    }

    /// The date in an open sidecar. The descriptor is neither moved nor closed.
    public func date(fileDescriptor descriptor: Int32, kind: Kind) throws(MetadataError) -> CaptureDate? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw MetadataError(.unreadable, "The sidecar cannot be examined: \(String(cString: strerror(errno))).")
        }
        guard Int(status.st_size) <= Self.maximumSize else {
            throw MetadataError(.budgetExceeded, "The sidecar is larger than \(Self.maximumSize / 1024 / 1024) MiB.")
        }
        let file = try FileBytes(descriptor: descriptor)
        return try date(in: try file.view(at: 0, count: file.size), kind: kind)
    }

    /// The date in sidecar bytes already in memory (tests, fuzzing).
    package func date(in bytes: [UInt8], kind: Kind) throws(MetadataError) -> CaptureDate? {
        guard bytes.count <= Self.maximumSize else {
            throw MetadataError(.budgetExceeded, "The sidecar is larger than \(Self.maximumSize / 1024 / 1024) MiB.")
        }
        return try date(in: ByteView(bytes), kind: kind)
    }

    func date(in text: ByteView, kind: Kind) throws(MetadataError) -> CaptureDate? {
        let scanner = SidecarScanner(text)
        switch kind {
        case .xmp:
            guard scanner.firstSignificantByte == UInt8(ascii: "<") else { throw .malformed("The XMP sidecar is not XML.") }
            for name in ["exif:DateTimeOriginal", "xmp:CreateDate", "photoshop:DateCreated"] {
                guard let value = scanner.xmpValue(of: Array(name.utf8)),
                      let parsed = ExifDateParser.dateTime(String(decoding: value, as: UTF8.self))
                else { continue }
                return CaptureDate(local: parsed.local, offset: parsed.offset, source: .xmpSidecar)
            }
            return nil
        case .takeoutJSON:
            guard scanner.firstSignificantByte == UInt8(ascii: "{") else { throw .malformed("The Takeout sidecar is not JSON.") }
            guard let seconds = scanner.takeoutTimestamp(), seconds > 0, VideoDates.plausible(seconds) else { return nil }
            return timeZone.captureDate(utcSecondsSince1970: seconds, source: .takeoutJSON)
        }
    }
}
