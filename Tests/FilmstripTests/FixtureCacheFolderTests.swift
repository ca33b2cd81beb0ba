@testable import FilmstripFixtures
import Foundation
import Testing

/// `bench --videos mine.mp4` makes a reference video in the user's cache folder, not in
/// `./fixtures-cache` of whatever folder it runs in.
@Suite("reference video cache folder")
struct FixtureCacheFolderTests {
    @Test func defaultFolder() {
        func folder(_ environment: [String: String]) -> String {
            ReferenceVideoCache.defaultDirectory(environment: environment, currentDirectory: "/work/somewhere").path
        }
        #expect(folder(["FILMSTRIP_FIXTURES": "/data/fixtures", "HOME": "/home/u"]) == "/data/fixtures")
        #expect(folder(["XDG_CACHE_HOME": "/var/cache/u", "HOME": "/home/u"]) == "/var/cache/u/filmstrip/fixtures")
        #expect(folder(["HOME": "/home/u"]) == "/home/u/.cache/filmstrip/fixtures")
        // A relative XDG_CACHE_HOME is ignored, as the XDG rule says.
        #expect(folder(["XDG_CACHE_HOME": "cache", "HOME": "/home/u"]) == "/home/u/.cache/filmstrip/fixtures")
        #expect(folder([:]) == "/work/somewhere/fixtures-cache")
    }
}
