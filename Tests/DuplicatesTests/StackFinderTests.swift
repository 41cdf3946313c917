import Duplicates
import Testing

@Suite("Stacks")
struct StackFinderTests {
    static func photo(_ id: Int64, _ name: String, folder: String = "2024", raw: Bool = false, camera: String? = "Canon EOS", at: Int64? = nil) -> StackFinder.Photo {
        StackFinder.Photo(id: id, folder: Array(folder.utf8), name: Array(name.utf8), isRaw: raw, camera: camera, captured: at)
    }

    @Test("RAW+JPEG of one shot: same folder and base name, same second; the JPEG is the cover")
    func rawPlusJPEG() {
        let stacks = StackFinder.stacks(of: [
            Self.photo(1, "IMG_0001.DNG", raw: true, at: 10_000),
            Self.photo(2, "img_0001.jpg", at: 10_400),
            Self.photo(3, "IMG_0002.DNG", raw: true, at: 50_000),
            Self.photo(4, "IMG_0002.JPG", at: 52_000),  // another second
            Self.photo(5, "IMG_0003.DNG", folder: "a", raw: true, at: 90_000),
            Self.photo(6, "IMG_0003.JPG", folder: "b", at: 90_000),  // another folder
        ])
        #expect(stacks == [1: 2, 2: 2])
    }

    @Test("edits beside their original: IMG_E1234 and name-edited")
    func edits() {
        let stacks = StackFinder.stacks(of: [
            Self.photo(1, "IMG_1234.JPG", camera: nil),
            Self.photo(2, "IMG_E1234.JPG", camera: nil),
            Self.photo(3, "beach.jpg", camera: nil),
            Self.photo(4, "beach-edited.jpg", camera: nil),
            Self.photo(5, "lake_edited.jpg", camera: nil),  // no original beside it
            Self.photo(6, "IMG_E99.JPG", folder: "x", camera: nil),
            Self.photo(7, "IMG_99.JPG", folder: "y", camera: nil),
        ])
        #expect(stacks == [1: 1, 2: 1, 3: 3, 4: 3])
    }

    @Test("bursts: one camera, shots at most 1 s apart in a run; a gap, another camera or the same instant breaks it")
    func bursts() {
        let stacks = StackFinder.stacks(of: [
            Self.photo(1, "a1.jpg", at: 1_000),
            Self.photo(2, "a2.jpg", at: 1_200),
            Self.photo(3, "a3.jpg", at: 2_100),
            Self.photo(4, "a4.jpg", at: 3_200),  // 1.1 s after a3: a new run
            Self.photo(5, "b1.jpg", camera: "Nikon", at: 1_100),
            Self.photo(6, "a1 copy.jpg", at: 1_000),  // the same instant as a1: a copy, not a frame
            Self.photo(7, "c.jpg", camera: nil, at: 1_300),  // no camera
        ])
        #expect(stacks == [1: 1, 2: 1, 3: 1])
    }

    @Test("the stack id does not depend on the order of the input")
    func stable() {
        let photos = [Self.photo(7, "x2.jpg", at: 500), Self.photo(3, "x1.jpg", at: 0), Self.photo(9, "x3.jpg", at: 900)]
        #expect(StackFinder.stacks(of: photos) == StackFinder.stacks(of: photos.reversed()))
        #expect(StackFinder.stacks(of: photos) == [3: 3, 7: 3, 9: 3])
    }
}
