import Foundation
@testable import PhotoMetadata
import PhotoFixtures
import Testing

/// Every input in `testdata/fuzz/` — the fuzzer's finds and hand-made hostile files — is read
/// without a crash, hang or runaway allocation, both through `MetadataReader` and through the
/// reader of the fuzz target that found it (the part of the file name before the first `-`).
@Suite struct FuzzRegressionTests {
    /// `testdata/fuzz` of this package, found from this source file.
    static let directory: URL = {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("testdata/fuzz")
    }()

    static let names: [String] = {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return all.filter { $0.hasSuffix(".bin") }.sorted()
    }()

    @Test func fixturesArePresent() {
        #expect(Self.names.count >= 10, "testdata/fuzz holds \(Self.names.count) inputs")
    }

    @Test(arguments: names)
    func fixtureIsReadSafely(_ name: String) throws {
        let path = Self.directory.appendingPathComponent(name).path
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let target = String(name.prefix { $0 != "-" })
        #expect(["metadata", "jpeg", "isobmff", "png", "tiff", "webp"].contains(target), "unknown target in \(name)")

        // From disk, as the indexer reads it.
        let fromDisk = Result { () throws(MetadataError) in try MetadataReader().read(atPath: path) }
        // From memory, as the fuzzer read it: the same result.
        let fromMemory = Result { () throws(MetadataError) in try MetadataReader().read(bytes: bytes) }
        #expect(fromDisk == fromMemory)

        // Through the target's own reader, which need not pass the format sniffer.
        let file = try FileBytes(bytes: bytes)
        var facts = ImageFacts(format: .jpeg)
        let direct = Result { () throws(MetadataError) in
            switch target {
            case "jpeg": try JPEGReader.read(file, into: &facts)
            case "isobmff":
                try HEIFReader.read(file, into: &facts)
                var raw = ImageFacts(format: .cr3)
                try CR3Reader.read(file, into: &raw)
            case "png": try PNGReader.read(file, into: &facts)
            case "tiff": try TIFFReader.read(file, into: &facts)
            case "webp": try WebPReader.read(file, into: &facts)
            default: break
            }
        }
        if case .failure(let error) = direct {
            #expect(!error.message.isEmpty)
        }
        _ = facts.metadata
    }

    @Test func timeBudgetEndsTheRead() throws {
        let jpeg = PhotoFixtures.jpeg(width: 64, height: 48, exif: ExifFields(dateTimeOriginal: "2021:02:03 10:11:12"))
        #expect(throws: MetadataError.self) { try MetadataReader().read(bytes: jpeg, timeBudget: .zero) }
        let result = Result { () throws(MetadataError) in try MetadataReader().read(bytes: jpeg, timeBudget: .zero) }
        if case .failure(let error) = result { #expect(error.code == .budgetExceeded) }
        #expect(try MetadataReader().read(bytes: jpeg).pixelSize == PixelSize(width: 64, height: 48))
    }
}
