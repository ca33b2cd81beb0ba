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
