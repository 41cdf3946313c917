import Foundation
import PhotoFixtures
import Testing

@Suite("testdata/")
struct TestdataTests {
    @Test("testdata/ is exactly what `swift run make-testdata` writes")
    func testdataIsGenerated() throws {
        let root = ShoeboxProcess.packageRoot.appendingPathComponent("testdata")
        let expected = Dictionary(uniqueKeysWithValues: DemoLibrary.files().map { ($0.path, $0.bytes) })
        let onDisk = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { path in
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
            return exists && !isDirectory.boolValue && !path.hasPrefix("fuzz/")  // fuzz/ holds fuzzer regression inputs
        }
        #expect(Set(onDisk) == Set(expected.keys), "run `swift run make-testdata` and commit testdata/")
        for (path, bytes) in expected {
            let data = try Data(contentsOf: root.appendingPathComponent(path))
            #expect(Array(data) == bytes, "\(path) differs from the generator: run `swift run make-testdata`")
        }
    }
}
