// What the measuring tools in scripts/ (probe-cost.c, probe-index-check.c, keyframe-cost.c)
// share: CPU time from one clock, and the median of a set of times. CPU time, not wall time:
// these tools measure what a piece of FFmpeg costs, and on a shared machine the wall clock
// also counts the time a process waited for a core.
#ifndef FILMSTRIP_CPU_CLOCK_H
#define FILMSTRIP_CPU_CLOCK_H
#include <stdlib.h>
#include <time.h>

// Milliseconds of CPU time on `clock` (CLOCK_PROCESS_CPUTIME_ID or CLOCK_THREAD_CPUTIME_ID).
static double cpu_milliseconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int ascending(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// The median of `count` values (count > 0); sorts them in place.
static double median(double *values, int count) {
    qsort(values, count, sizeof *values, ascending);
    return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

#endif
