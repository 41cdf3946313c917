import WallClock
import Foundation
import GRDB
import LibraryIndex
import PhotoFixtures
import PhotoLibrary
import PhotoMetadata
import Spawn
@testable import ShoeboxCLI
import Testing

/// `shoebox photos` streams; its JSON stays what the contract's encoder writes, byte for byte.
@Suite("photos streaming")
struct PhotosStreamingTests {
    /// Names that test escaping: quotes, backslashes, every C0 control, DEL, C1, line separators,
    /// emoji, and bytes that are not UTF-8.
    static let awkwardNames: [[UInt8]] = {
        var names: [[UInt8]] = [
            Array("quote\"back\\slash and space.jpg".utf8),
            Array("del\u{7F} c1\u{85} ls\u{2028} ps\u{2029} nbsp\u{A0}.jpg".utf8),
            Array("émoji 😀 👩‍👩‍👧 ẞ.heic".utf8),
            [0x62, 0x61, 0x64, 0xFF, 0xFE, 0x2E, 0x6A, 0x70, 0x67],
            [0x74, 0x72, 0x75, 0x6E, 0x63, 0xE2, 0x82, 0x2E, 0x6A, 0x70, 0x67],
        ]
        for byte in UInt8(1)..<0x20 where byte != 0x2F { names.append(Array("ctl-".utf8) + [byte] + Array("-\(byte).jpg".utf8)) }
        return names
    }()

    /// The old output: each element through the contract's `JSONEncoder`, joined as the writer did.
    static func encoderOutput(_ photos: [IndexedPhoto]) throws -> [UInt8] {
        var out = Array("[".utf8)
        for (i, photo) in photos.enumerated() {
            out += Array((i == 0 ? "\n" : ",\n").utf8)
            out += Array(try ContractJSON.encode(PhotoJSON(photo)))
        }
        out += Array((photos.isEmpty ? "]\n" : "\n]\n").utf8)
        return out
    }

    @Test("each photo written by hand equals the encoder's bytes, whatever its values")
    func handWrittenEqualsEncoder() throws {
        let durations: [Double?] = [nil, 2.5, 3, 0.001, 59.999, 1234.5678, 1e21, 0.1 + 0.2]
        var photo = IndexedPhoto(
            path: RelativePath(bytes: []), fileSize: 1, modificationTime: 0, format: .jpeg,
            captureDate: CaptureDate(local: LocalDateTime(year: 2020, month: 2, day: 29, hour: 23, minute: 59, second: 58, millisecond: 7),
                                     offset: UTCOffset(seconds: -34_200), source: .filename))
        for (i, name) in Self.awkwardNames.enumerated() {
            photo.path = RelativePath(bytes: name)
            photo.error = i % 3 == 0 ? "Broken \"header\"\n\tat byte \(i)\u{1}" : nil
            photo.duration = durations[i % durations.count]
            photo.mediaType = photo.duration == nil ? .photo : .video
            photo.displaySize = i % 2 == 0 ? PixelSize(width: 4032, height: 3024) : nil
            photo.missingSince = i % 4 == 0 ? "2024-01-01T00:00:00Z" : nil
            photo.format = i % 5 == 0 ? nil : .heic
            photo.captureDate.offset = i % 2 == 0 ? nil : UTCOffset(seconds: 3600 * (i % 14) * (i % 3 == 0 ? -1 : 1) + 1800 * (i % 2))
            photo.captureDate.offsetSource = photo.captureDate.offset == nil ? nil : OffsetSource.allCases[i % OffsetSource.allCases.count]
            photo.position = i % 3 == 1 ? nil : GeoPosition(
                latitude: [48.858222, -33.85678449, 0.1 + 0.2, 89.99999999, -0.000001, 1e-7][i % 6],
                longitude: [2.2945, 151.21529671, -179.99999999, 1e-7, 100, -0.1 - 0.2][i % 6])
            photo.captureDate.local = LocalDateTime(
                year: [2020, 5, 1999, 9999][i % 4], month: 1 + i % 12, day: 1 + i % 28, hour: i % 24, minute: i % 60,
                second: (i * 7) % 60, millisecond: [nil, 0, 7, 999, 120][i % 5])
            let json = PhotoJSON(photo)
            var handWritten: [UInt8] = []
            try json.appendPrettyJSON(to: &handWritten)
            let encoded = Array(try ContractJSON.encode(json))
            #expect(handWritten == encoded, "\(String(decoding: handWritten, as: UTF8.self))\n≠\n\(String(decoding: encoded, as: UTF8.self))")
            var fromRow: [UInt8] = []
            try PhotoJSON.appendPrettyJSON(of: photo, to: &fromRow)
            #expect(fromRow == encoded, "\(String(decoding: fromRow, as: UTF8.self))\n≠\n\(String(decoding: encoded, as: UTF8.self))")
            // The server's compact detail, as a search answers it.
            photo.place = i % 4 == 3 ? nil : PhotoPlace(
                city: i % 2 == 0 ? "São \"Paulo\"" : nil, region: i % 3 == 0 ? nil : "Région\u{1}", country: "Brazil", countryCode: i % 5 == 0 ? nil : "BR")
            photo.cameraMake = i % 2 == 0 ? "Canon" : nil
            photo.cameraModel = i % 3 == 0 ? nil : "EOS \"R6\""
            photo.pixelSize = i % 2 == 0 ? PixelSize(width: 6000, height: 4000) : nil
            photo.orientation = i % 3 == 0 ? nil : 1 + i % 8
            photo.fileSize = [-1, 0, 123_456_789_012][i % 3]
            let detail = PhotoDetailJSON(photo, id: Int64(i * 1_000_003))
            var compact: [UInt8] = []
            try detail.appendCompactJSON(to: &compact)
            let compactEncoded = Array(try ContractJSON.encode(detail, compact: true))
            #expect(compact == compactEncoded, "\(String(decoding: compact, as: UTF8.self))\n≠\n\(String(decoding: compactEncoded, as: UTF8.self))")
        }
    }

    @Test("photos --json prints latitude, longitude and offsetSource: numbers and a name, or null")
    func positionFields() throws {
        let tree = try TemporaryDirectory()
        var fields = ExifFields(dateTimeOriginal: "2021:07:14 14:30:00")
        fields.setPosition(latitude: -33.856784, longitude: 151.215297)
        fields.gpsDateStamp = "2021:07:14"
        fields.gpsTimeStamp = [4, 30, 0]
        try tree.write("photos/gps.jpg", PhotoFixtures.jpeg(width: 8, height: 8, exif: fields))
        try tree.write("photos/plain.jpg", PhotoFixtures.jpeg(width: 8, height: 8, exif: ExifFields(dateTimeOriginal: "2021:07:14 14:30:00", offsetTimeOriginal: "+01:00")))
        let db = tree.path + "/index.sqlite"
        let indexed = try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", db])
        #expect(indexed.status == 0, "\(indexed.stderr)")
        let listed = try ShoeboxProcess.run(["photos", "--json", "--db", db])
        #expect(listed.status == 0)
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let byPath = Dictionary(uniqueKeysWithValues: objects.map { ($0["path"] as? String ?? "", $0) })
        let gps = try #require(byPath["gps.jpg"])
        // The fixture writes seconds in thousandths: about 3e-7 degrees.
        #expect((gps["latitude"] as? Double).map { abs($0 + 33.856784) < 1e-6 } == true)
        #expect((gps["longitude"] as? Double).map { abs($0 - 151.215297) < 1e-6 } == true)
        #expect(gps["offset"] as? String == "+10:00")
        #expect(gps["offsetSource"] as? String == "gps-time")
        let plain = try #require(byPath["plain.jpg"])
        #expect(plain["latitude"] is NSNull)
        #expect(plain["longitude"] is NSNull)
        #expect(plain["offsetSource"] as? String == "exif")
    }

    @Test("photos --json on an indexed tree of awkward names prints the encoder's bytes")
    func streamedEqualsEncoder() throws {
        let tree = try TemporaryDirectory()
        let root = tree.path + "/photos"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for (i, name) in Self.awkwardNames.enumerated() {
            let bytes = i % 4 == 3 ? Array(PhotoFixtures.jpeg(width: 8, height: 8).prefix(9)) : PhotoFixtures.jpeg(width: 8 + i, height: 8)
            let path = Array(root.utf8) + [0x2F] + name
            let fd = open(path.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            try #require(fd >= 0, "cannot create \(name)")
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        let db = tree.path + "/index.sqlite"
        let indexed = try ShoeboxProcess.run(["index", root, "--db", db])
        #expect(indexed.status == 0, "\(indexed.stderr)")
        let rows = try LibraryStore(path: db, mode: .readOnly).photos()
        #expect(rows.count == Self.awkwardNames.count)
        #expect(rows.contains { !$0.path.isValidUTF8 } && rows.contains { $0.error != nil })

        let process = ShoeboxProcess.start(["photos", "--json", "--db", db])
        let stdout = Pipe()
        process.standardOutput = stdout
        try process.run()
        let printed = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(Array(printed) == (try Self.encoderOutput(rows)))
    }

    @Test("a table longer than its first page keeps its columns and counts every row")
    func longTable() throws {
        let tree = try TemporaryDirectory()
        let db = tree.path + "/library.sqlite"
        let count = PhotoTable.pageSize + 321
        let photos = (0..<count).map { i in
            IndexedPhoto(
                path: RelativePath(String(format: "%06d.jpg", i)), fileSize: 1, modificationTime: 0, format: .jpeg,
                captureDate: CaptureDate(local: LocalDateTime(year: 2021, month: 1, day: 1 + i % 28, hour: 10), offset: nil, source: .dateTimeOriginal),
                displaySize: PixelSize(width: 100 + i % 900, height: 50), error: i == count - 1 ? "late and long error" : nil)
        }
        try LibraryStore(path: db, mode: .readWrite).insertSynthetic(photos, root: "/synthetic")
        let table = try ShoeboxProcess.run(["photos", "--db", db])
        #expect(table.status == 0)
        let lines = table.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == count + 3)  // header, rows, footer, and the final newline
        #expect(lines[count + 1] == "\(count.grouped) files, 1 with errors")
        // Every row's path starts in the same column as in the first page.
        let pathColumn = try #require(lines[1].range(of: "000000.jpg")).lowerBound.utf16Offset(in: lines[1])
        for i in [1, 2, PhotoTable.pageSize, PhotoTable.pageSize + 1, count] {
            let expected = String(format: "%06d.jpg", i - 1)
            #expect(lines[i].range(of: expected)?.lowerBound.utf16Offset(in: lines[i]) == pathColumn, "\(lines[i])")
        }
        #expect(lines[count].hasSuffix("  (error: late and long error)"))
    }

    @Test("a row whose stored capture date cannot be read is an error naming the row, not a 1970 date")
    func unreadableRow() throws {
        let tree = try TemporaryDirectory()
        let db = tree.path + "/library.sqlite"
        let photo = IndexedPhoto(
            path: RelativePath("a/b.jpg"), fileSize: 1, modificationTime: 0, format: .jpeg,
            captureDate: CaptureDate(local: LocalDateTime(year: 2021, month: 1, day: 1), offset: nil, source: .dateTimeOriginal))
        try LibraryStore(path: db, mode: .readWrite).insertSynthetic([photo], root: "/synthetic")
        let queue = try DatabaseQueue(path: db)
        let id = try queue.write { db in
            try db.execute(sql: "UPDATE photo SET captured = 'yesterday'")
            return try Int64.fetchOne(db, sql: "SELECT id FROM photo") ?? -1
        }
        let listed = try ShoeboxProcess.run(["photos", "--db", db])
        #expect(listed.status != 0)
        #expect(!listed.stdout.contains("1970"))
        #expect(listed.stderr.contains("a/b.jpg") && listed.stderr.contains("id \(id)") && listed.stderr.contains("\"yesterday\""), "\(listed.stderr)")
        #expect(listed.stderr.contains("DELETE FROM photo WHERE id = \(id)"), "\(listed.stderr)")
        let store = try LibraryStore(path: db, mode: .readOnly)
        let error = #expect(throws: IndexError.self) { try store.photos() }
        #expect(error?.code == .unreadableRow)
    }
}

extension PhotosStreamingTests {
    @Test("a streamed table row is the row the first page's formatter writes", arguments: [false, true])
    func streamedRowEqualsPageRow(hasVideos: Bool) throws {
        let layout = PhotoTable.Layout(hasVideos: hasVideos, widths: hasVideos ? [26, 17, 11, 8, 4, 0] : [26, 17, 11, 4, 0], rightAligned: hasVideos ? [2, 3] : [2])
        for (i, name) in Self.awkwardNames.enumerated() {
            var photo = IndexedPhoto(
                path: RelativePath(bytes: name), fileSize: 1, modificationTime: 0, format: i % 5 == 0 ? nil : .jpeg,
                captureDate: CaptureDate(
                    local: LocalDateTime(year: 2001 + i, month: 1 + i % 12, day: 1 + i % 28, hour: i % 24, minute: i, second: 59, millisecond: i % 2 == 0 ? nil : 250),
                    offset: i % 3 == 0 ? nil : UTCOffset(seconds: -3600 * (i % 12)), source: i % 4 == 0 ? .fileModified : .dateTimeOriginal),
                displaySize: i % 6 == 0 ? nil : PixelSize(width: 40 * (i + 1), height: 3 * (i + 1) * (i + 1)),
                error: i % 7 == 0 ? "bad\tbyte \u{1b}[31m" : nil, missingSince: i % 8 == 0 ? "2024-03-04T05:06:07Z" : nil)
            photo.mediaType = hasVideos && i % 2 == 0 ? .video : .photo
            photo.duration = photo.mediaType == .video && i % 4 == 0 ? Double(i) * 13.7 : nil
            var paged: [UInt8] = []
            PhotoTable.appendLine(PhotoTable.cells(photo, hasVideos: hasVideos), layout: layout, to: &paged)
            var streamed: [UInt8] = []
            PhotoTable.appendRow(photo, layout: layout, to: &streamed)
            #expect(streamed == paged, "\(String(decoding: streamed, as: UTF8.self))≠\(String(decoding: paged, as: UTF8.self))")
        }
    }
}
