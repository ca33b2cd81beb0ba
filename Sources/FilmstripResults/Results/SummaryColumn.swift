/// Columns of the summary file: one row per configuration and metric of a run.
package enum SummaryColumn: String, ResultColumn {
    case runID = "run_id"
    case gitCommit = "git_commit"
    case buildConfig = "build_config"
    case machineID = "machine_id"
    case machineName = "machine_name"
    case pipeline
    case extractor
    case composer
    case options
    case videoID = "video_id"
    case thumbnailCount = "frame_count"
    case thumbWidth = "thumb_width"
    case thumbHeight = "thumb_height"
    case accuracy
    case phase
    case metric
    case n
    case min
    case median
    case mad
    case madScaled = "mad_scaled"
    case p90
    case mean
    case stddev
    case ciLow = "ci_low"
    case ciHigh = "ci_high"
    case ciCoverage = "ci_coverage"
    case warnings
    // Added with run kinds; older files lack it (the kind is inferred when read).
    case kind

    /// Columns that files written before they existed lack.
    package static let addedLater: Set<SummaryColumn> = [.kind]

    package var unit: String {
        switch self {
        case .thumbnailCount, .n: "count"
        case .thumbWidth, .thumbHeight: "px"
        case .min, .median, .mad, .madScaled, .p90, .mean, .stddev, .ciLow, .ciHigh: "unit of `metric`"
        case .ciCoverage: "probability"
        default: "—"
        }
    }

    package var meaning: String {
        switch self {
        case .runID, .gitCommit, .buildConfig, .machineID, .machineName, .pipeline, .extractor, .composer,
             .options, .videoID, .thumbnailCount, .thumbWidth, .thumbHeight, .accuracy, .phase, .kind:
            "As in the raw file; these columns identify the configuration summarized."
        case .metric: "Raw column summarized (`wall_s`, `cpu_user_s`, `cpu_sys_s`, `peak_rss_bytes`, `frames_decoded`, `thumbnails_per_s`, `instructions`, `blocked_s`), or `cpu_s` (`cpu_user_s + cpu_sys_s`) or `cpu_blocked_s` (`cpu_s + blocked_s`); its unit is the unit of the statistics."
        case .n: "Number of repetitions with `status` `ok` summarized."
        case .min: "Smallest sample."
        case .median: "Median (type-7 quantile at 0.5)."
        case .mad: "Median absolute deviation from the median, unscaled."
        case .madScaled: "`mad × 1.4826`, comparable with a standard deviation for normal data."
        case .p90: "90th percentile, type 7 (linear interpolation between order statistics: `h = (n−1)·0.9`)."
        case .mean: "Arithmetic mean."
        case .stddev: "Sample standard deviation (divisor n−1); 0 when n = 1."
        case .ciLow: "Lower bound of the 95 % confidence interval of the median from binomial order statistics."
        case .ciHigh: "Upper bound of the 95 % confidence interval of the median from binomial order statistics."
        case .ciCoverage: "Exact coverage of [`ci_low`, `ci_high`]; below 0.95 only when n < 6, where the interval is min…max."
        case .warnings: "Semicolon-separated: `slow_first_run`, `outliers=K`, `too_short`, `few_samples`; empty when none."
        }
    }
}
