import Duplicates
import Foundation

/// The picture files under a folder, sorted, that libvips is asked to read.
func corpusFiles(in folder: String) -> [String] {
    let extensions: Set<String> = ["jpg", "jpeg", "png", "webp", "tif", "tiff", "heic", "heif", "avif", "mpo"]
    let enumerator = FileManager.default.enumerator(atPath: folder)
    var files: [String] = []
    while let relative = enumerator?.nextObject() as? String {
        if extensions.contains((relative as NSString).pathExtension.lowercased()) { files.append(folder + "/" + relative) }
    }
    return files.sorted()
}

/// The file's size and modification time (nanoseconds), or nil when it cannot be read.
func stamp(_ path: String) -> (size: Int64, modified: Int64)? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
          let size = attributes[.size] as? NSNumber, let date = attributes[.modificationDate] as? Date
    else { return nil }
    return (size.int64Value, Int64(date.timeIntervalSince1970 * 1e9))
}

/// A JPEG with a comment segment added after its start marker: new bytes, the same picture (a caption edit).
func metadataEdited(_ jpeg: [UInt8]) -> [UInt8]? {
    guard jpeg.count > 2, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
    let text = Array("caption edited by the duplicates benchmark".utf8)
    let length = text.count + 2
    return [0xFF, 0xD8, 0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + text + jpeg[2...]
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func percentile(_ values: [Int], _ p: Double) -> Int {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
}

/// A stand-in for the file's SHA-256 (the benchmark does not link libcrypto): FNV-1a of its bytes
/// with four seeds, enough to tell an exact copy here.
func contentDigest(_ path: String) -> SHA256Value? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    var words: [UInt64] = [0xcbf2_9ce4_8422_2325, 0x1234_5678_9abc_def1, 0x0f1e_2d3c_4b5a_6978, 0x7766_5544_3322_1100]
    for byte in data { for i in 0..<4 { words[i] = (words[i] ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 } }
    return SHA256Value(bytes: words.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> UInt64(8 * $0)) } })
}
