import Duplicates
import Testing

@Suite("Duplicate groups and the file to keep")
struct DuplicateFinderTests {
    static func facts(_ path: String, width: Int = 4000, height: Int = 3000, date: Bool = true, gps: Bool = false, camera: Bool = true, modified: Int64 = 100) -> KeepFacts {
        KeepFacts(width: width, height: height, hasCaptureDate: date, hasPosition: gps, hasCamera: camera, modified: modified, path: path)
    }

    static let digestA = SHA256Value(bytes: [UInt8](repeating: 1, count: 32))!
    static let digestB = SHA256Value(bytes: [UInt8](repeating: 2, count: 32))!
    static let picture = PictureFingerprint(pixels: 11, dHash: 0x0F0F_0F0F_0F0F_0F0F, pHash: 0x1234_5678_9ABC_DEF0, colour: ColourRenditionTests.detailed())
    static let other = PictureFingerprint(pixels: 12, dHash: ~0x0F0F_0F0F_0F0F_0F0F, pHash: ~0x1234_5678_9ABC_DEF0, colour: ColourRenditionTests.detailed(hue: 2))

    static func near(_ f: PictureFingerprint, bits: Int, pixels: UInt64) -> PictureFingerprint {
        var f = f
        for bit in 0..<bits { f.pHash ^= 1 << UInt64(bit * 5); f.dHash ^= 1 << UInt64(bit * 7) }
        f.pixels = pixels
        return f
    }

    @Test("exact: equal size and digest; another size or digest is no exact copy")
    func exact() {
        let candidates = [
            DuplicateCandidate(id: 1, fileSize: 10, sha256: Self.digestA, facts: Self.facts("a.jpg", modified: 50)),
            DuplicateCandidate(id: 2, fileSize: 10, sha256: Self.digestA, facts: Self.facts("b.jpg", modified: 40)),
            DuplicateCandidate(id: 3, fileSize: 10, sha256: Self.digestB, facts: Self.facts("c.jpg")),
            DuplicateCandidate(id: 4, fileSize: 11, sha256: Self.digestA, facts: Self.facts("d.jpg")),
        ]
        let groups = DuplicateFinder.groups(in: candidates, loosest: .exact)
        #expect(groups.count == 1)
        #expect(groups[0].kind == .exact)
        #expect(groups[0].members.map(\.id) == [2, 1])
        #expect(groups[0].reason == "oldest file")
    }

    @Test("same-picture: equal pixel hashes, kind same-picture, the largest kept")
    func samePicture() {
        var small = Self.picture
        small.pHash ^= 1
        let candidates = [
            DuplicateCandidate(id: 1, fileSize: 10, fingerprint: Self.picture, facts: Self.facts("a.jpg", width: 100, height: 100)),
            DuplicateCandidate(id: 2, fileSize: 20, fingerprint: small, facts: Self.facts("b.png", width: 200, height: 100)),
            DuplicateCandidate(id: 3, fileSize: 30, fingerprint: Self.other, facts: Self.facts("c.jpg")),
        ]
        let groups = DuplicateFinder.groups(in: candidates, loosest: .samePicture)
        #expect(groups.count == 1)
        #expect(groups[0].kind == .samePicture)
        #expect(groups[0].keep == 2)
        #expect(groups[0].reason == "largest picture (200×100)")
        #expect(DuplicateFinder.groups(in: candidates, loosest: .exact).isEmpty)
    }

    @Test("similar: both hashes close; one far hash, a stack, or another shot of the same camera keeps them apart")
    func similar() {
        let near = Self.near(Self.picture, bits: 4, pixels: 99)
        var farDHash = near
        farDHash.dHash = ~farDHash.dHash
        farDHash.pixels = 100
        var frame = near
        frame.pixels = 101
        let shot = DuplicateCandidate.Shot(camera: "X", millisecond: 1_000)
        let candidates = [
            DuplicateCandidate(id: 1, fileSize: 10, fingerprint: Self.picture, shot: shot, facts: Self.facts("a.jpg", gps: true)),
            DuplicateCandidate(id: 2, fileSize: 20, fingerprint: near, shot: shot, facts: Self.facts("b.jpg")),
            DuplicateCandidate(id: 3, fileSize: 30, fingerprint: farDHash, facts: Self.facts("c.jpg")),
            // A burst frame: same camera, 0.2 s later.
            DuplicateCandidate(id: 4, fileSize: 40, fingerprint: frame, shot: .init(camera: "X", millisecond: 1_200), facts: Self.facts("d.jpg")),
            // A stack's two members.
            DuplicateCandidate(id: 5, fileSize: 50, fingerprint: Self.other, stack: 5, facts: Self.facts("e.jpg")),
            DuplicateCandidate(id: 6, fileSize: 60, fingerprint: Self.near(Self.other, bits: 1, pixels: 5), stack: 5, facts: Self.facts("e.dng")),
        ]
        let groups = DuplicateFinder.groups(in: candidates)
        #expect(groups.count == 1)
        #expect(groups[0].kind == .similar)
        #expect(groups[0].members == [.init(id: 1, match: .exact), .init(id: 2, match: .similar)])
        #expect(groups[0].reason == "richest metadata (capture date, GPS position, camera)")
        #expect(DuplicateFinder.groups(in: candidates, loosest: .samePicture).isEmpty)
    }

    @Test("a group mixes tiers: its kind is the loosest, each member says how it matches the kept file")
    func mixed() {
        let candidates = [
            DuplicateCandidate(id: 1, fileSize: 10, sha256: Self.digestA, fingerprint: Self.picture, facts: Self.facts("a.jpg", modified: 1)),
            DuplicateCandidate(id: 2, fileSize: 10, sha256: Self.digestA, fingerprint: Self.picture, facts: Self.facts("b.jpg", modified: 2)),
            DuplicateCandidate(id: 3, fileSize: 12, sha256: Self.digestB, fingerprint: Self.picture, facts: Self.facts("c.jpg", modified: 3)),
            DuplicateCandidate(id: 4, fileSize: 5, fingerprint: Self.near(Self.picture, bits: 3, pixels: 7), facts: Self.facts("d.webp", width: 2000, height: 1500)),
        ]
        let groups = DuplicateFinder.groups(in: candidates)
        #expect(groups.count == 1)
        #expect(groups[0].kind == .similar)
        #expect(groups[0].members.map(\.match) == [.exact, .exact, .samePicture, .similar])
        #expect(DuplicateFinder.groups(in: candidates, loosest: .exact).map(\.members.count) == [2])
    }

    @Test("no chaining: every member matches the kept file itself, not only another member")
    func noChaining() {
        // b is 6 bits from a and from c in both hashes; a and c are 12 apart (the thresholds are 10 and 12).
        let a = Self.picture, b = Self.near(a, bits: 6, pixels: 21)
        var c = b
        for bit in 6..<12 { c.pHash ^= 1 << UInt64(bit * 5); c.dHash ^= 1 << UInt64(bit * 5 + 1) }
        c.pixels = 22
        #expect(DuplicateThresholds.default.areSimilar(a, b) && DuplicateThresholds.default.areSimilar(b, c))
        #expect(!DuplicateThresholds.default.areSimilar(a, c))
        func candidates(keeping kept: Int) -> [DuplicateCandidate] {
            [a, b, c].enumerated().map { i, fingerprint in
                DuplicateCandidate(id: Int64(i + 1), fileSize: Int64(10 + i), fingerprint: fingerprint,
                                   facts: Self.facts("\(i).jpg", width: i == kept ? 4000 : 2000, height: i == kept ? 3000 : 1500))  // one shape, the kept one largest
            }
        }
        // a kept: b joins it; c, like b but not like a, is in no group.
        #expect(DuplicateFinder.groups(in: candidates(keeping: 0)).map { $0.members.map(\.id) } == [[1, 2]])
        // b kept: a and c both match it.
        #expect(DuplicateFinder.groups(in: candidates(keeping: 1)).map { $0.members.map(\.id) } == [[2, 1, 3]])
        // c kept: b joins it, a is left alone.
        #expect(DuplicateFinder.groups(in: candidates(keeping: 2)).map { $0.members.map(\.id) } == [[3, 2]])
    }

    @Test("similar needs the colours too: equal hashes in other colours are no duplicates; low-detail pictures need closer colours")
    func colours() {
        func pair(_ one: ColourRendition, _ other: ColourRendition) -> [DuplicateGroup] {
            var first = Self.picture, second = Self.near(Self.picture, bits: 2, pixels: 30)
            first.colour = one
            second.colour = other
            return DuplicateFinder.groups(in: [
                DuplicateCandidate(id: 1, fileSize: 10, fingerprint: first, facts: Self.facts("a.jpg")),
                DuplicateCandidate(id: 2, fileSize: 20, fingerprint: second, facts: Self.facts("b.jpg")),
            ])
        }
        let photo = ColourRenditionTests.detailed()
        #expect(pair(photo, photo).count == 1)
        #expect(pair(photo, ColourRenditionTests.detailed(hue: 12)).isEmpty, "another colour")
        #expect(pair(photo, ColourRenditionTests.detailed(lightness: 2)).count == 1, "a detailed picture 2 ΔE lighter is the same picture")
        let page = ColourRenditionTests.page()
        #expect(page.detail < DuplicateThresholds.default.lowDetail)
        #expect(pair(page, page).count == 1)
        #expect(pair(page, ColourRenditionTests.page(lightness: 2)).isEmpty, "a blank page 2 ΔE lighter is not")
    }

    @Test("similar: two cameras' shots of one look, or a portrait and a landscape of it, are no duplicates; a copy without metadata is")
    func shotsAndShapes() {
        let near = Self.near(Self.picture, bits: 2, pixels: 40)
        func groups(_ second: DuplicateCandidate.Shot?, width: Int = 4000, height: Int = 3000) -> [[Int64]] {
            DuplicateFinder.groups(in: [
                DuplicateCandidate(id: 1, fileSize: 10, fingerprint: Self.picture, shot: .init(camera: "A", millisecond: 5), facts: Self.facts("a.jpg")),
                DuplicateCandidate(id: 2, fileSize: 20, fingerprint: near, shot: second, facts: Self.facts("b.jpg", width: width, height: height)),
            ]).map { $0.members.map(\.id) }
        }
        #expect(groups(.init(camera: "A", millisecond: 5)) == [[1, 2]], "the same shot")
        #expect(groups(nil, width: 1000, height: 750) == [[1, 2]], "a smaller copy without metadata")
        #expect(groups(nil, width: 1000, height: 740) == [[1, 2]], "lightly cropped")
        #expect(groups(.init(camera: "B", millisecond: 5)).isEmpty, "another camera")
        #expect(groups(nil, width: 3000, height: 4000).isEmpty, "a portrait")
        #expect(groups(nil, width: 4000, height: 2250).isEmpty, "16:9 beside 4:3")
    }

    @Test("files without fingerprints or digests are in no group")
    func nothingKnown() {
        let candidates = (1...3).map { DuplicateCandidate(id: Int64($0), fileSize: 10, facts: Self.facts("\($0).jpg")) }
        #expect(DuplicateFinder.groups(in: candidates).isEmpty)
    }
}
