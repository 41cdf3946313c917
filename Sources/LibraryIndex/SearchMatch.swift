/// The photos a search found, as the timeline shows them: a stack is one item, its cover, so a
/// member that matches stands for its stack.
public struct SearchMatch: Sendable, Equatable {
    /// The ids of the items found, ascending: photos that match, and the covers of stacks with a
    /// member that matches.
    public var ids: [Int64]
    /// For a stack found only through members (its cover does not match), the first of them in id
    /// order, by the cover's id: where the pager opens that stack.
    public var members: [Int64: Int64]

    public init(ids: [Int64], members: [Int64: Int64]) {
        self.ids = ids
        self.members = members
    }

    /// Folds the ascending `matching` ids onto their stacks' covers (`coverOfMember` maps each
    /// stack member that is not a cover to its cover).
    ///
    /// - Complexity: O(m log m) for m matching ids; O(m) when none is a member.
    init(matching: [Int64], coverOfMember: [Int64: Int64]) {
        guard !coverOfMember.isEmpty else {
            self.init(ids: matching, members: [:])
            return
        }
        var folded: [Int64] = []
        folded.reserveCapacity(matching.count)
        var throughMember: [Int64: Int64] = [:]
        for id in matching {
            if let cover = coverOfMember[id] {
                folded.append(cover)
                if throughMember[cover] == nil { throughMember[cover] = id }
            } else {
                folded.append(id)
            }
        }
        if !throughMember.isEmpty {
            folded.sort()
            var unique: [Int64] = []
            unique.reserveCapacity(folded.count)
            for id in folded where unique.last != id { unique.append(id) }
            folded = unique
            // A cover that matches itself opens on itself.
            let matched = Set(matching)
            for cover in throughMember.keys where matched.contains(cover) { throughMember[cover] = nil }
        }
        self.init(ids: folded, members: throughMember)
    }
}
