import CVips

/// libvips, loaded and started once per process, on the first thumbnail, and set up for a server.
///
/// Commands that make no thumbnail never load it (see `CVips.h`).
enum Vips {
    /// Why libvips could not be used, or nil once it started (thread-safe: a lazy static).
    static let startFailure: String? = {
        guard shoebox_vips_load() == 0 else { return String(cString: shoebox_vips_load_error()) }
        guard shoebox_vips_init("shoebox") == 0 else { return takeError() }
        // Photos come one after another and are rarely the same twice: caching libvips
        // operations would only hold file descriptors and memory.
        shoebox_vips_cache_set_max(0)
        shoebox_vips_cache_set_max_mem(0)
        // Callers run several thumbnails at once; one worker thread per pipeline keeps a
        // request from taking every core.
        shoebox_vips_concurrency_set(1)
        // Loaders libvips marks untrusted (ImageMagick, PDF, JPEG 2000, …) are not for files
        // from the network or a shared folder.
        shoebox_vips_block_untrusted_set(1)
        shoebox_vips_silence_warnings()
        return nil
    }()

    /// Takes and clears libvips's error buffer, as one line about `path` (see `oneLine`).
    static func takeError(about path: String? = nil) -> String {
        guard let buffer = shoebox_vips_error_buffer_copy() else { return "unknown libvips error" }
        defer { shoebox_vips_free(buffer) }
        return oneLine(String(cString: buffer), about: path)
    }

    /// libvips's error lines joined with "; ", a line repeated back to back said once with its
    /// count (libjpeg reports "Corrupt JPEG data: 2 extraneous bytes …" once per marker).
    ///
    /// The buffer is one for the whole process, and loaders also write to it when they succeed
    /// (heifload's "bad seek"): lines that begin with another file's path are another render's,
    /// and are left out of the message about `path`.
    static func oneLine(_ buffer: String, about path: String? = nil) -> String {
        var lines: [(text: Substring, count: Int)] = []
        for line in buffer.split(whereSeparator: \.isNewline) {
            if let path, line.hasPrefix("/"), !line.hasPrefix(path + ":") { continue }
            if line == lines.last?.text { lines[lines.count - 1].count += 1 } else { lines.append((line, 1)) }
        }
        guard !lines.isEmpty else { return "unknown libvips error" }
        return lines.map { $0.count > 1 ? "\($0.text) (×\($0.count))" : String($0.text) }.joined(separator: "; ")
    }
}
