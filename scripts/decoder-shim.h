// What the LD_PRELOAD shims of the gate experiments share (scripts/slowdown-shim.c,
// scripts/lock-shim.c): FFmpeg's two decoding calls declared without FFmpeg's headers (a shim
// only passes the pointers on), and REAL, which finds the library's own function behind the
// shim once and keeps it.
#ifndef FILMSTRIP_DECODER_SHIM_H
#define FILMSTRIP_DECODER_SHIM_H
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>

struct AVCodecContext;
struct AVPacket;
struct AVFrame;

typedef int (*send_packet_function)(struct AVCodecContext *, const struct AVPacket *);
typedef int (*receive_frame_function)(struct AVCodecContext *, struct AVFrame *);

// REAL(send_packet_function, avcodec_send_packet): the next definition of the name after
// this shim's, looked up on the first call (a static per wrapper).
#define REAL(type, name) ({ \
    static type real; \
    if (!real) real = (type)dlsym(RTLD_NEXT, #name); \
    real; })

#endif
