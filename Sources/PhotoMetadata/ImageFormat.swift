/// An image container, identified from a file's first bytes (never from its extension).
public enum ImageFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case jpeg
    case heic
    case heif
    case avif
    case png
    case webp
    case tiff
    /// TIFF-based and other raw formats, by their usual extension.
    case dng, cr2, cr3, crw, nef, arw, orf, rw2, pef, raf, mrw, x3f, iiq, srw
}
