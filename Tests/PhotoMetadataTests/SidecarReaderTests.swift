import WallClock
import Foundation
import PhotoMetadata
import Spawn
import Testing

/// XMP and Google Takeout sidecars: the dates they hold, and hostile ones at bounded cost.
@Suite struct SidecarReaderTests {
    static let reader = SidecarReader(timeZone: .fixed(UTCOffset(seconds: -4 * 3600)))

    static func date(_ text: String, _ kind: SidecarReader.Kind) throws(MetadataError) -> CaptureDate? {
        try reader.date(in: Array(text.utf8), kind: kind)
    }

    static func xmp(_ body: String) -> String {
        """
        <?xpacket begin='\u{FEFF}' id='W5M0MpCehiHzreSzNTczkc9d'?>
        <x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>
        \(body)
        </rdf:RDF></x:xmpmeta>
        """
    }

    @Test func xmpAttributeAndElementForms() throws {
        let attribute = Self.xmp(#"<rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:DateTimeOriginal="2019-07-04T18:30:00.25+02:00"/>"#)
        let element = Self.xmp("<rdf:Description><exif:DateTimeOriginal>2019-07-04T18:30:00.25+02:00</exif:DateTimeOriginal></rdf:Description>")
        for text in [attribute, element] {
            let date = try #require(try Self.date(text, .xmp))
            #expect(date.local.iso8601 == "2019-07-04T18:30:00.250")
            #expect(date.offset?.iso8601 == "+02:00")
            #expect(date.source == .xmpSidecar)
        }
    }

    @Test("DateTimeOriginal before CreateDate before DateCreated, wherever they stand in the file")
    func xmpPreferenceOrder() throws {
        let all = Self.xmp("""
            <rdf:Description photoshop:DateCreated="2001-01-01" xmp:CreateDate="2002-02-02T02:02:02"/>
            <rdf:Description><exif:DateTimeOriginal>2003-03-03T03:03:03</exif:DateTimeOriginal></rdf:Description>
            """)
        #expect(try Self.date(all, .xmp)?.local.iso8601 == "2003-03-03T03:03:03")
        let two = Self.xmp(#"<rdf:Description photoshop:DateCreated="2001-01-01" xmp:CreateDate="2002-02-02T02:02:02"/>"#)
        #expect(try Self.date(two, .xmp)?.local.iso8601 == "2002-02-02T02:02:02")
        let one = Self.xmp(#"<rdf:Description photoshop:DateCreated="2001-01-01"/>"#)
        #expect(try Self.date(one, .xmp)?.local.iso8601 == "2001-01-01T00:00:00")
        // A longer name that ends like ours, and invalid values, are not dates.
        let others = Self.xmp(#"<rdf:Description myexif:DateTimeOriginal="2004-04-04T04:04:04" exif:DateTimeOriginal="0000:00:00 00:00:00"/>"#)
        #expect(try Self.date(others, .xmp) == nil)
    }

    @Test("An XMP sidecar written by exiftool")
    func xmpFromExiftool() throws {
        let exiftool = "/usr/bin/exiftool"
        guard FileManager.default.isExecutableFile(atPath: exiftool) else {
            print("SidecarReaderTests: exiftool not installed (apt-get install libimage-exiftool-perl); skipping its sidecar.")
            return
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-sidecar-\(UUID().uuidString).xmp").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = try ChildProcess.run(URL(fileURLWithPath: exiftool), arguments: [
            "-q", "-o", path, "-XMP-exif:DateTimeOriginal=2019:07:04 18:30:00.25+02:00", "-XMP-xmp:CreateDate=2018:01:01 00:00:00",
        ])
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let date = try #require(try Self.reader.date(atPath: path, kind: .xmp))
        #expect(date.local.iso8601 == "2019-07-04T18:30:00.250")
        #expect(date.offset?.iso8601 == "+02:00")
    }

    @Test func takeoutTimestampIsUTCShownInTheMachineZone() throws {
        let json = """
            {
              "title": "IMG_1234.jpg",
              "creationTime": {"timestamp": "1600000000", "formatted": "13 Sep 2020, 12:26:40 UTC"},
              "photoTakenTime": {
                "timestamp": "1562257800",
                "formatted": "4 Jul 2019, 16:30:00 UTC"
              }
            }
            """
        let date = try #require(try Self.date(json, .takeoutJSON))
        // 16:30 UTC at -04:00.
        #expect(date.local.iso8601 == "2019-07-04T12:30:00")
        #expect(date.offset?.iso8601 == "-04:00")
        #expect(date.source == .takeoutJSON)
        #expect(try Self.date(#"{"photoTakenTime": {"timestamp": "0"}}"#, .takeoutJSON) == nil)
        #expect(try Self.date(#"{"creationTime": {"timestamp": "1562257800"}}"#, .takeoutJSON) == nil)
    }

    @Test("Not XML, not JSON, or too large: a typed error, never a crash")
    func unusableSidecarsThrow() {
        #expect(throws: MetadataError.self) { try Self.date("{\"a\": 1}", .xmp) }
        #expect(throws: MetadataError.self) { try Self.date("<x/>", .takeoutJSON) }
        #expect(throws: MetadataError.self) { try Self.reader.date(in: [0xFF, 0xD8, 0xFF, 0xE0], kind: .xmp) }
        let huge = [UInt8](repeating: 0x20, count: SidecarReader.maximumSize + 1)
        #expect(throws: MetadataError.self) { try Self.reader.date(in: huge, kind: .xmp) }
        if case .failure(let error) = Result(catching: { () throws(MetadataError) in try Self.reader.date(in: huge, kind: .takeoutJSON) }) {
            #expect(error.code == .budgetExceeded)
        }
    }

    @Test("Entity expansion, deep nesting and long runs cost one pass over the bytes")
    func hostileSidecarsAreCheap() throws {
        var laughs = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [<!ENTITY lol \"lol\">"
        for level in 1...9 {
            laughs += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">"
        }
        laughs += "]>\n<x:xmpmeta><rdf:Description exif:DateTimeOriginal=\"&lol9;\" xmp:CreateDate=\"2020-02-02T10:00:00\"/></x:xmpmeta>"
        let nestedXML = String(repeating: "<a>", count: 200_000) + "<exif:DateTimeOriginal>2021-01-01T00:00:00</exif:DateTimeOriginal>"
        let nestedJSON = "{\"x\": " + String(repeating: "[", count: 1_000_000) + "\"photoTakenTime\""
        let prefixes = "<" + String(repeating: "exif:DateTimeOrigina", count: 90_000)
        let start = ContinuousClock.now
        // Entities are never expanded: the entity reference is not a date, the next field is.
        #expect(try Self.date(laughs, .xmp)?.local.iso8601 == "2020-02-02T10:00:00")
        #expect(try Self.date(nestedXML, .xmp)?.local.iso8601 == "2021-01-01T00:00:00")
        #expect(try Self.date(nestedJSON, .takeoutJSON) == nil)
        #expect(try Self.date(prefixes, .xmp) == nil)
        let elapsed = ContinuousClock.now - start
        print("Four hostile sidecars (\(laughs.utf8.count + nestedXML.utf8.count + nestedJSON.utf8.count + prefixes.utf8.count) bytes) took \(elapsed)")
    }
}
