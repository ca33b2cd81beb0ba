import FilmstripResults
/// The successful wall-time samples of raw rows, grouped the ways the charts need.
struct PlotSamples: Sendable {
    /// One sample: a row with status `ok` and a wall time.
    struct Sample: Sendable {
        var machine: String
        var key: ConfigurationKey
        /// Wall-clock seconds.
        var seconds: Double
    }

    let samples: [Sample]

    init(rows: [RawResultRow]) {
        samples = rows.compactMap { row in
            guard row.status == .ok, let seconds = row.wallSeconds else { return nil }
            return Sample(machine: row.run.machine.name, key: row.configurationKey, seconds: seconds)
        }
    }

    private init(samples: [Sample]) {
        self.samples = samples
    }

    /// Machine names in first-seen order, so charts list machines as the input files do.
    var machines: [String] {
        var seen = Set<String>()
        return samples.map(\.machine).filter { seen.insert($0).inserted }
    }

    func filter(_ isIncluded: (Sample) -> Bool) -> PlotSamples {
        PlotSamples(samples: samples.filter(isIncluded))
    }

    /// The samples of phase `total` (extract and compose), else of `extract`, and that phase:
    /// the whole strip's time, for the charts that compare strips; nil when neither was measured.
    func inWholeStripPhase() -> (phase: Phase, samples: PlotSamples)? {
        let phases = Set(samples.map(\.key.phase))
        guard let phase = [Phase.total, .extract].first(where: phases.contains) else { return nil }
        return (phase, filter { $0.key.phase == phase })
    }

    /// Wall seconds per configuration.
    var secondsByKey: [ConfigurationKey: [Double]] {
        Dictionary(grouping: samples, by: \.key).mapValues { $0.map(\.seconds) }
    }

    /// The value of `property` held by the most samples; ties go to the largest value,
    /// so a chart pinned to one frame count picks the biggest of the equally common ones.
    func mostCommon<Value: Hashable & Comparable>(_ property: (Sample) -> Value) -> Value? {
        let counts = Dictionary(grouping: samples, by: property).mapValues(\.count)
        return counts.max { ($0.value, $0.key) < ($1.value, $1.key) }?.key
    }
}
