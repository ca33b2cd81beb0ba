import Foundation
import PackagePlugin

/// Records the commit the `filmstrip` executable is built from, at build time, in a
/// generated `BuildInfo.swift`: the benchmark writes it beside every row, and a binary
/// copied away from its checkout still knows its code.
///
/// A build command, not a prebuild command: SwiftPM skips prebuild commands on incremental
/// builds (swift-package-manager issue #5476), which left a binary built after a commit
/// claiming the previous commit and a dirty tree. A build command reruns when one of its
/// inputs changes, so the inputs are what the answer depends on: every source file of the
/// package (an edit makes the tree dirty) and git's own record of the checkout (`HEAD`, the
/// index and HEAD's reflog, which every commit, checkout and reset touch). The file is only
/// rewritten when its text changes, so an unchanged tree recompiles nothing.
@main
struct BuildInfoPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let root = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("generated/BuildInfo.swift")
        let sources = context.package.targets.compactMap { $0 as? SourceModuleTarget }.flatMap { $0.sourceFiles.map(\.url) }
        // `git status` ignores untracked files: results and fixtures being written do not change the code.
        let script = """
            set -e
            commit=$(git -C "$1" rev-parse HEAD 2>/dev/null || echo unknown)
            dirty=false
            if [ "$commit" != unknown ] && [ -n "$(git -C "$1" status --porcelain --untracked-files=no 2>/dev/null)" ]; then dirty=true; fi
            mkdir -p "$(dirname "$2")"
            printf '/// Generated at build time by the BuildInfo plugin.\\nenum BuildInfo {\\n    static let commit = "%s"\\n    static let dirty = %s\\n}\\n' "$commit" "$dirty" > "$2.tmp"
            if cmp -s "$2.tmp" "$2"; then rm "$2.tmp"; else mv "$2.tmp" "$2"; fi
            """
        return [.buildCommand(
            displayName: "Recording the commit of \(target.name)",
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", script, "build-info", root.path, output.path],
            inputFiles: sources + Self.gitRecords(of: root),
            outputFiles: [output]
        )]
    }

    /// The files git rewrites whenever the checked-out commit or the index changes. In a
    /// worktree `.git` is a file naming the worktree's own git folder, which holds them too.
    static func gitRecords(of root: URL) -> [URL] {
        let dotGit = root.appendingPathComponent(".git")
        var folder = dotGit
        if let link = try? String(contentsOf: dotGit, encoding: .utf8), link.hasPrefix("gitdir:") {
            let path = link.dropFirst("gitdir:".count).trimmingCharacters(in: .whitespacesAndNewlines)
            folder = path.hasPrefix("/") ? URL(fileURLWithPath: path) : root.appendingPathComponent(path)
        }
        return ["HEAD", "index", "logs/HEAD"].map { folder.appendingPathComponent($0) }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
    }
}
