/// Whether an indexed file is a still image or a video.
public enum MediaType: String, Sendable, Hashable, Codable, CaseIterable {
    case photo
    case video
}
