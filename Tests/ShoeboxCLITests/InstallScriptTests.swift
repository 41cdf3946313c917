import Foundation
import PhotoFixtures
import Testing

/// `scripts/install PREFIX` with the binary the tests built (`SHOEBOX_BIN` skips the release build):
/// the executable and the systemd user unit land where the script says, and the unit names the
/// installed binary.
@Suite struct InstallScriptTests {
    @Test func installsTheBinaryAndAUserUnitThatRunsIt() throws {
        let folder = try TemporaryDirectory()
        let prefix = folder.url("prefix").path
        let run = try Self.install(prefix: prefix, home: folder.url("home").path)
        #expect(run.status == 0, "\(run.stderr)")

        let binary = prefix + "/bin/shoebox"
        let attributes = try FileManager.default.attributesOfItem(atPath: binary)
        #expect((attributes[.posixPermissions] as? Int) == 0o755)
        #expect(FileManager.default.contentsEqual(atPath: binary, andPath: ShoeboxProcess.executable.path))

        // Root puts the unit beside the binary's prefix, anyone else in ~/.config/systemd/user.
        let unitFolder = getuid() == 0 ? prefix + "/lib/systemd/user" : folder.url("home/.config/systemd/user").path
        let unit = try String(contentsOfFile: unitFolder + "/shoebox.service", encoding: .utf8)
        #expect(unit.contains("\nExecStart=\(binary) serve --watch\n"))
        #expect(unit.contains("\nRestart=on-failure\n"))
        #expect(unit.contains("\nWantedBy=default.target\n"))
        #expect(run.stdout.contains("systemctl --user enable --now shoebox"))

        // The installed binary runs on its own.
        let help = try ShoeboxProcess.run(["--help"], executable: URL(fileURLWithPath: binary))
        #expect(help.status == 0)

        if FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") {
            let verify = try Self.run("/usr/bin/systemd-analyze", ["verify", unitFolder + "/shoebox.service"], environment: [:])
            #expect(verify.status == 0, "systemd-analyze verify: \(verify.stderr)")
        }
    }

    @Test func aMissingBinaryIsNamedAndNothingIsInstalled() throws {
        let folder = try TemporaryDirectory()
        let prefix = folder.url("prefix").path
        let run = try Self.install(prefix: prefix, home: folder.url("home").path, binary: folder.url("no-such-shoebox").path)
        #expect(run.status != 0)
        #expect(run.stderr.contains("no-such-shoebox"))
        #expect(!FileManager.default.fileExists(atPath: prefix + "/bin/shoebox"))
    }

    static func install(prefix: String, home: String, binary: String = ShoeboxProcess.executable.path) throws -> ShoeboxProcess.Output {
        let script = ShoeboxProcess.packageRoot.appendingPathComponent("scripts/install").path
        return try run(script, [prefix], environment: ["SHOEBOX_BIN": binary, "HOME": home, "XDG_CONFIG_HOME": home + "/.config"])
    }

    static func run(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> ShoeboxProcess.Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        return try ShoeboxProcess.finish(process, arguments: [executable] + arguments, stdout: nil, deadline: .seconds(60))
    }
}
