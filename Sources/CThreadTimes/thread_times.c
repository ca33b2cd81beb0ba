// Per-thread scheduler times of a bench-run child, threads that end before the child does
// included: how long each thread ran, waited for a CPU and was blocked (docs/gate.md, "Waiting").
//
// Linux keeps a thread's on-CPU and run-queue times in /proc/<pid>/task/<tid>/schedstat while the
// thread lives; when it ends they are gone (getrusage keeps the process's CPU time, not its wait
// for a CPU, and taskstats, which keeps both, needs CAP_NET_ADMIN). Decoding workers and FFmpeg's
// codec threads end inside the phase they work in, so the child records every thread's times at
// its end: pthread_create is replaced in the executable, as CAllocationCounter replaces malloc
// (definitions in the executable come before a shared library's for every library's calls, and
// the runtime linked in statically binds to it at link time), and the thread it starts runs its
// routine, then reads its own /proc/thread-self/schedstat. Nothing here allocates: records and
// snapshots are fixed tables, so a phase's heap-allocation count does not move.
#define _GNU_SOURCE
#include "thread_times.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

// Records: a bench-run child starts about ten threads; a test process that turns accounting on
// early may start thousands more (the table is zero pages until written). Snapshots: a child
// holds at most about a dozen at once (an interactive session's steps); older slots are reused.
enum { record_capacity = 65536, slot_count = 32, live_capacity = 256 };

struct record {
    void *(*routine)(void *);
    void *argument;
    _Atomic int64_t created_ns;
    _Atomic int32_t tid;
    int64_t on_cpu_ns;
    int64_t run_wait_ns;
    _Atomic int64_t ended_ns;
};

static struct record records[record_capacity];
static atomic_int records_started;
static atomic_int overflowed;
static atomic_int enabled;

static struct filmstrip_thread_sample snapshots[slot_count][live_capacity];
static int snapshot_counts[slot_count];
static int64_t snapshot_began[slot_count], snapshot_ended[slot_count];
// The ticket each slot holds (-1 while it is written), so a reading of a reused slot is refused.
static _Atomic int64_t snapshot_tickets[slot_count];
static _Atomic int64_t tickets_issued;

static int64_t now_ns(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (int64_t)time.tv_sec * 1000000000 + time.tv_nsec;
}

// The first two numbers of a schedstat file: on-CPU and run-queue nanoseconds. 0 when unreadable
// (the thread ended between listing and reading).
static int read_schedstat(const char *path, int64_t *on_cpu, int64_t *run_wait) {
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return 0;
    char text[128];
    ssize_t count = read(descriptor, text, sizeof text - 1);
    close(descriptor);
    if (count <= 0) return 0;
    int64_t values[2] = {0, 0};
    int field = 0;
    for (ssize_t index = 0; index < count && field < 2; index++) {
        char character = text[index];
        if (character >= '0' && character <= '9') {
            values[field] = values[field] * 10 + (character - '0');
        } else if (character == ' ') {
            field++;
        }
    }
    *on_cpu = values[0];
    *run_wait = values[1];
    return 1;
}

// A schedstat file's times and the CLOCK_MONOTONIC instant they belong to: the midpoint of a
// clock read before and one after, the read repeated (up to 8 times) while those lie more than
// 20 µs apart. A thread preempted between the read and its clock waits on the run queue for
// tens of ms under load, and that wait, in neither reading, would count as blocked time (the
// first version read the clock after: 30-40 ms of "blocked" in 2 of 18 runs of an A/A at a
// load of 12, with no more voluntary switches than the others).
static int read_schedstat_at(const char *path, int64_t *on_cpu, int64_t *run_wait, int64_t *at) {
    for (int attempt = 0; attempt < 8; attempt++) {
        int64_t before = now_ns();
        if (!read_schedstat(path, on_cpu, run_wait)) return 0;
        int64_t after = now_ns();
        *at = before + (after - before) / 2;
        if (after - before <= 20000) break;
    }
    return 1;
}

static void record_end(void *opaque) {
    struct record *record = opaque;
    int64_t at = now_ns();
    read_schedstat_at("/proc/thread-self/schedstat", &record->on_cpu_ns, &record->run_wait_ns, &at);
    atomic_store_explicit(&record->ended_ns, at, memory_order_release);
}

static void *accounted_start(void *opaque) {
    struct record *record = opaque;
    // The thread's life starts when the kernel queued it, not at the pthread_create call: a
    // creator that waits for a core inside pthread_create (before clone) would otherwise lend the
    // new thread its wait as blocked time (under a load of 10 on 2 cores, 50-200 ms in 1 run of 5).
    // Its own times so far are that first wait for a CPU and these few instructions.
    int64_t on_cpu = 0, run_wait = 0, at = now_ns();
    read_schedstat_at("/proc/thread-self/schedstat", &on_cpu, &run_wait, &at);
    atomic_store_explicit(&record->created_ns, at - on_cpu - run_wait, memory_order_relaxed);
    atomic_store_explicit(&record->tid, (int32_t)gettid(), memory_order_release);
    void *result;
    // A cleanup handler, so a thread that calls pthread_exit records its end too.
    pthread_cleanup_push(record_end, record);
    result = record->routine(record->argument);
    pthread_cleanup_pop(1);
    return result;
}

typedef int (*create_function)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

int pthread_create(pthread_t *thread, const pthread_attr_t *attributes, void *(*routine)(void *), void *argument) {
    static create_function real;
    if (!real) real = (create_function)dlsym(RTLD_NEXT, "pthread_create");
    if (!atomic_load_explicit(&enabled, memory_order_relaxed)) return real(thread, attributes, routine, argument);
    int index = atomic_fetch_add(&records_started, 1);
    if (index >= record_capacity) {
        atomic_store(&overflowed, 1);
        return real(thread, attributes, routine, argument);
    }
    struct record *record = &records[index];
    record->routine = routine;
    record->argument = argument;
    // Until the thread runs (and sets its tid), a snapshot that meets it takes this instant.
    int64_t asked = now_ns();
    atomic_store_explicit(&record->created_ns, asked, memory_order_relaxed);
    int result = real(thread, attributes, accounted_start, record);
    // A thread that never started never ends: its record reads as ended at once, with no time.
    if (result != 0) atomic_store_explicit(&record->ended_ns, asked, memory_order_release);
    return result;
}

void filmstrip_thread_times_enable(void) { atomic_store(&enabled, 1); }

static int records_in_use(void) {
    int started = atomic_load(&records_started);
    return started < record_capacity ? started : record_capacity;
}

// The record of live thread `tid`, or of a thread started but not yet running its routine (its
// tid not yet set): the first such one not given to another thread of this snapshot.
static struct record *record_of(int32_t tid, int *pending_from) {
    int count = records_in_use();
    for (int index = 0; index < count; index++) {
        if (atomic_load_explicit(&records[index].tid, memory_order_acquire) == tid
            && atomic_load_explicit(&records[index].ended_ns, memory_order_acquire) == 0) return &records[index];
    }
    for (int index = *pending_from; index < count; index++) {
        if (atomic_load_explicit(&records[index].tid, memory_order_acquire) == 0
            && atomic_load_explicit(&records[index].ended_ns, memory_order_acquire) == 0) {
            *pending_from = index + 1;
            return &records[index];
        }
    }
    return 0;
}

static int parse_tid(const char *name) {
    int value = 0;
    for (; *name; name++) {
        if (*name < '0' || *name > '9') return -1;
        value = value * 10 + (*name - '0');
    }
    return value;
}

int64_t filmstrip_thread_times_take(void) {
    int64_t ticket = atomic_fetch_add(&tickets_issued, 1);
    int slot = (int)(ticket % slot_count);
    atomic_store(&snapshot_tickets[slot], -1);
    snapshot_counts[slot] = -1;
    snapshot_began[slot] = now_ns();
    int folder = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder < 0) return -1;
    int count = 0, pending_from = 0, complete = 1;
    char entries[4096];
    ssize_t length;
    while ((length = getdents64(folder, entries, sizeof entries)) > 0) {
        for (ssize_t offset = 0; offset < length;) {
            struct dirent64 *entry = (struct dirent64 *)(entries + offset);
            offset += entry->d_reclen;
            int tid = parse_tid(entry->d_name);
            if (tid <= 0) continue;
            if (count == live_capacity) { complete = 0; break; }
            char path[64] = "/proc/self/task/";
            int at = 16;
            char digits[12];
            int digit_count = 0;
            for (int rest = tid; rest > 0; rest /= 10) digits[digit_count++] = (char)('0' + rest % 10);
            while (digit_count > 0) path[at++] = digits[--digit_count];
            const char *tail = "/schedstat";
            while (*tail) path[at++] = *tail++;
            path[at] = 0;
            struct filmstrip_thread_sample *sample = &snapshots[slot][count];
            if (!read_schedstat_at(path, &sample->on_cpu_ns, &sample->run_wait_ns, &sample->at_ns)) continue;
            sample->tid = tid;
            struct record *record = record_of(tid, &pending_from);
            sample->tracked = record != 0;
            sample->created_ns = record ? atomic_load_explicit(&record->created_ns, memory_order_relaxed) : 0;
            count++;
        }
    }
    close(folder);
    if (length < 0) complete = 0;
    snapshot_ended[slot] = now_ns();
    snapshot_counts[slot] = complete ? count : -1;
    atomic_store(&snapshot_tickets[slot], ticket);
    return ticket;
}

// The slot of `ticket`, or -1 when it was never issued or its slot has been reused since.
static int slot_of(int64_t ticket) {
    if (ticket < 0) return -1;
    int slot = (int)(ticket % slot_count);
    return atomic_load(&snapshot_tickets[slot]) == ticket ? slot : -1;
}

int64_t filmstrip_thread_times_began(int64_t ticket) { int slot = slot_of(ticket); return slot < 0 ? 0 : snapshot_began[slot]; }
int64_t filmstrip_thread_times_ended(int64_t ticket) { int slot = slot_of(ticket); return slot < 0 ? 0 : snapshot_ended[slot]; }
int filmstrip_thread_times_count(int64_t ticket) { int slot = slot_of(ticket); return slot < 0 ? -1 : snapshot_counts[slot]; }

struct filmstrip_thread_sample filmstrip_thread_times_sample(int64_t ticket, int index) {
    struct filmstrip_thread_sample empty = {0};
    int slot = slot_of(ticket);
    if (slot < 0 || index < 0 || index >= snapshot_counts[slot]) return empty;
    return snapshots[slot][index];
}

int32_t filmstrip_thread_times_current_tid(void) { return (int32_t)gettid(); }

int filmstrip_thread_times_record_count(void) { return records_in_use(); }
int filmstrip_thread_times_overflowed(void) { return atomic_load(&overflowed); }

struct filmstrip_thread_sample filmstrip_thread_times_record(int index) {
    struct filmstrip_thread_sample sample = {0};
    if (index < 0 || index >= records_in_use()) return sample;
    struct record *record = &records[index];
    sample.tid = atomic_load_explicit(&record->tid, memory_order_acquire);
    sample.tracked = 1;
    sample.created_ns = atomic_load_explicit(&record->created_ns, memory_order_relaxed);
    sample.at_ns = atomic_load_explicit(&record->ended_ns, memory_order_acquire);
    if (sample.at_ns != 0) {
        sample.on_cpu_ns = record->on_cpu_ns;
        sample.run_wait_ns = record->run_wait_ns;
    }
    return sample;
}
