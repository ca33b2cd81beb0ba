/// Names configurations by pipeline (or composer), adding only the parts of the key that vary
/// among the configurations shown together, so labels stay short: the charts and the report's
/// tables label with it.
package struct ConfigurationLabeler: Sendable {
    /// Options that take two or more values among the keys; the others would repeat on every label.
    private let varyingOptions: Set<String>
    private let accuracyVaries: Bool
    private let sizeVaries: Bool
    private let videoVaries: Bool
    private let countVaries: Bool
    private let phaseVaries: Bool

    package init(_ keys: some Collection<ConfigurationKey>) {
        func varies(_ part: (ConfigurationKey) -> String) -> Bool { Set(keys.map(part)).count > 1 }
        varyingOptions = RunOptions.varyingKeys(among: keys.map(\.options))
        accuracyVaries = varies(\.accuracy.description)
        sizeVaries = varies { "\($0.thumbWidth)x\($0.thumbHeight)" }
        videoVaries = varies(\.videoID)
        countVaries = varies { "\($0.thumbnailCount)" }
        phaseVaries = varies(\.phase.rawValue)
    }

    /// `name` plus the varying options, accuracy and size, e.g. `taskgroup+simd [threads=4] 160x90`:
    /// for a chart whose panels or axes already tell the videos, counts and phases apart.
    package func label(_ name: some CustomStringConvertible, for key: ConfigurationKey) -> String {
        var parts = [name.description]
        let options = key.options.filter { varyingOptions.contains($0.key) }
        if !options.isEmpty { parts.append("[\(options)]") }
        if accuracyVaries { parts.append(key.accuracy.description) }
        if sizeVaries { parts.append("\(key.thumbWidth)x\(key.thumbHeight)") }
        return parts.joined(separator: " ")
    }

    /// The pipeline plus every varying part (options, video, count, size, accuracy, phase), e.g.
    /// `forward+rowcopy h264-180p-3s ×50 total`: for a table that lists them all together.
    package func fullLabel(for key: ConfigurationKey) -> String {
        var parts = [key.pipeline.description]
        let options = key.options.filter { varyingOptions.contains($0.key) }
        if !options.isEmpty { parts.append("[\(options)]") }
        if videoVaries { parts.append(key.videoID) }
        if countVaries { parts.append("×\(key.thumbnailCount)") }
        if sizeVaries { parts.append("\(key.thumbWidth)x\(key.thumbHeight)") }
        if accuracyVaries { parts.append(key.accuracy.description) }
        if phaseVaries { parts.append(key.phase.rawValue) }
        return parts.joined(separator: " ")
    }
}
