import Foundation

extension HardwareComparison {
    /// Configurations shown by name under the headline, largest speed-up first within the task group, then the rest.
    static let headlineListed = 12

    /// `3.95× (3.80× … 4.10×)`.
    static func speedUpText(_ entry: SpeedUp) -> String {
        "\(times(entry.estimate)) (\(times(entry.low)) … \(times(entry.high)))"
    }

    package static func times(_ value: Double) -> String {
        value >= 10 ? String(format: "%.1f×", value) : String(format: "%.2f×", value)
    }

    private func percentText(_ value: Double) -> String { "\(Int((value * 100).rounded())) %" }

    /// The answer first: which machine is faster, by how much, for the task group in particular.
    package var headlineLines: [String] {
        let faster = speedUps.filter { $0.direction == "faster" }.count, slower = speedUps.filter { $0.direction == "slower" }.count
        let median = speedUps.isEmpty ? 1 : Quantile.median(sorted: speedUps.map(\.estimate).sorted())
        var lines = ["hardware: \(candidate.name) against \(baseline.name): faster in \(faster), slower in \(slower), "
            + "either in \(speedUps.count - faster - slower) of \(speedUps.count) configuration(s) (wall time; median speed-up \(Self.times(median))); "
            + "not a gate (exit 0)"]
        // The task group's end-to-end rows first: the question a second machine's cores answer.
        let taskgroup = speedUps.filter { Self.isConcurrentPipeline($0.key) }
        let shown = (taskgroup.sorted { $0.estimate > $1.estimate } + speedUps.filter { !taskgroup.map(\.key).contains($0.key) }.sorted { $0.estimate > $1.estimate })
        for entry in shown.prefix(Self.headlineListed) {
            lines.append("\(entry.direction): \(name(entry.key)) speed-up \(Self.speedUpText(entry)), \(ReadableSeconds.text(entry.baselineSeconds)) → \(ReadableSeconds.text(entry.candidateSeconds))")
        }
        if shown.count > Self.headlineListed { lines.append("… and \(shown.count - Self.headlineListed) more in the table") }
        let changed = rankings.filter(\.fastestChanged)
        lines.append("fastest pipeline changed in \(changed.count) of \(rankings.count) request(s)"
            + (changed.isEmpty ? "" : ": " + changed.prefix(6).map { "\($0.request.byHeight) \($0.baseline[0].label) → \($0.candidate[0].label)" }.joined(separator: "; ")))
        return lines
    }

    private var contextLines: [String] {
        var lines = [
            "machines: baseline \(baseline.text) (\(baselinePath)), candidate \(candidate.text) (\(candidatePath))",
            "speed-up: baseline / candidate median wall time per configuration (the top-level phase); Hodges–Lehmann estimate, exact Mann–Whitney \(Int(level * 100)) % interval over the repetitions; `faster` or `slower` when the whole interval is on one side of 1×",
            "run `compare --gate` to judge the candidate as a regression (CPU time divided by each machine's calibration)",
        ]
        if !commonOptions.isEmpty { lines.append("options of every configuration below (left out of its name): [\(commonOptions)]") }
        for entry in calibrations {
            lines.append("single-threaded calibration \(entry.key.pipeline): speed-up \(Self.speedUpText(entry)) (one core's speed)")
        }
        return lines
    }

    /// Per request, the pipelines both machines ran, fastest first, on each machine.
    var rankingLines: [String] {
        rankings.map { ranking in
            let order = { (entries: [(label: String, seconds: Double)]) in
                entries.map { "\($0.label) \(ReadableSeconds.text($0.seconds))" }.joined(separator: " < ")
            }
            return "\(ranking.request.byHeight)\(ranking.changed ? " (ranking changed)" : ""): \(baseline.name): \(order(ranking.baseline)); \(candidate.name): \(order(ranking.candidate))"
        }
    }

    /// The task group against the sequential extractor on each machine, with the bound's speed-up.
    package var scalingLines: [String] {
        scalings.map { scaling in
            func side(_ machine: Machine, _ side: Scaling.Side) -> String {
                let bound = side.boundSpeedUp.map { ", bound allows \(Self.times($0)), at \(percentText($0 > 0 ? side.speedUp / $0 : 0)) of it" } ?? ", bound not recorded"
                let workers = side.workers.map { ", \($0) workers" } ?? ""
                return "\(machine.name) (\(machine.cores) cores) \(Self.times(side.speedUp))\(workers)\(bound)"
            }
            return "\(scaling.request.byHeight) \(scaling.pipeline) / \(scaling.referencePipeline): \(side(baseline, scaling.baseline)); \(side(candidate, scaling.candidate))"
        }
    }

    private var tableHeader: [String] {
        ["configuration", baseline.name, candidate.name, "speed-up", "\(Int(level * 100)) % CI", "n", ""]
    }

    private var tableRows: [[String]] {
        speedUps.map { entry in
            [name(entry.key), ReadableSeconds.text(entry.baselineSeconds), ReadableSeconds.text(entry.candidateSeconds),
             Self.times(entry.estimate), "\(Self.times(entry.low)) … \(Self.times(entry.high))", "\(entry.count)", entry.direction]
        }
    }

    /// The speed-up table, columns aligned; where the configuration would not fit ``width``
    /// beside the numbers, each configuration on a line of its own above its numbers (a name is
    /// never cut: two configurations that differ only at the end stay told apart).
    private func tableLines(_ rows: [[String]]) -> [String] {
        let header = tableHeader
        let widths = header.indices.map { column in (rows + [header]).map { $0[column].count }.max()! }
        let stacked = widths.reduce(0, +) + 2 * (widths.count - 1) > width
        let render = { (cells: [String]) in
            zip(cells, widths).dropFirst(stacked ? 1 : 0).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        let indent = stacked ? "  " : ""
        var lines = [""] + (stacked ? [header[0]] : []) + [indent + render(header), indent + render(widths.map { String(repeating: "-", count: $0) })]
        for row in rows {
            if stacked { lines.append(row[0]) }
            lines.append(indent + render(row))
        }
        return lines
    }

    /// Plain text for stdout: the answer, context, rankings, the task group's scaling, the
    /// table; no line over ``width``, no name cut.
    package var text: String {
        var lines = headlineLines + [""] + contextLines + ["", "ranking per request (in-process pipelines both measured, median wall time):"]
        lines += rankingLines.map { "  " + $0 }
        if !scalingLines.isEmpty { lines += ["", "task group scaling (sequential / taskgroup wall time, per machine):"] + scalingLines.map { "  " + $0 } }
        let rows = tableRows
        if !rows.isEmpty { lines += tableLines(rows) }
        lines.append(headlineLines[0])
        return TextWidth.wrapped(lines: lines, width: width).joined(separator: "\n") + "\n"
    }

    /// Markdown (`compare --format markdown`, `export --format markdown` of two machines).
    package var markdown: String {
        let headline = headlineLines
        var lines = ["**\(MarkdownText.escaped(headline[0]))**", ""] + headline.dropFirst().map { "- \(MarkdownText.escaped($0))" }
        lines += [""] + contextLines.map { "- \(MarkdownText.escaped($0))" }
        lines += ["", "### Ranking per request", "", "| request | \(MarkdownText.escaped(baseline.name)) (fastest first) | \(MarkdownText.escaped(candidate.name)) (fastest first) | changed |", "|---|---|---|---|"]
        for ranking in rankings {
            let order = { (entries: [(label: String, seconds: Double)]) in
                entries.map { "\(MarkdownText.escaped($0.label)) \(ReadableSeconds.text($0.seconds))" }.joined(separator: " < ")
            }
            lines.append("| \(MarkdownText.escaped(ranking.request.byHeight)) | \(order(ranking.baseline)) | \(order(ranking.candidate)) | \(ranking.fastestChanged ? "fastest" : ranking.changed ? "order" : "") |")
        }
        if !scalings.isEmpty {
            lines += ["", "### Task group scaling", "", "| request | composer | \(MarkdownText.escaped(baseline.name)) speed-up | bound allows | \(MarkdownText.escaped(candidate.name)) speed-up | bound allows |", "|---|---|---:|---:|---:|---:|"]
            for scaling in scalings {
                let bound = { (side: Scaling.Side) in side.boundSpeedUp.map(Self.times) ?? "—" }
                lines.append("| \(MarkdownText.escaped(scaling.request.byHeight)) | \(MarkdownText.escaped(scaling.composer)) | \(Self.times(scaling.baseline.speedUp)) | \(bound(scaling.baseline)) | \(Self.times(scaling.candidate.speedUp)) | \(bound(scaling.candidate)) |")
            }
        }
        let rows = tableRows
        if !rows.isEmpty {
            lines += ["", "### Speed-up per configuration", "", "| " + tableHeader.map(MarkdownText.escaped).joined(separator: " | ") + " |",
                      "|" + tableHeader.map { _ in "---" }.joined(separator: "|") + "|"]
            lines += rows.map { "| " + $0.map(MarkdownText.escaped).joined(separator: " | ") + " |" }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
