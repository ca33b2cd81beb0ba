/// Change points in a series by E-divisive means: Matteson & James (2014), "A Nonparametric
/// Approach for Multiple Change Point Analysis of Multivariate Data", JASA 109(505), the
/// method MongoDB's performance CI and Hunter (Fleming et al., ICPE 2023) use on benchmark
/// histories.
///
/// Each round splits one segment where the energy distance between the two sides, weighted
/// by their sizes, is largest (exponent α = 1; the right side's end is searched too, as in the
/// paper). The split is kept
/// only when a permutation test says so: the values are shuffled within each segment
/// `permutations` times and the observed statistic must be beaten by at most a fraction
/// `significance` of the shuffles. Rounds stop at the first split the test rejects.
package struct EDivisive: Sendable {
    /// Largest permutation p-value that still counts as a change.
    package var significance: Double
    package var permutations: Int
    /// Fewest points on either side of a split.
    package var minimumSegment: Int

    package init(significance: Double = 0.01, permutations: Int = 199, minimumSegment: Int = 3) {
        self.significance = significance
        self.permutations = permutations
        self.minimumSegment = minimumSegment
    }

    /// The fewest points in which any step can pass the permutation test: below it even a
    /// perfect step (every point after it above every point before) is matched by too many
    /// shuffles. Such a step's p-value is about (1 + permutations / C(n, ⌊n/2⌋)) / (permutations + 1)
    /// (a shuffle that happens to give the same split ties it), which must be within
    /// `significance`: 10 points at the defaults (0.01 and 199 shuffles), where 6, two segments
    /// of the minimum, cannot get below 0.1.
    package var shortestDecidableSeries: Int {
        var count = 2 * minimumSegment
        while count < 1000 {
            var arrangements = 1.0
            for index in 0..<(count / 2) { arrangements = arrangements * Double(count - index) / Double(index + 1) }
            if (1 + Double(permutations) / arrangements) / Double(permutations + 1) <= significance { return count }
            count += 1
        }
        return count
    }

    /// Indices where a new segment starts (each in `1..<series.count`), ascending.
    package func changePoints(in series: [Double], using generator: inout some RandomNumberGenerator) -> [Int] {
        var boundaries = [0, series.count]
        while true {
            guard let best = bestSplit(of: series, boundaries: boundaries) else { break }
            var beaten = 0
            var shuffled = series
            for _ in 0..<permutations {
                for (start, end) in zip(boundaries, boundaries.dropFirst()) {
                    shuffled[start..<end].shuffle(using: &generator)
                }
                if let split = bestSplit(of: shuffled, boundaries: boundaries), split.statistic >= best.statistic {
                    beaten += 1
                }
            }
            let pValue = Double(beaten + 1) / Double(permutations + 1)
            guard pValue <= significance else { break }
            boundaries.append(best.index)
            boundaries.sort()
        }
        return Array(boundaries.dropFirst().dropLast())
    }

    /// The split with the largest statistic over all segments between `boundaries`.
    func bestSplit(of series: [Double], boundaries: [Int]) -> (index: Int, statistic: Double)? {
        var best: (index: Int, statistic: Double)?
        for (start, end) in zip(boundaries, boundaries.dropFirst()) {
            if let split = bestSplit(Array(series[start..<end])), split.statistic > best?.statistic ?? -.infinity {
                best = (start + split.index, split.statistic)
            }
        }
        return best
    }

    /// The split of one segment maximising Q(τ, κ) = m·n/(m+n) · Ê over the left side
    /// `values[..<τ]` (m points) and right side `values[τ..<κ]` (n points), where Ê is the energy
    /// distance 2/(mn)·Σ|x−y| − Σ_{i<k}|x_i−x_k|/C(m,2) − Σ_{j<l}|y_j−y_l|/C(n,2). Searching κ as
    /// the paper does (not fixing it at the end) finds a step that later goes back. Each sum is a
    /// block of the distance matrix, read in O(1) from its 2-D prefix sums, so a pass is O(T²).
    func bestSplit(_ values: [Double]) -> (index: Int, statistic: Double)? {
        let count = values.count
        guard count >= 2 * minimumSegment, minimumSegment >= 2 else { return nil }
        // prefix[i * width + j]: sum of |values[a] − values[b]| over a < i, b < j.
        let width = count + 1
        var prefix = [Double](repeating: 0, count: width * width)
        for i in 1...count {
            for j in 1...count {
                prefix[i * width + j] = abs(values[i - 1] - values[j - 1])
                    + prefix[(i - 1) * width + j] + prefix[i * width + j - 1] - prefix[(i - 1) * width + j - 1]
            }
        }
        func block(_ rows: Range<Int>, _ columns: Range<Int>) -> Double {
            prefix[rows.upperBound * width + columns.upperBound] - prefix[rows.lowerBound * width + columns.upperBound]
                - prefix[rows.upperBound * width + columns.lowerBound] + prefix[rows.lowerBound * width + columns.lowerBound]
        }
        var best: (index: Int, statistic: Double)?
        for split in minimumSegment...(count - minimumSegment) {
            let left = Double(split)
            let withinLeft = block(0..<split, 0..<split) / 2
            for end in (split + minimumSegment)...count {
                let right = Double(end - split)
                let between = block(0..<split, split..<end)
                let withinRight = block(split..<end, split..<end) / 2
                let energy = 2 * between / (left * right)
                    - withinLeft / (left * (left - 1) / 2) - withinRight / (right * (right - 1) / 2)
                let statistic = left * right / (left + right) * energy
                if statistic > best?.statistic ?? -.infinity { best = (split, statistic) }
            }
        }
        return best
    }
}
