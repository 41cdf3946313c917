import WallClock
import Foundation
public import LibraryIndex
import PhotoMetadata

/// One photo as `shoebox photos --json` prints it; field names are a contract other tools rely on.
public struct PhotoJSON: Encodable, Sendable {
    public var path: String
    public var captured: String
    public var offset: String?
    public var dateSource: String
    public var width: Int?
    public var height: Int?
    public var format: String?
    public var error: String?
    /// `photo` or `video`.
    public var mediaType: String
    /// Seconds of playback, for videos whose container says (to the millisecond).
    public var duration: Double?
    /// Whether the last run did not find the file and kept its row.
    public var missing: Bool
    /// Degrees north and east (seven decimals, about a centimetre), or both `nil`.
    public var latitude: Double?
    public var longitude: Double?
    /// Where `offset` came from: `exif`, `gps-time`, `place`, or `nil`.
    public var offsetSource: String?
    /// The nearest named place to the position (`city`, `region`, `country`, `countryCode`), or `nil`.
    public var place: PhotoPlace?
    /// The exact bytes of a path that is not valid UTF-8 (base64); `path` then shows them as `\xHH`.
    public var pathBytes: String?
    /// The id of the stack it belongs to (RAW+JPEG, burst, edit), or nil.
    public var stack: Int64?
    /// The path of the file kept in its duplicate group, when it is one of the extras; else nil.
    public var duplicateOf: String?

    public init(_ photo: IndexedPhoto) {
        path = photo.path.string
        pathBytes = photo.path.isValidUTF8 ? nil : Data(photo.path.bytes).base64EncodedString()
        captured = photo.captureDate.local.iso8601
        offset = photo.captureDate.offset?.iso8601
        dateSource = photo.captureDate.source.rawValue
        width = photo.displaySize?.width
        height = photo.displaySize?.height
        format = photo.format?.rawValue
        error = photo.error
        mediaType = photo.mediaType.rawValue
        // Milliseconds are plenty, and keep the JSON free of binary-fraction noise.
        duration = photo.duration.map { ($0 * 1000).rounded() / 1000 }
        missing = photo.missingSince != nil
        latitude = photo.position.map { Self.degrees($0.latitude) }
        longitude = photo.position.map { Self.degrees($0.longitude) }
        offsetSource = photo.captureDate.offsetSource?.rawValue
        place = photo.place
    }

    /// Degrees rounded to seven decimals, which keeps the JSON free of binary-fraction noise.
    static func degrees(_ value: Double) -> Double { (value * 1e7).rounded() / 1e7 }

    /// Explicit nulls: a missing value is `null`, not an absent key (`pathBytes` excepted).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(path, forKey: .path)
        try c.encode(captured, forKey: .captured)
        try c.encode(offset, forKey: .offset)
        try c.encode(dateSource, forKey: .dateSource)
        try c.encode(duplicateOf, forKey: .duplicateOf)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(format, forKey: .format)
        try c.encode(error, forKey: .error)
        try c.encode(mediaType, forKey: .mediaType)
        try c.encode(duration, forKey: .duration)
        try c.encode(missing, forKey: .missing)
        try c.encode(latitude, forKey: .latitude)
        try c.encode(longitude, forKey: .longitude)
        try c.encode(offsetSource, forKey: .offsetSource)
        try c.encode(place, forKey: .place)
        try c.encode(stack, forKey: .stack)
        try c.encodeIfPresent(pathBytes, forKey: .pathBytes)
    }

    enum CodingKeys: String, CodingKey {
        case path, captured, offset, dateSource, width, height, format, error, mediaType, duration, missing, pathBytes
        case latitude, longitude, offsetSource, place, stack, duplicateOf
    }
}

/// One photo in full, as the server's `/api/photos/{id}` answers: `PhotoJSON` (with `mediaType`
/// and `duration`) plus the row's id, camera, file size, pixel size and orientation.
public struct PhotoDetailJSON: Encodable, Sendable {
    public var photo: PhotoJSON
    public var id: Int64
    public var make: String?
    public var model: String?
    public var fileSize: Int64
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    public var orientation: Int?
    /// For a stack's cover in a search result: the photos the stack holds (absent otherwise).
    public var stackCount: Int?
    /// For a stack a search found only through a member: that member's id (absent otherwise).
    public var matchedMember: Int64?

    public init(_ row: IndexedPhoto, id: Int64) {
        photo = PhotoJSON(row)
        self.id = id
        make = row.cameraMake
        model = row.cameraModel
        fileSize = row.fileSize
        pixelWidth = row.pixelSize?.width
        pixelHeight = row.pixelSize?.height
        orientation = row.orientation
    }

    public func encode(to encoder: any Encoder) throws {
        try photo.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(make, forKey: .make)
        try c.encode(model, forKey: .model)
        try c.encode(fileSize, forKey: .fileSize)
        try c.encode(pixelWidth, forKey: .pixelWidth)
        try c.encode(pixelHeight, forKey: .pixelHeight)
        try c.encode(orientation, forKey: .orientation)
        try c.encodeIfPresent(stackCount, forKey: .stackCount)
        try c.encodeIfPresent(matchedMember, forKey: .matchedMember)
    }

    enum CodingKeys: String, CodingKey {
        case id, make, model, fileSize, pixelWidth, pixelHeight, orientation, stackCount, matchedMember
    }
}
