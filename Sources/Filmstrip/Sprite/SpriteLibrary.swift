import Foundation

/// Finds the videos of a library and splits them into shards.
public enum SpriteLibrary {
    /// File extensions taken as videos when a folder is scanned (files named on the command line are always taken).
    public static let videoExtensions: Set<String> = [
        "mp4", "m4v", "mkv", "webm", "mov", "avi", "ts", "m2ts", "mts", "wmv", "flv", "mpg", "mpeg", "ogv", "3gp",
    ]

    /// What scanning the inputs found: the videos, and every path that could not be read.
    public struct Scan: Sendable {
        /// The videos, in a stable order.
        public var targets: [SpriteTarget] = []
        /// Folders (inputs or subfolders) whose entries could not be listed, and entries whose
        /// type could not be read, each with the failed call and `errno`.
        public var failures: [SystemError] = []
    }

    /// The videos named by `inputs`: files as they are, folders scanned for video files
    /// (into subfolders when `recursive`), in a stable order. Outputs of a video found in a
    /// folder go to the same relative folder under `outputRoot`. A path that does not exist
    /// stays a target, so it fails with its own one-line reason like any unreadable video; a
    /// folder that cannot be listed is a failure of the scan, never an empty folder. Names are
    /// read as bytes (`FileSystemName`), so a name that is not UTF-8 opens as itself; the
    /// output names made from it are repaired to UTF-8, since WebVTT and HTML name them in text.
    /// A video named twice (the same path, a link to it, or found again in a folder) is made once.
    public static func scan(inputs: [String], outputRoot: String, recursive: Bool) -> Scan {
        var scan = Scan()
        for input in inputs {
            guard let status = System.status(input), status.st_mode & S_IFMT == S_IFDIR else {
                let url = URL(fileURLWithPath: input)
                scan.targets.append(SpriteTarget(input: input, outputFolder: outputRoot,
                                                 name: FileSystemName.repaired(url.deletingPathExtension().lastPathComponent),
                                                 shardKey: url.lastPathComponent))
                continue
            }
            let root = URL(fileURLWithPath: input, isDirectory: true).standardizedFileURL
            let found = videoFiles(in: root, recursive: recursive)
            scan.failures += found.failures
            for relative in found.files {
                // `relative` is "a/b/x.mp4": its folder part, if any, is kept under the output folder.
                let components = relative.split(separator: "/").map { FileSystemName.repaired(String($0)) }
                let outputFolder = components.dropLast().reduce(URL(fileURLWithPath: outputRoot)) { $0.appendingPathComponent($1) }.path
                let name = URL(fileURLWithPath: components.last!).deletingPathExtension().lastPathComponent
                scan.targets.append(SpriteTarget(input: root.appendingPathComponent(relative).path, outputFolder: outputFolder,
                                                 name: name, shardKey: relative))
            }
        }
        var seen: Set<String> = []
        scan.targets = scan.targets.filter { seen.insert(resolved($0.input)).inserted }
        return scan
    }

    /// `path` absolute, with `.`, `..` and symbolic links resolved: two inputs with the same
    /// resolved path are one video.
    static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// For each target (by index) whose outputs would land on a path another target writes
    /// first, or on one of the videos, why it must fail; checked before any video is opened
    /// (`x.mp4` writes the file `x.bif`, which `x.bif.mp4` wants as its WebVTT folder).
    public static func conflicts(in targets: [SpriteTarget], settings: SpriteSettings) -> [Int: SpriteError] {
        var claimed: [String: String] = [:], conflicts: [Int: SpriteError] = [:]
        let videos = Dictionary(targets.map { (resolved($0.input), $0.input) }) { first, _ in first }
        for (index, target) in targets.enumerated() {
            // Every size's outputs, once each (the sizes share Jellyfin's folder).
            let paths = settings.sizedTargets(of: target).flatMap { $0.target.outputPaths(formats: settings.formats, html: settings.html) }.map(resolved)
                .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            if let video = paths.lazy.compactMap({ videos[$0] }).first {
                conflicts[index] = .outputIsVideo(video)
            } else if let first = paths.lazy.compactMap({ claimed[$0] }).first {
                conflicts[index] = .sameOutput(as: first)
            } else {
                for path in paths { claimed[path] = target.input }
            }
        }
        return conflicts
    }

    /// Paths relative to `root` of the video files in it, sorted; hidden files and folders, and
    /// linked folders, are skipped. Folders that cannot be listed come back as failures.
    static func videoFiles(in root: URL, recursive: Bool) -> (files: [String], failures: [SystemError]) {
        var found: [String] = [], failures: [SystemError] = []
        func visit(_ relative: String) {
            let folder = relative.isEmpty ? root.path : root.appendingPathComponent(relative).path
            let names: [String]
            do {
                names = try System.directoryEntries(folder)
            } catch {
                failures.append(error)
                return
            }
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : "\(relative)/\(name)"
                let full = root.appendingPathComponent(path).path
                guard let status = System.status(full) else {
                    // A dangling link is no video; anything else that cannot be read is a failure.
                    if errno != ENOENT { failures.append(SystemError(call: "stat", path: full, code: errno)) }
                    continue
                }
                if status.st_mode & S_IFMT == S_IFDIR {
                    // Linked folders are not followed: a link to an ancestor would never end.
                    let isLink = System.status(full, followingLinks: false).map { $0.st_mode & S_IFMT == S_IFLNK } ?? false
                    if recursive && !isLink { visit(path) }
                } else if videoExtensions.contains(URL(fileURLWithPath: name).pathExtension.lowercased()) {
                    found.append(path)
                }
            }
        }
        visit("")
        return (found, failures)
    }

    /// The shard (0..<count) `key` belongs to: 64-bit FNV-1a of its UTF-8 bytes modulo the
    /// count, the same on every machine and every run, so N independent runs with
    /// `--shard 0/N` … `--shard N-1/N` cover each video exactly once.
    public static func shard(of key: String, count: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return Int(hash % UInt64(count))
    }
}
