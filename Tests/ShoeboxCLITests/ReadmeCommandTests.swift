import Foundation
import PhotoFixtures
import Places
import Spawn
import Testing

/// Every `shoebox …` command in the ```sh and ```console blocks of README.md and docs/*.md runs as
/// shown on the demo library (testdata/photos): in a clone under a temporary home, through the
/// shell, with the built binary first on PATH; each block in a clone of its own. A console
/// block's printed output is compared too: its lines up to the first `…` start the output, those
/// after the last `…` end it (the home folder written `~`, durations as `N s`); an `Error:` line
/// marks an expected failure.
@Suite struct ReadmeCommandTests {
    /// Commands a test cannot run as written, with the reason.
    static let skipped: [(prefix: String, reason: String)] = [
        ("shoebox serve", "serves until stopped (the server's own tests run it)"),
        ("shoebox relocate /mnt/", "needs the photos moved to another disk (RelocateCommand's tests move them)"),
    ]

    @Test(arguments: ReadmeBlock.all)
    func theReadmeBlockRunsAsShown(_ block: ReadmeBlock) throws {
        let clone = try DemoClone(indexed: !block.startsByIndexing)
        for example in block.examples {
            if let skip = Self.skipped.first(where: { example.command.hasPrefix($0.prefix) }) {
                print("\(block.file) line \(example.line): skipped `\(example.command)`: \(skip.reason)")
                continue
            }
            let run = try clone.run(example.command)
            let context = "\(block.file) line \(example.line): `\(example.command)`"
            if let error = example.expectedError {
                #expect(run.status != 0, "\(context) was to fail with \(error)")
                #expect(clone.normalized(run.stderr).contains(error), "\(context): \(run.stderr)")
                continue
            }
            #expect(run.status == 0, "\(context) exited \(run.status): \(run.stderr)")
            guard let expected = example.expectedOutput else { continue }
            let actual = clone.normalized(run.stdout).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                .reversed().drop(while: \.isEmpty).reversed().map { $0 }
            let shown = expected.map(DemoClone.normalizedDurations)
            let head = Array(shown.prefix { $0 != "…" })
            #expect(Array(actual.prefix(head.count)) == head, "\(context) printed:\n\(actual.joined(separator: "\n"))")
            if head.count < shown.count {
                let tail = Array(shown.reversed().prefix { $0 != "…" }.reversed())
                #expect(Array(actual.suffix(tail.count)) == tail, "\(context) printed:\n\(actual.joined(separator: "\n"))")
            }
        }
    }

    @Test func theReadmeHasCommandsToCheck() {
        let commands = ReadmeBlock.all.flatMap(\.examples)
        #expect(commands.count >= 15)
        // The README's own usage block is checked, not only the pages it links to.
        #expect(ReadmeBlock.all.contains { $0.file == "README.md" })
        #expect(commands.contains { $0.expectedError != nil })
        #expect(commands.contains { $0.expectedOutput != nil })
    }
}

/// One ```sh or ```console block of README.md or a docs/*.md page, and the `shoebox` commands in it.
struct ReadmeBlock: Sendable, CustomTestStringConvertible {
    struct Example: Sendable {
        var line: Int
        /// As a shell reads it (comments included; the shell drops them).
        var command: String
        /// A console block's output lines, `…` where the page leaves some out.
        var expectedOutput: [String]?
        /// The message of a console block's `Error:` line.
        var expectedError: String?
    }

    /// The page, relative to the package root: `README.md`, `docs/commands.md`.
    var file: String
    var line: Int
    var examples: [Example]

    var testDescription: String { "\(file) block at line \(line): \(examples.first?.command ?? "")" }

    /// A block that indexes first shows a first run, so it starts from no index.
    var startsByIndexing: Bool { examples.first?.command.hasPrefix("shoebox index ") == true }

    /// The blocks of README.md, then of each docs/*.md page by name.
    static let all: [ReadmeBlock] = {
        var blocks: [ReadmeBlock] = []
        for file in DocumentationPage.files {
            let url = ShoeboxProcess.packageRoot.appendingPathComponent(file)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            blocks += parse(text, file: file)
        }
        return blocks
    }()

    static func parse(_ readme: String, file: String = "README.md") -> [ReadmeBlock] {
        var blocks: [ReadmeBlock] = []
        var kind: String?
        var current = ReadmeBlock(file: file, line: 0, examples: [])
        for (number, line) in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).enumerated() {
            if line.hasPrefix("```") {
                if kind != nil {
                    if !current.examples.isEmpty { blocks.append(current) }
                    kind = nil
                } else {
                    kind = String(line.dropFirst(3))
                    current = ReadmeBlock(file: file, line: number + 1, examples: [])
                }
                continue
            }
            switch kind {
            case "sh" where line.hasPrefix("shoebox "):
                current.examples.append(Example(line: number + 1, command: line))
            case "console" where line.hasPrefix("$ "):
                let command = String(line.dropFirst(2))
                guard command.hasPrefix("shoebox ") else { continue }
                current.examples.append(Example(line: number + 1, command: command, expectedOutput: []))
            case "console":
                guard var last = current.examples.popLast() else { continue }
                if line.hasPrefix("Error: ") {
                    last.expectedError = String(line.dropFirst("Error: ".count))
                    last.expectedOutput = nil
                } else if last.expectedError == nil {
                    last.expectedOutput?.append(line)
                }
                current.examples.append(last)
            default:
                break
            }
        }
        // Blank lines between a console block's commands are not output.
        for b in blocks.indices {
            for e in blocks[b].examples.indices {
                if let output = blocks[b].examples[e].expectedOutput {
                    let trimmed = Array(output.reversed().drop(while: \.isEmpty).reversed())
                    blocks[b].examples[e].expectedOutput = trimmed.isEmpty ? nil : trimmed
                }
            }
        }
        return blocks
    }
}

/// A clone of the project under a temporary home: `~/src/shoebox` with the demo photos and the
/// default configuration, `~/Pictures` the same photos, the default database and the places table
/// under `~/.local/share`, and `shoebox` on PATH.
final class DemoClone {
    let folder: TemporaryDirectory
    let home: String
    let clone: String
    let environment: [String: String]

    /// The file date the examples of README.md and docs/ show for photos dated by their file.
    static let fileDate = "2026-11-22 21:06:13 UTC"

    init(indexed: Bool) throws {
        folder = try TemporaryDirectory()
        home = folder.url("home").path
        clone = home + "/src/shoebox"
        let root = ShoeboxProcess.packageRoot.path
        try FileManager.default.createDirectory(atPath: clone + "/testdata", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: clone + "/config", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.url("bin").path, withIntermediateDirectories: true)
        try Self.shell("cp -R \"$1/testdata/photos\" \"$2/testdata/photos\" && cp \"$1/config/shoebox.json\" \"$2/config/\""
                       + " && find \"$2/testdata/photos\" -exec touch -h -d \"$3\" {} +", root, clone, Self.fileDate)
        try FileManager.default.createSymbolicLink(atPath: home + "/Pictures", withDestinationPath: clone + "/testdata/photos")
        try FileManager.default.createSymbolicLink(atPath: folder.url("bin/shoebox").path, withDestinationPath: ShoeboxProcess.executable.path)
        try Self.installPlaces(at: home + "/.local/share/shoebox/" + PlaceTable.fileName)

        var environment = ProcessInfo.processInfo.environment.filter { key, _ in
            !key.hasPrefix("SHOEBOX_") && !key.hasPrefix("XDG_")
        }
        environment["HOME"] = home
        // Shoebox finds its home folder from the user database, not $HOME: these keep it in the clone.
        environment["XDG_DATA_HOME"] = home + "/.local/share"
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        environment["XDG_CACHE_HOME"] = home + "/.cache"
        environment["TZ"] = "UTC"
        environment["PATH"] = folder.url("bin").path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        self.environment = environment
        if indexed {
            let run = try self.run("shoebox index testdata/photos")
            guard run.status == 0 else { throw SetupFailed(message: "shoebox index testdata/photos: \(run.stderr)") }
        }
    }

    /// The places table `scripts/places-data` installed on this machine (what `scripts/demo` uses), or
    /// without one a table of the demo's places alone, which names the demo's photos the same way:
    /// each is within 300 m of its place, and no other place is nearer.
    static func installPlaces(at path: String) throws {
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        if let installed = PlaceTable.installedPath().found {
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: installed)
            return
        }
        let entries = DemoLibrary.places.map { place in
            PlaceTable.Entry(
                name: place.city, latitude: place.latitude, longitude: place.longitude, population: place.population,
                region: place.region, countryCode: place.countryCode, countryName: place.country, timeZone: place.timeZone)
        }
        let table = PlaceTable.encode(entries, credit: "Places: GeoNames (https://www.geonames.org), CC BY 4.0; the demo's places only.")
        guard FileManager.default.createFile(atPath: path, contents: Data(table)) else {
            throw SetupFailed(message: "could not write \(path)")
        }
    }

    /// Runs `command` with `sh -c` in the clone.
    func run(_ command: String) throws -> ShoeboxProcess.Output {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: clone)
        process.standardInput = FileHandle.nullDevice
        return try ShoeboxProcess.finish(process, arguments: [command], stdout: nil, deadline: .seconds(120))
    }

    /// The home folder written `~`, as the README and docs/ do, and durations as `N s`.
    func normalized(_ text: String) -> String {
        Self.normalizedDurations(text.replacingOccurrences(of: home, with: "~"))
    }

    static func normalizedDurations(_ text: String) -> String {
        text.replacingOccurrences(of: #"\b\d+\.\d s\b"#, with: "N s", options: .regularExpression)
    }

    private static func shell(_ script: String, _ arguments: String...) throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, "sh"] + arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SetupFailed(message: "sh -c \(script) exited \(process.terminationStatus)")
        }
    }
}

struct SetupFailed: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
