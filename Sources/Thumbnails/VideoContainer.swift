import PhotoMetadata
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A video container recognised from a file's first bytes, and the ffmpeg demuxer that reads it.
///
/// ffmpeg probes by content, so a playlist renamed `.avi` (HLS, concat, ffconcat) would make it
/// open other files. Shoebox never lets it probe: a file is given to ffmpeg only with the demuxer
/// sniffed here (`-f mov`, `-f avi`, `-f matroska`, `-f mpegts`), and a file that sniffs as none
/// of these is not given to ffmpeg at all. No playlist or image2 demuxer is ever named.
public enum VideoContainer: String, Sendable, CaseIterable {
    /// ISO BMFF and QuickTime: MP4, MOV, M4V, 3GP, and QuickTime movies older than `ftyp`.
    case mov
    /// RIFF AVI.
    case avi
    /// Matroska and WebM.
    case matroska
    /// MPEG transport streams, 188-byte packets or M2TS's 192.
    case mpegts

    /// The `-f` value for ffmpeg and ffprobe.
    public var demuxer: String { rawValue }

    /// Bytes read from the start of a file to sniff it.
    static let headLength = 1024

    /// The container of the file at `path`, or nil when it is not a video Shoebox gives to ffmpeg
    /// (or cannot be read).
    public static func sniff(path: String) -> VideoContainer? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: headLength)
        var done = 0
        while done < head.count {
            let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + done, $0.count - done) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            done += count
        }
        let first = Array(head.prefix(done))
        if let container = sniff(first) { return container }
        // A QuickTime movie older than `ftyp` is known only once its atoms are walked to a `moov`
        // with a video track, past atoms of any size: PhotoMetadata's sniffer does that walk.
        guard first.count >= 8, legacyLeadingAtoms.contains(String(decoding: first[4..<8], as: UTF8.self)) else { return nil }
        return (try? MetadataReader().sniffedFormat(atPath: path)) == .mov ? .mov : nil
    }

    /// Top-level atoms a QuickTime movie older than `ftyp` may start with.
    private static let legacyLeadingAtoms: Set<String> = ["moov", "free", "skip", "wide", "pnot", "PICT", "mdat"]

    /// The container of a file whose first bytes are `head`. A QuickTime movie older than `ftyp`
    /// is not found from its head alone: `sniff(path:)` finds it.
    public static func sniff(_ head: [UInt8]) -> VideoContainer? {
        func matches(_ text: String, at offset: Int) -> Bool {
            let bytes = Array(text.utf8)
            return head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        func u32(_ offset: Int) -> Int? {
            guard head.count >= offset + 4 else { return nil }
            return head[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        func fourCC(_ offset: Int) -> String? {
            guard head.count >= offset + 4 else { return nil }
            return String(decoding: head[offset..<offset + 4], as: UTF8.self)
        }
        if matches("ftyp", at: 4) {
            // HEIF, AVIF and CR3 are ISO media too, but photos.
            let images: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "mif2", "miaf", "avif", "avis", "crx ", "jp2 ", "jpx "]
            guard let major = fourCC(8), !images.contains(major) else { return nil }
            let end = min(u32(0) ?? 0, head.count)
            var offset = 16
            while offset + 4 <= end, let brand = fourCC(offset) {
                if brand == "crx " { return nil }
                offset += 4
            }
            return .mov
        }
        if matches("RIFF", at: 0), matches("AVI ", at: 8) { return .avi }
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return .matroska }
        for (size, first) in [(188, 0), (192, 4)] {
            let packets = min(4, (head.count - first) / size)
            if packets >= 3, (0..<packets).allSatisfy({ head[first + $0 * size] == 0x47 }) { return .mpegts }
        }
        return nil
    }
}
