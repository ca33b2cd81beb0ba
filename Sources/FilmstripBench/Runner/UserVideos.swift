import Filmstrip
import FilmstripResults
import Foundation

/// A video of the user's own, named to `bench --videos` beside (or instead of) reference ids.
package struct UserVideo: Sendable, Hashable {
    /// What its rows call it: its path relative to the argument it was found under (a file
    /// given by itself: its file name; two with the same name: the path as given).
    package var id: String
    /// Where it is.
    package var path: String

}

/// Reads `bench --videos` items: reference ids, video files and folders of them.
package enum UserVideos {
    /// What the items name.
    package struct Resolution: Sendable {
        /// Reference video ids, in the order given.
        package var referenceIDs: [String] = []
        /// Files and the videos found in folders (scanned into subfolders, by extension).
        package var videos: [UserVideo] = []
        /// Items that are neither a reference id nor an existing path.
        package var unknown: [String] = []
        /// Why a folder gave nothing: it could not be read, or holds no video files.
        package var problems: [String] = []
        /// Reference ids and user ids together, in the order given (the matrix's video order).
        package var allIDs: [String] = []
    }

    /// Splits `items` into reference ids (`isReference`) and the user's files and folders; a
    /// folder is scanned like `sprite`'s libraries (`SpriteLibrary.scan`), so the same files count as videos.
    package static func resolve(_ items: [String], isReference: (String) -> Bool) -> Resolution {
        var resolution = Resolution()
        var takenIDs: Set<String> = []
        for item in items {
            if isReference(item) {
                resolution.referenceIDs.append(item)
                resolution.allIDs.append(item)
                continue
            }
            guard FileManager.default.fileExists(atPath: item) else {
                resolution.unknown.append(item)
                continue
            }
            let scan = SpriteLibrary.scan(inputs: [item], outputRoot: "", recursive: true)
            resolution.problems += scan.failures.map { "\(item): \($0)" }
            if scan.targets.isEmpty, scan.failures.isEmpty {
                resolution.problems.append("\(item): no video files in this folder (extensions: \(SpriteLibrary.videoExtensions.sorted().joined(separator: ", ")))")
            }
            for target in scan.targets {
                // A folder's videos are named as found under it; a clash (two folders with an
                // `a.mp4`) falls back to the path as given, which is unique.
                let id = takenIDs.contains(target.shardKey) || isReference(target.shardKey) ? target.input : target.shardKey
                guard takenIDs.insert(id).inserted else { continue }
                resolution.videos.append(UserVideo(id: id, path: target.input))
                resolution.allIDs.append(id)
            }
        }
        return resolution
    }
}
