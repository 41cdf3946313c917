/// Why a thumbnail could not be made (it is then a placeholder) or could not be cached.
public struct ThumbnailError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure; extensible, so new codes break no `switch`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let rawValue: String

        init(rawValue: String) { self.rawValue = rawValue }

        /// The source path is not absolute.
        public static let invalidSource = Code(rawValue: "invalidSource")
        /// The file is not there (it may come back: this failure is not remembered).
        public static let fileNotFound = Code(rawValue: "fileNotFound")
        /// The file cannot be opened, e.g. for lack of permission (not remembered either).
        public static let unreadable = Code(rawValue: "unreadable")
        /// libvips cannot decode the file: an unknown format, or broken image data.
        public static let undecodable = Code(rawValue: "undecodable")
        /// The header declares more pixels than the cache's limit (a decompression bomb).
        public static let tooLarge = Code(rawValue: "tooLarge")
        /// Decoding took longer than the render time limit, and was stopped.
        public static let timedOut = Code(rawValue: "timedOut")
        /// libvips could not start (not remembered: nothing is wrong with the photo).
        public static let decoderUnavailable = Code(rawValue: "decoderUnavailable")
        /// A raw file with no embedded JPEG preview to show (its sensor data is not decoded).
        public static let noPreview = Code(rawValue: "noPreview")
        /// The thumbnail was made but could not be written to the cache folder.
        public static let cacheNotWritable = Code(rawValue: "cacheNotWritable")

        public var description: String { rawValue }

        /// The reason a placeholder shows, in the words of the HTTP API's `X-Shoebox-Placeholder`
        /// header: `damaged`, `too-large`, `timeout`, `no-decoder`, `missing` or `unsupported`.
        public var placeholderReason: String {
            switch self {
            case .undecodable: "damaged"
            case .tooLarge: "too-large"
            case .timedOut: "timeout"
            case .decoderUnavailable: "no-decoder"
            case .fileNotFound, .unreadable, .invalidSource: "missing"
            default: "unsupported"
            }
        }
    }

    public var code: Code
    /// The file (or cache folder) concerned.
    public var path: String
    /// One sentence saying what happened.
    public var message: String

    public init(_ code: Code, path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    public var description: String { message }
}
