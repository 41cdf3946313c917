import WallClock
import PhotoFixtures
import PhotoMetadata
import Testing

/// IFD0's pointers to the Exif and GPS IFDs written with an integer type other than LONG
/// (issue 30, part 3): followed as ExifTool and Exiv2 follow them, unless they are negative or
/// lead outside the EXIF block.
@Suite struct IFDPointerTests {
    static func fields(_ type: ExifFields.PointerType) -> ExifFields {
        var fields = ExifFields(dateTimeOriginal: "2021:07:14 14:30:00", dateTime: "2022:01:02 03:04:05")
        fields.setPosition(latitude: 48.858222, longitude: 2.2945)
        fields.pointerType = type
        return fields
    }

    /// The offset of the little-endian directory entry of `tag` with `type` and a count of 1.
    static func entry(_ tag: UInt16, _ type: ExifFields.PointerType, in bytes: [UInt8]) throws -> Int {
        let pattern: [UInt8] = [UInt8(tag & 0xFF), UInt8(tag >> 8), UInt8(type.rawValue), 0, 1, 0, 0, 0]
        return try #require((0...(bytes.count - pattern.count)).first { Array(bytes[$0..<$0 + pattern.count]) == pattern },
                            "no entry of tag \(tag) with type \(type)")
    }

    @Test("An Exif or GPS IFD pointer of any integer type is followed: DateTimeOriginal and the position are read",
          arguments: ExifFields.PointerType.allCases)
    func pointerOfAnyIntegerType(_ type: ExifFields.PointerType) throws {
        let fields = Self.fields(type)
        let jpeg = PhotoFixtures.jpeg(width: 8, height: 8, exif: fields)
        // The fixture really writes both pointers with `type`.
        _ = try Self.entry(0x8769, type, in: jpeg)
        _ = try Self.entry(0x8825, type, in: jpeg)
        var files = [("jpeg", jpeg), ("png", PhotoFixtures.png(width: 8, height: 8, exif: fields)),
                     ("webp", PhotoFixtures.webp(width: 8, height: 8, exif: fields))]
        // A TIFF's directories follow its pixels, beyond what a BYTE can point to.
        if type.maximum >= 0x7FFF {
            files += [("tiff", PhotoFixtures.tiff(width: 8, height: 8, exif: fields)),
                      ("big-endian tiff", PhotoFixtures.tiff(width: 8, height: 8, exif: fields, bigEndian: true))]
        }
        for (name, file) in files {
            let metadata = try TemporaryFile.read(file)
            #expect(metadata.exifDate?.source == .dateTimeOriginal, "\(name)")
            #expect(metadata.exifDate?.local.iso8601 == "2021-07-14T14:30:00", "\(name)")
            PositionTests.expectClose(metadata.position, 48.858222, 2.2945)
        }
    }

    @Test("A negative pointer, or one past the end of the block, is not followed: no position, the date from IFD0",
          arguments: [
            (ExifFields.PointerType.signedLong, [0xFF, 0xFF, 0xFF, 0xFF] as [UInt8]),
            (.signedLong, [0x00, 0x00, 0x00, 0x80]),
            (.signedShort, [0xFF, 0xFF]),
            (.signedByte, [0x80]),
            (.long, [0xF0, 0xFF, 0xFF, 0x7F]),
            (.short, [0xFF, 0xFF]),
          ])
    func pointerOutsideTheBlock(_ type: ExifFields.PointerType, _ value: [UInt8]) throws {
        var file = PhotoFixtures.jpeg(width: 8, height: 8, exif: Self.fields(type))
        for tag: UInt16 in [0x8769, 0x8825] {
            let entry = try Self.entry(tag, type, in: file)
            file.replaceSubrange(entry + 8..<entry + 8 + value.count, with: value)
        }
        let metadata = try TemporaryFile.read(file)
        #expect(metadata.position == nil)
        #expect(metadata.exifDate?.source == .dateTime)
        #expect(metadata.exifDate?.local.iso8601 == "2022-01-02T03:04:05")
    }
}
