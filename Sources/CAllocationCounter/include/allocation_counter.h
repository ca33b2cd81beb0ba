#ifndef FILMSTRIP_ALLOCATION_COUNTER_H
#define FILMSTRIP_ALLOCATION_COUNTER_H

/// Heap allocations (malloc, calloc, realloc, aligned variants) made by this process so
/// far, by every thread and library: the benchmark's machine-independent work counter.
unsigned long filmstrip_heap_allocations(void);

#endif
