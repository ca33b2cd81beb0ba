import Testing
@testable import FilmstripReport
@testable import FilmstripResults

/// Expected values are computed by hand in the comments.
struct StatisticsTests {
    @Test func oddSampleWithOutlier() throws {
        // sorted 1 2 3 4 100; |x − 3| = 2 1 0 1 97 → median 1.
        let stats = try #require(SampleStatistics([1, 2, 3, 4, 100]))
        #expect(stats.count == 5)
        #expect(stats.min == 1)
        #expect(stats.max == 100)
        #expect(stats.median == 3)
        #expect(stats.mad == 1)
        #expect(stats.scaledMAD == 1.4826)
        // h = 4 · 0.9 = 3.6 → 4 + 0.6 · (100 − 4) = 61.6
        #expect(abs(stats.p90 - 61.6) < 1e-12)
        #expect(stats.mean == 22)
        // Σ(x − 22)² = 441 + 400 + 361 + 324 + 6084 = 7610; / 4 = 1902.5
        #expect(abs(stats.standardDeviation - 1902.5.squareRoot()) < 1e-12)
        // n = 5 < 6: min…max, coverage 1 − 2 · 2⁻⁵.
        #expect(stats.medianCI.lowRank == 1 && stats.medianCI.highRank == 5)
        #expect(stats.medianCI.isBelowNominalLevel)
        #expect(abs(stats.medianCI.coverage - 0.9375) < 1e-12)
        #expect(stats.outlierCount == 1)
        #expect(stats.warnings(shortRunThreshold: SampleWarning.shortRunSeconds) == [.outliers(count: 1), .fewSamples])
    }

    @Test func evenSample() throws {
        // sorted 1 2 3 4: median 2.5; |x − 2.5| = 1.5 1.5 .5 .5 → 1; h = 2.7 → 3.7.
        let stats = try #require(SampleStatistics([4, 1, 3, 2]))
        #expect(stats.median == 2.5)
        #expect(stats.mad == 1)
        #expect(abs(stats.p90 - 3.7) < 1e-12)
        // Σ(x − 2.5)² = 5; / 3
        #expect(abs(stats.standardDeviation - (5.0 / 3).squareRoot()) < 1e-12)
    }

    @Test func emptyAndSingle() throws {
        #expect(SampleStatistics([]) == nil)
        let single = try #require(SampleStatistics([0.5]))
        #expect(single.median == 0.5 && single.p90 == 0.5 && single.standardDeviation == 0 && single.mad == 0)
        #expect(single.medianCI.low == 0.5 && single.medianCI.high == 0.5)
    }

    /// Ranks from the Binomial(n, ½) CDF: n = 6: P(B ≤ 0) = 1/64 ≤ .025 < P(B ≤ 1) = 7/64;
    /// n = 10: P(B ≤ 1) = 11/1024 ≤ .025 < P(B ≤ 2) = 56/1024;
    /// n = 20: P(B ≤ 5) = 21700/2²⁰ ≈ .0207 ≤ .025 < P(B ≤ 6) ≈ .0577.
    static let confidenceRanks: [(n: Int, low: Int, high: Int, coverage: Double)] = [
        (6, 1, 6, 1 - 2.0 / 64),
        (10, 2, 9, 1 - 22.0 / 1024),
        (20, 6, 15, 1 - 2 * 21700.0 / 1_048_576),
    ]

    @Test(arguments: confidenceRanks)
    func medianConfidenceRanks(n: Int, low: Int, high: Int, coverage: Double) {
        let sorted = (1...n).map(Double.init)
        let ci = MedianConfidenceInterval(sorted: sorted)
        #expect(ci.lowRank == low && ci.highRank == high)
        #expect(ci.low == Double(low) && ci.high == Double(high))
        #expect(abs(ci.coverage - coverage) < 1e-9)
        #expect(!ci.isBelowNominalLevel)
    }

    @Test func largeSampleDoesNotUnderflow() {
        let ci = MedianConfidenceInterval(sorted: (1...2000).map(Double.init))
        // Normal approximation: 1000 ± 1.96 · √500 ≈ 1000 ± 43.8.
        #expect((955...958).contains(ci.lowRank))
        #expect(ci.coverage >= 0.95)
    }

    @Test func slowFirstRun() throws {
        // median .1; |x − .1| = .4 0 .01 .01 0 .005 .005 → MAD .005, scaled .007413;
        // first z = .4 / .007413 ≈ 54, the rest ≤ 1.35.
        let stats = try #require(SampleStatistics([0.5, 0.10, 0.11, 0.09, 0.10, 0.105, 0.095]))
        #expect(stats.warnings(shortRunThreshold: SampleWarning.shortRunSeconds) == [.slowFirstRun, .outliers(count: 1)])
    }

    @Test func tooShortAndIdenticalSamples() throws {
        // MAD = 0: the 0.1 %-of-median floor keeps identical samples from being outliers.
        let stats = try #require(SampleStatistics(Array(repeating: 0.001, count: 8)))
        #expect(stats.outlierCount == 0)
        #expect(stats.warnings(shortRunThreshold: SampleWarning.shortRunSeconds) == [.tooShort])
        #expect(stats.warnings(shortRunThreshold: nil).isEmpty)
    }

    @Test func warningTokensRoundTrip() {
        for warning in [SampleWarning.slowFirstRun, .outliers(count: 3), .tooShort, .fewSamples] {
            #expect(SampleWarning(token: warning.description) == warning)
        }
        #expect(SampleWarning(token: "outliers=x") == nil)
    }
}
