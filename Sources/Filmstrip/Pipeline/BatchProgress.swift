import Foundation

/// How far a batch of videos has got, each video weighed by its size in bytes, and the time
/// left at the rate so far.
///
/// Counting videos as equal misleads when they differ in length: three 3 s videos done and a
/// 180 s one just started read as three quarters done, so the ETA said 0:00:00 while the long
/// one ran. A video's duration is known only once it is probed; its size is known from the
/// start, and decoding time follows the bytes.
public struct BatchProgress: Sendable {
    /// Each video's weight (its size in bytes, at least 1), by index.
    public let weights: [Double]
    /// Videos finished (made, skipped or failed).
    public private(set) var finished = 0
    private var finishedWeight = 0.0
    private var running: [Int: Double] = [:]

    /// Progress over videos of these weights, none started.
    public init(weights: [Double]) { self.weights = weights.map { max(1, $0) } }

    /// Progress over the files at `paths`, weighed by their sizes (a file that cannot be read weighs 1).
    public init(files paths: [String]) {
        self.init(weights: paths.map { Double(System.status($0).map { Int($0.st_size) } ?? 1) })
    }

    /// Video `index` is this fraction (0...1) done.
    public mutating func update(_ index: Int, fraction: Double) { running[index] = min(1, max(0, fraction)) }

    /// Video `index` is finished, whatever came of it.
    public mutating func finish(_ index: Int) {
        running[index] = nil
        finished += 1
        finishedWeight += weights[index]
    }

    /// Videos started and not finished.
    public var runningCount: Int { running.count }

    /// The share of the batch's weight done, 0...1.
    public var fractionDone: Double {
        let total = weights.reduce(0, +)
        let done = finishedWeight + running.reduce(0) { $0 + weights[$1.key] * $1.value }
        return total > 0 ? min(1, done / total) : 1
    }

    /// Seconds left if the rest goes at the rate of the first `elapsed` seconds; nil before anything is done.
    public func remainingSeconds(elapsed: Double) -> Double? {
        let done = fractionDone
        return done > 0 ? elapsed * (1 - done) / done : nil
    }
}
