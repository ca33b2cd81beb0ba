// Refuses to start, with one line and exit 1, when an address-space limit (`ulimit -v`,
// RLIMIT_AS) leaves too little room beyond what loading the executable took.
//
// Why C, and why before main: with a few MB left, the process never reaches its own code.
// Swift's async main hands the first task to libdispatch, whose first worker thread starts
// the dispatch manager thread; when that thread's stack cannot be mapped, libdispatch sleeps
// and retries pthread_create forever (_dispatch_root_queue_poke_slow), so the command hangs
// instead of failing. With a little more room, the first Swift allocation that fails (in
// Foundation's ProcessInfo.environment, measured) traps. Neither can be caught once the
// runtime runs, so the check has to come first: a constructor runs before main and before
// any thread is made.
#include "startup_check.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

// Room the runtime needs to start and read one small video: a few threads' 8 MB stacks
// (dispatch's workers and manager, a decoding thread, FFmpeg's frame threads), the malloc
// arenas they get and a decoder's frames. Measured on the 2-core development machine (debug
// build, 250 MB mapped at start): with 4-24 MB of room every command hung, with 34-54 MB
// `strip`, `thumbnails` and `sprite` hung, trapped or crashed in 5 of 9 runs; from 64 MB on, the
// runs with the quick suite's videos succeeded or named out of memory. The same 64 MB is
// `FFmpegError.headroomBytes` (Swift), by a different measure: the room left after an error, below
// which the error is the process's memory, not the file's. Change them together.
static const long long minimum_room_bytes = 64LL << 20;

static long long room_at_start = -1;

// What glibc reserves in address space for each malloc arena beyond the main one (HEAP_MAX_SIZE
// on 64-bit: twice the largest mmap threshold of 32 MB). Every thread that allocates while the
// others hold their arenas gets one, up to 8 per core: on 2 cores up to 16 of them, 1 GB of
// reservations that use little memory but count against RLIMIT_AS in full.
static const long long arena_reservation_bytes = 64LL << 20;

long long filmstrip_address_space_left_at_start(void) { return room_at_start; }

// The process's mapped size now, from /proc/self/statm (its first field, in pages); -1 when unreadable.
static long long mapped_bytes(void) {
    FILE *statm = fopen("/proc/self/statm", "re");
    if (statm == NULL) return -1;
    unsigned long long pages = 0;
    int fields = fscanf(statm, "%llu", &pages);
    fclose(statm);
    return fields == 1 ? (long long)pages * sysconf(_SC_PAGESIZE) : -1;
}

__attribute__((constructor)) static void filmstrip_check_address_space(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return;
    long long mapped = mapped_bytes();
    if (mapped < 0) return;
    room_at_start = (long long)limit.rlim_cur - mapped;
    if (room_at_start >= minimum_room_bytes) {
        // Under a limit, no more arenas than half the room can hold: with 100-200 MB of room,
        // one (every thread allocates from the main arena, which grows only as it is used).
        // Measured with 180 MB of room on 2 cores (`thumbnails` of a 360p video, 5 runs a
        // limit): glibc's default ended 1 run in 5 with SIGABRT in a Swift allocation and 3
        // with out of memory; one arena, 5 of 5 made their thumbnails, also with 100 MB of room.
        long long arenas = room_at_start / (2 * arena_reservation_bytes);
        mallopt(M_ARENA_MAX, arenas < 1 ? 1 : (int)(arenas > 1024 ? 1024 : arenas));
        return;
    }
    fprintf(stderr,
            "filmstrip: out of memory: the address-space limit (ulimit -v %llu KiB) leaves %lld MB after loading "
            "filmstrip's %lld MB of code and libraries; it needs at least %lld MB more to start (raise the limit)\n",
            (unsigned long long)(limit.rlim_cur / 1024), room_at_start > 0 ? room_at_start >> 20 : 0, mapped >> 20,
            minimum_room_bytes >> 20);
    _exit(1);
}
