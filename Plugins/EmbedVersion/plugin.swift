import Foundation
import PackagePlugin

/// Builds the package's version, the one line of `VERSION` beside `Package.swift`, into the target:
/// a generated Swift source with `ShoeboxVersion.text`, so `shoebox --version` and the Debian package
/// (`scripts/package`) name the same version, kept in one file.
@main
struct EmbedVersion: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let version = context.package.directoryURL.appending(path: "VERSION")
        let output = context.pluginWorkDirectoryURL.appending(path: "ShoeboxVersion.swift")
        // The shell reads the file when the build runs, so editing VERSION alone rebuilds the source.
        // Only letters, digits and . + ~ - (a Debian upstream version) pass: nothing to escape in Swift.
        let script = """
            v=$(cat "$1") || exit 1
            case "$v" in
              "" | *[!0-9A-Za-z.+~-]*) echo "$1: write the version as one line such as 0.46.0 (digits, letters, . + ~ -)." >&2; exit 1 ;;
            esac
            printf '/// The version in VERSION when this was built.\\nenum ShoeboxVersion {\\n    static let text = "%s"\\n}\\n' "$v" >"$2"
            """
        return [
            .buildCommand(
                displayName: "Embedding the version from VERSION",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "sh", version.path, output.path],
                inputFiles: [version],
                outputFiles: [output])
        ]
    }
}
