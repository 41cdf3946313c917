/// A file container, identified from a file's first bytes (never from its extension).
///
/// Most are still images; `mediaType` tells the video containers apart.
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
    /// ISO BMFF videos: MPEG-4, QuickTime, iTunes M4V and 3GPP.
    case mp4, mov, m4v
    case threeGP = "3gp"
    /// RIFF AVI.
    case avi
    /// Matroska and its WebM profile.
    case mkv, webm
    /// MPEG transport streams: `.ts` (188-byte packets) and AVCHD/Blu-ray `.m2ts` (192-byte packets).
    case mpegTS = "ts"
    case m2ts

    /// Whether this is a camera raw format, whose picture is shown from its embedded preview.
    public var isRaw: Bool {
        switch self {
        case .dng, .cr2, .cr3, .crw, .nef, .arw, .orf, .rw2, .pef, .raf, .mrw, .x3f, .iiq, .srw: true
        default: false
        }
    }

    /// Whether the container holds a still image or a video.
    public var mediaType: MediaType {
        switch self {
        case .mp4, .mov, .m4v, .threeGP, .avi, .mkv, .webm, .mpegTS, .m2ts: .video
        default: .photo
        }
    }
}
