import PhotoLibrary
import Testing

/// The default files follow `$HOME` as the XDG rules say, not only the account's home: a service or
/// a test run with another `HOME` (an empty one, say) must not write into the real one.
@Suite struct LibraryPathsTests {
    @Test("HOME names the default database, cache and configuration folders; XDG_ variables still win")
    func homeFromTheEnvironment() throws {
        let environment = ["HOME": "/tmp/elsewhere"]
        #expect(LibraryPaths.home(environment: environment) == "/tmp/elsewhere")
        #expect(LibraryPaths.defaultDatabase(environment: environment) == "/tmp/elsewhere/.local/share/shoebox/library.sqlite")
        #expect(LibraryPaths.cacheDirectory(environment: environment) == "/tmp/elsewhere/.cache/shoebox")
        #expect(LibraryPaths.expandingTilde("~/photos", environment: environment) == "/tmp/elsewhere/photos")
        #expect(LibraryPaths.expandingTilde("~", environment: environment) == "/tmp/elsewhere")
        #expect(LibraryPaths.absolute("~/a/../b.sqlite", environment: environment) == "/tmp/elsewhere/b.sqlite")
        let xdg = ["HOME": "/tmp/elsewhere", "XDG_DATA_HOME": "/srv/data"]
        #expect(LibraryPaths.defaultDatabase(environment: xdg) == "/srv/data/shoebox/library.sqlite")
    }

    @Test("Without a usable HOME (none, or not an absolute path) the account's home is used")
    func accountHome() {
        let account = LibraryPaths.home(environment: [:])
        #expect(account.hasPrefix("/"))
        #expect(LibraryPaths.home(environment: ["HOME": "relative/home"]) == account)
        #expect(LibraryPaths.home(environment: ["HOME": ""]) == account)
    }
}
