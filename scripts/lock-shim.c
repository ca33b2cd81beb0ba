// A candidate that lost its parallelism without doing more work, for the gate's lock-ab
// experiment (scripts/gate-experiments.sh): loaded with LD_PRELOAD, it runs every
// avcodec_send_packet and avcodec_receive_frame under one process-wide pthread mutex, as a
// careless lock shared by all decoders would. Each decoder still decodes the same packets
// into the same frames (the CPU time and the work counters stay as they were); what changes
// is that two workers can no longer decode at the same moment, so a strip decoded by several
// workers takes longer to finish. Only the wall-time gate can see that: a thread waiting on
// the mutex sleeps in the kernel (no CPU time) and runs no instructions.
//
// FILMSTRIP_LOCK_OFF=1 loads the shim without taking the lock (the shim's own cost: one
// dlsym per function and one getenv, then a branch per call).
#include "decoder-shim.h"
#include <pthread.h>

static pthread_mutex_t decoder_lock = PTHREAD_MUTEX_INITIALIZER;

static int locking(void) {
    static int enabled = -1;
    if (enabled < 0) {
        const char *text = getenv("FILMSTRIP_LOCK_OFF");
        enabled = !(text && text[0] == '1');
    }
    return enabled;
}

// Calls the wrapped function, under the shared lock unless FILMSTRIP_LOCK_OFF is set.
#define locked(function, context, argument) ({ \
    int shared = locking(); \
    if (shared) pthread_mutex_lock(&decoder_lock); \
    int result = (function)((context), (argument)); \
    if (shared) pthread_mutex_unlock(&decoder_lock); \
    result; })

int avcodec_send_packet(struct AVCodecContext *context, const struct AVPacket *packet) {
    return locked(REAL(send_packet_function, avcodec_send_packet), context, packet);
}

int avcodec_receive_frame(struct AVCodecContext *context, struct AVFrame *frame) {
    return locked(REAL(receive_frame_function, avcodec_receive_frame), context, frame);
}
