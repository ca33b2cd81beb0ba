/// The files a bench run's output name stands for, worked out here only: `NAME-raw.csv` (rows
/// appended as they are measured), `NAME-summary.csv` (appended once the run is complete) and,
/// for instruction runs, `NAME-profiles/RUN_ID/` (each run's profile).
package struct ResultsFiles: Sendable, Hashable {
    /// The output name, e.g. `results/quick-epyc-2c`.
    package var name: String

    package init(name: String) { self.name = name }

    package var raw: String { name + "-raw.csv" }
    package var summary: String { name + "-summary.csv" }
    /// The folder of one instruction run's profiles.
    package func profiles(runID: String) -> String { name + "-profiles/" + runID }
}
