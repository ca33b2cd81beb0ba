/// A horizontal run of strip pixels in one row that comes from one place and is either
/// wholly dimmed or wholly not: the unit of work of the row-oriented composers.
struct StripSpan {
    /// First strip column of the run.
    var x: Int
    /// Length in pixels, always > 0.
    var width: Int
    var dimmed: Bool
    /// The thumbnail index, or nil for background.
    var thumbnail: Int?
    /// Where the run starts inside the thumbnail (meaningless for background).
    var sourceX: Int
    var sourceY: Int
}

extension StripLayout {
    /// Calls `body` with the runs that cover `columns` of strip row `y`, left to right.
    ///
    /// Neighbouring background pieces (margins, gaps, empty cells) are merged into one run,
    /// so a row costs one call per thumbnail plus one per background stretch; runs are
    /// split where the dimming selection starts and ends.
    @inline(__always)
    func forEachSpan(inRow y: Int, columns: Range<Int>, _ body: (StripSpan) -> Void) {
        let undimmed = undimmedColumns
        func emit(_ from: Int, _ to: Int, thumbnail: Int?, sourceX: Int, sourceY: Int) {
            // Up to three pieces: dimmed before the selection, undimmed inside, dimmed after.
            let cuts = (min(max(undimmed.lowerBound, from), to), min(max(undimmed.upperBound, from), to))
            if from < cuts.0 {
                body(StripSpan(x: from, width: cuts.0 - from, dimmed: true, thumbnail: thumbnail,
                               sourceX: sourceX, sourceY: sourceY))
            }
            if cuts.0 < cuts.1 {
                body(StripSpan(x: cuts.0, width: cuts.1 - cuts.0, dimmed: false, thumbnail: thumbnail,
                               sourceX: sourceX + cuts.0 - from, sourceY: sourceY))
            }
            if cuts.1 < to {
                body(StripSpan(x: cuts.1, width: to - cuts.1, dimmed: true, thumbnail: thumbnail,
                               sourceX: sourceX + cuts.1 - from, sourceY: sourceY))
            }
        }

        let pitchX = cellSize.width + gap, pitchY = cellSize.height + gap
        let cellRow = y / pitchY
        var backgroundStart = columns.lowerBound
        if y - cellRow * pitchY < cellSize.height {
            var column = columns.lowerBound / pitchX
            while column < gridColumns, column * pitchX < columns.upperBound {
                let index = cellRow * gridColumns + column
                column += 1
                guard index < destinations.count else { break }
                let rect = destinations[index]
                guard y >= rect.y, y < rect.maxY else { continue }
                let from = max(rect.x, columns.lowerBound), to = min(rect.maxX, columns.upperBound)
                guard from < to else { continue }
                if backgroundStart < from {
                    emit(backgroundStart, from, thumbnail: nil, sourceX: 0, sourceY: 0)
                }
                emit(from, to, thumbnail: index, sourceX: from - rect.x, sourceY: y - rect.y)
                backgroundStart = to
            }
        }
        if backgroundStart < columns.upperBound {
            emit(backgroundStart, columns.upperBound, thumbnail: nil, sourceX: 0, sourceY: 0)
        }
    }
}
