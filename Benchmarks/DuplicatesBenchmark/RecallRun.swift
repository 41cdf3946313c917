import Duplicates
import Foundation
import Thumbnails

/// Recall on variants of real photos, false pairs among distinct ones, and the hash distances
/// behind the thresholds.
struct RecallRun {
    var corpus: String
    var videos: String?

    enum Variant: String, CaseIterable {
        case copy = "exact copy", metadata = "metadata edit", quality60 = "quality 60", halfSize = "half size", png = "PNG", webp = "WebP", crop = "3% crop"

        var change: PictureVariants.Change? {
            switch self {
            case .copy, .metadata: nil
            case .quality60: .quality60
            case .halfSize: .halfSize
            case .png: .png
            case .webp: .webp
            case .crop: .crop3
            }
        }
    }

    struct Entry {
        var photo: Int
        var variant: Variant?
        var path: String
        var candidate: DuplicateCandidate
    }

    func run() throws {
        let folder = NSTemporaryDirectory() + "shoebox-dups-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder + "/v", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = ThumbnailCache(directory: folder + "/cache")
        var entries: [Entry] = []
        var unreadable: [String] = []
        var variantFailures: [Variant: Int] = [:]
        let files = corpusFiles(in: corpus)

        func add(photo: Int, variant: Variant?, path: String) -> Bool {
            guard let stamp = stamp(path) else { return false }
            let id = Int64(entries.count + 1)
            guard let fingerprint = cache.fingerprint(for: ThumbnailSource(id: id, path: path, fileSize: stamp.size, modified: stamp.modified)) else {
                return false
            }
            let digest = contentDigest(path)
            let facts = KeepFacts(width: 0, height: 0, hasCaptureDate: false, hasPosition: false, hasCamera: false, modified: 0, path: path)
            entries.append(Entry(photo: photo, variant: variant, path: path, candidate: DuplicateCandidate(
                id: id, fileSize: stamp.size, sha256: digest, fingerprint: fingerprint, facts: facts)))
            return true
        }

        let start = ContinuousClock.now
        for (k, file) in files.enumerated() {
            guard add(photo: k, variant: nil, path: file) else { unreadable.append(file); continue }
            let ext = (file as NSString).pathExtension
            for variant in Variant.allCases {
                let made: String?
                switch variant {
                case .copy:
                    let destination = "\(folder)/v/\(k)-copy.\(ext)"
                    made = (try? FileManager.default.copyItem(atPath: file, toPath: destination)) != nil ? destination : nil
                case .metadata:
                    let destination = "\(folder)/v/\(k)-meta.\(ext)"
                    if let bytes = FileManager.default.contents(atPath: file).flatMap({ metadataEdited([UInt8]($0)) }),
                       FileManager.default.createFile(atPath: destination, contents: Data(bytes)) {
                        made = destination
                    } else {
                        made = nil
                    }
                default:
                    let change = variant.change!
                    let destination = "\(folder)/v/\(k)-\(change.rawValue).\(change.fileExtension)"
                    made = (try? PictureVariants.write(change, of: file, to: destination)) != nil ? destination : nil
                }
                if made == nil || !add(photo: k, variant: variant, path: made!) { variantFailures[variant, default: 0] += 1 }
            }
        }
        let readable = files.count - unreadable.count
        print("Corpus: \(files.count) files with picture extensions, \(readable) read by libvips (\(unreadable.count) not: \(unreadable.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")))")
        print(String(format: "Variants and fingerprints made in %.1f s", seconds(ContinuousClock.now - start)))
        for variant in Variant.allCases where variantFailures[variant] != nil {
            print("  \(variant.rawValue): \(variantFailures[variant]!) not made (not a JPEG for a metadata edit, or libvips could not write it)")
        }

        let originals = entries.indices.filter { entries[$0].variant == nil }
        var originalOf: [Int: Int] = [:]
        for position in originals { originalOf[entries[position].photo] = position }

        // Distances of each variant to its photo.
        print("\nHamming distance to the photo (p50 / p95 / max), pHash and dHash:")
        for variant in Variant.allCases {
            let pairs = entries.filter { $0.variant == variant }.compactMap { entry -> (Int, Int, Bool)? in
                guard let original = originalOf[entry.photo] else { return nil }
                let a = entries[original].candidate.fingerprint!, b = entry.candidate.fingerprint!
                return (PictureFingerprint.distance(a.pHash, b.pHash), PictureFingerprint.distance(a.dHash, b.dHash), a.pixels == b.pixels)
            }
            let p = pairs.map(\.0), d = pairs.map(\.1)
            print("  \(variant.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0)) n=\(pairs.count)  pHash \(percentile(p, 0.5)) / \(percentile(p, 0.95)) / \(p.max() ?? 0)   dHash \(percentile(d, 0.5)) / \(percentile(d, 0.95)) / \(d.max() ?? 0)   same 16×16 pixels: \(pairs.filter(\.2).count)")
        }

        // Distinct photos: the closest pairs by both hashes (every pair, for measuring only).
        var closest: [(Int, Int, Int, Int)] = []
        for (i, a) in originals.enumerated() {
            for b in originals[(i + 1)...] {
                let fa = entries[a].candidate.fingerprint!, fb = entries[b].candidate.fingerprint!
                closest.append((PictureFingerprint.distance(fa.pHash, fb.pHash), PictureFingerprint.distance(fa.dHash, fb.dHash), a, b))
            }
        }
        closest.sort { max($0.0, $0.1) < max($1.0, $1.1) }
        print("\nClosest pairs of distinct corpus files (pHash, dHash):")
        for (p, d, a, b) in closest.prefix(12) {
            let same = entries[a].candidate.fingerprint!.pixels == entries[b].candidate.fingerprint!.pixels ? "  same 16×16 pixels" : ""
            let exact = entries[a].candidate.sha256 == entries[b].candidate.sha256 ? "  same bytes" : ""
            print("  \(p), \(d)  \(short(entries[a].path)) ~ \(short(entries[b].path))\(same)\(exact)")
        }

        print("\nThreshold grid: similar-variant recall by hashes alone / pairs of distinct files within both:")
        let similarVariants = entries.filter { [.quality60, .halfSize, .png, .webp, .crop].contains($0.variant) }
        for pT in [6, 8, 10, 12, 14] {
            var line = "  pHash ≤ \(pT):"
            for dT in [8, 10, 12, 14, 16] {
                let thresholds = DuplicateThresholds(pHash: pT, dHash: dT)
                let found = similarVariants.filter { entry in
                    guard let original = originalOf[entry.photo] else { return false }
                    return thresholds.areSimilar(entries[original].candidate.fingerprint!, entry.candidate.fingerprint!)
                }.count
                let falsePairs = closest.filter { $0.0 <= pT && $0.1 <= dT }.count
                line += String(format: "  d≤%d %.1f%%/%d", dT, 100 * Double(found) / Double(max(1, similarVariants.count)), falsePairs)
            }
            print(line)
        }

        // The finder itself, with the default thresholds.
        let candidates = entries.map(\.candidate)
        let grouping = ContinuousClock.now
        let groups = DuplicateFinder.groups(in: candidates)
        let groupingTime = seconds(ContinuousClock.now - grouping)
        var groupOf: [Int64: Int] = [:]
        for (g, group) in groups.enumerated() { for member in group.members { groupOf[member.id] = g } }
        print("\nDuplicateFinder (pHash ≤ \(DuplicateThresholds.default.pHash), dHash ≤ \(DuplicateThresholds.default.dHash)): \(groups.count) groups of \(entries.count) files in \(String(format: "%.3f", groupingTime)) s")
        var total = 0, together = 0
        for variant in Variant.allCases {
            let pairs = entries.filter { $0.variant == variant }.compactMap { entry -> Bool? in
                guard let original = originalOf[entry.photo] else { return nil }
                return groupOf[entry.candidate.id] != nil && groupOf[entry.candidate.id] == groupOf[entries[original].candidate.id]
            }
            total += pairs.count
            together += pairs.filter { $0 }.count
            print(String(format: "  %@: %d of %d in one group (%.1f%%)", variant.rawValue, pairs.filter { $0 }.count, pairs.count, 100 * Double(pairs.filter { $0 }.count) / Double(max(1, pairs.count))))
        }
        print(String(format: "  all variants: %d of %d (%.1f%%)", together, total, 100 * Double(together) / Double(max(1, total))))
        var falsePairs = 0
        for group in groups {
            let photos = Set(group.members.compactMap { member in entries.first { $0.candidate.id == member.id }?.photo })
            if photos.count > 1 {
                falsePairs += photos.count * (photos.count - 1) / 2
                print("  group with \(photos.count) distinct files: \(photos.sorted().map { short(files[$0]) }.joined(separator: ", "))")
            }
        }
        print("  pairs of distinct corpus files in one group: \(falsePairs)")

        if let videos { try bursts(from: videos, folder: folder, cache: cache) }
    }

    func short(_ path: String) -> String {
        path.hasPrefix(corpus + "/") ? String(path.dropFirst(corpus.count + 1)) : (path as NSString).lastPathComponent
    }

    /// Frames 0.2 s apart from each video, as a camera's burst: hash-similar pairs, and whether any
    /// ends in a duplicate group once they are stacked.
    func bursts(from videos: String, folder: String, cache: ThumbnailCache) throws {
        let files = (try FileManager.default.contentsOfDirectory(atPath: videos)).sorted()
        var candidates: [DuplicateCandidate] = []
        var stackPhotos: [StackFinder.Photo] = []
        var similarPairs = 0
        for (v, file) in files.enumerated() {
            let out = "\(folder)/frames\(v)"
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            process.arguments = ["-v", "error", "-nostdin", "-ss", "0.3", "-i", videos + "/" + file, "-vf", "fps=5", "-frames:v", "6", out + "/f%02d.jpg"]
            try process.run()
            process.waitUntilExit()
            let frames = ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).sorted()
            var fingerprints: [PictureFingerprint] = []
            for (i, frame) in frames.enumerated() {
                let path = out + "/" + frame
                guard let stamp = stamp(path) else { continue }
                let id = Int64(1_000_000 + v * 100 + i)
                guard let fingerprint = cache.fingerprint(for: ThumbnailSource(id: id, path: path, fileSize: stamp.size, modified: stamp.modified)) else { continue }
                fingerprints.append(fingerprint)
                let shot = DuplicateCandidate.Shot(camera: "video \(v)", millisecond: 1_700_000_000_000 + Int64(i) * 200)
                stackPhotos.append(StackFinder.Photo(id: id, folder: Array(out.utf8), name: Array(frame.utf8), isRaw: false, camera: shot.camera, captured: shot.millisecond))
                candidates.append(DuplicateCandidate(id: id, fileSize: stamp.size, fingerprint: fingerprint, shot: shot, facts: KeepFacts(
                    width: 0, height: 0, hasCaptureDate: true, hasPosition: false, hasCamera: true, modified: 0, path: path)))
            }
            for (i, a) in fingerprints.enumerated() { for b in fingerprints[(i + 1)...] where DuplicateThresholds.default.areSimilar(a, b) { similarPairs += 1 } }
        }
        let stacks = StackFinder.stacks(of: stackPhotos)
        for i in candidates.indices { candidates[i].stack = stacks[candidates[i].id] }
        let groups = DuplicateFinder.groups(in: candidates)
        print("\nBursts: \(candidates.count) frames 0.2 s apart from \(files.count) videos, \(Set(stacks.values).count) stacks; \(similarPairs) frame pairs within the similar thresholds by hashes alone; duplicate groups among frames: \(groups.count)")
    }
}
