import Duplicates
import Foundation
import Thumbnails

/// Recall on variants of real photos, false pairs among distinct ones and among generated
/// look-alikes and the demo photos, all grouped in one run, and the distances behind the thresholds.
struct RecallRun {
    var corpus: String
    var videos: String?
    /// The demo photos (`testdata/photos`), when present.
    var demo: String?
    /// Pictures written of each look-alike set.
    var lookAlikes = 10

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
        /// The source picture's set: `corpus`, `demo` or a look-alike set.
        var set: String
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
        try FileManager.default.createDirectory(atPath: folder + "/alike", withIntermediateDirectories: true)
        let sources = corpusFiles(in: corpus).map { SourcePicture(set: "corpus", path: $0) }
            + (try writeLookAlikes(in: folder + "/alike", count: lookAlikes))
            + (demo.map(demoPictures(in:)) ?? [])
        let files = sources.map(\.path)

        func add(photo: Int, variant: Variant?, path: String) -> Bool {
            guard let stamp = stamp(path) else { return false }
            let id = Int64(entries.count + 1)
            guard let fingerprint = cache.fingerprint(for: ThumbnailSource(id: id, path: path, fileSize: stamp.size, modified: stamp.modified)) else {
                return false
            }
            let digest = contentDigest(path)
            let facts = KeepFacts(width: 0, height: 0, hasCaptureDate: false, hasPosition: false, hasCamera: false, modified: 0, path: path)
            // A copy keeps its photo's metadata, and so its shot (only the demo photos have one here).
            entries.append(Entry(photo: photo, set: sources[photo].set, variant: variant, path: path, candidate: DuplicateCandidate(
                id: id, fileSize: stamp.size, sha256: digest, fingerprint: fingerprint, shot: sources[photo].shot, facts: facts)))
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
        let sets = sources.reduce(into: [String]()) { if !$0.contains($1.set) { $0.append($1.set) } }
        for set in sets {
            let all = sources.filter { $0.set == set }.count, missed = unreadable.filter { path in sources.contains { $0.path == path && $0.set == set } }
            print("\(set): \(all) files with picture extensions, \(all - missed.count) read by libvips (\(missed.count) not: \(missed.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")))")
        }
        print(String(format: "Variants and fingerprints made in %.1f s", seconds(ContinuousClock.now - start)))
        for variant in Variant.allCases where variantFailures[variant] != nil {
            print("  \(variant.rawValue): \(variantFailures[variant]!) not made (not a JPEG for a metadata edit, or libvips could not write it)")
        }

        let originals = entries.indices.filter { entries[$0].variant == nil }
        var originalOf: [Int: Int] = [:]
        for position in originals { originalOf[entries[position].photo] = position }
        func fingerprints(_ entry: Entry) -> (PictureFingerprint, PictureFingerprint)? {
            originalOf[entry.photo].map { (entries[$0].candidate.fingerprint!, entry.candidate.fingerprint!) }
        }
        func spread(_ values: [Double]) -> String {
            let sorted = values.sorted()
            func at(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))] }
            return String(format: "%.1f / %.1f / %.1f", at(0.5), at(0.95), sorted.last ?? 0)
        }

        // Distances of each variant to its photo.
        print("\nCorpus variants' distances to the photo (p50 / p95 / max): pHash, dHash bits; colour ΔE:")
        for variant in Variant.allCases {
            let pairs = entries.filter { $0.variant == variant && $0.set == "corpus" }.compactMap(fingerprints)
            let p = pairs.map { PictureFingerprint.distance($0.0.pHash, $0.1.pHash) }, d = pairs.map { PictureFingerprint.distance($0.0.dHash, $0.1.dHash) }
            let colour = pairs.map { ColourRendition.distance($0.0.colour, $0.1.colour) }
            print("  \(variant.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0)) n=\(pairs.count)  pHash \(percentile(p, 0.5)) / \(percentile(p, 0.95)) / \(p.max() ?? 0)   dHash \(percentile(d, 0.5)) / \(percentile(d, 0.95)) / \(d.max() ?? 0)   colour \(spread(colour))   same 16×16 pixels: \(pairs.filter { $0.0.pixels == $0.1.pixels }.count)")
        }
        for set in sets where set != "corpus" {
            let pairs = entries.filter { $0.set == set && $0.variant?.change != nil }.compactMap(fingerprints)
            let details = originals.filter { entries[$0].set == set }.map { entries[$0].candidate.fingerprint!.colour.detail }
            print("  \(set): variants' colour ΔE \(spread(pairs.map { ColourRendition.distance($0.0.colour, $0.1.colour) })), hashes close: \(pairs.filter { DuplicateThresholds.default.hashesAreClose($0.0, $0.1) }.count) of \(pairs.count); detail of its pictures \(spread(details))")
        }

        // Distinct pictures whose hashes are close (every pair of originals, for measuring only),
        // with their colour distance, by the sets they come from.
        var close: [(set: String, colour: Double, limit: Double, a: Int, b: Int)] = []
        for (i, a) in originals.enumerated() {
            for b in originals[(i + 1)...] {
                let fa = entries[a].candidate.fingerprint!, fb = entries[b].candidate.fingerprint!
                guard DuplicateThresholds.default.hashesAreClose(fa, fb) else { continue }
                let set = entries[a].set == entries[b].set ? entries[a].set : "\(entries[a].set) × \(entries[b].set)"
                close.append((set, ColourRendition.distance(fa.colour, fb.colour), DuplicateThresholds.default.colourLimit(fa, fb), a, b))
            }
        }
        print("\nPairs of distinct pictures within the hash thresholds, and their colour ΔE (min / p50 / max):")
        for set in Set(close.map(\.set)).sorted() {
            let pairs = close.filter { $0.set == set }
            let colours = pairs.map(\.colour).sorted()
            print(String(format: "  %@: %d pairs, colour %.1f / %.1f / %.1f, %d within the colour limit", set, pairs.count, colours.first ?? 0,
                         colours[colours.count / 2], colours.last ?? 0, pairs.filter { $0.colour <= $0.limit }.count))
        }
        for pair in close.filter({ $0.colour <= $0.limit }).sorted(by: { $0.colour < $1.colour }).prefix(12) {
            print(String(format: "    ΔE %.2f (limit %.1f)  %@ ~ %@", pair.colour, pair.limit, short(entries[pair.a].path), short(entries[pair.b].path)))
        }

        print("\nColour threshold grid (detailed / low-detail ΔE): recall of corpus variants and of the look-alikes' own variants / pairs of distinct pictures within:")
        let similarVariants = entries.filter { $0.variant?.change != nil }
        for lowDetail in [1.0, 1.5, 2.0, 3.0] {
            var line = "  low ≤ \(lowDetail):"
            for colour in [3.0, 4.0, 6.0, 8.0] {
                let thresholds = DuplicateThresholds(pHash: DuplicateThresholds.default.pHash, dHash: DuplicateThresholds.default.dHash, colour: colour, lowDetailColour: lowDetail)
                let found = similarVariants.filter { entry in fingerprints(entry).map { thresholds.areSimilar($0.0, $0.1) } ?? false }
                let corpusFound = found.filter { $0.set == "corpus" }.count, corpusAll = similarVariants.filter { $0.set == "corpus" }.count
                let falsePairs = close.filter { pair in
                    let fa = entries[pair.a].candidate.fingerprint!, fb = entries[pair.b].candidate.fingerprint!
                    return pair.colour <= thresholds.colourLimit(fa, fb)
                }.count
                line += String(format: "  %.0f: %.1f%%, %.1f%% / %d", colour, 100 * Double(corpusFound) / Double(max(1, corpusAll)),
                               100 * Double(found.count - corpusFound) / Double(max(1, similarVariants.count - corpusAll)), falsePairs)
            }
            print(line)
        }

        // The finder itself, with the default thresholds, on everything at once.
        let candidates = entries.map(\.candidate)
        let grouping = ContinuousClock.now
        let groups = DuplicateFinder.groups(in: candidates)
        let groupingTime = seconds(ContinuousClock.now - grouping)
        var groupOf: [Int64: Int] = [:]
        for (g, group) in groups.enumerated() { for member in group.members { groupOf[member.id] = g } }
        let t = DuplicateThresholds.default
        print(String(format: "\nDuplicateFinder (pHash ≤ %d, dHash ≤ %d, colour ΔE ≤ %.1f, ≤ %.1f below detail %.1f): %d groups of %d files in %.3f s",
                     t.pHash, t.dHash, t.colour, t.lowDetailColour, t.lowDetail, groups.count, entries.count, groupingTime))
        func recall(_ chosen: [Entry]) -> (found: Int, of: Int) {
            let together = chosen.filter { entry in
                guard let original = originalOf[entry.photo] else { return false }
                return groupOf[entry.candidate.id] != nil && groupOf[entry.candidate.id] == groupOf[entries[original].candidate.id]
            }
            return (together.count, chosen.count)
        }
        for variant in Variant.allCases {
            let (found, all) = recall(entries.filter { $0.variant == variant && $0.set == "corpus" })
            print(String(format: "  %@: %d of %d in one group (%.1f%%)", variant.rawValue, found, all, 100 * Double(found) / Double(max(1, all))))
        }
        let (found, all) = recall(entries.filter { $0.variant != nil && $0.set == "corpus" })
        let (similarFound, similarAll) = recall(entries.filter { $0.variant?.change != nil && $0.set == "corpus" })
        print(String(format: "  recall, all corpus variants: %d of %d (%.1f%%); re-encoded, resized, converted, cropped: %d of %d (%.1f%%)",
                     found, all, 100 * Double(found) / Double(max(1, all)), similarFound, similarAll, 100 * Double(similarFound) / Double(max(1, similarAll))))
        for set in sets where set != "corpus" {
            let (found, all) = recall(entries.filter { $0.variant != nil && $0.set == set })
            print(String(format: "  recall, variants of the %@: %d of %d (%.1f%%)", set, found, all, 100 * Double(found) / Double(max(1, all))))
        }
        var falsePairs: [String: Int] = [:]
        for group in groups {
            let photos = Set(group.members.compactMap { member in entries.first { $0.candidate.id == member.id }?.photo }).sorted()
            for (i, a) in photos.enumerated() {
                for b in photos[(i + 1)...] {
                    let set = sources[a].set == sources[b].set ? sources[a].set : "\(sources[a].set) × \(sources[b].set)"
                    falsePairs[set, default: 0] += 1
                }
            }
            if photos.count > 1 { print("  group with \(photos.count) distinct files: \(photos.map { short(files[$0]) }.joined(separator: ", "))") }
        }
        let lookAlikeSets = Set(sets.filter { $0 != "corpus" })
        print("  false pairs (distinct pictures in one group): " + (sets + falsePairs.keys.filter { !sets.contains($0) }.sorted()).map { "\($0) \(falsePairs[$0] ?? 0)" }.joined(separator: ", ")
              + "; look-alikes and demo in all: \(falsePairs.filter { key, _ in key.split(separator: "×").allSatisfy { lookAlikeSets.contains($0.trimmingCharacters(in: .whitespaces)) } }.values.reduce(0, +))")

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
            for (i, a) in fingerprints.enumerated() { for b in fingerprints[(i + 1)...] where DuplicateThresholds.default.hashesAreClose(a, b) { similarPairs += 1 } }
        }
        let stacks = StackFinder.stacks(of: stackPhotos)
        for i in candidates.indices { candidates[i].stack = stacks[candidates[i].id] }
        let groups = DuplicateFinder.groups(in: candidates)
        print("\nBursts: \(candidates.count) frames 0.2 s apart from \(files.count) videos, \(Set(stacks.values).count) stacks; \(similarPairs) frame pairs within the similar thresholds by hashes alone; duplicate groups among frames: \(groups.count)")
    }
}
