#include "COpenMPKernels.h"
#include "row_runs.h"
#include <string.h>

// omp.h is not on the toolchain's include path, so the one runtime call used is declared here.
extern int omp_get_max_threads(void);

int filmstrip_openmp_max_threads(void) { return omp_get_max_threads(); }

void filmstrip_openmp_start_runtime(int threads) {
    int team = threads > 0 ? threads : omp_get_max_threads();
    // An empty region: libomp reads its environment and starts the team's threads once.
    #pragma omp parallel num_threads(team)
    { }
}

/// Writes one run of a row: background (no source) or copied from the run's source.
static inline void write_run(uint8_t *row, const strip_run *run, const filmstrip_strip_geometry *g) {
    uint8_t *destination = row + (ptrdiff_t)run->from * 4;
    size_t bytes = (size_t)(run->to - run->from) * 4;
    if (run->source == NULL) {
        uint32_t word = run->dimmed ? dim_word(g->background, g->factor256) : g->background;
        for (size_t offset = 0; offset < bytes; offset += 4) memcpy(destination + offset, &word, 4);
    } else if (!run->dimmed) {
        memcpy(destination, run->source, bytes);
    } else {
        // Written so the compiler vectorises it: alpha lanes select the source byte.
        const uint8_t *source = run->source;
        int32_t factor = g->factor256;
        for (size_t i = 0; i < bytes; i++) {
            uint8_t dimmedByte = dim_channel(source[i], factor);
            destination[i] = (i & 3) == 3 ? source[i] : dimmedByte;
        }
    }
}

void filmstrip_openmp_compose_cells(uint8_t *strip, const filmstrip_strip_geometry *g,
                                    const int32_t *destinations, const uint8_t *const *sources,
                                    const ptrdiff_t *sourceStrides, int32_t firstCell, int32_t cellCount,
                                    int threads) {
    if (cellCount <= 0) return;
    long yFrom, yTo;
    batch_rows(g, firstCell, cellCount, &yFrom, &yTo);
    int team = threads > 0 ? threads : omp_get_max_threads();

    #pragma omp parallel for num_threads(team) schedule(static)
    for (long y = yFrom; y < yTo; y++) {
        strip_run runs[RUNS_PER_ROW(FILMSTRIP_MAX_CELLS_PER_CALL)];
        int32_t count = row_runs(g, destinations, sources, sourceStrides, firstCell, cellCount, y, runs);
        for (int32_t run = 0; run < count; run++) write_run(strip + y * g->bytesPerRow, &runs[run], g);
    }
}
