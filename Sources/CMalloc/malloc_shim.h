// glibc's malloc.h (mallopt, M_PERTURB), which Swift's Glibc module leaves out. Its own module so
// that System/ (the heap perturbation) needs nothing of FFmpeg's.
#include <malloc.h>
