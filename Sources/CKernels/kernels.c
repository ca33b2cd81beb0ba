#include "CKernels.h"
#include <string.h>

// omp.h is not on the toolchain's include path, so the one runtime call used is declared here.
extern int omp_get_max_threads(void);

int filmstrip_openmp_max_threads(void) { return omp_get_max_threads(); }

void filmstrip_openmp_copy_rows(uint8_t *destination, ptrdiff_t destinationStride,
                                const uint8_t *source, ptrdiff_t sourceStride,
                                size_t rowBytes, size_t rowCount, int threads) {
    int team = threads > 0 ? threads : omp_get_max_threads();
    #pragma omp parallel for num_threads(team) schedule(static)
    for (long row = 0; row < (long)rowCount; row++) {
        memcpy(destination + row * destinationStride, source + row * sourceStride, rowBytes);
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

/// One run of pixels [from, to) of a row, background (source == NULL) or copied from
/// `source` (the pixel that lands at `from`), all dimmed or all not.
static inline void write_piece(uint8_t *row, int32_t from, int32_t to, const uint8_t *source,
                               int dimmed, const filmstrip_strip_geometry *g) {
    uint8_t *destination = row + (ptrdiff_t)from * 4;
    size_t bytes = (size_t)(to - from) * 4;
    if (source == NULL) {
        uint32_t word = dimmed ? dim_word(g->background, g->factor256) : g->background;
        for (int32_t x = from; x < to; x++) memcpy(row + (ptrdiff_t)x * 4, &word, 4);
    } else if (!dimmed) {
        memcpy(destination, source, bytes);
    } else {
        // Written so the compiler vectorises it: alpha lanes select the source byte.
        int32_t factor = g->factor256;
        for (size_t i = 0; i < bytes; i++) {
            uint8_t dimmedByte = dim_channel(source[i], factor);
            destination[i] = (i & 3) == 3 ? source[i] : dimmedByte;
        }
    }
}

/// A run split where the undimmed selection starts and ends.
static inline void write_run(uint8_t *row, int32_t from, int32_t to, const uint8_t *source,
                             const filmstrip_strip_geometry *g) {
    int32_t cut0 = g->undimmedFromX < from ? from : (g->undimmedFromX > to ? to : g->undimmedFromX);
    int32_t cut1 = g->undimmedToX < from ? from : (g->undimmedToX > to ? to : g->undimmedToX);
    if (from < cut0) write_piece(row, from, cut0, source, 1, g);
    if (cut0 < cut1) write_piece(row, cut0, cut1, source ? source + (ptrdiff_t)(cut0 - from) * 4 : NULL, 0, g);
    if (cut1 < to) write_piece(row, cut1, to, source ? source + (ptrdiff_t)(cut1 - from) * 4 : NULL, 1, g);
}

void filmstrip_openmp_compose_cells(uint8_t *strip, const filmstrip_strip_geometry *g,
                                    const int32_t *destinations, const uint8_t *const *sources,
                                    const ptrdiff_t *sourceStrides, int32_t firstCell, int32_t cellCount,
                                    int threads) {
    if (cellCount <= 0) return;
    int32_t pitchX = g->cellWidth + g->gap, pitchY = g->cellHeight + g->gap, columns = g->gridColumns;
    int32_t firstRow = firstCell / columns, lastRow = (firstCell + cellCount - 1) / columns;
    long yFrom = (long)firstRow * pitchY;
    long yTo = (long)(lastRow + 1) * pitchY;
    if (yTo > g->height) yTo = g->height;
    int team = threads > 0 ? threads : omp_get_max_threads();

    #pragma omp parallel for num_threads(team) schedule(static)
    for (long y = yFrom; y < yTo; y++) {
        int32_t cellRow = (int32_t)(y / pitchY), inCell = (int32_t)(y - (long)cellRow * pitchY);
        uint8_t *row = strip + y * g->bytesPerRow;
        int32_t rowFirst = cellRow * columns;
        int32_t c0 = firstCell > rowFirst ? firstCell - rowFirst : 0;
        int32_t c1 = firstCell + cellCount - rowFirst < columns ? firstCell + cellCount - rowFirst : columns;
        int32_t backgroundStart = c0 * pitchX;
        int32_t blockEnd = c1 * pitchX < g->width ? c1 * pitchX : g->width;
        for (int32_t c = c0; c < c1 && inCell < g->cellHeight; c++) {
            int32_t index = rowFirst + c;
            if (index >= g->thumbnailCount) break;
            const int32_t *rect = destinations + (ptrdiff_t)index * 4;
            if (y < rect[1] || y >= rect[1] + rect[3]) continue;
            if (backgroundStart < rect[0]) write_run(row, backgroundStart, rect[0], NULL, g);
            const uint8_t *source = sources[index - firstCell] + (y - rect[1]) * sourceStrides[index];
            write_run(row, rect[0], rect[0] + rect[2], source, g);
            backgroundStart = rect[0] + rect[2];
        }
        if (backgroundStart < blockEnd) write_run(row, backgroundStart, blockEnd, NULL, g);
    }
}
