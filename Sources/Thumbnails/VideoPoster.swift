/// A video's poster: one frame about a second in (the first frame of a shorter clip), display
/// rotation applied (ffmpeg rotates by the track's matrix or display matrix by default) and
/// non-square pixels made square, scaled as a photo's rendition of the same size, as JPEG.
enum VideoPoster {
    /// Seconds into the video of the frame shown.
    static let seek = 1.0

    /// ffmpeg's arguments for the poster of `path` at `size`, `seek` seconds in (nil: the start).
    static func arguments(tool: VideoTool, path: String, container: VideoContainer, size: ThumbnailSize, seek: Double?) -> [String] {
        let edge = size.edge
        // A grid size's shorter side is `edge` (as libvips makes them); a preview fits `edge`².
        let fit = size.isShortEdge ? "increase" : "decrease"
        let filter = "scale=iw*sar:ih,setsar=1,scale=\(edge):\(edge):force_original_aspect_ratio=\(fit),format=yuvj420p"
        return tool.inputArguments(path, container: container, seek: seek) + [
            "-map", "0:v:0", "-an", "-sn", "-dn", "-frames:v", "1", "-vf", filter,
            "-c:v", "mjpeg", "-q:v", "3", "-f", "mjpeg", "pipe:1",
        ]
    }

    /// The poster's JPEG bytes.
    static func render(tool: VideoTool, path: String, container: VideoContainer, size: ThumbnailSize, timeLimit: Duration) -> Result<[UInt8], ThumbnailError> {
        let start = ContinuousClock.now
        for seek in [Optional(Self.seek), nil] {
            let left = timeLimit - (ContinuousClock.now - start)
            guard left > .zero else {
                return .failure(ThumbnailError(.timedOut, path: path, "ffmpeg took longer than the limit of \(timeLimit) on \(path); it was stopped."))
            }
            switch tool.run(arguments(tool: tool, path: path, container: container, size: size, seek: seek), path: path, timeLimit: left) {
            case .failure(let error):
                return .failure(error)
            case .success(let output):
                let bytes = output.stdout
                if bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[bytes.count - 2] == 0xFF, bytes[bytes.count - 1] == 0xD9 {
                    return .success(bytes)
                }
                // No frame a second in: a shorter clip; try its first frame.
            }
        }
        return .failure(ThumbnailError(.undecodable, path: path, "ffmpeg found no video frame in \(path)."))
    }
}
