import FilmstripResults
import Foundation
import Filmstrip

/// Chart 3: composition throughput per composer in GB/s of strip bytes, with the memcpy
/// floor as a horizontal line.
///
/// Strip bytes are `frame_count × thumb_width × thumb_height × 4` (RGBA, no gaps or row
/// padding): the bytes every composer must write. Composition does not depend on the
/// extractor or the video, so samples of one composer are pooled across them, for the
/// strip shape of the memcpy floor rows (else the most common). The memcpy floor is the rows of kind
/// ``RunKind/memcpyFloor``, timing `memcpyFloor` (see plots/README.md).
enum CompositionThroughputChart {
    private struct StripShape: Hashable, Comparable {
        var thumbnailCount: Int
        var thumbWidth: Int
        var thumbHeight: Int

        /// Bytes of RGBA pixels in the strip's thumbnails.
        var bytes: Double { Double(thumbnailCount * thumbWidth * thumbHeight * Image.bytesPerPixel) }

        static func < (lhs: StripShape, rhs: StripShape) -> Bool {
            (lhs.thumbnailCount, lhs.thumbWidth, lhs.thumbHeight) < (rhs.thumbnailCount, rhs.thumbWidth, rhs.thumbHeight)
        }
    }

    static func make(_ samples: PlotSamples, machine: String, stem: String) -> ChartOutcome {
        // Fused pipelines compose while they scale: their compose phase is only the finishing
        // touches (dimming), microseconds that would read as absurd copy rates.
        let fused = StripDestination.canvasName
        let compose = samples.filter { $0.key.phase == .compose && $0.seconds > 0 && $0.key.pipeline.composer != fused }
        // The strip shape that has memcpy floor rows (the synthetic composition runs) wins:
        // a chart against the floor is the point; otherwise the most common shape.
        let floorRows = compose.filter { $0.key.kind == .memcpyFloor }
        guard let shape = (floorRows.samples.isEmpty ? compose : floorRows).mostCommon({ StripShape(thumbnailCount: $0.key.thumbnailCount, thumbWidth: $0.key.thumbWidth, thumbHeight: $0.key.thumbHeight) }) else {
            return .skipped(.compositionThroughput, reason: "no rows with phase compose for machine \(machine)")
        }
        let byKey = compose.filter {
            $0.key.thumbnailCount == shape.thumbnailCount && $0.key.thumbWidth == shape.thumbWidth && $0.key.thumbHeight == shape.thumbHeight
        }.secondsByKey
        let labeler = ConfigurationLabeler(byKey.keys)
        let gigabytes = shape.bytes / 1e9

        var throughputs: [String: [Double]] = [:]
        var floorThroughputs: [Double] = []
        for (key, seconds) in byKey {
            let values = seconds.map { gigabytes / $0 }
            if key.kind == .memcpyFloor {
                floorThroughputs += values
            } else {
                throughputs[labeler.label(key.pipeline.composer, for: key), default: []] += values
            }
        }
        guard !throughputs.isEmpty else {
            return .skipped(.compositionThroughput, reason: "only memcpy floor rows in phase compose for machine \(machine)")
        }
        // Registry order (naive first) reads as a story from baseline to fastest; names the
        // registry does not know follow alphabetically.
        let order = Composers.names
        let labels = throughputs.keys.sorted { lhs, rhs in
            let left = order.firstIndex { lhs.hasPrefix($0) } ?? order.count
            let right = order.firstIndex { rhs.hasPrefix($0) } ?? order.count
            return (left, lhs) < (right, rhs)
        }
        let points = throughputs.compactMapValues { PlotPoint(samples: $0) }

        var data = "# composer, median, CI low, CI high in GB/s of strip bytes (\(shape.thumbnailCount) thumbnails of \(shape.thumbWidth)x\(shape.thumbHeight))\n"
        for label in labels {
            data += "\(PlotText.dataString(label)) \(points[label]!.columns)\n"
        }
        let floor = PlotPoint(samples: floorThroughputs)
        let floorPlot = floor.map {
            ", \\\n     \(PlotText.number($0.median)) with lines dt 2 lw 2 lc rgb \"black\" title \(PlotText.scriptString("memcpy floor: \(String(format: "%.2f", $0.median)) GB/s"))"
        } ?? ""
        let note = floor == nil ? " (no memcpy floor rows)" : ""
        let title = "Composition throughput: \(shape.thumbnailCount) thumbnails of \(shape.thumbWidth)x\(shape.thumbHeight) px, machine \(machine)\(note)"
        let body = """
            \(BarStyle.commands)
            set xrange [-0.5:\(labels.count) - 0.5]
            set title \(PlotText.scriptString(title))
            set xlabel "composer"
            set ylabel "throughput, median and 95 % CI (GB/s of strip bytes)"
            plot \(PlotText.scriptString("\(stem).dat")) using 2:3:4:xtic(1) lc rgb "#4477aa" title "composer (median, 95 % CI)"\(floorPlot)
            """
        return .chart(Chart(kind: .compositionThroughput, stem: stem, title: title, data: data, body: body))
    }
}
