import Foundation
import PhotoFixtures
import Testing

@Suite("testdata/photos")
struct TestdataTests {
    @Test("testdata/photos is exactly what `swift run make-testdata` writes")
    func testdataIsGenerated() throws {
        let root = ShoeboxProcess.packageRoot.appendingPathComponent("testdata/photos")
        let expected = Dictionary(uniqueKeysWithValues: DemoLibrary.files().map { ($0.path, $0.bytes) })
        let onDisk = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { path in
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
            return exists && !isDirectory.boolValue
        }
        #expect(Set(onDisk) == Set(expected.keys), "run `swift run make-testdata` and commit testdata/photos")
        for (path, bytes) in expected {
            let data = try Data(contentsOf: root.appendingPathComponent(path))
            #expect(Array(data) == bytes, "\(path) differs from the generator: run `swift run make-testdata`")
        }
    }
}
