import PhotoMetadata

/// A video's poster: one frame about a second in (the first frame of a shorter clip), display
/// rotation applied (ffmpeg rotates by the track's matrix or display matrix by default) and
/// non-square pixels made square, scaled as a photo's rendition of the same size, as JPEG.
///
/// One ffmpeg run per poster: starting ffmpeg costs more than decoding a small frame, so the way
/// to the frame is chosen before, from the duration the container declares (read in process).
enum VideoPoster {
    /// Seconds into the video of the frame shown.
    static let seek = 1.0

    /// How ffmpeg reaches the frame.
    enum Approach: Sendable, Hashable {
        /// Seek the input to `seek` (from the keyframe before it) and take the first frame there:
        /// for a clip its container says is well over `seek` long. Nothing comes out when the
        /// container's duration is wrong (a file cut short), and `scan` runs after it.
        case seek
        /// Decode from the start and keep the frame at `seek`, else the first: a short clip, one
        /// whose duration is unknown, or one that is damaged; never needs a second run.
        case scan

        /// The approach for a video whose container declares `duration` seconds (nil: unknown).
        static func choose(duration: Double?) -> Approach {
            guard let duration, duration.isFinite, duration >= VideoPoster.seek + 0.5 else { return .scan }
            return .seek
        }
    }

    /// ffmpeg's arguments for the poster of `path` at `size`.
    static func arguments(tool: VideoTool, path: String, container: VideoContainer, size: ThumbnailSize, approach: Approach) -> [String] {
        let scale = "scale=iw*sar:ih,setsar=1," + scaleFilter(size)
        let (filter, frames) = switch approach {
        case .seek: (scale, "1")
        // Frame 0 and the first frame at `seek` or later: of the (one or two) images, the last.
        case .scan: ("select='eq(n,0)+gte(t,\(seek))'," + scale, "2")
        }
        let start = approach == .seek ? Optional(seek) : nil
        return tool.inputArguments(path, container: container, seek: start) + [
            "-map", "0:v:0", "-an", "-sn", "-dn", "-frames:v", frames, "-vf", filter, "-fps_mode", "passthrough",
            "-c:v", "mjpeg", "-q:v", "3", "-f", "mjpeg", "pipe:1",
        ]
    }

    /// ffmpeg's filter that scales a picture to `size` as libvips would and readies it for JPEG.
    static func scaleFilter(_ size: ThumbnailSize) -> String {
        // A grid size's shorter side is `edge` (as libvips makes them); a preview fits `edge`².
        let fit = size.isShortEdge ? "increase" : "decrease"
        return "scale=\(size.edge):\(size.edge):force_original_aspect_ratio=\(fit),format=yuvj420p"
    }

    /// The poster's JPEG bytes.
    static func render(tool: VideoTool, path: String, container: VideoContainer, size: ThumbnailSize, timeLimit: Duration) -> Result<[UInt8], ThumbnailError> {
        let start = ContinuousClock.now
        let duration = (try? MetadataReader().read(atPath: path))?.duration
        let first = Approach.choose(duration: duration)
        for approach in first == .seek ? [Approach.seek, .scan] : [.scan] {
            let left = timeLimit - (ContinuousClock.now - start)
            guard left > .zero else {
                return .failure(ThumbnailError(.timedOut, path: path, "ffmpeg took longer than the limit of \(timeLimit) on \(path); it was stopped."))
            }
            switch tool.run(.ffmpeg, arguments(tool: tool, path: path, container: container, size: size, approach: approach), path: path, timeLimit: left) {
            case .failure(let error):
                return .failure(error)
            case .success(let output):
                if let image = JPEGSegments.lastImage(output.stdout) { return .success(Array(image)) }
                // Nothing a second in: the container promised more than the file holds.
            }
        }
        return .failure(ThumbnailError(.undecodable, path: path, "ffmpeg found no video frame in \(path)."))
    }
}
