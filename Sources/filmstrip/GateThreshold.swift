import ArgumentParser

/// The gate's threshold, parsed once from the command line: `5%` and `0.05` both mean a
/// relative change of 0.05, from 0 up to (not including) 100 %.
struct GateThreshold: ExpressibleByArgument, CustomStringConvertible {
    /// The threshold as a fraction of the baseline.
    let fraction: Double
    private let text: String

    init?(argument: String) {
        let value = argument.hasSuffix("%") ? Double(argument.dropLast()).map { $0 / 100 } : Double(argument)
        guard let value, value >= 0, value < 1 else { return nil }
        fraction = value
        text = argument
    }

    var description: String { text }
    var defaultValueDescription: String { text }
}
