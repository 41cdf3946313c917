/// Where the bytes of a TIFF structure come from: a file (from some offset) or memory.
///
/// Offsets inside a TIFF structure count from its header, so every read adds `base`.
struct TIFFSource {
    private enum Backing {
        case file(FileBytes, base: Int)
        case memory(ByteView)
    }

    private let backing: Backing

    static func file(_ file: FileBytes, base: Int = 0) -> TIFFSource { TIFFSource(backing: .file(file, base: base)) }
    static func memory(_ bytes: ByteView) -> TIFFSource { TIFFSource(backing: .memory(bytes)) }

    /// The number of bytes from the TIFF header to the end of the source.
    var size: Int {
        switch backing {
        case .file(let file, let base): file.size - base
        case .memory(let bytes): bytes.count
        }
    }

    func view(_ offset: Int, _ count: Int) throws(MetadataError) -> ByteView {
        switch backing {
        case .file(let file, let base):
            guard offset >= 0, offset <= Int.max - base else { throw .truncated(offset, count) }
            return try file.view(at: base + offset, count: count)
        case .memory(let bytes):
            return try bytes.view(offset, count)
        }
    }
}
