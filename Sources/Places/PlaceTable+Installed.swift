import Foundation

extension PlaceTable {
    /// The file name the set-up writes and Shoebox looks for.
    public static let fileName = "places.bin"

    /// Where Shoebox looks for the table, in order: `$SHOEBOX_PLACES` alone when it is set;
    /// otherwise `places.bin` beside the executable, then `../share/shoebox/places.bin` from the
    /// executable's folder (where `scripts/install` puts it, `PREFIX/share` beside `PREFIX/bin`), then
    /// `${XDG_DATA_HOME:-$HOME/.local/share}/shoebox/places.bin` (where `scripts/places-data` installs it).
    public static func installedPaths(environment: [String: String], executableDirectory: String?) -> [String] {
        if let explicit = environment["SHOEBOX_PLACES"], !explicit.isEmpty { return [explicit] }
        var paths: [String] = []
        if let executableDirectory {
            paths.append(executableDirectory + "/" + fileName)
            paths.append(Self.sharedDataPath(executableDirectory: executableDirectory))
        }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            paths.append(data + "/shoebox/" + fileName)
        } else if let home = environment["HOME"], !home.isEmpty {
            paths.append(home + "/.local/share/shoebox/" + fileName)
        }
        return paths
    }

    /// `PREFIX/share/shoebox/places.bin` for an executable in `PREFIX/bin`.
    static func sharedDataPath(executableDirectory: String) -> String {
        URL(fileURLWithPath: executableDirectory, isDirectory: true).deletingLastPathComponent()
            .appendingPathComponent("share/shoebox/" + fileName).path
    }

    /// The first of ``installedPaths(environment:executableDirectory:)`` where a file exists, and
    /// every path looked at; nothing is read.
    ///
    /// - Parameters:
    ///   - environment: the process's environment when `nil`.
    ///   - executableDirectory: the running executable's folder when `nil`.
    public static func installedPath(
        environment: [String: String]? = nil, executableDirectory: String? = nil
    ) -> (found: String?, lookedAt: [String]) {
        let paths = installedPaths(
            environment: environment ?? ProcessInfo.processInfo.environment,
            executableDirectory: executableDirectory ?? Bundle.main.executableURL?.deletingLastPathComponent().path)
        return (paths.first { FileManager.default.fileExists(atPath: $0) }, paths)
    }

    /// Loads the first table found at ``installedPaths(environment:executableDirectory:)``.
    ///
    /// Without a table this throws `.missing` once, naming the paths looked at; a caller reports
    /// that once and shows positions without places.
    public static func loadInstalled(
        environment: [String: String]? = nil, executableDirectory: String? = nil
    ) throws(PlaceTableError) -> PlaceTable {
        let installed = installedPath(environment: environment, executableDirectory: executableDirectory)
        if let path = installed.found { return try load(path: path) }
        let paths = installed.lookedAt
        throw PlaceTableError(
            .missing,
            "No places table (looked at \(paths.joined(separator: ", "))), so photos get no place names; "
                + "scripts/places-data installs it.",
            subject: paths.joined(separator: ", "))
    }
}
