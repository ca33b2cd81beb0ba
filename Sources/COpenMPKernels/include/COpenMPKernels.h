#ifndef FILMSTRIP_COPENMPKERNELS_H
#define FILMSTRIP_COPENMPKERNELS_H
// The OpenMP kernels: built with -fopenmp and linked with libomp, which needs unsafe build
// flags, so they live outside the `Filmstrip` library product (a package depending on it by
// version must not see unsafe flags). Shares the cell-kernel arguments of CKernels.h.
#include "CKernels.h"

/// Number of threads libomp would use for a parallel region by default.
int filmstrip_openmp_max_threads(void);

/// Starts libomp (its settings, a team of `threads` threads, 0 = the default) with an empty region.
void filmstrip_openmp_start_runtime(int threads);

/// Rows spread over `threads` OpenMP threads (0 = libomp's default).
void filmstrip_openmp_compose_cells(uint8_t *strip, const filmstrip_strip_geometry *geometry,
                                    const int32_t *destinations, const uint8_t *const *sources,
                                    const ptrdiff_t *sourceStrides, int32_t firstCell, int32_t cellCount,
                                    int threads);

#endif
