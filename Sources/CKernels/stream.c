// The `stream` composer's kernel: every strip byte is written once, in whole 64-byte cache
// lines stored non-temporally wherever a line lies inside one strip row.
//
// Why non-temporal: an ordinary store to a line that is not in the cache first reads the
// line from memory ("read for ownership") only to overwrite all of it, so a copy moves three
// bytes over the memory bus for every two it needs. A non-temporal store of a whole line
// skips that read and bypasses the caches, which also leaves them to the thumbnails.
//
// Why whole lines: the runs inside a strip row do not start on lines (a 114 px thumbnail row
// is 456 bytes, and a strip row's first byte need not start a line either). Each strip row
// is therefore assembled left to right in its own `line_stream`: a line that two runs share
// is staged in a 64-byte buffer until its last byte is known and then streamed; lines wholly
// inside one run go straight from the source. Only the first and the last line of a row's
// part of a batch, which may also hold bytes of the neighbouring row, of row padding or of
// the next batch of cells, get ordinary stores of just this row's bytes.
//
// Why cell by cell: the strip is visited one cell (thumbnail) at a time, each cell from its
// top row down (in bands of `band_rows` rows), every strip row continuing where its
// `line_stream` left off. A thumbnail is then read front to back, which the hardware
// prefetcher follows by itself. Walking the strip row by row instead reads a few hundred
// bytes from each of hundreds of thumbnails per row: the hardware prefetcher does not follow
// that, and with software prefetches of the next row it still measured about 15 % slower
// than this order on the 500 x 114x64 benchmark (over twice as slow without them).
// A staged line is completed only a band later, long after its bytes left the store
// buffer; reading back a line just written in pieces stalls on store-to-load forwarding.
//
// The vectors are GCC/clang generic vectors, so one body compiles twice: with AVX2 (32-byte
// registers) for CPUs that have it and with the baseline (SSE2 on x86-64) for the others.
#include "CKernels.h"
#include "row_runs.h"
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

// Everything below is inlined into the two entry points, so it is compiled for each
// instruction set; a helper left out of line would run baseline code in the AVX2 path.
#define STREAM_INLINE static inline __attribute__((always_inline))

typedef uint8_t bytes32 __attribute__((vector_size(32)));
typedef uint16_t lanes16 __attribute__((vector_size(32)));

enum {
    line_bytes = 64,
    /// Strip rows assembled side by side: 64 line_streams (about 6 KiB) stay in the L1 cache.
    band_rows = 64,
};

/// Byte i is 0xFF where i % 4 == 3 (alpha in RGBA), long enough to load 32 bytes at any of
/// the four byte phases within a pixel.
static const uint8_t alpha_bytes[36] = {
    0, 0, 0, 0xFF, 0, 0, 0, 0xFF, 0, 0, 0, 0xFF, 0, 0, 0, 0xFF, 0, 0,
    0, 0xFF, 0, 0, 0, 0xFF, 0, 0, 0, 0xFF, 0, 0, 0, 0xFF, 0, 0, 0, 0xFF};

/// A background pixel repeated, long enough to load 32 bytes at any byte phase.
typedef struct fill_pattern { uint8_t bytes[36]; } fill_pattern;

/// One strip row being assembled: `staged[owned..<filled]` holds this row's bytes of `line`
/// written so far; the bytes of `line` before `owned` are not this row's.
typedef struct line_stream {
    uint8_t staged[line_bytes];
    uint8_t *line;
    size_t filled, owned;
} line_stream;

// Vectors travel by pointer between helpers: passing a 32-byte vector by value would mean
// different calling conventions with and without AVX (all of this is inlined anyway).

STREAM_INLINE void load32(bytes32 *vector, const uint8_t *bytes) { memcpy(vector, bytes, sizeof *vector); }

/// (c * factor + 128) >> 8 on every byte, computed in 16-bit lanes for the low and the high
/// byte separately (255 * 256 + 128 < 2^16); bytes where `alpha` is set are kept.
STREAM_INLINE void dim32(bytes32 *pixels, uint16_t factor, const bytes32 *alpha) {
    lanes16 lanes = (lanes16)*pixels;
    lanes16 low = ((lanes & 0xFF) * factor + 128) >> 8;
    lanes16 high = ((lanes >> 8) * factor + 128) & 0xFF00;
    *pixels = ((bytes32)(low | high) & ~*alpha) | (*pixels & *alpha);
}

/// Streams one whole, 64-byte aligned line; the stores do not read the line first.
STREAM_INLINE void stream_line(uint8_t *line, const bytes32 *first, const bytes32 *second) {
    __builtin_nontemporal_store(*first, (bytes32 *)line);
    __builtin_nontemporal_store(*second, (bytes32 *)(line + 32));
}

/// Starts assembling a row segment whose first byte is `destination`.
STREAM_INLINE void stream_begin(line_stream *s, uint8_t *destination) {
    s->line = (uint8_t *)((uintptr_t)destination & ~(uintptr_t)(line_bytes - 1));
    s->filled = s->owned = (size_t)(destination - s->line);
}

/// Writes the staged line once it is full: streamed when all of it is this row's, else
/// ordinary stores of this row's part only.
STREAM_INLINE void stream_flush(line_stream *s) {
    if (s->owned == 0) {
        bytes32 first, second;
        load32(&first, s->staged);
        load32(&second, s->staged + 32);
        stream_line(s->line, &first, &second);
    } else {
        memcpy(s->line + s->owned, s->staged + s->owned, line_bytes - s->owned);
    }
    s->line += line_bytes;
    s->filled = s->owned = 0;
}

/// Ends a row segment: the partly filled last line gets ordinary stores of this row's bytes.
STREAM_INLINE void stream_end(line_stream *s) {
    if (s->filled > s->owned) memcpy(s->line + s->owned, s->staged + s->owned, s->filled - s->owned);
}

/// Stages `count` bytes of a run starting at byte `offset` of the run: the fill pattern, or
/// the source copied or dimmed (alpha kept: runs start on a pixel, so alpha is offset % 4 == 3).
STREAM_INLINE void stage(uint8_t *to, const uint8_t *source, const fill_pattern *fill, size_t offset,
                         size_t count, int32_t factor) {
    if (fill) {
        for (size_t i = 0; i < count; i++) to[i] = fill->bytes[(offset + i) & 3];
    } else if (factor == 256) {
        memcpy(to, source + offset, count);
    } else {
        for (size_t i = 0; i < count; i++) {
            size_t at = offset + i;
            to[i] = (at & 3) == 3 ? source[at] : dim_channel(source[at], factor);
        }
    }
}

/// Appends `bytes` bytes of a run (the pattern of `fill`, or `source` copied or dimmed by
/// `factor`) to the row segment being assembled.
STREAM_INLINE void stream_run(line_stream *s, const uint8_t *source, const fill_pattern *fill, size_t bytes,
                              int32_t factor) {
    size_t done = 0;
    if (s->filled != 0) {
        done = line_bytes - s->filled < bytes ? line_bytes - s->filled : bytes;
        stage(s->staged + s->filled, source, fill, 0, done, factor);
        s->filled += done;
        if (s->filled == line_bytes) stream_flush(s);
    }
    size_t lines = (bytes - done) / line_bytes;
    // Every vector of this run starts at the same byte phase within a pixel.
    size_t phase = done & 3;
    uint8_t *line = s->line;
    bytes32 first, second;
    if (fill) {
        load32(&first, fill->bytes + phase);
        for (size_t k = 0; k < lines; k++, line += line_bytes) stream_line(line, &first, &first);
    } else if (factor == 256) {
        const uint8_t *from = source + done;
        for (size_t k = 0; k < lines; k++, line += line_bytes, from += line_bytes) {
            load32(&first, from);
            load32(&second, from + 32);
            stream_line(line, &first, &second);
        }
    } else {
        const uint8_t *from = source + done;
        bytes32 alpha;
        load32(&alpha, alpha_bytes + phase);
        for (size_t k = 0; k < lines; k++, line += line_bytes, from += line_bytes) {
            load32(&first, from);
            load32(&second, from + 32);
            dim32(&first, (uint16_t)factor, &alpha);
            dim32(&second, (uint16_t)factor, &alpha);
            stream_line(line, &first, &second);
        }
    }
    s->line = line;
    done += lines * line_bytes;
    if (done < bytes) {
        stage(s->staged, source, fill, done, bytes - done, factor);
        s->filled = bytes - done;
    }
}

/// Strip rows [yFrom, yTo) of cells [first, end), all in one grid row, cell by cell.
STREAM_INLINE void stream_band(uint8_t *strip, const filmstrip_strip_geometry *g, const int32_t *destinations,
                               const uint8_t *const *sources, const ptrdiff_t *sourceStrides, int32_t first,
                               int32_t end, long yFrom, long yTo, const fill_pattern patterns[2]) {
    line_stream rows[band_rows];
    strip_run runs[RUNS_PER_ROW(1)];
    for (int32_t cell = first; cell < end; cell++) {
        // Cells past the last thumbnail (the end of a grid) are background: no source.
        const uint8_t *const *cellSource = cell < g->thumbnailCount ? sources + (cell - first) : sources;
        int32_t count = 0;
        for (long y = yFrom, change = yFrom; y < yTo; y++) {
            if (y == change) {
                count = row_runs(g, destinations, cellSource, sourceStrides, cell, 1, y, runs);
                change = next_run_change(g, destinations, cell, 1, y, yTo);
            } else {
                advance_runs(runs, count);
            }
            line_stream *s = &rows[y - yFrom];
            if (cell == first) stream_begin(s, strip + y * g->bytesPerRow + (ptrdiff_t)runs[0].from * 4);
            for (int32_t i = 0; i < count; i++) {
                const strip_run *run = &runs[i];
                stream_run(s, run->source, run->source ? NULL : &patterns[run->dimmed],
                           (size_t)(run->to - run->from) * 4, run->dimmed ? g->factor256 : 256);
            }
        }
    }
    for (long y = yFrom; y < yTo; y++) stream_end(&rows[y - yFrom]);
}

STREAM_INLINE void stream_cells(uint8_t *strip, const filmstrip_strip_geometry *g, const int32_t *destinations,
                                const uint8_t *const *sources, const ptrdiff_t *sourceStrides, int32_t firstCell,
                                int32_t cellCount) {
    fill_pattern patterns[2];
    uint32_t words[2] = {g->background, dim_word(g->background, g->factor256)};
    for (int i = 0; i < 36; i += 4) {
        memcpy(patterns[0].bytes + i, &words[0], 4);
        memcpy(patterns[1].bytes + i, &words[1], 4);
    }
    // One grid row at a time: a band's rows must all run through the same cells.
    for (int32_t first = firstCell, last = firstCell + cellCount; first < last;) {
        int32_t rowEnd = (first / g->gridColumns + 1) * g->gridColumns;
        int32_t end = rowEnd < last ? rowEnd : last;
        long yFrom, yTo;
        batch_rows(g, first, end - first, &yFrom, &yTo);
        for (long y = yFrom; y < yTo; y += band_rows) {
            stream_band(strip, g, destinations, sources + (first - firstCell), sourceStrides, first, end, y,
                        y + band_rows < yTo ? y + band_rows : yTo, patterns);
        }
        first = end;
    }
    // Non-temporal stores are weakly ordered: fence them before the strip is handed on.
#if defined(__x86_64__)
    _mm_sfence();
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

#if defined(__x86_64__)
__attribute__((target("avx2")))
static void stream_cells_avx2(uint8_t *strip, const filmstrip_strip_geometry *g, const int32_t *destinations,
                              const uint8_t *const *sources, const ptrdiff_t *sourceStrides, int32_t firstCell,
                              int32_t cellCount) {
    stream_cells(strip, g, destinations, sources, sourceStrides, firstCell, cellCount);
}
#endif

static void stream_cells_baseline(uint8_t *strip, const filmstrip_strip_geometry *g, const int32_t *destinations,
                                  const uint8_t *const *sources, const ptrdiff_t *sourceStrides, int32_t firstCell,
                                  int32_t cellCount) {
    stream_cells(strip, g, destinations, sources, sourceStrides, firstCell, cellCount);
}

void filmstrip_stream_compose_cells(uint8_t *strip, const filmstrip_strip_geometry *g,
                                    const int32_t *destinations, const uint8_t *const *sources,
                                    const ptrdiff_t *sourceStrides, int32_t firstCell, int32_t cellCount,
                                    int32_t allowAVX2) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (allowAVX2 && __builtin_cpu_supports("avx2")) {
        stream_cells_avx2(strip, g, destinations, sources, sourceStrides, firstCell, cellCount);
        return;
    }
#endif
    stream_cells_baseline(strip, g, destinations, sources, sourceStrides, firstCell, cellCount);
}
