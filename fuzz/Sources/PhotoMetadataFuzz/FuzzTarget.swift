@testable import PhotoMetadata

#if canImport(Glibc)
import Glibc
#endif

/// The reader one fuzzing run drives, chosen by the `FUZZ_TARGET` environment variable.
enum FuzzTarget: String, CaseIterable {
    /// `MetadataReader` on the whole input: sniffing, then whichever reader the bytes choose.
    case metadata
    /// JPEG marker segments, APP1 Exif and SOFn.
    case jpeg
    /// ISO BMFF boxes: HEIF/AVIF `meta` (pitm, iinf, iloc, iprp, idat) and CR3 `moov/uuid`.
    case isobmff
    /// PNG chunks: IHDR and eXIf.
    case png
    /// TIFF IFDs: IFD0, SubIFDs, the IFD chain, the Exif IFD and its decoding by libexif.
    case tiff
    /// WebP RIFF chunks: VP8, VP8L, VP8X and EXIF.
    case webp
    /// ISO BMFF and QuickTime movies: top-level walk to `moov`, `mvhd`, `trak`/`tkhd`/`hdlr`,
    /// `meta`/`keys`/`ilst`, `udta`.
    case quicktime
    /// AVI: RIFF chunks, `hdrl`, `avih`, `strl`/`strh`/`strf`, `IDIT`.
    case avi
    /// Matroska/WebM: EBML header, Segment children, SeekHead, Info, Tracks.
    case matroska
    /// MPEG-TS/M2TS packets, then the H.264 SPS / MPEG-2 sequence header scan.
    case mpegts
    /// XMP and Takeout JSON sidecars: the bounded scanner.
    case sidecar

    static let current: FuzzTarget = {
        guard let name = getenv("FUZZ_TARGET").map({ String(cString: $0) }) else { return .metadata }
        guard let target = FuzzTarget(rawValue: name) else {
            print("Unknown FUZZ_TARGET '\(name)'; one of: \(allCases.map(\.rawValue).joined(separator: ", "))")
            exit(2)
        }
        return target
    }()

    /// Reads `bytes` with this target's reader. Every outcome but a crash, hang or leak is fine.
    func run(_ bytes: [UInt8]) {
        if self == .metadata {
            _ = try? MetadataReader().read(bytes: bytes)
            return
        }
        if self == .sidecar {
            _ = try? SidecarReader().contents(in: bytes, kind: .xmp)
            _ = try? SidecarReader().contents(in: bytes, kind: .takeoutJSON)
            return
        }
        guard let file = try? FileBytes(bytes: bytes) else { return }
        var facts = ImageFacts(format: .jpeg)
        switch self {
        case .metadata, .sidecar: break
        case .jpeg: try? JPEGReader.read(file, into: &facts)
        case .isobmff:
            try? HEIFReader.read(file, into: &facts)
            var raw = ImageFacts(format: .cr3)
            try? CR3Reader.read(file, into: &raw)
            _ = raw.metadata
        case .png: try? PNGReader.read(file, into: &facts)
        case .tiff: try? TIFFReader.read(file, into: &facts)
        case .webp: try? WebPReader.read(file, into: &facts)
        case .quicktime:
            facts.format = .mov
            try? QuickTimeReader.read(file, into: &facts)
        case .avi:
            facts.format = .avi
            try? AVIReader.read(file, into: &facts)
        case .matroska:
            facts.format = .mkv
            try? MatroskaReader.read(file, into: &facts)
        case .mpegts:
            facts.format = .m2ts
            try? TransportStreamReader.read(file, packetSize: 188, into: &facts)
            try? TransportStreamReader.read(file, packetSize: 192, into: &facts)
        }
        _ = facts.metadata
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else {
        FuzzTarget.current.run([])
        return 0
    }
    FuzzTarget.current.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// libFuzzer's own driver, which its `main` would call (SwiftPM gives an executable target its
/// own `main`, so the harness starts the driver itself).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@main
enum PhotoMetadataFuzz {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        _ = FuzzTarget.current
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzz))
    }
}
