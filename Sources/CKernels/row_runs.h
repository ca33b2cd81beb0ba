#ifndef FILMSTRIP_ROW_RUNS_H
#define FILMSTRIP_ROW_RUNS_H
// The layout walk the cell kernels share: which runs make up one strip row of a batch of
// cells, and for how many rows that stays so. The kernels differ in the order they visit
// cells and rows and in how they write the runs.
#include "CKernels.h"

/// Pixels [from, to) of a strip row that come from one place and are all dimmed or all not.
typedef struct strip_run {
    int32_t from, to;
    int32_t dimmed;
    /// The pixel that lands at `from`, or NULL for background.
    const uint8_t *source;
    /// Bytes from one row of the source to the next.
    ptrdiff_t sourceStride;
} strip_run;

/// Room for the runs of one row of `cells` cells: at most a background run and a thumbnail
/// run per cell, the background after the last, and two more pieces where the dimming
/// selection starts and ends.
#define RUNS_PER_ROW(cells) (2 * (cells) + 3)

/// Strip rows [*yFrom, *yTo) covered by cells [firstCell, firstCell + cellCount), the gap
/// below them included; cellCount > 0.
static inline void batch_rows(const filmstrip_strip_geometry *g, int32_t firstCell, int32_t cellCount,
                              long *yFrom, long *yTo) {
    int32_t pitchY = g->cellHeight + g->gap;
    int32_t firstRow = firstCell / g->gridColumns, lastRow = (firstCell + cellCount - 1) / g->gridColumns;
    *yFrom = (long)firstRow * pitchY;
    *yTo = (long)(lastRow + 1) * pitchY;
    if (*yTo > g->height) *yTo = g->height;
}

/// The grid columns [*c0, *c1) of cell row `cellRow` that are among cells
/// [firstCell, firstCell + cellCount).
static inline void row_cells(const filmstrip_strip_geometry *g, int32_t firstCell, int32_t cellCount, int32_t cellRow,
                             int32_t *c0, int32_t *c1) {
    int32_t rowFirst = cellRow * g->gridColumns;
    *c0 = firstCell > rowFirst ? firstCell - rowFirst : 0;
    *c1 = firstCell + cellCount - rowFirst < g->gridColumns ? firstCell + cellCount - rowFirst : g->gridColumns;
}

/// Appends run [from, to) to `runs`, split where the undimmed selection starts and ends;
/// returns the new run count.
static inline int32_t append_run(strip_run *runs, int32_t count, int32_t from, int32_t to,
                                 const uint8_t *source, ptrdiff_t sourceStride, const filmstrip_strip_geometry *g) {
    int32_t cuts[4] = {from, g->undimmedFromX < from ? from : (g->undimmedFromX > to ? to : g->undimmedFromX),
                       g->undimmedToX < from ? from : (g->undimmedToX > to ? to : g->undimmedToX), to};
    for (int piece = 0; piece < 3; piece++) {
        if (cuts[piece] >= cuts[piece + 1]) continue;
        ptrdiff_t skip = (ptrdiff_t)(cuts[piece] - from) * 4;
        runs[count++] = (strip_run){cuts[piece], cuts[piece + 1], piece != 1,
                                    source ? source + skip : NULL, sourceStride};
    }
    return count;
}

/// The runs of strip row `y` inside cells [firstCell, firstCell + cellCount), left to right
/// and without holes: margins, gaps and empty cells are background runs. Returns how many
/// were written to `runs` (room for RUNS_PER_ROW(cellCount)). `sources[k]` is the pixels of
/// thumbnail firstCell + k.
static inline int32_t row_runs(const filmstrip_strip_geometry *g, const int32_t *destinations,
                               const uint8_t *const *sources, const ptrdiff_t *sourceStrides,
                               int32_t firstCell, int32_t cellCount, long y, strip_run *runs) {
    int32_t pitchX = g->cellWidth + g->gap, pitchY = g->cellHeight + g->gap, columns = g->gridColumns;
    int32_t cellRow = (int32_t)(y / pitchY), inCell = (int32_t)(y - (long)cellRow * pitchY);
    int32_t rowFirst = cellRow * columns, c0, c1;
    row_cells(g, firstCell, cellCount, cellRow, &c0, &c1);
    int32_t backgroundStart = c0 * pitchX;
    int32_t blockEnd = c1 * pitchX < g->width ? c1 * pitchX : g->width;
    int32_t count = 0;
    for (int32_t c = c0; c < c1 && inCell < g->cellHeight; c++) {
        int32_t index = rowFirst + c;
        if (index >= g->thumbnailCount) break;
        const int32_t *rect = destinations + (ptrdiff_t)index * 4;
        if (y < rect[1] || y >= rect[1] + rect[3]) continue;
        if (backgroundStart < rect[0]) count = append_run(runs, count, backgroundStart, rect[0], NULL, 0, g);
        const uint8_t *source = sources[index - firstCell] + (y - rect[1]) * sourceStrides[index];
        count = append_run(runs, count, rect[0], rect[0] + rect[2], source, sourceStrides[index], g);
        backgroundStart = rect[0] + rect[2];
    }
    if (backgroundStart < blockEnd) count = append_run(runs, count, backgroundStart, blockEnd, NULL, 0, g);
    return count;
}

/// The first row after `y` (at most `yTo`) whose runs in cells [firstCell, firstCell +
/// cellCount) are not those of row `y` with every source one row further down: where a
/// thumbnail, a gap or a cell row starts or ends. Until then `advance_runs` is all a row takes.
static inline long next_run_change(const filmstrip_strip_geometry *g, const int32_t *destinations,
                                   int32_t firstCell, int32_t cellCount, long y, long yTo) {
    int32_t pitchY = g->cellHeight + g->gap, columns = g->gridColumns;
    int32_t cellRow = (int32_t)(y / pitchY);
    long rowTop = (long)cellRow * pitchY;
    long change = y - rowTop < g->cellHeight ? rowTop + g->cellHeight : rowTop + pitchY;
    if (y - rowTop < g->cellHeight) {
        int32_t rowFirst = cellRow * columns, c0, c1;
        row_cells(g, firstCell, cellCount, cellRow, &c0, &c1);
        for (int32_t c = c0; c < c1 && rowFirst + c < g->thumbnailCount; c++) {
            const int32_t *rect = destinations + (ptrdiff_t)(rowFirst + c) * 4;
            long edge = rect[1] > y ? rect[1] : rect[1] + rect[3];
            if (edge > y && edge < change) change = edge;
        }
    }
    return change < yTo ? change : yTo;
}

/// Moves every run's source one row down: the runs of row y + 1, when that is before the
/// next change.
static inline void advance_runs(strip_run *runs, int32_t count) {
    for (int32_t i = 0; i < count; i++) {
        if (runs[i].source) runs[i].source += runs[i].sourceStride;
    }
}

static inline uint8_t dim_channel(uint8_t channel, int32_t factor256) {
    return (uint8_t)(((int32_t)channel * factor256 + 128) >> 8);
}

static inline uint32_t dim_word(uint32_t word, int32_t factor256) {
    uint32_t red = dim_channel((uint8_t)word, factor256);
    uint32_t green = dim_channel((uint8_t)(word >> 8), factor256);
    uint32_t blue = dim_channel((uint8_t)(word >> 16), factor256);
    return red | green << 8 | blue << 16 | (word & 0xFF000000u);
}
#endif
