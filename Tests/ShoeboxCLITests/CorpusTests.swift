import PhotoFixtures
import Foundation
import Testing

/// The real-photo corpus beside the project, when it is there, or `$SHOEBOX_CORPUS` (another
/// corpus laid out the same way: `photos/` and `truth.json`).
enum Corpus {
    static var isPresent: Bool { SharedCorpus.photos != nil }
    /// Read only by the suite below, which runs only when the corpus `isPresent`.
    static var root: URL { SharedCorpus.photos! }

    /// Indexes the corpus once per test process into a temporary database.
    static let database: Result<String, any Error> = Result {
        let folder = NSTemporaryDirectory() + "shoebox-corpus-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let db = folder + "/corpus.sqlite"
        let output = try ShoeboxProcess.run(["index", root.appendingPathComponent("photos").path, "--db", db])
        guard output.status == 0 else { throw CorpusError(message: output.stderr) }
        return db
    }

    struct CorpusError: Error { var message: String }

    static func json(_ arguments: [String]) throws -> Any {
        let output = try ShoeboxProcess.run(arguments + ["--db", try database.get(), "--json"])
        guard output.status == 0 else { throw CorpusError(message: output.stderr) }
        return try JSONSerialization.jsonObject(with: Data(output.stdout.utf8))
    }
}

@Suite("Real-photo corpus, end to end", .enabled(if: Corpus.isPresent, "../shared/corpus is absent: skipping the corpus tests"))
struct CorpusTests {
    @Test("`shoebox photos --json` lists every file with the expected dates and sizes")
    func photosMatchTruth() throws {
        let truth = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Corpus.root.appendingPathComponent("truth.json"))) as? [[String: Any]])
        let rows = try #require(try Corpus.json(["photos"]) as? [[String: Any]])
        let byPath = Dictionary(uniqueKeysWithValues: rows.map { ($0["path"] as! String, $0) })
        #expect(rows.count == truth.count, "every file of the corpus is a row")

        var datesScored = 0, datesMatched = 0, sizesScored = 0, sizesMatched = 0
        for expected in truth {
            let path = expected["path"] as! String
            guard let row = byPath[path] else {
                Issue.record("\(path) is not listed")
                continue
            }
            if let date = expected["date"] as? [String: Any] {
                if date["ambiguous"] == nil {
                    datesScored += 1
                    let captured = (row["captured"] as? String).map { String($0.prefix(19)) }
                    let sameOffset = date["offset"] == nil || (row["offset"] as? String) == (date["offset"] as? String)
                    if captured == date["local"] as? String, row["dateSource"] as? String == date["source"] as? String, sameOffset {
                        datesMatched += 1
                    } else {
                        Issue.record("\(path): date \(row["captured"] ?? "nil") \(row["dateSource"] ?? "nil") \(row["offset"] ?? "nil"), expected \(date)")
                    }
                }
            } else {
                let source = row["dateSource"] as? String
                #expect(source == "filename" || source == "fileModified", "\(path) has no EXIF date but got \(source ?? "nil")")
            }
            if let size = expected["size"] as? [String: Any], size["ambiguous"] == nil {
                sizesScored += 1
                if row["width"] as? Int == size["width"] as? Int, row["height"] as? Int == size["height"] as? Int {
                    sizesMatched += 1
                } else {
                    Issue.record("\(path): size \(row["width"] ?? "nil")×\(row["height"] ?? "nil"), expected \(size)")
                }
            }
        }
        print("Corpus via `shoebox photos --json`: \(rows.count)/\(truth.count) files listed, dates \(datesMatched)/\(datesScored), sizes \(sizesMatched)/\(sizesScored)")
        #expect(datesMatched == datesScored)
        #expect(sizesMatched == sizesScored)
    }

    @Test("Sections at both levels hold the same photos and dates as `shoebox photos`")
    func sectionsAgreeWithPhotos() throws {
        let rows = try #require(try Corpus.json(["photos"]) as? [[String: Any]])
        let captured = Dictionary(uniqueKeysWithValues: rows.map { ($0["path"] as! String, $0["captured"] as! String) })
        let fine = try #require(try Corpus.json(["sections", "--level", "fine"]) as? [[String: Any]])
        let coarse = try #require(try Corpus.json(["sections", "--level", "coarse"]) as? [[String: Any]])

        // Fine sections show every photo, each once, with the date `photos` reports.
        let finePhotos = fine.flatMap { $0["photos"] as! [[String: Any]] }
        #expect(finePhotos.count == rows.count)
        #expect(Set(finePhotos.map { $0["path"] as! String }) == Set(captured.keys))
        for photo in finePhotos {
            #expect(captured[photo["path"] as! String] == photo["captured"] as? String)
        }
        // Coarse sections count every photo and show a sample of them.
        #expect(coarse.reduce(0) { $0 + ($1["count"] as! Int) } == rows.count)
        for section in coarse {
            let shown = section["photos"] as! [[String: Any]]
            let count = section["count"] as! Int
            #expect(shown.count == (count <= 10 ? count : min(50, count / 10 * 10)))
            for photo in shown {
                #expect(captured[photo["path"] as! String] == photo["captured"] as? String)
            }
            let start = section["start"] as! String, end = section["end"] as! String
            #expect(shown.allSatisfy { (($0["captured"] as! String).prefix(10)) >= start.prefix(10) && (($0["captured"] as! String).prefix(10)) <= end.prefix(10) })
        }
    }

    @Test("Zooming into every shown coarse photo lands on the same file in the fine grid")
    func zoomInLandsOnSamePhoto() throws {
        let fine = try #require(try Corpus.json(["sections", "--level", "fine"]) as? [[String: Any]])
        let coarse = try #require(try Corpus.json(["sections", "--level", "coarse"]) as? [[String: Any]])
        let finePaths = fine.map { ($0["photos"] as! [[String: Any]]).map { $0["path"] as! String } }
        var checked = 0
        for section in coarse {
            let index = section["index"] as! Int
            for (item, photo) in (section["photos"] as! [[String: Any]]).enumerated() {
                let zoom = try #require(try Corpus.json(["zoom", "--from", "coarse", "--section", "\(index)", "--item", "\(item)", "--offset", "0"]) as? [String: Any])
                let to = try #require(zoom["to"] as? [String: Any])
                let path = finePaths[to["section"] as! Int][to["item"] as! Int]
                #expect(path == photo["path"] as? String)
                #expect(zoom["path"] as? String == photo["path"] as? String)
                checked += 1
            }
        }
        #expect(checked > 0)
    }
}
