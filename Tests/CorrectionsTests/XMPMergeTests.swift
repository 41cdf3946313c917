import Corrections
import Foundation
import PhotoMetadata
import Spawn
import Testing
import WallClock

/// Merging into existing sidecars keeps every byte Shoebox does not write; other tools read
/// what Shoebox writes, and Shoebox reads what they write.
@Suite("XMP sidecar merge")
struct XMPMergeTests {
    /// A sidecar as darktable 4 writes it: attributes on `rdf:Description`, a rating, tags, a
    /// hierarchical tag, and an edit history of three operations.
    static let darktable = """
        <?xml version="1.0" encoding="UTF-8"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
            xmlns:exif="http://ns.adobe.com/exif/1.0/"
            xmlns:xmp="http://ns.adobe.com/xap/1.0/"
            xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
            xmlns:dc="http://purl.org/dc/elements/1.1/"
            xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
            xmlns:darktable="http://darktable.sf.net/"
           exif:DateTimeOriginal="2019:07:14 12:00:00.123"
           xmp:Rating="4"
           xmpMM:DerivedFrom="IMG_0001.CR2"
           darktable:import_timestamp="63824738192000000"
           darktable:change_timestamp="63824738255000000"
           darktable:export_timestamp="-1"
           darktable:print_timestamp="-1"
           darktable:xmp_version="5"
           darktable:raw_params="0"
           darktable:auto_presets_applied="1"
           darktable:history_end="3"
           darktable:iop_order_version="4">
           <dc:subject>
            <rdf:Bag>
             <rdf:li>holiday</rdf:li>
             <rdf:li>Lisbon &amp; friends</rdf:li>
            </rdf:Bag>
           </dc:subject>
           <lr:hierarchicalSubject>
            <rdf:Bag>
             <rdf:li>places|Portugal|Lisbon</rdf:li>
            </rdf:Bag>
           </lr:hierarchicalSubject>
           <darktable:masks_history>
            <rdf:Seq/>
           </darktable:masks_history>
           <darktable:history>
            <rdf:Seq>
             <rdf:li
              darktable:num="0"
              darktable:operation="rawprepare"
              darktable:enabled="1"
              darktable:modversion="2"
              darktable:params="000000000000000000000000000000000000000000000000"
              darktable:multi_name=""
              darktable:multi_priority="0"
              darktable:blendop_version="14"
              darktable:blendop_params="gz11eJxjYIAACQYYOOHEgAZY0QVwggZ7CB6pfOygYtaVAyAYsAw="/>
             <rdf:li
              darktable:num="1"
              darktable:operation="exposure"
              darktable:enabled="1"
              darktable:modversion="6"
              darktable:params="00000000000080b90000803f00004842000080c0"
              darktable:multi_name=""
              darktable:multi_priority="0"
              darktable:blendop_version="14"
              darktable:blendop_params="gz11eJxjYIAACQYYOOHEgAZY0QVwggZ7CB6pfOygYtaVAyAYsAw="/>
             <rdf:li
              darktable:num="2"
              darktable:operation="filmicrgb"
              darktable:enabled="1"
              darktable:modversion="7"
              darktable:params="d6e5d13e2c5bd9be"
              darktable:multi_name="mask &quot;sky&quot;"
              darktable:multi_priority="0"
              darktable:blendop_version="14"
              darktable:blendop_params="gz11eJxjYIAACQYYOOHEgAZY0QVwggZ7CB6pfOygYtaVAyAYsAw="/>
            </rdf:Seq>
           </darktable:history>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>

        """

    static func merge(_ text: String, _ values: XMPSidecar.Values) throws -> String {
        String(decoding: try XMPSidecar.merged(into: Array(text.utf8), values, name: "IMG_0001.CR2.xmp"), as: UTF8.self)
    }

    @Test("A darktable sidecar keeps its rating, tags and history field for field; the date is replaced where it was")
    func darktableFieldForField() throws {
        let date = LocalDateTime(year: 2019, month: 7, day: 14, hour: 13, minute: 0, second: 0, millisecond: 123)
        let merged = try Self.merge(Self.darktable, XMPSidecar.Values(date: date, offset: UTCOffset(seconds: 3600), position: GeoPosition(latitude: 38.7223, longitude: -9.1393)))
        // Take out exactly what was added and put the old date back: the original, byte for byte.
        let value = "2019-07-14T13:00:00.123+01:00"
        var restored = merged
        for added in ["xmlns:photoshop=\"http://ns.adobe.com/photoshop/1.0/\"", "photoshop:DateCreated=\"\(value)\"", "xmp:CreateDate=\"\(value)\"",
                      "exif:GPSLatitude=\"38,43.338000N\"", "exif:GPSLongitude=\"9,8.358000W\""] {
            #expect(restored.contains("\n   " + added), "\(added)")
            restored = restored.replacingOccurrences(of: "\n   " + added, with: "")
        }
        restored = restored.replacingOccurrences(of: "exif:DateTimeOriginal=\"\(value)\"", with: "exif:DateTimeOriginal=\"2019:07:14 12:00:00.123\"")
        #expect(restored == Self.darktable)
        // Replaced in place, added beside the last attribute with its indentation, the namespace declared once.
        #expect(merged.contains("\n   exif:DateTimeOriginal=\"2019-07-14T13:00:00.123+01:00\"\n   xmp:Rating=\"4\""))
        #expect(merged.contains("\n   xmlns:photoshop=\"http://ns.adobe.com/photoshop/1.0/\"\n   photoshop:DateCreated=\"2019-07-14T13:00:00.123+01:00\"\n   xmp:CreateDate="))
        #expect(merged.contains("darktable:iop_order_version=\"4\"\n   xmlns:photoshop"))
        let read = try SidecarReader().contents(in: Array(merged.utf8), kind: .xmp)
        #expect(read.date == CaptureDate(local: date, offset: UTCOffset(seconds: 3600), source: .xmpSidecar, offsetSource: .exif))
        // A second merge changes only the values: the bytes around them stay.
        let again = try Self.merge(merged, XMPSidecar.Values(date: date.adding(milliseconds: 1000), offset: UTCOffset(seconds: 3600)))
        #expect(again.count == merged.count)
        #expect(again.replacingOccurrences(of: "13:00:01.123", with: "13:00:00.123") == merged)
    }

    @Test("Element form is replaced inside its element; a self-closing one is filled; prefixes are resolved by namespace")
    func elementForm() throws {
        let text = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:e="http://ns.adobe.com/exif/1.0/" xmlns:xap="http://ns.adobe.com/xap/1.0/">
            <e:DateTimeOriginal>2001-01-01T00:00:00</e:DateTimeOriginal><xap:CreateDate/><!-- exif:DateTimeOriginal='1999' -->
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let merged = try Self.merge(text, XMPSidecar.Values(date: LocalDateTime(year: 2002, month: 2, day: 2, hour: 2)))
        #expect(merged.contains("<e:DateTimeOriginal>2002-02-02T02:00:00</e:DateTimeOriginal><xap:CreateDate>2002-02-02T02:00:00</xap:CreateDate><!-- exif:DateTimeOriginal='1999' -->"))
        #expect(merged.contains("<rdf:Description xmlns:e=\"http://ns.adobe.com/exif/1.0/\" xmlns:xap=\"http://ns.adobe.com/xap/1.0/\" xmlns:photoshop=\"http://ns.adobe.com/photoshop/1.0/\" photoshop:DateCreated=\"2002-02-02T02:00:00\">"))
    }

    @Test("A sidecar with rdf:RDF but no description gets one")
    func newDescription() throws {
        let merged = try Self.merge("<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'></rdf:RDF></x:xmpmeta>", XMPSidecar.Values(position: GeoPosition(latitude: -33.8688, longitude: 151.2093)))
        #expect(merged.contains("<rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'><rdf:Description rdf:about=\"\" xmlns:exif=\"http://ns.adobe.com/exif/1.0/\" exif:GPSLatitude=\"33,52.128000S\" exif:GPSLongitude=\"151,12.558000E\"/></rdf:RDF>"))
    }

    // MARK: - Other tools

    static let exiftool = ["/usr/bin/exiftool", "/usr/local/bin/exiftool"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// exiftool's output for `arguments`, or `nil` (with the reason recorded) when it is not installed.
    static func runExiftool(_ arguments: [String]) throws -> String {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: try #require(exiftool, "exiftool is not installed: apt-get install libimage-exiftool-perl"))
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }

    static func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "shoebox-xmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("exiftool reads every date and position Shoebox wrote, into a new sidecar and into darktable's", .enabled(if: exiftool != nil, "exiftool is not installed"))
    func exiftoolReadsShoebox() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let values = XMPSidecar.Values(
            date: LocalDateTime(year: 2019, month: 7, day: 14, hour: 12, minute: 0, second: 0, millisecond: 123),
            offset: UTCOffset(seconds: 2 * 3600), position: GeoPosition(latitude: 38.7223, longitude: -9.1393))
        let fresh = folder + "/new.jpg.xmp"
        let merged = folder + "/dark.CR2.xmp"
        try Data(try XMPSidecar.merged(into: nil, values, name: "new.jpg.xmp")).write(to: URL(fileURLWithPath: fresh))
        try Data(try XMPSidecar.merged(into: Array(Self.darktable.utf8), values, name: "dark.CR2.xmp")).write(to: URL(fileURLWithPath: merged))
        for file in [fresh, merged] {
            let json = try Self.runExiftool(["-j", "-n", "-XMP-exif:DateTimeOriginal", "-XMP-photoshop:DateCreated", "-XMP-xmp:CreateDate", "-XMP-exif:GPSLatitude", "-XMP-exif:GPSLongitude", "-XMP-xmp:Rating", "-XMP-dc:Subject", file])
            let object = try #require((try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])?.first, "\(json)")
            #expect(object["DateTimeOriginal"] as? String == "2019:07:14 12:00:00.123+02:00", "\(file)")
            #expect(object["DateCreated"] as? String == "2019:07:14 12:00:00.123+02:00", "\(file)")
            #expect(object["CreateDate"] as? String == "2019:07:14 12:00:00.123+02:00", "\(file)")
            #expect(abs((object["GPSLatitude"] as? Double ?? 0) - 38.7223) < 1e-6, "\(file)")
            #expect(abs((object["GPSLongitude"] as? Double ?? 0) + 9.1393) < 1e-6, "\(file)")
            if file == merged {
                #expect(object["Rating"] as? Int == 4)
                #expect(object["Subject"] as? [String] == ["holiday", "Lisbon & friends"])
            }
        }
        // Every other tag exiftool finds in darktable's sidecar, history included, is still there with its value.
        let original = folder + "/original.xmp"
        try Data(Self.darktable.utf8).write(to: URL(fileURLWithPath: original))
        let tags = { (file: String) throws -> [String] in
            try Self.runExiftool(["-a", "-s", "-XMP:all", file]).split(separator: "\n").map(String.init)
        }
        let before = try tags(original).filter { !$0.hasPrefix("DateTimeOriginal") }
        let after = Set(try tags(merged))
        #expect(before.count > 30 && before.filter { $0.hasPrefix("HistoryOperation") }.count == 3)
        #expect(before.filter { !after.contains($0) } == [])
    }

    @Test("Shoebox reads and merges into what exiftool writes", .enabled(if: exiftool != nil, "exiftool is not installed"))
    func shoeboxReadsExiftool() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/IMG_1.jpg.xmp"
        _ = try Self.runExiftool(["-q", "-o", file, "-XMP-exif:DateTimeOriginal=2018:03:04 05:06:07.89-03:00", "-XMP-exif:GPSLatitude=48.8566", "-XMP-exif:GPSLatitudeRef=N", "-XMP-exif:GPSLongitude=2.3522", "-XMP-exif:GPSLongitudeRef=E", "-XMP-xmp:Rating=2", "-XMP-dc:Subject=paris"])
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        let read = try SidecarReader().contents(in: bytes, kind: .xmp)
        #expect(read.date == CaptureDate(local: LocalDateTime(year: 2018, month: 3, day: 4, hour: 5, minute: 6, second: 7, millisecond: 890), offset: UTCOffset(seconds: -3 * 3600), source: .xmpSidecar, offsetSource: .exif))
        let position = try #require(read.position)
        #expect(abs(position.latitude - 48.8566) < 1e-6 && abs(position.longitude - 2.3522) < 1e-6)
        // Merged by Shoebox, then read by exiftool: the new date, the old rating and subject.
        let merged = try XMPSidecar.merged(into: bytes, XMPSidecar.Values(date: LocalDateTime(year: 2018, month: 3, day: 4, hour: 8, minute: 6, second: 7, millisecond: 890), offset: UTCOffset(seconds: 0)), name: "IMG_1.jpg.xmp")
        try Data(merged).write(to: URL(fileURLWithPath: file))
        let json = try Self.runExiftool(["-j", "-XMP-exif:DateTimeOriginal", "-XMP-xmp:Rating", "-XMP-dc:Subject", file])
        #expect(json.contains("\"DateTimeOriginal\": \"2018:03:04 08:06:07.890+00:00\""), "\(json)")
        #expect(json.contains("\"Rating\": 2") && json.contains("paris"), "\(json)")
    }
}
