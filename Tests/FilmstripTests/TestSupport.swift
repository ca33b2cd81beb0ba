import CLITestSupport
import Filmstrip
import FilmstripFixtures
import Foundation

/// Shared helpers: reference videos from the quick suite, scratch files, and the built CLI.
enum TestSupport {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let cache = ReferenceVideoCache(
        directory: ProcessInfo.processInfo.environment["FILMSTRIP_FIXTURES"].map { URL(fileURLWithPath: $0) }
            ?? packageRoot.appendingPathComponent("fixtures-cache"))

    /// The cached file of the quick-suite video `id`, generated on first use.
    static func video(_ id: String) throws -> String {
        guard let spec = ReferenceSuite.spec(id: id) else { fatalError("no reference video \(id)") }
        return try cache.ensure(spec).url.path
    }

    static func spec(_ id: String) -> ReferenceVideoSpec { ReferenceSuite.spec(id: id)! }

    /// Copies the quick-suite video `id` to `path` (a test's own name or folder for its input)
    /// and returns `path`.
    @discardableResult
    static func copyOfVideo(_ id: String, at path: String) throws -> String {
        try FileManager.default.copyItem(atPath: try video(id), toPath: path)
        return path
    }

    /// A fresh empty folder under the system temporary folder.
    static func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("filmstrip-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    typealias ProcessResult = CLIProcess.Result

    /// Runs the CLI with `arguments` and waits for it.
    static func runCLI(_ arguments: [String]) throws -> ProcessResult { try CLIProcess.run(arguments) }

    /// Decodes every frame of `path` in presentation order and hands each, scaled to
    /// `height` px high RGBA (display aspect of the coded frame), to `body`.
    static func forEachFrame(of path: String, scaledToHeight height: Int,
                             _ body: (Int64, Image) throws -> Void) throws {
        let input = try InputFile(path: path)
        let decoder = try Decoder(for: input)
        var packet = try Packet()
        var frame = try Frame()
        var scaler = Scaler()
        func drain() throws {
            while case .frame = decoder.receive(into: &frame) {
                let width = max(1, frame.width * height / frame.height)
                var image = Image(width: width, height: height)
                try scaler.scale(frame, into: &image)
                try body(frame.presentationTime ?? -1, image)
            }
        }
        while try input.read(into: &packet) == .packet {
            while decoder.send(packet) == .full { try drain() }
            try drain()
        }
        decoder.sendEndOfStream()
        try drain()
    }
}

/// A test's scratch folder, removed when its owner goes: a suite holds one, and Swift Testing
/// makes an instance of the suite for every test, so each test has a fresh folder.
final class ScratchFolder: Sendable {
    let url: URL

    init() throws { url = try TestSupport.scratchDirectory() }
    deinit { try? FileManager.default.removeItem(at: url) }
}
