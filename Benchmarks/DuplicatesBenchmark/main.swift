// The duplicate finder's numbers: recall on variants of real photos, grouping time on a million
// synthetic fingerprints, and what fingerprints add to a thumbnail pass.
//
//   swift build -c release --product DuplicatesBenchmark
//   .build/release/DuplicatesBenchmark --recall [CORPUS] [--frames VIDEOS] [--demo DIR] [--look-alikes N]
//       (run from the repository: CORPUS defaults to ../shared/corpus/photos beside it, DIR to testdata/photos)
//   .build/release/DuplicatesBenchmark --grouping [--count 1000000]
//   .build/release/DuplicatesBenchmark --overhead [CORPUS]
//
// `--recall` writes, in a temporary folder, seven variants of every photo libvips can read (an
// exact copy, a metadata edit, JPEG quality 60, half size, PNG, WebP, a 3 % crop), fingerprints
// everything through the thumbnail cache as `shoebox thumbnails` does, and counts the
// (photo, variant) pairs that end in one group and the groups holding two different photos.
// The same run adds look-alikes it generates (`LookAlikeSet`: N text pages with different text,
// N colours of one layout, N dark frames; 10 each unless given) and the demo photos, with their
// variants, and counts the pairs of distinct pictures that end in one group (false pairs).
// With `--frames`, frames 0.2 s apart cut by ffmpeg from each video are added as bursts.

import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())

func value(after flag: String) -> String? {
    guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// `path` made absolute (the thumbnail cache reads only absolute paths).
func absolute(_ path: String) -> String {
    URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath + "/")).standardizedFileURL.path
}
let valued = ["--count", "--frames", "--demo", "--look-alikes"].compactMap(value(after:))
let corpus = absolute(arguments.first { !$0.hasPrefix("--") && !valued.contains($0) }
    ?? "../shared/corpus/photos")  // run from the repository's folder, the shared corpus beside it

if arguments.contains("--recall") {
    let demo = absolute(value(after: "--demo") ?? "testdata/photos")
    try RecallRun(corpus: corpus, videos: value(after: "--frames").map(absolute),
                  demo: FileManager.default.fileExists(atPath: demo) ? demo : nil,
                  lookAlikes: value(after: "--look-alikes").flatMap(Int.init) ?? 10).run()
} else if arguments.contains("--grouping") {
    GroupingRun(count: value(after: "--count").flatMap(Int.init) ?? 1_000_000).run()
} else if arguments.contains("--overhead") {
    try OverheadRun(corpus: corpus).run()
} else {
    print("usage: DuplicatesBenchmark --recall [CORPUS] [--frames VIDEOS] [--demo DIR] [--look-alikes N] | --grouping [--count N] | --overhead [CORPUS]")
}
