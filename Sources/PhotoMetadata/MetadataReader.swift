#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the metadata of one image or video file, touching only the bytes it needs.
///
/// The format comes from the first bytes. Reading starts with one 64 KiB `pread` and asks for
/// more only where the format points further into the file (a distant EXIF item, a JPEG
/// segment beyond the head, a movie's `moov` after its media data). A damaged file gives what
/// could be read before the damage; it throws only when nothing could be read at all, and
/// otherwise reports the damage in `PhotoMetadata.problem`.
public struct MetadataReader: Sendable {
    /// The zone in which the UTC dates of video containers are shown.
    public var timeZone: LocalTimeZone

    public init(timeZone: LocalTimeZone = .system) {
        self.timeZone = timeZone
    }

    /// Reads an open file. The descriptor is neither moved nor closed.
    ///
    /// - Throws: `.notAnImage` when the first bytes match no supported image or video format;
    ///   `.unreadable`, `.truncated`, `.malformed` or `.budgetExceeded` for an image that
    ///   could not be read.
    public func read(fileDescriptor: Int32) throws(MetadataError) -> PhotoMetadata {
        try read(try FileBytes(descriptor: fileDescriptor))
    }

    /// Reads an open regular file of `size` bytes, as its opener found with `fstat`: the file is
    /// not examined again. The descriptor is neither moved nor closed.
    public func read(regularFile fileDescriptor: Int32, size: Int) throws(MetadataError) -> PhotoMetadata {
        try read(try FileBytes(regularFile: fileDescriptor, size: size))
    }

    /// Reads a whole file held in memory, exactly as `read(fileDescriptor:)` reads it from disk.
    package func read(bytes: [UInt8], timeBudget: Duration = FileBytes.timeBudget) throws(MetadataError) -> PhotoMetadata {
        try read(try FileBytes(bytes: bytes, timeBudget: timeBudget))
    }

    /// Reads the file at `path` and says what the reading cost (for tests and benchmarks).
    package func readMeasuringCost(atPath path: String) -> (result: Result<PhotoMetadata, MetadataError>, cost: ReadCost) {
        do {
            return try FileBytes.reading(atPath: path) { file in
                (Result { () throws(MetadataError) in try read(file) }, ReadCost(bytes: file.bytesRead, reads: file.readCalls))
            }
        } catch {
            return (.failure(error), ReadCost())
        }
    }

    func read(_ file: FileBytes) throws(MetadataError) -> PhotoMetadata {
        guard let container = FormatSniffer.container(of: file) else {
            throw MetadataError(.notAnImage, file.size == 0 ? "The file is empty." : "The first bytes match no supported image or video format.")
        }
        var facts = ImageFacts(format: Self.initialFormat(container))
        do {
            switch container {
            case .jpeg: try JPEGReader.read(file, into: &facts)
            case .png: try PNGReader.read(file, into: &facts)
            case .webp: try WebPReader.read(file, into: &facts)
            case .tiff: try TIFFReader.read(file, into: &facts)
            case .isoMedia(.cr3): try CR3Reader.read(file, into: &facts)
            case .isoMedia: try HEIFReader.read(file, into: &facts)
            case .raf: try RAFReader.read(file, into: &facts)
            case .mrw: try MRWReader.read(file, into: &facts)
            case .x3f: try X3FReader.read(file, into: &facts)
            case .crw: break
            case .isoVideo: try QuickTimeReader.read(file, into: &facts)
            case .avi: try AVIReader.read(file, into: &facts)
            case .matroska: try MatroskaReader.read(file, into: &facts)
            case .mpegTS(let packetSize): try TransportStreamReader.read(file, packetSize: packetSize, into: &facts)
            }
        } catch {
            if facts.isEmpty {
                var failure = error
                failure.format = facts.format
                throw failure
            }
            var partial = facts.metadata(timeZone: timeZone)
            partial.problem = error
            return partial
        }
        return facts.metadata(timeZone: timeZone)
    }

    /// Opens, reads and closes the file at `path`.
    /// The format the first bytes of the file at `path` name (nil when neither an image nor a
    /// video), without reading anything else but, for a QuickTime movie older than `ftyp`, the
    /// headers of its first atoms; a raw TIFF counts as `.tiff`, as its header says.
    public func sniffedFormat(atPath path: String) throws(MetadataError) -> ImageFormat? {
        try FileBytes.reading(atPath: path) { file in FormatSniffer.container(of: file).map(Self.initialFormat) }
    }

    public func read(atPath path: String) throws(MetadataError) -> PhotoMetadata {
        try FileBytes.reading(atPath: path) { file throws(MetadataError) in try read(file) }
    }

    private static func initialFormat(_ container: FormatSniffer.Container) -> ImageFormat {
        switch container {
        case .jpeg: .jpeg
        case .png: .png
        case .webp: .webp
        case .tiff: .tiff
        case .isoMedia(let format): format
        case .raf: .raf
        case .mrw: .mrw
        case .x3f: .x3f
        case .crw: .crw
        case .isoVideo(let format), .matroska(let format): format
        case .avi: .avi
        case .mpegTS(let packetSize): packetSize == 192 ? .m2ts : .mpegTS
        }
    }
}
