#ifndef FILMSTRIP_CKERNELS_H
#define FILMSTRIP_CKERNELS_H
#include <stddef.h>
#include <stdint.h>

/// Number of threads libomp would use for a parallel region by default.
int filmstrip_openmp_max_threads(void);

/// Copies `rowCount` rows of `rowBytes` bytes from `source` to `destination`,
/// rows spread over `threads` OpenMP threads (0 = libomp's default).
void filmstrip_openmp_copy_rows(uint8_t *destination, ptrdiff_t destinationStride,
                                const uint8_t *source, ptrdiff_t sourceStride,
                                size_t rowBytes, size_t rowCount, int threads);
#endif
