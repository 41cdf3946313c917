import Foundation

/// A k-d tree over points on the unit sphere, stored as 3-D unit vectors so that nearness needs no
/// special case at the antimeridian or the poles: the straight-line (chord) distance between two
/// unit vectors grows with their great-circle distance.
///
/// The tree is implicit: a node is the middle slot of its range, with the split axis in `axes`;
/// ranges of at most `leafSize` slots are scanned. Slots are the positions of `points` after the
/// build, and `order[slot]` is the index the point had in the input.
struct SphereTree: Sendable {
    static let leafSize = 8

    private(set) var points: [SIMD3<Double>]
    /// The split axis (0, 1 or 2) at each node's slot; 0 elsewhere.
    private(set) var axes: [UInt8]
    /// The input index of each slot.
    private(set) var order: [Int32]
    /// Each slot's weight (a population), and at a node's slot the largest weight in its range, so
    /// a search for heavy points skips light subtrees.
    private(set) var weights: [UInt32]
    private var heaviest: [UInt32]

    /// - Parameter weights: one per point, or empty for all 0.
    /// - Complexity: O(*n* log *n*).
    init(points input: [SIMD3<Double>], weights inputWeights: [UInt32] = []) {
        precondition(inputWeights.isEmpty || inputWeights.count == input.count)
        points = input
        order = (0..<Int32(input.count)).map { $0 }
        axes = [UInt8](repeating: 0, count: input.count)
        weights = []
        heaviest = []
        build(0, input.count)
        weights = inputWeights.isEmpty ? [UInt32](repeating: 0, count: input.count) : order.map { inputWeights[Int($0)] }
        heaviest = weights
        _ = weigh(0, input.count)
    }

    /// A tree built before (by the set-up, which writes the places in slot order with their axes),
    /// so a process that loads the table does not build it again.
    ///
    /// A wrong order or axis only makes answers wrong, never reads out of bounds: nodes are implicit.
    ///
    /// - Precondition: `axes` has one value of at most 2 per point, `weights` one per point.
    /// - Complexity: O(*n*).
    init(slotOrdered points: [SIMD3<Double>], axes: [UInt8], weights: [UInt32]) {
        precondition(axes.count == points.count && weights.count == points.count && axes.allSatisfy { $0 <= 2 })
        self.points = points
        self.axes = axes
        self.order = (0..<Int32(points.count)).map { $0 }
        self.weights = weights
        self.heaviest = weights
        _ = weigh(0, points.count)
    }

    /// Fills `heaviest` at each node's slot; returns the largest weight in the range.
    private mutating func weigh(_ low: Int, _ high: Int) -> UInt32 {
        guard high - low > Self.leafSize else { return weights[low..<high].max() ?? 0 }
        let middle = (low + high) / 2
        let largest = max(weights[middle], weigh(low, middle), weigh(middle + 1, high))
        heaviest[middle] = largest
        return largest
    }

    private mutating func build(_ low: Int, _ high: Int) {
        guard high - low > Self.leafSize else { return }
        var lower = points[low], upper = points[low]
        for i in low + 1..<high {
            lower = pointwiseMin(lower, points[i])
            upper = pointwiseMax(upper, points[i])
        }
        let spread = upper - lower
        let axis = spread.x >= spread.y && spread.x >= spread.z ? 0 : (spread.y >= spread.z ? 1 : 2)
        let middle = (low + high) / 2
        select(middle, low, high, axis)
        axes[middle] = UInt8(axis)
        build(low, middle)
        build(middle + 1, high)
    }

    /// Quickselect: puts the slot whose coordinate on `axis` ranks `k` at `k`, smaller ones before it.
    private mutating func select(_ k: Int, _ lowStart: Int, _ highEnd: Int, _ axis: Int) {
        var low = lowStart, high = highEnd - 1
        while low < high {
            // Median of three as the pivot, so sorted input stays O(n).
            let mid = (low + high) / 2
            let a = points[low][axis], b = points[mid][axis], c = points[high][axis]
            let pivot = max(min(a, b), min(max(a, b), c))
            var i = low, j = high
            while i <= j {
                while points[i][axis] < pivot { i += 1 }
                while points[j][axis] > pivot { j -= 1 }
                if i <= j {
                    points.swapAt(i, j)
                    order.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { high = j } else if k >= i { low = i } else { return }
        }
    }

    /// The slot nearest to `query` and its squared chord distance; `nil` for an empty tree. Of
    /// points at the same distance (places at one spot) the heaviest wins, so the answer does not
    /// depend on how the tree was built.
    ///
    /// - Complexity: O(log *n*) expected.
    func nearest(to query: SIMD3<Double>) -> (slot: Int, chordSquared: Double)? {
        guard !points.isEmpty else { return nil }
        var best = (slot: -1, chordSquared: Double.infinity)
        points.withUnsafeBufferPointer { points in
            axes.withUnsafeBufferPointer { axes in
                weights.withUnsafeBufferPointer { weights in
                    Self.nearest(query, 0, points.count, points, axes, weights, &best)
                }
            }
        }
        return best
    }

    private static func nearest(
        _ query: SIMD3<Double>, _ low: Int, _ high: Int,
        _ points: UnsafeBufferPointer<SIMD3<Double>>, _ axes: UnsafeBufferPointer<UInt8>,
        _ weights: UnsafeBufferPointer<UInt32>, _ best: inout (slot: Int, chordSquared: Double)
    ) {
        @inline(__always) func consider(_ i: Int) {
            let d = points[i] - query
            let distance = (d * d).sum()
            if distance < best.chordSquared || (distance == best.chordSquared && weights[i] > weights[best.slot]) {
                best = (i, distance)
            }
        }
        if high - low <= leafSize {
            for i in low..<high { consider(i) }
            return
        }
        let middle = (low + high) / 2
        consider(middle)
        let point = points[middle]
        let axis = Int(axes[middle])
        let gap = query[axis] - point[axis]
        // `<=`: a point at the best distance across the split may be heavier.
        if gap < 0 {
            nearest(query, low, middle, points, axes, weights, &best)
            if gap * gap <= best.chordSquared { nearest(query, middle + 1, high, points, axes, weights, &best) }
        } else {
            nearest(query, middle + 1, high, points, axes, weights, &best)
            if gap * gap <= best.chordSquared { nearest(query, low, middle, points, axes, weights, &best) }
        }
    }

    /// Calls `body` with each slot within `chordSquared` (squared chord distance) of `query` whose
    /// weight is at least `minimumWeight`.
    func forEach(
        within chordSquared: Double, of query: SIMD3<Double>, minimumWeight: UInt32 = 0,
        _ body: (_ slot: Int, _ chordSquared: Double) -> Void
    ) {
        points.withUnsafeBufferPointer { points in
            axes.withUnsafeBufferPointer { axes in
                weights.withUnsafeBufferPointer { weights in
                    heaviest.withUnsafeBufferPointer { heaviest in
                        let tree = Buffers(points: points, axes: axes, weights: weights, heaviest: heaviest)
                        Self.forEach(query, chordSquared, minimumWeight, 0, points.count, tree, body)
                    }
                }
            }
        }
    }

    private struct Buffers {
        var points: UnsafeBufferPointer<SIMD3<Double>>
        var axes: UnsafeBufferPointer<UInt8>
        var weights: UnsafeBufferPointer<UInt32>
        var heaviest: UnsafeBufferPointer<UInt32>
    }

    private static func forEach(
        _ query: SIMD3<Double>, _ radius: Double, _ minimumWeight: UInt32, _ low: Int, _ high: Int,
        _ tree: Buffers, _ body: (Int, Double) -> Void
    ) {
        if high - low <= leafSize {
            for i in low..<high where tree.weights[i] >= minimumWeight {
                let d = tree.points[i] - query
                let distance = (d * d).sum()
                if distance <= radius { body(i, distance) }
            }
            return
        }
        let middle = (low + high) / 2
        guard tree.heaviest[middle] >= minimumWeight else { return }
        let point = tree.points[middle]
        let d = point - query
        let distance = (d * d).sum()
        if distance <= radius, tree.weights[middle] >= minimumWeight { body(middle, distance) }
        let axis = Int(tree.axes[middle])
        let gap = query[axis] - point[axis]
        if gap <= 0 || gap * gap <= radius { forEach(query, radius, minimumWeight, low, middle, tree, body) }
        if gap >= 0 || gap * gap <= radius { forEach(query, radius, minimumWeight, middle + 1, high, tree, body) }
    }

    #if DEBUG
    /// Checks the split invariant at every node (left of a node no coordinate on its axis is larger,
    /// right of it none is smaller) and each node's heaviest weight.
    func _checkInvariants() -> Bool {
        func check(_ low: Int, _ high: Int) -> Bool {
            guard high - low > Self.leafSize else { return true }
            let middle = (low + high) / 2
            let axis = Int(axes[middle]), split = points[middle][axis]
            for i in low..<middle where points[i][axis] > split { return false }
            for i in middle + 1..<high where points[i][axis] < split { return false }
            guard heaviest[middle] == weights[low..<high].max() else { return false }
            return check(low, middle) && check(middle + 1, high)
        }
        return check(0, points.count)
    }
    #endif
}

extension SphereTree {
    static let earthRadiusKilometres = 6371.0088

    /// The unit vector of a latitude and longitude in degrees.
    static func unitVector(latitude: Double, longitude: Double) -> SIMD3<Double> {
        let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
        let cosPhi = cos(phi)
        return SIMD3(cosPhi * cos(lambda), cosPhi * sin(lambda), sin(phi))
    }

    /// The great-circle distance in kilometres of a squared chord between unit vectors.
    static func kilometres(chordSquared: Double) -> Double {
        2 * earthRadiusKilometres * asin(min(1, chordSquared.squareRoot() / 2))
    }

    /// The squared chord between unit vectors a great-circle distance apart.
    static func chordSquared(kilometres: Double) -> Double {
        let halfAngle = min(.pi / 2, kilometres / earthRadiusKilometres / 2)
        let chord = 2 * sin(halfAngle)
        return chord * chord
    }
}
