#ifndef FILMSTRIP_CKERNELS_H
#define FILMSTRIP_CKERNELS_H
#include <stddef.h>
#include <stdint.h>

/// What the cell kernels need of a strip layout (all sizes in pixels unless named
/// Bytes; colours are R,G,B,A bytes read as one little-endian word).
typedef struct filmstrip_strip_geometry {
    int32_t width, height;
    ptrdiff_t bytesPerRow;
    int32_t cellWidth, cellHeight, gap, gridColumns, thumbnailCount;
    uint32_t background;
    /// Columns [undimmedFromX, undimmedToX) are left as they are; every other column has
    /// R, G, B replaced by (c * factor256 + 128) >> 8, alpha kept.
    int32_t undimmedFromX, undimmedToX, factor256;
} filmstrip_strip_geometry;

/// The most grid cells one call of a cell kernel may be given: the OpenMP kernel keeps the
/// runs of one strip row of them on its stack.
#define FILMSTRIP_MAX_CELLS_PER_CALL 256

/// The cell kernels below share these arguments. Each fills the strip area of grid cells
/// [firstCell, firstCell + cellCount) (each cell with the gap to its right and below):
/// background, the thumbnails' pixels, then dimming. `cellCount` is at most
/// FILMSTRIP_MAX_CELLS_PER_CALL. `destinations` holds x, y, width, height per thumbnail
/// (all of them); `sources[k]` is the pixels of thumbnail firstCell + k (for those below
/// thumbnailCount) and `sourceStrides[i]` the bytes per row of thumbnail i. Nothing is
/// retained.

/// One thread writes the strip in whole 64-byte lines with non-temporal stores wherever a
/// line lies inside one strip row's part of the batch, so the strip is not read first;
/// thumbnails are read one after the other, front to back, in bands of up to 64 rows.
/// Uses AVX2 when `allowAVX2` is non-zero and the CPU has it, else the baseline vectors
/// (SSE2 on x86-64). Ends with a store fence: the strip can be handed to another thread.
void filmstrip_stream_compose_cells(uint8_t *strip, const filmstrip_strip_geometry *geometry,
                                    const int32_t *destinations, const uint8_t *const *sources,
                                    const ptrdiff_t *sourceStrides, int32_t firstCell, int32_t cellCount,
                                    int32_t allowAVX2);
#endif
