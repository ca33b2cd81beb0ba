import FilmstripResults
import Foundation

extension SpriteBench {
    /// A sprite run's rows summed over the library per repetition, per contender.
    package struct Totals: Sendable {
        /// Wall seconds over the whole library, one per repetition.
        package var wall: [Contender: [Double]] = [:]
        /// CPU seconds (user + system) over the whole library, one per repetition.
        package var cpu: [Contender: [Double]] = [:]
        /// The largest frame error of any tile, in seconds.
        package var worst: [Contender: Double] = [:]
        /// Tiles whose marker could not be read.
        package var unreadable: [Contender: Int] = [:]

        /// Sums the `sprite` rows of `rows` that succeeded; a repetition counts for a contender
        /// only when every video of it is there, so the library sums compare like with like.
        package init(rows: [RawResultRow]) {
            let sprites = rows.filter { $0.kind == .sprite && $0.status == .ok }
            let videos = Set(sprites.map(\.video.id))
            for (pipeline, contenderRows) in Dictionary(grouping: sprites, by: \.pipeline) {
                guard case .sprite(let contenderName) = pipeline, let contender = Contender(rawValue: contenderName) else { continue }
                for repetition in Set(contenderRows.map(\.repetition)).sorted() {
                    let library = contenderRows.filter { $0.repetition == repetition }
                    guard Set(library.map(\.video.id)) == videos else { continue }
                    wall[contender, default: []].append(library.compactMap(\.wallSeconds).reduce(0, +))
                    cpu[contender, default: []].append(library.compactMap { Metric.cpuSeconds.value(in: $0) }.reduce(0, +))
                }
                worst[contender] = contenderRows.compactMap { $0.spriteTiles?.worstErrorSeconds }.max() ?? 0
                unreadable[contender] = contenderRows.compactMap { $0.spriteTiles?.unreadable }.reduce(0, +)
            }
        }

        /// The median over repetitions of `baseline`'s time over `contender`'s, each ratio within one repetition.
        package func ratio(_ times: [Contender: [Double]], _ baseline: Contender, _ contender: Contender) -> Double {
            Quantile.median(zip(times[baseline] ?? [], times[contender] ?? []).map { $0 / $1 })
        }
    }
}
