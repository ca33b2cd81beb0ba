// What one keyframe costs in keyframe mode (issue 13): each thumbnail is one intra-coded
// picture decoded alone (the packet, end of stream, the frame, a decoder flush), as
// `TargetDecoder` does with `skip_frame` set to non-keyframes. Prints the opening and decoder
// set-up, then per keyframe its size and CPU milliseconds of this single thread, and the
// median: the floor under a keyframe strip's decoding, whatever the tool.
//   cc -O2 scripts/keyframe-cost.c $(pkg-config --cflags --libs libavformat libavcodec libavutil) -o /tmp/keyframe-cost
//   /tmp/keyframe-cost FILE [KEYFRAMES]
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <stdio.h>
#include <stdlib.h>
#include "cpu-clock.h"

// This thread's CPU milliseconds: the decoding runs on it alone (one decoder thread).
static double milliseconds(void) { return cpu_milliseconds(CLOCK_THREAD_CPUTIME_ID); }

int main(int argc, char **argv) {
    if (argc < 2) return fprintf(stderr, "usage: %s FILE [KEYFRAMES]\n", argv[0]), 64;
    int wanted = argc > 2 ? atoi(argv[2]) : 20;
    if (wanted < 1 || wanted > 10000) return fprintf(stderr, "KEYFRAMES must be 1-10000\n"), 64;
    double start = milliseconds();
    AVFormatContext *format = NULL;
    if (avformat_open_input(&format, argv[1], NULL, NULL) < 0) return fprintf(stderr, "%s: cannot open\n", argv[1]), 1;
    double opened = milliseconds();
    int stream = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    if (stream < 0) return fprintf(stderr, "%s: no video stream\n", argv[1]), 1;
    const AVCodec *codec = avcodec_find_decoder(format->streams[stream]->codecpar->codec_id);
    AVCodecContext *context = codec ? avcodec_alloc_context3(codec) : NULL;
    if (!context) return fprintf(stderr, "%s: no decoder\n", argv[1]), 1;
    avcodec_parameters_to_context(context, format->streams[stream]->codecpar);
    context->thread_count = 1;
    context->skip_frame = AVDISCARD_NONKEY;
    if (avcodec_open2(context, codec, NULL) < 0) return fprintf(stderr, "%s: decoder does not open\n", argv[1]), 1;
    printf("open %.2f ms, decoder set-up %.2f ms\n", opened - start, milliseconds() - opened);
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    double *costs = calloc(wanted, sizeof *costs);
    int decoded = 0;
    while (decoded < wanted && av_read_frame(format, packet) >= 0) {
        if (packet->stream_index != stream || !(packet->flags & AV_PKT_FLAG_KEY)) {
            av_packet_unref(packet);
            continue;
        }
        int size = packet->size, frames = 0;
        double before = milliseconds();
        avcodec_send_packet(context, packet);
        avcodec_send_packet(context, NULL);
        while (avcodec_receive_frame(context, frame) == 0) {
            frames++;
            av_frame_unref(frame);
        }
        avcodec_flush_buffers(context);
        costs[decoded] = milliseconds() - before;
        printf("keyframe %d: %d bytes, %d frame(s), %.2f ms\n", decoded, size, frames, costs[decoded]);
        decoded++;
        av_packet_unref(packet);
    }
    if (decoded > 0) {
        printf("median of %d keyframes: %.2f ms (%dx%d)\n", decoded, median(costs, decoded), context->width, context->height);
    }
    free(costs);
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&context);
    avformat_close_input(&format);
    return 0;
}
