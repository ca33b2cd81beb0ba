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
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

struct AVCodecContext;
struct AVPacket;
struct AVFrame;

typedef int (*send_packet_function)(struct AVCodecContext *, const struct AVPacket *);
typedef int (*receive_frame_function)(struct AVCodecContext *, struct AVFrame *);

static pthread_mutex_t decoder_lock = PTHREAD_MUTEX_INITIALIZER;

static int locking(void) {
    static int enabled = -1;
    if (enabled < 0) {
        const char *text = getenv("FILMSTRIP_LOCK_OFF");
        enabled = !(text && text[0] == '1');
    }
    return enabled;
}

int avcodec_send_packet(struct AVCodecContext *context, const struct AVPacket *packet) {
    static send_packet_function real;
    if (!real) real = (send_packet_function)dlsym(RTLD_NEXT, "avcodec_send_packet");
    if (!locking()) return real(context, packet);
    pthread_mutex_lock(&decoder_lock);
    int result = real(context, packet);
    pthread_mutex_unlock(&decoder_lock);
    return result;
}

int avcodec_receive_frame(struct AVCodecContext *context, struct AVFrame *frame) {
    static receive_frame_function real;
    if (!real) real = (receive_frame_function)dlsym(RTLD_NEXT, "avcodec_receive_frame");
    if (!locking()) return real(context, frame);
    pthread_mutex_lock(&decoder_lock);
    int result = real(context, frame);
    pthread_mutex_unlock(&decoder_lock);
    return result;
}
