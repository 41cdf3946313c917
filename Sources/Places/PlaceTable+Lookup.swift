import Foundation

extension PlaceTable {
    /// The place for a position in degrees, or `nil` for an invalid position, an empty table, or a
    /// position farther than `policy.countryRadius` from every place (or farther than
    /// `policy.cityRadius` with places of more than one country around it).
    ///
    /// The nearest place is the one at the shortest great-circle distance, except that it gives way
    /// to the most populous place within `policy.suburbRadius` of the position that has at least
    /// `policy.populationFactor` times its people (a city quarter or a hamlet next to its city).
    ///
    /// - Complexity: O(log *n*) expected.
    public func nearest(latitude: Double, longitude: Double) -> Place? {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        let query = SphereTree.unitVector(latitude: latitude, longitude: longitude)
        guard let (slot, chordSquared) = tree.nearest(to: query) else { return nil }
        let distance = SphereTree.kilometres(chordSquared: chordSquared)
        if distance <= policy.cityRadius {
            let (chosen, chosenChord) = preferringPopulous(slot, chordSquared, query)
            return place(at: chosen, kilometres: SphereTree.kilometres(chordSquared: chosenChord), withCity: true)
        }
        guard distance <= policy.countryRadius else { return nil }
        let country = rows[slot].country
        var agree = true
        // The rows alone in the closure: capturing `self` copied the whole table at every visit.
        rows.withUnsafeBufferPointer { rows in
            tree.forEach(within: SphereTree.chordSquared(kilometres: distance + policy.countryAgreement), of: query) { other, _ in
                if rows[other].country != country { agree = false }
            }
        }
        return agree ? place(at: slot, kilometres: distance, withCity: false) : nil
    }

    /// The tree slot the suburb rule picks instead of `slot`, with its squared chord distance.
    func preferringPopulous(_ slot: Int, _ chordSquared: Double, _ query: SIMD3<Double>) -> (Int, Double) {
        guard policy.suburbRadius > 0 else { return (slot, chordSquared) }
        // A place of population 0 (an admin seat, a locality) counts as 1, so it needs a real town to yield.
        let times = max(1, Int(rows[slot].population)).multipliedReportingOverflow(by: max(1, policy.populationFactor))
        guard !times.overflow else { return (slot, chordSquared) }
        guard times.partialValue <= Int(UInt32.max) else { return (slot, chordSquared) }
        var best = (slot, chordSquared)
        var bestPopulation = times.partialValue - 1
        let radius = SphereTree.chordSquared(kilometres: policy.suburbRadius)
        // The rows alone in the closure: capturing `self` copied the whole table at every visit.
        rows.withUnsafeBufferPointer { rows in
            tree.forEach(within: radius, of: query, minimumWeight: UInt32(times.partialValue)) { other, chord in
                let candidate = Int(rows[other].population)
                if candidate > bestPopulation || (candidate == bestPopulation && best.0 != slot && chord < best.1) {
                    best = (other, chord)
                    bestPopulation = candidate
                }
            }
        }
        return best
    }

    private func place(at slot: Int, kilometres: Double, withCity: Bool) -> Place {
        let row = rows[slot]
        let country = countries[Int(row.country)]
        return Place(
            city: withCity ? strings[Int(row.name)] : nil,
            region: withCity && row.region != Row.none ? strings[Int(row.region)] : nil,
            country: strings[Int(country.name)],
            countryCode: strings[Int(country.code)],
            timeZoneIdentifier: strings[Int(row.timeZone)],
            distanceKilometres: kilometres)
    }

    /// The slot of the nearest place by great-circle distance alone (no suburb rule, no radius), for
    /// measuring the rules against it.
    package func nearestIgnoringPolicy(latitude: Double, longitude: Double) -> (name: String, kilometres: Double, population: Int)? {
        guard let (slot, chord) = tree.nearest(to: SphereTree.unitVector(latitude: latitude, longitude: longitude))
        else { return nil }
        return (strings[Int(rows[slot].name)], SphereTree.kilometres(chordSquared: chord), Int(rows[slot].population))
    }
}

extension PlaceTable {
    /// The latitude and longitude in degrees of the place in tree slot `slot` (`0..<count`), as the
    /// table stores them: for named places (`namedPlace(atSlot:)`) and benchmarks that sample
    /// positions near real places.
    package func coordinates(ofSlot slot: Int) -> (latitude: Double, longitude: Double) {
        let point = tree.points[slot]
        // To the micro-degree the table stores: back from the unit vector the degrees come out a
        // rounding away (38.72509000000001).
        func stored(_ degrees: Double) -> Double { (degrees * 1e6).rounded() / 1e6 }
        return (stored(asin(max(-1, min(1, point.z))) * 180 / .pi), stored(atan2(point.y, point.x) * 180 / .pi))
    }
}
