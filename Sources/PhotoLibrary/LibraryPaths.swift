public import Foundation

/// Where a library's files live by default.
public enum LibraryPaths {
    /// `$SHOEBOX_DB`, else `$XDG_DATA_HOME/shoebox/library.sqlite`, else
    /// `~/.local/share/shoebox/library.sqlite`, made absolute.
    public static func defaultDatabase(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment["SHOEBOX_DB"], !path.isEmpty { return absolute(path, environment: environment) }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (home(environment: environment) as NSString).appendingPathComponent(".local/share")
        return absolute((dataHome as NSString).appendingPathComponent("shoebox/library.sqlite"), environment: environment)
    }

    /// `$XDG_CACHE_HOME/shoebox`, else `~/.cache/shoebox`: thumbnails and other files that can be
    /// made again.
    public static func cacheDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let cacheHome = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (home(environment: environment) as NSString).appendingPathComponent(".cache")
        return absolute((cacheHome as NSString).appendingPathComponent("shoebox"), environment: environment)
    }

    /// The user's home: `$HOME` when it is an absolute path, as the XDG rules and the shell take
    /// it, else the account's (Foundation's `NSHomeDirectory()` reads only the account database,
    /// so a service or test given another `HOME` would otherwise write into the real one).
    public static func home(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let home = environment["HOME"], home.hasPrefix("/") { return home }
        return NSHomeDirectory()
    }

    /// `path` with a leading `~` (or `~/`) expanded to `home(environment:)`, `~user` to that account's.
    public static func expandingTilde(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        path == "~" || path.hasPrefix("~/") ? home(environment: environment) + path.dropFirst() : (path as NSString).expandingTildeInPath
    }

    /// `path` with `~` expanded (`expandingTilde`), made absolute against the current folder, `.`
    /// and `..` resolved.
    public static func absolute(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let expanded = expandingTilde(path, environment: environment)
        let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return URL(fileURLWithPath: expanded, relativeTo: base).standardizedFileURL.path
    }
}
