/// What a correction writes: each photo's dating before and after, and each sidecar's bytes
/// before and after. Made by `AdjustPlanner` without touching a disk.
public struct AdjustPlan: Sendable {
    /// One photo of the contract's `photos`.
    public struct PhotoChange: Sendable, Hashable, Encodable {
        /// Relative to the library root.
        public var path: String
        /// The sidecar written, relative to the library root.
        public var sidecar: String
        public var before: PhotoDating
        public var after: PhotoDating
    }

    /// One sidecar: created when `before` is `nil`.
    public struct FileChange: Sendable, Hashable {
        /// Relative to the library root, as file-system bytes.
        public var sidecar: [UInt8]
        public var before: [UInt8]?
        public var after: [UInt8]
    }

    /// In selection order.
    public var photos: [PhotoChange]
    /// One per sidecar, in the order first written.
    public var files: [FileChange]
    /// Selected photos that already say what the modes would write, left out of `photos`.
    public var unchanged: Int = 0
}
