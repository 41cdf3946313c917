public import Foundation

/// Where a library's files live by default.
public enum LibraryPaths {
    /// `$SHOEBOX_DB`, else `$XDG_DATA_HOME/shoebox/library.sqlite`, else
    /// `~/.local/share/shoebox/library.sqlite`, made absolute.
    public static func defaultDatabase(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment["SHOEBOX_DB"], !path.isEmpty { return absolute(path) }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".local/share")
        return absolute((dataHome as NSString).appendingPathComponent("shoebox/library.sqlite"))
    }

    /// `$XDG_CACHE_HOME/shoebox`, else `~/.cache/shoebox`: thumbnails and other files that can be
    /// made again.
    public static func cacheDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let cacheHome = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".cache")
        return absolute((cacheHome as NSString).appendingPathComponent("shoebox"))
    }

    /// `path` with `~` expanded, made absolute against the current folder, `.` and `..` resolved.
    public static func absolute(_ path: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return URL(fileURLWithPath: expanded, relativeTo: base).standardizedFileURL.path
    }
}
