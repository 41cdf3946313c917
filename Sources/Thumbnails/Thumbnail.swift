import Foundation

/// One rendition ready to send: encoded bytes with their content type and a strong ETag.
public struct Thumbnail: Sendable {
    /// The encoded image.
    public var bytes: [UInt8]
    /// The bytes' media type: `image/jpeg`, or `image/svg+xml` for a placeholder made without libvips.
    public var contentType: String
    /// A strong entity tag, quoted as it goes into the `ETag` header.
    ///
    /// It changes whenever the photo's id, file size or modification time does, and differs
    /// between a placeholder and the real image.
    public var etag: String
    /// True when the photo could not be decoded and `bytes` are a neutral grey image.
    public var isPlaceholder: Bool
    /// Why this is a placeholder, or, with a real image, why it could not be cached.
    public var error: ThumbnailError?

    public init(bytes: [UInt8], contentType: String, etag: String, isPlaceholder: Bool, error: ThumbnailError?) {
        self.bytes = bytes
        self.contentType = contentType
        self.etag = etag
        self.isPlaceholder = isPlaceholder
        self.error = error
    }

    /// Whether an `If-None-Match` header value names this entity, so the answer is 304.
    ///
    /// Accepts `*` and comma-separated lists; a weak tag (`W/"…"`) matches its strong twin, as
    /// RFC 9110 asks for `If-None-Match`.
    public func matches(ifNoneMatch header: String) -> Bool {
        Self.tag(etag, matches: header)
    }

    /// Whether an `If-None-Match` header value names the entity tagged `etag` (quoted), as
    /// `matches(ifNoneMatch:)` decides it.
    public static func tag(_ etag: String, matches ifNoneMatch: String) -> Bool {
        for candidate in ifNoneMatch.split(separator: ",") {
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            if tag == etag { return true }
        }
        return false
    }
}
