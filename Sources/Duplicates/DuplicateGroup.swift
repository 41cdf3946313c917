/// Files that hold the same picture, one of them to keep.
public struct DuplicateGroup: Sendable, Hashable {
    /// The loosest tier that links the group's files (`exact` when all have the same bytes).
    public var kind: DuplicateKind
    /// The ids of the group's files, the kept one first, then by path.
    public var members: [Member]
    /// Why the first member is the one to keep.
    public var reason: String

    public init(kind: DuplicateKind, members: [Member], reason: String) {
        self.kind = kind
        self.members = members
        self.reason = reason
    }

    /// The kept file's id.
    public var keep: Int64 { members[0].id }

    /// One file of a group.
    public struct Member: Sendable, Hashable {
        public var id: Int64
        /// How it matches the kept file (`exact` for the kept file itself).
        public var match: DuplicateKind

        public init(id: Int64, match: DuplicateKind) {
            self.id = id
            self.match = match
        }
    }
}
