public import Foundation
public import LibraryIndex
public import Timeline
public import ZoomMapping

/// The configuration file: one JSON object with a part per concern. Every key is optional.
public struct ShoeboxConfiguration: Sendable, Codable, Equatable {
    /// What the crawler skips, its reader jobs and the removal limit.
    public var index: IndexSettings
    /// Fine and coarse sections: span, merge limit, sampling, seed, day-start hour.
    public var sections: TimelineSettings
    /// Grid metrics of both levels, content insets and the default viewport.
    public var zoom: ZoomSettings
    /// The largest photo the thumbnail renderer decodes.
    public var thumbnails: ThumbnailSettings
    /// `shoebox serve`'s timeouts, connection cap and accepted host names.
    public var server: ServerLimits
    /// Video playback: transcoding on or off, its largest height, its disk cache.
    public var video: VideoSettings = .default

    public static let `default` = ShoeboxConfiguration(index: .default, sections: TimelineSettings(), zoom: ZoomSettings())

    public init(
        index: IndexSettings, sections: TimelineSettings, zoom: ZoomSettings,
        thumbnails: ThumbnailSettings = .default, server: ServerLimits = ServerLimits()
    ) {
        self.index = index
        self.sections = sections
        self.zoom = zoom
        self.thumbnails = thumbnails
        self.server = server
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        index = try c.decodeIfPresent(IndexSettings.self, forKey: .index) ?? .default
        sections = try c.decodeIfPresent(TimelineSettings.self, forKey: .sections) ?? TimelineSettings()
        zoom = try c.decodeIfPresent(ZoomSettings.self, forKey: .zoom) ?? ZoomSettings()
        thumbnails = try c.decodeIfPresent(ThumbnailSettings.self, forKey: .thumbnails) ?? .default
        server = try c.decodeIfPresent(ServerLimits.self, forKey: .server) ?? ServerLimits()
        video = try c.decodeIfPresent(VideoSettings.self, forKey: .video) ?? .default
    }

    /// Reads the first configuration file that exists: `explicitPath`, else `$SHOEBOX_CONFIG` (which
    /// must exist), else `$XDG_CONFIG_HOME/shoebox/config.json`, else `./config/shoebox.json`, else
    /// the defaults. Every value is validated.
    public static func load(
        explicitPath: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(LibraryError) -> ShoeboxConfiguration {
        guard let file = try locate(explicitPath: explicitPath, environment: environment) else { return .default }
        return try decode(path: file.path, explicit: file.origin != .found)
    }

    /// The file `load` reads and why that one, or `nil` when the built-in defaults apply.
    public static func locate(
        explicitPath: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(LibraryError) -> (path: String, origin: Origin)? {
        if let explicitPath {
            return (LibraryPaths.expandingTilde(explicitPath, environment: environment), .option)
        }
        if let path = environment["SHOEBOX_CONFIG"], !path.isEmpty {
            let expanded = LibraryPaths.expandingTilde(path, environment: environment)
            guard FileManager.default.fileExists(atPath: expanded) else {
                throw LibraryError(.invalidConfiguration, "There is no configuration file at \(path) (from $SHOEBOX_CONFIG); fix the path, or unset SHOEBOX_CONFIG to use the defaults.")
            }
            return (expanded, .environment)
        }
        var candidates: [String] = []
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (LibraryPaths.home(environment: environment) as NSString).appendingPathComponent(".config")
        candidates.append((configHome as NSString).appendingPathComponent("shoebox/config.json"))
        candidates.append("config/shoebox.json")
        return candidates.first { FileManager.default.fileExists(atPath: $0) }.map { ($0, .found) }
    }

    /// How `locate` chose a configuration file.
    public enum Origin: Sendable {
        /// `--config FILE`.
        case option
        /// `$SHOEBOX_CONFIG`.
        case environment
        /// The first of `$XDG_CONFIG_HOME/shoebox/config.json` and `./config/shoebox.json` that exists.
        case found
    }

    private static func decode(path: String, explicit: Bool) throws(LibraryError) -> ShoeboxConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LibraryError(.invalidConfiguration, "Cannot read the configuration file \(path); check the path given to --config.")
        }
        if let unknown = try? unknownKey(in: data) {
            throw LibraryError(.invalidConfiguration, "The configuration file \(path) has an unknown key \"\(unknown)\"; `shoebox config --defaults` shows every key.")
        }
        let configuration: ShoeboxConfiguration
        do {
            configuration = try JSONDecoder().decode(ShoeboxConfiguration.self, from: data)
        } catch let error as DecodingError {
            if let problem = negativeSeed(in: data) {
                throw LibraryError(.invalidConfiguration, "The configuration file \(path) is not valid: \(problem).")
            }
            throw LibraryError(.invalidConfiguration, "The configuration file \(path) is not valid: \(error.readableDescription).")
        } catch {
            throw LibraryError(.invalidConfiguration, "The configuration file \(path) is not valid JSON: \(error).")
        }
        do {
            try configuration.validate()
        } catch {
            throw LibraryError(.invalidConfiguration, "The configuration file \(path) is not valid: \(error.localizedProblem); `shoebox config --defaults` shows every key with its default.")
        }
        return configuration
    }

    /// Checks every value with the same rules as the command-line flags.
    public func validate() throws {
        try index.validate()
        try sections.validate()
        try zoom.validate()
        try thumbnails.validate()
        try server.validate()
        try video.validate()
    }

    /// "sections.coarse.seed must be a whole number ≥ 0" for a seed JSON holds but `UInt64` cannot.
    private static func negativeSeed(in data: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let sections = object["sections"] as? [String: Any],
              let coarse = sections["coarse"] as? [String: Any],
              let seed = coarse["seed"] as? NSNumber
        else { return nil }
        guard seed.doubleValue < 0 || seed.doubleValue != seed.doubleValue.rounded() else { return nil }
        return "sections.coarse.seed must be a whole number ≥ 0 (got \(seed))"
    }
}

extension Error {
    /// The error's message as a clause: lower-case start, no full stop.
    var localizedProblem: String {
        let text = String(describing: self)
        let trimmed = text.hasSuffix(".") ? String(text.dropLast()) : text
        return trimmed.prefix(1).lowercased() + trimmed.dropFirst()
    }
}

extension ShoeboxConfiguration {
    /// The first key of `data` that the defaults do not have (a typo would otherwise be ignored).
    static func unknownKey(in data: Data) throws -> String? {
        let known = try JSONSerialization.jsonObject(with: JSONEncoder().encode(ShoeboxConfiguration.default))
        let given = try JSONSerialization.jsonObject(with: data)
        func search(_ given: Any, _ known: Any, _ path: String) -> String? {
            guard let given = given as? [String: Any], let known = known as? [String: Any] else { return nil }
            for key in given.keys.sorted() {
                let keyPath = path.isEmpty ? key : path + "." + key
                guard let expected = known[key] else { return keyPath }
                if let found = search(given[key]!, expected, keyPath) { return found }
            }
            return nil
        }
        return search(given, known, "")
    }
}

extension DecodingError {
    /// "at sections.spanDays: expected Int" rather than Foundation's debug dump.
    var readableDescription: String {
        func path(_ context: Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "" : " at \(keys.joined(separator: "."))"
        }
        switch self {
        case .typeMismatch(let type, let context): return "expected \(type)\(path(context))"
        case .valueNotFound(let type, let context): return "missing \(type)\(path(context))"
        case .keyNotFound(let key, let context): return "missing key \(key.stringValue)\(path(context))"
        case .dataCorrupted(let context): return "\(context.debugDescription)\(path(context))"
        @unknown default: return "\(self)"
        }
    }
}
