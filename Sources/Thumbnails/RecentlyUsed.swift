/// The most recently used values, kept up to a total cost (bytes, say): the least recently used
/// go first when a new one does not fit.
///
/// A dictionary into a doubly linked list threaded through an array, so lookups, insertions and
/// evictions are O(1). Not thread-safe by itself: its owner keeps it behind a lock.
struct RecentlyUsed<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        /// nil once the node is free, so a freed value is released at once.
        var value: Value?
        var cost: Int
        /// Towards the most recently used end.
        var newer: Int
        /// Towards the least recently used end.
        var older: Int
    }

    /// What the kept values may cost together.
    let budget: Int
    /// What the kept values cost together; never more than `budget`.
    private(set) var totalCost = 0
    private var nodes: [Node] = []
    private var freeNodes: [Int] = []
    private var slots: [Key: Int] = [:]
    private var newest = -1
    private var oldest = -1

    init(budget: Int) {
        self.budget = max(0, budget)
    }

    /// How many values are kept.
    var count: Int { slots.count }

    /// The value for `key`, which becomes the most recently used; nil if it is not kept.
    ///
    /// - Complexity: O(1).
    mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        unlink(slot)
        pushNewest(slot)
        return nodes[slot].value
    }

    /// Keeps `value` for `key` as the most recently used, replacing any value it had and evicting
    /// the least recently used until the total fits. A value costing more than the whole budget
    /// is not kept.
    ///
    /// - Complexity: O(1) amortised, plus O(k) for k evicted values.
    mutating func insert(_ value: Value, for key: Key, cost: Int) {
        remove(key)
        guard cost <= budget else { return }
        while totalCost + cost > budget, oldest >= 0 {
            remove(nodes[oldest].key)
        }
        let node = Node(key: key, value: value, cost: cost, newer: -1, older: -1)
        let slot: Int
        if let free = freeNodes.popLast() {
            slot = free
            nodes[slot] = node
        } else {
            slot = nodes.count
            nodes.append(node)
        }
        slots[key] = slot
        totalCost += cost
        pushNewest(slot)
    }

    /// Forgets `key`'s value, if kept.
    ///
    /// - Complexity: O(1).
    mutating func remove(_ key: Key) {
        guard let slot = slots.removeValue(forKey: key) else { return }
        unlink(slot)
        totalCost -= nodes[slot].cost
        nodes[slot].value = nil
        nodes[slot].cost = 0
        freeNodes.append(slot)
    }

    /// The keys from the most to the least recently used.
    var keysByRecency: [Key] {
        var keys: [Key] = []
        var slot = newest
        while slot >= 0 {
            keys.append(nodes[slot].key)
            slot = nodes[slot].older
        }
        return keys
    }

    private mutating func unlink(_ slot: Int) {
        let node = nodes[slot]
        if node.newer >= 0 { nodes[node.newer].older = node.older } else { newest = node.older }
        if node.older >= 0 { nodes[node.older].newer = node.newer } else { oldest = node.newer }
        nodes[slot].newer = -1
        nodes[slot].older = -1
    }

    private mutating func pushNewest(_ slot: Int) {
        nodes[slot].older = newest
        nodes[slot].newer = -1
        if newest >= 0 { nodes[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    /// Checks that the list, the dictionary, the free list and the total agree (debug builds only).
    func _checkInvariants() {
        #if DEBUG
        var seen = 0
        var cost = 0
        var slot = newest
        var previous = -1
        while slot >= 0 {
            let node = nodes[slot]
            precondition(slots[node.key] == slot, "a listed node is not in the dictionary")
            precondition(node.newer == previous, "broken back link")
            precondition(node.value != nil, "a listed node has no value")
            seen += 1
            cost += node.cost
            previous = slot
            slot = node.older
        }
        precondition(previous == oldest, "the oldest end is wrong")
        precondition(seen == slots.count, "the list and the dictionary differ in length")
        precondition(cost == totalCost && totalCost <= budget, "the total cost is wrong or over budget")
        precondition(seen + freeNodes.count == nodes.count, "a node is neither listed nor free")
        #endif
    }
}
