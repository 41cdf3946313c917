public import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the browser is given to play a video: its original when Chromium plays its container and
/// codecs (decided from ffprobe's streams, never the file name), else an H.264/AAC MP4
/// (`+faststart`, at most `maxHeight` high) transcoded once into a size-capped disk cache.
///
/// One transcode runs at a time (it uses every core); the others wait their turn. Probes and
/// failures are remembered per (video, size, modification time). Past the cache's cap the least
/// recently played transcodes go first; a transcode being written or sent (`openTranscode`) never
/// goes.
public final class VideoPlayback: Sendable {
    /// The folder of transcoded videos.
    public let directory: String
    public let tool: VideoTool
    /// Whether videos the browser cannot play are transcoded.
    public let transcode: Bool
    /// The largest height of a transcode (the shorter side of a portrait video).
    public let maxHeight: Int
    /// Bytes the transcodes may take together.
    public let cacheBytes: Int64
    /// The wall-clock limit of one transcode; nil: ten minutes and ten times the video's length,
    /// at most a day.
    public let timeLimit: Duration?

    /// What to send for a video.
    public enum Answer: Sendable, Equatable {
        /// The original file; its `Content-Type` as the browser should see it.
        case original(contentType: String)
        /// A finished transcode at this path (H.264/AAC MP4).
        case transcoded(path: String)
        /// A transcode is under way: percent done (0–99).
        case preparing(percent: Int)
        /// No playback: why (a sentence), and the placeholder-style reason.
        case failed(reason: String, message: String)
    }

    private struct Probe: Sendable {
        var playable: Bool
        var contentType: String
        var duration: Double?
        var container: VideoContainer
    }

    private let probes = Mutex<[String: Probe]>([:])
    private let jobs = Mutex<[String: Int]>([:])
    private let failures = Mutex<[String: ThumbnailError]>([:])
    private let turn = Mutex<Void>(())
    /// Transcodes being sent, by path, and how many answers hold each; eviction leaves them. Its
    /// lock also covers eviction itself, so a transcode is either opened or removed, never both.
    private let serving = Mutex<[String: Int]>([:])

    /// `$XDG_CACHE_HOME/shoebox/videos` (or `~/.cache/shoebox/videos`) unless told otherwise.
    public init(directory: String, tool: VideoTool = VideoTool(threads: ProcessInfo.processInfo.activeProcessorCount),
                transcode: Bool = true, maxHeight: Int = 1080, cacheBytes: Int64 = 4 << 30, timeLimit: Duration? = nil) {
        self.directory = directory
        self.tool = tool
        self.transcode = transcode
        self.maxHeight = max(2, maxHeight)
        self.cacheBytes = max(1, cacheBytes)
        self.timeLimit = timeLimit.map { max(.milliseconds(1), $0) }
    }

    /// The answer for `source` now; starts its transcode when one is needed and not under way.
    ///
    /// - Parameter keepAlive: held until the transcode ends (e.g. the open file behind a
    ///   `/proc/self/fd` path).
    public func answer(for source: ThumbnailSource, keepAlive: (any Sendable)? = nil) -> Answer {
        let key = "\(source.id)_\(source.fileSize)_\(source.modified)_h\(maxHeight)"
        let output = directory + "/" + key + ".mp4"
        if FileManager.default.fileExists(atPath: output) {
            _ = utimes(output, nil)  // recently used
            return .transcoded(path: output)
        }
        if let percent = jobs.withLock({ $0[key] }) { return .preparing(percent: percent) }
        if let error = failures.withLock({ $0[key] }) { return .failed(reason: error.code.placeholderReason, message: error.message) }
        let probe: Probe
        switch self.probe(source, key: key) {
        case .failure(let error):
            if error.code != .decoderUnavailable { failures.withLock { $0[key] = error } }
            return .failed(reason: error.code.placeholderReason, message: error.message)
        case .success(let found):
            probe = found
        }
        if probe.playable { return .original(contentType: probe.contentType) }
        guard transcode else {
            return .failed(reason: "unsupported", message: "The browser cannot play this video as it is, and transcoding is off (video.transcode in the configuration).")
        }
        let started = jobs.withLock { table -> Bool in
            if table[key] != nil { return false }
            table[key] = 0
            return true
        }
        if started {
            Thread.detachNewThread { [self] in
                let result = turn.withLock { _ in run(source: source, probe: probe, key: key, output: output) }
                withExtendedLifetime(keepAlive) {}
                // Also a video that changed meanwhile: its key names the version that is gone, and
                // a new transcode under it would be dropped again; its new version has a key of its own.
                if case .failure(let error) = result { failures.withLock { $0[key] = error } }
                jobs.withLock { _ = $0.removeValue(forKey: key) }
            }
        }
        return .preparing(percent: 0)
    }

    /// Waits until `source` has an answer other than `.preparing` (for tests and the CLI).
    public func finishedAnswer(for source: ThumbnailSource, poll: Duration = .milliseconds(50)) async -> Answer {
        while true {
            let answer = answer(for: source)
            if case .preparing = answer {
                try? await Task.sleep(for: poll)
                continue
            }
            return answer
        }
    }

    // MARK: Probing

    /// Browser-playable video and audio codecs.
    static let playableVideo: Set<String> = ["h264", "vp8", "vp9", "av1"]
    static let playableAudio: Set<String> = ["aac", "mp3", "opus"]

    private func probe(_ source: ThumbnailSource, key: String) -> Result<Probe, ThumbnailError> {
        if let known = probes.withLock({ $0[key] }) { return .success(known) }
        guard let container = VideoContainer.sniff(path: source.path) else {
            return .failure(ThumbnailError(.undecodable, path: source.path, "\(source.path) is not a video container Shoebox gives to ffmpeg."))
        }
        let arguments = ["-protocol_whitelist", "file", "-f", container.demuxer, "-print_format", "json", "-show_streams", "-show_format", "file:" + VideoTool.childPath(source.path)]
        switch tool.run(.ffprobe, arguments, path: source.path, timeLimit: .seconds(20)) {
        case .failure(let error):
            return .failure(error)
        case .success(let output):
            guard let found = Self.decide(json: output.stdout, container: container, webM: Self.isWebM(source.path)) else {
                return .failure(ThumbnailError(.undecodable, path: source.path, "ffprobe found no video stream in \(source.path)."))
            }
            probes.withLock { $0[key] = found }
            return .success(found)
        }
    }

    /// Whether a Matroska file says it is WebM (its EBML `DocType`).
    static func isWebM(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = [UInt8](handle.readData(ofLength: 64))
        let docType: [UInt8] = [0x42, 0x82]
        guard let start = head.indices.first(where: { head[$0...].starts(with: docType) }) else { return false }
        return head[(start + 2)...].dropFirst().starts(with: Array("webm".utf8))
    }

    private static func decide(json: [UInt8], container: VideoContainer, webM: Bool) -> Probe? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
              let streams = object["streams"] as? [[String: Any]]
        else { return nil }
        let format = object["format"] as? [String: Any]
        let duration = (format?["duration"] as? String).flatMap(Double.init)
        let videos = streams.filter { ($0["codec_type"] as? String) == "video" && (($0["disposition"] as? [String: Any])?["attached_pic"] as? Int ?? 0) == 0 }
        let audios = streams.filter { ($0["codec_type"] as? String) == "audio" }
        guard let video = videos.first else { return nil }
        let codec = video["codec_name"] as? String ?? ""
        let pixelFormat = video["pix_fmt"] as? String ?? ""
        // Chromium decodes 8-bit 4:2:0 H.264 only.
        let videoPlays = playableVideo.contains(codec) && (codec != "h264" || ["yuv420p", "yuvj420p"].contains(pixelFormat))
        let audioPlays = audios.allSatisfy { playableAudio.contains($0["codec_name"] as? String ?? "") }
        let containerPlays: Bool
        let contentType: String
        switch container {
        case .mov:
            containerPlays = true
            contentType = "video/mp4"
        case .matroska:
            containerPlays = webM && ["vp8", "vp9", "av1"].contains(codec)
            contentType = "video/webm"
        case .avi, .mpegts:
            containerPlays = false
            contentType = "application/octet-stream"
        }
        return Probe(playable: containerPlays && videoPlays && audioPlays, contentType: contentType, duration: duration, container: container)
    }

    // MARK: Transcoding

    /// ffmpeg's arguments for the transcode of `path` into `output`.
    func arguments(path: String, container: VideoContainer, output: String) -> [String] {
        // Landscape: height at most maxHeight; portrait (after autorotation): width at most maxHeight.
        let cap = maxHeight
        let scale = "scale='if(gte(iw,ih),-2,min(iw,\(cap)))':'if(gte(iw,ih),min(ih,\(cap)),-2)',format=yuv420p"
        return tool.inputArguments(path, container: container) + [
            "-map", "0:v:0", "-map", "0:a:0?", "-sn", "-dn", "-map_metadata", "-1",
            "-vf", scale, "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-profile:v", "high",
            "-c:a", "aac", "-b:a", "128k", "-ac", "2",
            "-movflags", "+faststart", "-progress", "pipe:1", "-nostats",
            "-f", "mp4", "file:" + output,
        ]
    }

    private func run(source: ThumbnailSource, probe: Probe, key: String, output: String) -> Result<Void, ThumbnailError> {
        let path = source.path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let temporary = directory + "/.tmp-" + key + "-" + UUID().uuidString + ".mp4"
        defer { unlink(temporary) }
        let duration = probe.duration ?? 0
        // Generous: ten times real time and ten minutes more, at most a day.
        let limit = timeLimit ?? Duration.seconds(min(86_400, 600 + 10 * max(0, duration.isFinite ? duration : 0)))
        let result = tool.run(.ffmpeg, arguments(path: path, container: probe.container, output: temporary), path: path, timeLimit: limit) { [self] line in
            guard duration > 0, line.hasPrefix("out_time_us="), let micro = Double(line.dropFirst("out_time_us=".count)) else { return }
            jobs.withLock { $0[key] = Self.percent(outTimeMicroseconds: micro, duration: duration) }
        }
        switch result {
        case .failure(let error):
            return .failure(error)
        case .success:
            // Overwritten or replaced while ffmpeg read it: the transcode is of a version no request
            // names any more (or of a mix of two), and under the old key it would only take room.
            if Self.hasChanged(source) {
                return .failure(ThumbnailError(.fileNotFound, path: path, "\(path) changed while it was transcoded; the transcode was dropped."))
            }
            guard rename(temporary, output) == 0 else {
                return .failure(ThumbnailError(.cacheNotWritable, path: directory, "Cannot keep the transcode of \(path) in \(directory): \(String(cString: strerror(errno)))."))
            }
            evict(keeping: output)
            return .success(())
        }
    }

    /// Percent done (0–99) at ffmpeg's `out_time_us` of a video `duration` seconds long (> 0);
    /// both come from outside (a file's timestamps), so the ratio is clamped before it is an `Int`.
    static func percent(outTimeMicroseconds micro: Double, duration: Double) -> Int {
        let ratio = micro / 1e6 / duration * 100
        guard ratio.isFinite else { return 0 }
        return Int(min(99, max(0, ratio)))
    }

    /// Whether the file at `source.path` is no longer the one `source` names: another size or
    /// modification time, gone, or (a file held open through `/proc/self/fd`) left with no name.
    static func hasChanged(_ source: ThumbnailSource) -> Bool {
        var status = stat()
        guard stat(source.path, &status) == 0 else { return true }
        let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        return Int64(status.st_size) != source.fileSize || modified != source.modified || status.st_nlink == 0
    }

    /// Removes the least recently played transcodes until the rest fit the cap; never `kept`, a
    /// transcode being written (a temporary) or one being sent.
    func evict(keeping kept: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        var files: [(path: String, size: Int64, used: Int)] = []
        for name in names where name.hasSuffix(".mp4") && !name.hasPrefix(".") {
            let path = directory + "/" + name
            var status = stat()
            guard stat(path, &status) == 0 else { continue }
            files.append((path, Int64(status.st_size), status.st_mtim.tv_sec * 1_000_000_000 + status.st_mtim.tv_nsec))
        }
        var total = files.reduce(0) { $0 + $1.size }
        serving.withLock { serving in
            for file in files.sorted(by: { $0.used < $1.used }) where total > cacheBytes && file.path != kept && serving[file.path] == nil {
                if unlink(file.path) == 0 { total -= file.size }
            }
        }
    }

    /// A finished transcode opened for sending; eviction leaves it until this is released.
    public final class OpenTranscode: Sendable {
        /// The open file (closed when this goes).
        public let descriptor: Int32
        /// Its size in bytes.
        public let size: Int64
        let path: String
        let playback: VideoPlayback

        fileprivate init(descriptor: Int32, size: Int64, path: String, playback: VideoPlayback) {
            self.descriptor = descriptor
            self.size = size
            self.path = path
            self.playback = playback
        }

        deinit {
            close(descriptor)
            playback.serving.withLock { serving in
                let left = (serving[path] ?? 1) - 1
                serving[path] = left > 0 ? left : nil
            }
        }
    }

    /// Opens the transcode at `path` (from `.transcoded`) for sending; nil when it went away.
    public func openTranscode(_ path: String) -> OpenTranscode? {
        serving.withLock { serving -> OpenTranscode? in
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            var status = stat()
            let size = fstat(descriptor, &status) == 0 ? Int64(status.st_size) : 0
            serving[path, default: 0] += 1
            return OpenTranscode(descriptor: descriptor, size: size, path: path, playback: self)
        }
    }

    /// `$XDG_CACHE_HOME/shoebox/videos`, else `$HOME/.cache/shoebox/videos`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let thumbnails = ThumbnailCache.defaultDirectory(environment: environment)
        return String(thumbnails.dropLast("thumbnails".count)) + "videos"
    }
}
