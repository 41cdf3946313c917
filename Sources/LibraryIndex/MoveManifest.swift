import Foundation

/// What `--move-extras` writes beside the files it moves, and `--restore` reads: the library root
/// and one entry per file.
///
/// Version 2 is a journal, one JSON object per line: the header (`version`, `root`), then each
/// file's entry, written and synced before that file moves. A kill at any moment leaves every
/// moved file listed; a last line cut short by the kill is left out (its file had not moved).
/// Version 1 (one JSON document with `files`, from earlier releases) is still read.
public struct MoveManifest: Sendable, Hashable {
    public static let version = 2

    /// The library root the files came from.
    public var root: String
    public var files: [ExtrasMover.Entry]

    public init(root: String, files: [ExtrasMover.Entry]) {
        self.root = root
        self.files = files
    }

    private struct Header: Codable {
        var version: Int
        var root: String
    }

    /// Version 1's single document.
    private struct Document: Codable {
        var version: Int
        var root: String
        var files: [ExtrasMover.Entry]
    }

    /// The header line, newline included.
    static func headerLine(root: String) -> [UInt8] {
        line(Header(version: version, root: root))
    }

    /// An entry's line, newline included.
    static func line(_ entry: ExtrasMover.Entry) -> [UInt8] {
        line(entry as any Encodable)
    }

    private static func line(_ value: any Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and numbers cannot fail.
        return Array((try? encoder.encode(value)) ?? Data()) + [0x0A]
    }

    /// The whole manifest as version 2 lines.
    func encoded() -> [UInt8] {
        files.reduce(Self.headerLine(root: root)) { $0 + Self.line($1) }
    }

    /// Reads a manifest of either version; `shown` names it in the one-line error for anything
    /// else (another program's JSON, an unknown version, an entry edited into something else).
    public static func parse(_ data: [UInt8], shown: String) throws(MoveError) -> MoveManifest {
        let notOurs = "\(shown) is not a manifest written by `shoebox duplicates --move-extras`"
        let decoder = JSONDecoder()
        struct Versioned: Decodable { var version: Int? }
        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard let first = lines.first, let versioned = try? decoder.decode(Versioned.self, from: Data(first)) ?? decoder.decode(Versioned.self, from: Data(data)) else {
            throw MoveError(path: shown, "\(notOurs) (it is not JSON).")
        }
        guard let found = versioned.version else { throw MoveError(path: shown, "\(notOurs) (it has no version).") }
        switch found {
        case 1:
            guard let document = try? decoder.decode(Document.self, from: Data(data)) else {
                throw MoveError(path: shown, "\(notOurs) (its version 1 document does not read as one).")
            }
            return MoveManifest(root: document.root, files: document.files)
        case version:
            guard let header = try? decoder.decode(Header.self, from: Data(first)) else { throw MoveError(path: shown, "\(notOurs) (its first line has no root).") }
            var files: [ExtrasMover.Entry] = []
            for (number, line) in lines.enumerated().dropFirst() where !line.isEmpty {
                guard let entry = try? decoder.decode(ExtrasMover.Entry.self, from: Data(line)) else {
                    // Only the last line, with no newline after it, may be cut short (a kill mid-write).
                    if number == lines.count - 1 { break }
                    throw MoveError(path: shown, "\(notOurs) (line \(number + 1) is not a file's entry); restore from an unedited manifest.")
                }
                files.append(entry)
            }
            return MoveManifest(root: header.root, files: files)
        default:
            throw MoveError(path: shown, "\(shown) is a manifest of version \(found), which this Shoebox does not know (it reads versions 1 and \(version)); restore it with the Shoebox that wrote it.")
        }
    }
}
