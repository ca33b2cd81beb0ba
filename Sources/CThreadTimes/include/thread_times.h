#ifndef FILMSTRIP_THREAD_TIMES_H
#define FILMSTRIP_THREAD_TIMES_H

#include <stdint.h>

/// One thread's scheduler times at one instant (`/proc/<pid>/task/<tid>/schedstat`), or at its
/// end for a thread that has ended.
struct filmstrip_thread_sample {
    /// The kernel's thread id.
    int32_t tid;
    /// 1 when the thread was started by `pthread_create` while accounting was on, so
    /// `created_ns` is known and its end is recorded; 0 for a thread started before (the main
    /// thread, pools the runtime started first), whose end cannot be seen.
    int32_t tracked;
    /// CLOCK_MONOTONIC nanoseconds when the kernel first queued the thread (its first instant
    /// less its times so far, read as it starts); before it starts, its `pthread_create` call.
    /// 0 untracked.
    int64_t created_ns;
    /// CLOCK_MONOTONIC nanoseconds when the times below were read (for an ended thread: its end).
    int64_t at_ns;
    /// Nanoseconds on a CPU so far (schedstat's first field).
    int64_t on_cpu_ns;
    /// Nanoseconds runnable but waiting for a CPU so far (schedstat's second field).
    int64_t run_wait_ns;
};

/// From now on, every thread started with `pthread_create` records its times when it ends.
/// Before this call `pthread_create` only passes through to glibc's (the tool's own commands
/// never call it: the `bench-run` child does).
void filmstrip_thread_times_enable(void);

/// Reads every live thread of the process into one of a few fixed snapshot slots (no heap
/// allocation, so a bench phase's allocation count is not moved). Returns the snapshot's ticket,
/// or -1 when `/proc/self/task` cannot be read. A slot is reused 32 snapshots later; a ticket
/// whose slot was reused reads as not taken.
int64_t filmstrip_thread_times_take(void);

/// CLOCK_MONOTONIC nanoseconds when snapshot `ticket` began and ended reading.
int64_t filmstrip_thread_times_began(int64_t ticket);
int64_t filmstrip_thread_times_ended(int64_t ticket);
/// Live threads in snapshot `ticket` (-1 for one not taken, reused, or that overflowed).
int filmstrip_thread_times_count(int64_t ticket);
/// Sample `index` of snapshot `ticket`.
struct filmstrip_thread_sample filmstrip_thread_times_sample(int64_t ticket, int index);

/// The calling thread's kernel id (a sample's `tid`).
int32_t filmstrip_thread_times_current_tid(void);

/// Threads started while accounting was on (ended or not), and 1 when more were started than
/// could be recorded (their ends are then lost).
int filmstrip_thread_times_record_count(void);
int filmstrip_thread_times_overflowed(void);
/// Record `index`: `at_ns` 0 while the thread lives, else its end and its final times.
struct filmstrip_thread_sample filmstrip_thread_times_record(int index);

#endif
