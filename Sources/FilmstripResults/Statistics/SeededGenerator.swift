/// SplitMix64: a small deterministic generator, so generated data (sample results, fuzzed
/// inputs, simulated gate runs) is the same on every run and machine (the system generator is
/// seeded randomly). In Statistics because the trend analysis and the tests use it.
package struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A uniform value in [0, 1) from the top 53 bits of the next output.
    package mutating func nextUnit() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }
}
