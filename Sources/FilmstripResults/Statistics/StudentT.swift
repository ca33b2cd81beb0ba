import Foundation

/// Student's t distribution, for the prediction interval `trend` judges the newest run with.
enum StudentT {
    /// The p-quantile (0.5 < p < 1) with `degrees` degrees of freedom: bisection on the CDF,
    /// which Simpson's rule integrates from the density (a few calls per configuration).
    static func quantile(_ p: Double, degrees: Int) -> Double {
        var low = 0.0, high = 1.0
        while cdf(high, degrees: degrees) < p, high < 1e6 { high *= 2 }
        for _ in 0..<60 {
            let middle = (low + high) / 2
            if cdf(middle, degrees: degrees) < p { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    /// P(T ≤ x) for x ≥ 0.
    static func cdf(_ x: Double, degrees: Int) -> Double {
        let nu = Double(degrees)
        let logScale = lgamma((nu + 1) / 2) - lgamma(nu / 2) - 0.5 * Foundation.log(nu * Double.pi)
        func density(_ t: Double) -> Double { Foundation.exp(logScale - (nu + 1) / 2 * Foundation.log1p(t * t / nu)) }
        // Integrate in u = atan(t), where the heavy tail of few degrees of freedom is smooth.
        let end = atan(x), intervals = 400
        let step = end / Double(intervals)
        var sum = 0.0
        for index in 0...intervals {
            let u = Double(index) * step
            let weight = index == 0 || index == intervals ? 1.0 : (index % 2 == 1 ? 4.0 : 2.0)
            let t = tan(u)
            sum += weight * density(t) * (1 + t * t)
        }
        return 0.5 + sum * step / 3
    }
}
