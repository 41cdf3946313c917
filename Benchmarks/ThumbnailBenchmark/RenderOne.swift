// `ThumbnailBenchmark --render FILE [--time-limit SECONDS] [--max-pixels N] [--size thumbnail|preview]`:
// renders one photo through a fresh ThumbnailCache with those limits and prints the outcome, the
// wall time and this process's peak resident memory: how a time limit holds on a hostile file.

import Foundation
import Thumbnails

struct RenderOne {
    var path: String
    var limits = RenderLimits.default
    var size = ThumbnailSize.thumbnail

    init(arguments: ArraySlice<String>) {
        var arguments = arguments
        guard let path = arguments.popFirst() else {
            print("usage: ThumbnailBenchmark --render FILE [--time-limit SECONDS] [--max-pixels N] [--size thumbnail|preview]")
            exit(2)
        }
        self.path = URL(fileURLWithPath: path).standardizedFileURL.path
        while let argument = arguments.popFirst() {
            switch argument {
            case "--time-limit": limits.timeLimit = .milliseconds(Int((Double(arguments.popFirst() ?? "") ?? 20) * 1000))
            case "--max-pixels": limits.maxPixels = Int64(arguments.popFirst() ?? "") ?? limits.maxPixels
            case "--size": size = ThumbnailSize(rawValue: arguments.popFirst() ?? "") ?? size
            default:
                print("unknown option \(argument)")
                exit(2)
            }
        }
    }

    func run() throws {
        var status = stat()
        guard stat(path, &status) == 0 else { print("cannot read \(path)"); exit(1) }
        let folder = NSTemporaryDirectory() + "shoebox-render-one-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = ThumbnailCache(directory: folder, limits: limits)
        let source = ThumbnailSource(id: 1, path: path, fileSize: Int64(status.st_size), modified: Int64(status.st_mtim.tv_sec))
        let start = ContinuousClock.now
        let image = cache.image(for: source, size: size)
        let elapsed = ContinuousClock.now - start
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        let outcome = image.error.map { "placeholder (\($0.code.placeholderReason)): \($0.message)" } ?? "\(image.bytes.count) bytes of JPEG"
        print("\(path), \(size.rawValue), time limit \(limits.timeLimit), max pixels \(limits.maxPixels)")
        print("  \(outcome)")
        print(String(format: "  %.2f s wall, %.2f s CPU, peak resident memory %.0f MB", Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, cpu, Double(usage.ru_maxrss) / 1024))
    }
}
