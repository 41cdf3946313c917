import Foundation
import LibraryIndex
import PhotoLibrary

/// A one-line progress bar on standard error: files done / total, rate and time left.
/// Prints nothing when standard error is not a terminal, so logs and pipes stay clean.
final class ProgressDisplay: @unchecked Sendable {  // used from one thread at a time
    private let enabled: Bool
    private let start = ContinuousClock.now
    private var readingStart: ContinuousClock.Instant?
    private var lastLine = ""

    init(enabled: Bool) {
        self.enabled = enabled
    }

    var elapsed: Duration { ContinuousClock.now - start }

    func show(_ progress: IndexProgress) {
        guard enabled else { return }
        let line: String
        // Reading starts while the walk still goes on, with the first new or changed files it hands over.
        if readingStart == nil && (progress.toRead > 0 || progress.phase == .reading) { readingStart = .now }
        switch progress.phase {
        case .walking:
            line = "Scanning… \(progress.filesFound.counted("file")) found"
                + (progress.toRead > 0 ? ", \(progress.read.grouped)/\(progress.toRead.grouped) read" : "")
        case .reading:
            line = Self.bar(done: progress.read, total: progress.toRead, since: readingStart ?? .now)
        case .removing:
            line = "Removing files that are gone…"
        case .completed, .stopped:
            line = ""
        }
        show(line: line)
    }

    /// Replaces the progress line with `line`.
    func show(line: String) {
        guard enabled, line != lastLine else { return }
        lastLine = line
        Output.noteWithoutNewline("\r\u{1B}[2K\(line)")
    }

    func finish() {
        guard enabled, !lastLine.isEmpty else { return }
        Output.noteWithoutNewline("\r\u{1B}[2K")
    }

    /// `Reading [██████······]  6,123/10,000  1,234 files/s  ETA 0:03`
    static func bar(_ verb: String = "Reading", done: Int, total: Int, since: ContinuousClock.Instant, unit: String = "files") -> String {
        let width = 24
        let fraction = total > 0 ? Double(done) / Double(total) : 1
        let filled = Int(fraction * Double(width))
        let seconds = (ContinuousClock.now - since).seconds
        // A rate from a near-zero interval means nothing ("20,400,728 files/s" after 55 files): none before a second.
        let rate = seconds >= minimumRateInterval ? Double(done) / seconds : 0
        let eta = rate > 0 ? Double(total - done) / rate : nil
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        var line = "\(verb) [\(bar)] \(done.grouped)/\(total.grouped)"
        if rate > 0 { line += "  \(Int(rate).grouped) \(unit)/s" }
        if let eta { line += "  ETA \(Self.clock(eta))" }
        return line
    }

    /// Seconds of work before a rate and a time left are shown.
    static let minimumRateInterval = 1.0

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}

/// The closing report of an index run.
struct IndexSummary {
    var progress: IndexProgress
    var root: String
    var database: String
    var elapsed: Duration

    var text: String {
        let p = progress
        var lines: [String] = []
        let verb = p.phase == .stopped ? "Stopped indexing" : "Indexed"
        lines.append("\(verb) \(root.terminalSafe) in \(String(format: "%.1f", elapsed.seconds)) s")
        var counts = "  \(p.added.grouped) added, \(p.updated.grouped) updated, \(p.unchanged.grouped) unchanged, \(p.removed.grouped) removed, \(p.failed.grouped) failed, \(p.skipped.grouped) skipped (not images)"
        if p.missing > 0 { counts += ", \(p.missing.grouped) missing (kept)" }
        lines.append(counts)
        if p.phase == .stopped && p.walkCompleted {
            lines.append("  \(p.read.grouped) of \(p.toRead.grouped) new or changed files were read and committed; run the same command again to finish.")
        } else if p.phase == .stopped {
            lines.append("  \(p.read.grouped) new or changed files were read and committed, of \(p.toRead.grouped) found before the stop ended the walk; run the same command again to finish.")
        }
        let shown = 10
        for directory in p.unreadableDirectories.prefix(shown) {
            let name = (directory.bytes.isEmpty ? root : directory.string).terminalSafe
            lines.append("  Could not read the folder \(name): its photos already in the index were kept.")
        }
        if p.unreadableDirectories.count > shown {
            lines.append("  … and \((p.unreadableDirectories.count - shown).counted("more folder")) that could not be read.")
        }
        lines.append("  Database: \(database.terminalSafe)")
        return lines.joined(separator: "\n")
    }
}

extension Int {
    /// 12,345
    var grouped: String {
        let digits = String(magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return (self < 0 ? "-" : "") + out
    }
}

extension Duration {
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}
