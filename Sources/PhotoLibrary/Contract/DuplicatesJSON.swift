import Foundation
public import LibraryIndex
public import Duplicates

/// The duplicate groups as `shoebox duplicates --json` prints them and `GET /api/duplicates`
/// answers; field names are a contract other tools rely on.
public struct DuplicatesJSON: Encodable, Sendable {
    /// The loosest tier used: `exact`, `same-picture` or `similar`.
    public var tier: String
    public var groups: [Group]
    /// A page of the groups (the server's): how many groups there are in all, where this page
    /// starts, and the files beside the kept ones in all groups, with their bytes. Nil for all of
    /// them at once (the command line's).
    public var total: Int?
    public var offset: Int?
    public var extraFiles: Int?
    public var extraBytes: Int64?

    public init(tier: DuplicateKind, groups: [StoredDuplicateGroup]) {
        self.tier = tier.rawValue
        self.groups = groups.map(Group.init)
    }

    /// A page of `groups` starting at `offset`, out of `totals`.
    public init(
        tier: DuplicateKind, groups: [StoredDuplicateGroup], offset: Int, totals: (groups: Int, extraFiles: Int, extraBytes: Int64)
    ) {
        self.init(tier: tier, groups: groups)
        self.offset = offset
        total = totals.groups
        extraFiles = totals.extraFiles
        extraBytes = totals.extraBytes
    }

    public struct Group: Encodable, Sendable {
        /// `exact`, `same-picture` or `similar`: the loosest match in the group.
        public var kind: String
        /// The path of the file to keep.
        public var keep: String
        /// Why that one (`largest picture (4000×3000)`, `richest metadata (…)`, `oldest file`, …).
        public var reason: String
        /// The kept file first, then the others by path.
        public var photos: [Photo]

        init(_ group: StoredDuplicateGroup) {
            kind = group.kind.rawValue
            keep = group.members.first?.path.string ?? ""
            reason = group.reason
            photos = group.members.enumerated().map { Photo($0.element, kept: $0.offset == 0) }
        }
    }

    public struct Photo: Encodable, Sendable {
        public var id: Int64
        public var path: String
        /// The exact bytes of a path that is not valid UTF-8 (base64).
        public var pathBytes: String?
        /// The folder relative to the library root (`""` at the root).
        public var folder: String
        /// Bytes.
        public var size: Int64
        public var width: Int?
        public var height: Int?
        /// Local capture time (`YYYY-MM-DDTHH:MM:SS[.fff]`).
        public var captured: String
        /// How it matches the kept file: `exact`, `same-picture` or `similar`.
        public var match: String
        /// Whether this is the file to keep.
        public var keep: Bool

        init(_ member: StoredDuplicateGroup.Member, kept: Bool) {
            id = member.id
            path = member.path.string
            pathBytes = member.path.isValidUTF8 ? nil : ContractJSON.base64(member.path.bytes)
            let slash = member.path.bytes.lastIndex(of: UInt8(ascii: "/"))
            folder = slash.map { RelativePath(bytes: Array(member.path.bytes[..<$0])).string } ?? ""
            size = member.fileSize
            width = member.width
            height = member.height
            captured = member.captured
            match = kept ? "keep" : member.match.rawValue
            keep = kept
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(path, forKey: .path)
            try c.encodeIfPresent(pathBytes, forKey: .pathBytes)
            try c.encode(folder, forKey: .folder)
            try c.encode(size, forKey: .size)
            try c.encode(width, forKey: .width)
            try c.encode(height, forKey: .height)
            try c.encode(captured, forKey: .captured)
            try c.encode(match, forKey: .match)
            try c.encode(keep, forKey: .keep)
        }

        enum CodingKeys: String, CodingKey { case id, path, pathBytes, folder, size, width, height, captured, match, keep }
    }
}
