import CExif
import CExifArena

/// Decodes an EXIF block with libexif into the fields Shoebox uses.
enum ExifDecoder {
    /// The `Exif\0\0` marker libexif expects before the TIFF header.
    static let exifMarker: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]

    /// Decodes `payload`, which starts with `Exif\0\0` followed by a TIFF header.
    ///
    /// Returns empty values when libexif finds nothing (bad header, no IFD).
    static func decode(payload: ByteView) -> ExifValues {
        guard payload.count > exifMarker.count + 8 else { return ExifValues() }
        return payload.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                  let data = shoebox_exif_arena_data_new()
            else { return ExifValues() }
            // Freed on this thread, before the call returns, as the arena wants.
            defer { shoebox_exif_arena_data_free(data) }
            exif_data_load_data(data, base, UInt32(min(bytes.count, Int(UInt32.max))))
            return ExifDocument(data: data).values()
        }
    }
}

/// Reads the fields Shoebox uses from a libexif `ExifData` (which its caller owns).
private struct ExifDocument {
    let data: UnsafeMutablePointer<ExifData>

    func values() -> ExifValues {
        var values = ExifValues()
        values.orientation = integer(EXIF_TAG_ORIENTATION, in: [EXIF_IFD_0]).flatMap { (1...8).contains($0) ? $0 : nil }
        values.make = text(EXIF_TAG_MAKE, in: [EXIF_IFD_0])
        values.model = text(EXIF_TAG_MODEL, in: [EXIF_IFD_0])
        let exifFirst = [EXIF_IFD_EXIF, EXIF_IFD_0]
        values.original = ExifValues.Stamp(
            dateTime: text(EXIF_TAG_DATE_TIME_ORIGINAL, in: exifFirst),
            subSeconds: text(EXIF_TAG_SUB_SEC_TIME_ORIGINAL, in: exifFirst),
            offset: text(EXIF_TAG_OFFSET_TIME_ORIGINAL, in: exifFirst))
        values.digitized = ExifValues.Stamp(
            dateTime: text(EXIF_TAG_DATE_TIME_DIGITIZED, in: exifFirst),
            subSeconds: text(EXIF_TAG_SUB_SEC_TIME_DIGITIZED, in: exifFirst),
            offset: text(EXIF_TAG_OFFSET_TIME_DIGITIZED, in: exifFirst))
        values.modified = ExifValues.Stamp(
            dateTime: text(EXIF_TAG_DATE_TIME, in: [EXIF_IFD_0, EXIF_IFD_EXIF]),
            subSeconds: text(EXIF_TAG_SUB_SEC_TIME, in: exifFirst),
            offset: text(EXIF_TAG_OFFSET_TIME, in: exifFirst))
        let gps = [EXIF_IFD_GPS]
        values.gps.latitudeRef = text(Self.gpsTag(EXIF_TAG_GPS_LATITUDE_REF), in: gps)
        values.gps.latitude = rationals(Self.gpsTag(EXIF_TAG_GPS_LATITUDE), in: gps)
        values.gps.longitudeRef = text(Self.gpsTag(EXIF_TAG_GPS_LONGITUDE_REF), in: gps)
        values.gps.longitude = rationals(Self.gpsTag(EXIF_TAG_GPS_LONGITUDE), in: gps)
        values.gps.dateStamp = text(Self.gpsTag(EXIF_TAG_GPS_DATE_STAMP), in: gps)
        values.gps.timeStamp = rationals(Self.gpsTag(EXIF_TAG_GPS_TIME_STAMP), in: gps)
        return values
    }

    /// libexif defines the GPS tags as macros, which Swift imports as plain integers.
    private static func gpsTag(_ number: some BinaryInteger) -> ExifTag {
        ExifTag(rawValue: numericCast(number))
    }

    /// Up to three RATIONAL (or non-negative SRATIONAL) values.
    private func rationals(_ tag: ExifTag, in ifds: [ExifIfd]) -> [ExifValues.Rational]? {
        guard let entry = entry(tag, in: ifds), let bytes = entry.pointee.data else { return nil }
        let order = exif_data_get_byte_order(data)
        let count = min(Int(entry.pointee.size) / 8, Int(entry.pointee.components), 3)
        guard count > 0 else { return nil }
        var values: [ExifValues.Rational] = []
        values.reserveCapacity(count)
        for index in 0..<count {
            let at = bytes + 8 * index
            switch entry.pointee.format {
            case EXIF_FORMAT_RATIONAL:
                let value = exif_get_rational(at, order)
                values.append(.init(numerator: Double(value.numerator), denominator: Double(value.denominator)))
            case EXIF_FORMAT_SRATIONAL:
                let value = exif_get_srational(at, order)
                values.append(.init(numerator: Double(value.numerator), denominator: Double(value.denominator)))
            default:
                return nil
            }
        }
        return values
    }

    private func entry(_ tag: ExifTag, in ifds: [ExifIfd]) -> UnsafeMutablePointer<ExifEntry>? {
        for ifd in ifds {
            if let entry = shoebox_exif_entry(data, ifd, tag), entry.pointee.data != nil, entry.pointee.size > 0 {
                return entry
            }
        }
        return nil
    }

    /// A text value without its NUL and padding, or `nil` when blank.
    private func text(_ tag: ExifTag, in ifds: [ExifIfd]) -> String? {
        guard let entry = entry(tag, in: ifds), let bytes = entry.pointee.data,
              exif_format_get_size(entry.pointee.format) == 1
        else { return nil }
        let text = ExifDateParser.trimmed(UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size)))
        return text.isEmpty ? nil : text
    }

    private func integer(_ tag: ExifTag, in ifds: [ExifIfd]) -> Int? {
        guard let entry = entry(tag, in: ifds), let bytes = entry.pointee.data else { return nil }
        let order = exif_data_get_byte_order(data)
        let size = Int(entry.pointee.size)
        switch entry.pointee.format {
        case EXIF_FORMAT_SHORT where size >= 2: return Int(exif_get_short(bytes, order))
        case EXIF_FORMAT_LONG where size >= 4: return Int(exif_get_long(bytes, order))
        case EXIF_FORMAT_BYTE where size >= 1: return Int(bytes.pointee)
        default: return nil
        }
    }
}
