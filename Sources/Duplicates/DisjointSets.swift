/// Union–find over positions 0..<count, with path halving and union by size.
struct DisjointSets {
    private var parent: [Int32]
    private var size: [Int32]

    init(count: Int) {
        parent = (0..<count).map { Int32($0) }
        size = [Int32](repeating: 1, count: count)
    }

    mutating func root(_ element: Int) -> Int {
        var element = element
        while Int(parent[element]) != element {
            parent[element] = parent[Int(parent[element])]
            element = Int(parent[element])
        }
        return element
    }

    /// Joins the sets of `a` and `b`; whether they were apart.
    @discardableResult
    mutating func union(_ a: Int, _ b: Int) -> Bool {
        var a = root(a), b = root(b)
        guard a != b else { return false }
        if size[a] < size[b] { swap(&a, &b) }
        parent[b] = Int32(a)
        size[a] += size[b]
        return true
    }

    /// The sets of more than one element, each in increasing order, ordered by their first element.
    mutating func groups() -> [[Int]] {
        var byRoot: [Int: [Int]] = [:]
        for element in 0..<parent.count where size[root(element)] > 1 {
            byRoot[root(element), default: []].append(element)
        }
        return byRoot.values.sorted { $0[0] < $1[0] }
    }
}
