import CExif
import CExifArena
import Foundation
import PhotoFixtures
@testable import PhotoMetadata
import Synchronization
import Testing

/// libexif allocates from a buffer of the decoding thread (`CExifArena`): every block must still
/// read as itself, whatever was decoded before it, beside it, or on another thread.
@Suite("libexif's memory from a buffer per thread")
struct ExifArenaTests {
    static func fields(make: String, day: Int) -> ExifFields {
        var fields = ExifFields(
            dateTimeOriginal: String(format: "2021:07:%02d 14:30:00", day), subSecTimeOriginal: "25", offsetTimeOriginal: "+02:00",
            orientation: 6, make: make, model: "Model \(day)")
        fields.setPosition(latitude: 48.858222, longitude: 2.2945)
        return fields
    }

    static func payload(_ fields: ExifFields, bigEndian: Bool = false) -> [UInt8] {
        ExifDecoder.exifMarker + PhotoFixtures.exifTIFF(fields, bigEndian: bigEndian)
    }

    static func decode(_ payload: [UInt8]) -> ExifValues { ExifDecoder.decode(payload: ByteView(payload)) }

    @Test("Blocks decoded one after another each read as themselves, and leave the buffer free")
    func oneAfterAnother() {
        let overflowsBefore = shoebox_exif_arena_overflows()
        let payloads = (1...9).map { Self.payload(Self.fields(make: "Make \($0)", day: $0), bigEndian: $0 % 2 == 0) }
        for round in 0..<900 {
            let day = round % 9 + 1
            let values = Self.decode(payloads[day - 1])
            #expect(values.make == "Make \(day)" && values.model == "Model \(day)" && values.orientation == 6)
            #expect(values.original.dateTime == String(format: "2021:07:%02d 14:30:00", day))
            #expect(values.original.subSeconds == "25" && values.original.offset == "+02:00")
            #expect(values.gps.latitudeRef == "N" && values.gps.latitude?.count == 3)
            #expect(shoebox_exif_arena_used() == 0)
        }
        #expect(shoebox_exif_arena_overflows() == overflowsBefore)
    }

    @Test("Two blocks alive at once keep their own memory; the buffer is free when both are")
    func twoAlive() throws {
        func load(_ payload: [UInt8]) throws -> UnsafeMutablePointer<ExifData> {
            let data = try #require(shoebox_exif_arena_data_new())
            exif_data_load_data(data, payload, UInt32(payload.count))
            return data
        }
        func make(_ data: UnsafeMutablePointer<ExifData>) -> String? {
            guard let entry = shoebox_exif_entry(data, EXIF_IFD_0, EXIF_TAG_MAKE), let bytes = entry.pointee.data else { return nil }
            return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size)).prefix { $0 != 0 }, as: UTF8.self)
        }
        let first = try load(Self.payload(Self.fields(make: "First", day: 1)))
        let used = shoebox_exif_arena_used()
        #expect(used > 0)
        let second = try load(Self.payload(Self.fields(make: "Second", day: 2)))
        #expect(shoebox_exif_arena_used() > used)
        // A decode meanwhile allocates after both, and gives its space back.
        #expect(Self.decode(Self.payload(Self.fields(make: "Third", day: 3))).make == "Third")
        #expect(make(first) == "First" && make(second) == "Second")
        shoebox_exif_arena_data_free(first)
        #expect(make(second) == "Second")
        #expect(shoebox_exif_arena_used() > 0)
        shoebox_exif_arena_data_free(second)
        #expect(shoebox_exif_arena_used() == 0)
    }

    @Test("A block larger than the buffer is read whole from memory of its own")
    func largerThanTheBuffer() {
        let overflowsBefore = shoebox_exif_arena_overflows()
        // 60,000 bytes of text in two fields: within the 64 KiB libexif reads of a block, beyond the buffer.
        var fields = Self.fields(make: String(repeating: "m", count: 30_000), day: 4)
        fields.model = String(repeating: "n", count: 30_000)
        let values = Self.decode(Self.payload(fields))
        #expect(values.make?.count == 30_000 && values.make?.allSatisfy { $0 == "m" } == true)
        #expect(values.model?.count == 30_000 && values.model?.allSatisfy { $0 == "n" } == true)
        #expect(values.original.dateTime == "2021:07:04 14:30:00")
        #expect(shoebox_exif_arena_overflows() > overflowsBefore)
        #expect(shoebox_exif_arena_used() == 0)
        // The buffer serves the next block again.
        #expect(Self.decode(Self.payload(Self.fields(make: "Short", day: 5))).make == "Short")
    }

    @Test("Threads decode at once, each from its own buffer")
    func threads() {
        let payloads = (1...8).map { Self.payload(Self.fields(make: "Thread \($0)", day: $0)) }
        let wrong = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for _ in 0..<400 {
                let values = Self.decode(payloads[thread])
                if values.make != "Thread \(thread + 1)" || values.model != "Model \(thread + 1)" || shoebox_exif_arena_used() != 0 {
                    wrong.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
    }
}
