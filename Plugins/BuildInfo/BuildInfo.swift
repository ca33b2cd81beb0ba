import Foundation
import PackagePlugin

/// Records the commit the `filmstrip` executable is built from, at build time, in a
/// generated `BuildInfo.swift`: the benchmark writes it beside every row, and a binary
/// copied away from its checkout still knows its code. A prebuild command, because it
/// must run at every build (the commit changes without any source file changing); the
/// file is only rewritten when its text changes, so an unchanged tree recompiles nothing.
@main
struct BuildInfoPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("generated")
        // `git status` ignores untracked files: results and fixtures being written do not change the code.
        let script = """
            set -e
            mkdir -p "$2"
            commit=$(git -C "$1" rev-parse HEAD 2>/dev/null || echo unknown)
            dirty=false
            if [ "$commit" != unknown ] && [ -n "$(git -C "$1" status --porcelain --untracked-files=no 2>/dev/null)" ]; then dirty=true; fi
            printf '/// Generated at build time by the BuildInfo plugin.\\nenum BuildInfo {\\n    static let commit = "%s"\\n    static let dirty = %s\\n}\\n' "$commit" "$dirty" > "$2/BuildInfo.swift.tmp"
            if cmp -s "$2/BuildInfo.swift.tmp" "$2/BuildInfo.swift"; then rm "$2/BuildInfo.swift.tmp"; else mv "$2/BuildInfo.swift.tmp" "$2/BuildInfo.swift"; fi
            """
        return [.prebuildCommand(
            displayName: "Recording the commit of \(target.name)",
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", script, "build-info", context.package.directoryURL.path, output.path],
            outputFilesDirectory: output
        )]
    }
}
