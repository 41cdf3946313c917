import Duplicates
import Foundation
import PhotoFixtures
import PhotoMetadata
import Thumbnails
import WallClock

/// A picture the recall run starts from: a corpus file, a generated look-alike or a demo photo.
struct SourcePicture {
    /// `corpus`, `demo`, or the look-alike set's name.
    var set: String
    var path: String
    /// The camera and capture instant its metadata names, for the shot rule (demo photos only).
    var shot: DuplicateCandidate.Shot?
}

/// Writes `count` pictures of each `LookAlikeSet` as JPEGs (quality 90) in `folder`.
func writeLookAlikes(in folder: String, count: Int) throws -> [SourcePicture] {
    var pictures: [SourcePicture] = []
    for set in LookAlikeSet.allCases {
        let (width, height) = set == .textPages ? (850, 1100) : (800, 600)
        for index in 0..<count {
            let path = "\(folder)/\(set.rawValue.replacingOccurrences(of: " ", with: "-"))-\(index).jpg"
            try PictureVariants.writeJPEG(rgb: set.pixels(index, width: width, height: height), width: width, height: height, to: path)
            pictures.append(SourcePicture(set: set.rawValue, path: path))
        }
    }
    return pictures
}

/// The demo library's photos under `folder` (`testdata/photos`), each with its shot when its
/// metadata names a camera and a capture time, as `shoebox duplicates` sees them.
func demoPictures(in folder: String) -> [SourcePicture] {
    corpusFiles(in: folder).map { path in
        let metadata = try? MetadataReader().read(atPath: path)
        var shot: DuplicateCandidate.Shot?
        if let local = metadata?.exifDate?.local, let camera = [metadata?.cameraMake, metadata?.cameraModel].compactMap({ $0 }).joined(separator: " ").nilIfEmpty {
            let seconds = ((((local.year * 12 + local.month) * 31 + local.day) * 24 + local.hour) * 60 + local.minute) * 60 + local.second
            shot = DuplicateCandidate.Shot(camera: camera, millisecond: Int64(seconds) * 1000 + Int64(local.millisecond ?? 0))
        }
        return SourcePicture(set: "demo", path: path, shot: shot)
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
