// Writes the demo photo tree (`DemoLibrary`) into `testdata/photos/`, replacing what is there.
// (`testdata/fuzz/`, beside it, holds the fuzzer's regression inputs and is left alone.)
//
//   swift run make-testdata [FOLDER]

import Foundation
import PhotoFixtures

let folder = CommandLine.arguments.dropFirst().first ?? "testdata/photos"
let fileManager = FileManager.default
if fileManager.fileExists(atPath: folder) {
    try fileManager.removeItem(atPath: folder)
}
let files = DemoLibrary.files()
for file in files {
    let url = URL(fileURLWithPath: folder).appendingPathComponent(file.path)
    try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(file.bytes).write(to: url)
}
print("Wrote \(files.count) files to \(folder)/")
