// A candidate made slower without changing its code, for the gate's A/B' experiment
// (scripts/gate-error-rates.sh): loaded with LD_PRELOAD, it wraps FFmpeg's
// avcodec_send_packet and avcodec_receive_frame and, after each call, busy-waits for
// FILMSTRIP_SLOWDOWN (a fraction, e.g. 0.10) of the CPU time the call took. Decoding then
// costs that fraction more, whatever the machine's speed, the way slower code would.
// The thread's CPU clock, not the wall clock: on a loaded machine a call's wall time
// includes the time it waited for a core, and spinning for a fraction of that made
// decoding a third slower instead of a tenth (measured). Busy-waiting, not sleeping,
// so the extra time is work, in CPU time and wall time alike.
//
// Two fixed costs per avcodec_send_packet call, for the gate issue's experiments:
// FILMSTRIP_SHIM_LOOP=N runs a loop of exactly N iterations (a deterministic number of
// instructions: the instruction gate's A/B), FILMSTRIP_SHIM_SPIN_US=U busy-waits U
// microseconds of the thread's CPU time (the "2x slower extraction" candidate).
#include "decoder-shim.h"
#include <time.h>

static double slowdown(void) {
    static double fraction = -1;
    if (fraction < 0) {
        const char *text = getenv("FILMSTRIP_SLOWDOWN");
        fraction = text ? atof(text) : 0;
        if (fraction < 0) fraction = 0;
    }
    return fraction;
}

static double now(void) {
    struct timespec time;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time);
    return (double)time.tv_sec + (double)time.tv_nsec * 1e-9;
}

static void spin_for(double seconds) {
    double end = now() + seconds;
    while (now() < end) {
    }
}

static long setting(const char *name) {
    const char *text = getenv(name);
    long value = text ? atol(text) : 0;
    return value > 0 ? value : 0;
}

// Calls a wrapped function and spins for FILMSTRIP_SLOWDOWN of its CPU time. Without a
// slowdown it reads no clock: CLOCK_THREAD_CPUTIME_ID is a system call, and two or three per
// decoded frame cost 5-15 % of a 10-thumbnail run, which made the "+10 % in one configuration"
// candidate slower in every configuration (measured: hevc ×10 +10.5 %, h264 ×10 +14.6 %).
#define timed(function, context, argument) ({ \
    double fraction = slowdown(), start = fraction > 0 ? now() : 0; \
    int result = (function)((context), (argument)); \
    if (fraction > 0) spin_for((now() - start) * fraction); \
    result; })

int avcodec_send_packet(struct AVCodecContext *context, const struct AVPacket *packet) {
    static long loop = -1, spin_microseconds = -1;
    if (loop < 0) {
        loop = setting("FILMSTRIP_SHIM_LOOP");
        spin_microseconds = setting("FILMSTRIP_SHIM_SPIN_US");
    }
    // volatile: the compiler may not drop or shorten the loop, so its instructions are exact.
    for (volatile long index = 0; index < loop; index++) {
    }
    if (spin_microseconds > 0) spin_for((double)spin_microseconds * 1e-6);
    return timed(REAL(send_packet_function, avcodec_send_packet), context, packet);
}

int avcodec_receive_frame(struct AVCodecContext *context, struct AVFrame *frame) {
    return timed(REAL(receive_frame_function, avcodec_receive_frame), context, frame);
}
