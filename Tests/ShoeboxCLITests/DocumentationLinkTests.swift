import Foundation
import Testing

/// README.md and the pages of docs/ link only to what exists: every relative link and image names
/// a file or folder relative to the page that links it, and a `#fragment` into a Markdown file
/// names one of its headings.
@Suite struct DocumentationLinkTests {
    /// The README is a five-minute read; everything else belongs in docs/.
    static let readmeLineLimit = 250

    @Test func everyRelativeLinkResolves() {
        let pages = DocumentationPage.all
        #expect(pages.count == DocumentationPage.files.count, "a page could not be read: \(DocumentationPage.files)")
        #expect(pages.count > 1, "README.md and docs/*.md")
        let broken = pages.flatMap { page in
            page.links.filter(\.isChecked).compactMap { page.problem(with: $0) }
        }
        #expect(broken.isEmpty, "broken links:\n\(broken.joined(separator: "\n"))")
    }

    @Test func theReadmeIsShort() throws {
        let readme = try #require(DocumentationPage.all.first { $0.file == "README.md" })
        #expect(readme.lineCount <= Self.readmeLineLimit, "README.md has \(readme.lineCount) lines")
    }

    /// The parser itself, on a page made to trip it: links in code are no links.
    @Test func linksOutsideCodeAreFound() {
        let sample = """
            # A page

            See [the safety page](safety.md#running-it-safely) and ![a picture](images/a.png).
            `[not a link](in-a-code-span.md)` and [a web page](https://example.org).
            ```sh
            echo "[not a link](in-a-fence.md)"
            ```
            A [link whose text
            wraps](commands.md) and [an anchor](#a-page).
            """
        let links = DocumentationPage.links(in: sample)
        #expect(links == [
            DocumentationPage.Link(line: 3, target: "safety.md#running-it-safely"),
            DocumentationPage.Link(line: 3, target: "images/a.png"),
            DocumentationPage.Link(line: 4, target: "https://example.org"),
            DocumentationPage.Link(line: 9, target: "commands.md"),
            DocumentationPage.Link(line: 9, target: "#a-page"),
        ])
        #expect(links.filter(\.isChecked).map(\.target) == ["safety.md#running-it-safely", "images/a.png", "commands.md"])
        #expect(DocumentationPage.anchors(in: sample) == Set(["a-page"]))
        #expect(DocumentationPage.slug("Serving the library: `shoebox serve`") == "serving-the-library-shoebox-serve")
        #expect(DocumentationPage.slug("Search on 1,000,000 rows") == "search-on-1000000-rows")
        #expect(DocumentationPage.anchors(in: "## Serving\n\n## Serving\n") == Set(["serving", "serving-1"]))
    }
}

/// A Markdown page of the documentation: README.md or one of docs/*.md.
struct DocumentationPage {
    struct Link: Equatable, Sendable {
        /// The line of the link's target.
        var line: Int
        var target: String

        /// Whether the target is a file here: not a web address, a mail address or an anchor
        /// on the same page.
        var isChecked: Bool {
            !["http:", "https:", "mailto:", "#"].contains { target.hasPrefix($0) }
        }
    }

    /// Relative to the package root: `README.md`, `docs/safety.md`.
    var file: String
    var text: String

    /// README.md, then the Markdown files of docs/ by name, relative to the package root.
    static var files: [String] {
        let docs = ShoeboxProcess.packageRoot.appendingPathComponent("docs").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: docs)) ?? []
        return ["README.md"] + names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    /// The pages that could be read.
    static var all: [DocumentationPage] {
        files.compactMap { (file: String) -> DocumentationPage? in
            let url = ShoeboxProcess.packageRoot.appendingPathComponent(file)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
            return DocumentationPage(file: file, text: text)
        }
    }

    var links: [Link] { Self.links(in: text) }

    /// Lines as `wc -l` counts them.
    var lineCount: Int { text.utf8.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 } }

    /// `file:line: target` when `link` names no file or folder, or no heading of the Markdown file
    /// it names; nil when it resolves.
    func problem(with link: Link) -> String? {
        let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
        let fragment = parts.count > 1 ? String(parts[1]) : ""
        let folder = ShoeboxProcess.packageRoot.appendingPathComponent(file).deletingLastPathComponent()
        let url = folder.appendingPathComponent(path).standardizedFileURL
        guard FileManager.default.fileExists(atPath: url.path) else {
            return "\(file):\(link.line): \(link.target)"
        }
        if !fragment.isEmpty && url.pathExtension == "md" {
            let headings = (try? String(contentsOf: url, encoding: .utf8)).map { Self.anchors(in: $0) } ?? []
            if !headings.contains(fragment) {
                return "\(file):\(link.line): \(link.target) (no heading has that anchor)"
            }
        }
        return nil
    }

    /// Every `[text](target)` and `![alt](target)` outside code, in order. Markdown syntax is
    /// ASCII, so the page is read as bytes.
    static func links(in text: String) -> [Link] {
        let bytes = masked(text)
        let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " ")
        let closeBracket = UInt8(ascii: "]"), openParen = UInt8(ascii: "("), closeParen = UInt8(ascii: ")")
        var links: [Link] = []
        var line = 1
        var i = 0
        while i < bytes.count {
            if bytes[i] == newline { line += 1 }
            guard bytes[i] == closeBracket, i + 1 < bytes.count, bytes[i + 1] == openParen else {
                i += 1
                continue
            }
            // The target runs to the closing parenthesis, or to a space before a title.
            var stop = i + 2
            while stop < bytes.count && bytes[stop] != closeParen && bytes[stop] != space && bytes[stop] != newline {
                stop += 1
            }
            if stop > i + 2 {
                links.append(Link(line: line, target: String(decoding: bytes[(i + 2)..<stop], as: UTF8.self)))
            }
            i = stop
        }
        return links
    }

    /// The page's bytes with fenced code blocks and code spans blanked, newlines kept, so that
    /// nothing shown as code is taken for a link and line numbers still hold.
    static func masked(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        let newline = UInt8(ascii: "\n"), backtick = UInt8(ascii: "`"), space = UInt8(ascii: " ")
        var inFence = false
        var start = 0
        while start < bytes.count {
            var stop = start
            while stop < bytes.count && bytes[stop] != newline { stop += 1 }
            let isFence = stop - start >= 3 && bytes[start..<(start + 3)].allSatisfy { $0 == backtick }
            if isFence { inFence.toggle() }
            if isFence || inFence {
                for j in start..<stop { bytes[j] = space }
            }
            start = stop + 1
        }
        // A code span runs from one backtick to the next, across a line break as Markdown allows.
        var inSpan = false
        for j in bytes.indices where bytes[j] != newline {
            if bytes[j] == backtick {
                inSpan.toggle()
                bytes[j] = space
            } else if inSpan {
                bytes[j] = space
            }
        }
        return bytes
    }

    /// The anchors GitHub gives a page's headings (outside fenced blocks); a repeated heading's
    /// anchor gets `-1`, `-2`, ….
    static func anchors(in text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors: Set<String> = []
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inFence.toggle()
                continue
            }
            let title = line.drop(while: { $0 == "#" })
            guard !inFence, title.count < line.count, title.first == " " else { continue }
            let base = slug(String(title))
            let count = seen[base, default: 0]
            seen[base] = count + 1
            anchors.insert(count == 0 ? base : "\(base)-\(count)")
        }
        return anchors
    }

    /// GitHub's anchor of a heading: lower case, letters, digits, `-` and `_` kept, each space a
    /// `-`, everything else (punctuation, backticks) dropped.
    static func slug(_ heading: String) -> String {
        let kept = heading.trimmingCharacters(in: .whitespaces).lowercased().compactMap { (c: Character) -> Character? in
            if c == " " { return "-" }
            return c.isLetter || c.isNumber || c == "-" || c == "_" ? c : nil
        }
        return String(kept)
    }
}
