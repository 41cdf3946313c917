import CVips

/// libvips, started once per process and set up for a server.
enum Vips {
    /// Whether libvips started; the first use starts it (thread-safe: a lazy static).
    static let isReady: Bool = {
        guard vips_init("shoebox") == 0 else { return false }
        // Photos come one after another and are rarely the same twice: caching libvips
        // operations would only hold file descriptors and memory.
        vips_cache_set_max(0)
        vips_cache_set_max_mem(0)
        // Callers run several thumbnails at once; one worker thread per pipeline keeps a
        // request from taking every core.
        vips_concurrency_set(1)
        // Loaders libvips marks untrusted (ImageMagick, PDF, JPEG 2000, …) are not for files
        // from the network or a shared folder.
        vips_block_untrusted_set(1)
        shoebox_vips_silence_warnings()
        return true
    }()

    /// Takes and clears libvips's error buffer, as one line.
    static func takeError() -> String {
        guard let buffer = vips_error_buffer_copy() else { return "unknown libvips error" }
        defer { g_free(buffer) }
        let lines = String(cString: buffer).split(whereSeparator: \.isNewline)
        return lines.isEmpty ? "unknown libvips error" : lines.joined(separator: "; ")
    }
}
