// Where the time before the first decoded frame goes, per file (issue 13, "start decoding
// while probing"): opening (header), avformat_find_stream_info (which decodes a few frames),
// and the first decoded frame after each, with and without stream analysis, and a read of
// every packet without analysis (what the probe's packet scan costs). Median of ROUNDS, in
// CPU milliseconds of this single-threaded process (steadier than wall time on a loaded machine).
//   cc -O2 scripts/probe-cost.c $(pkg-config --cflags --libs libavformat libavcodec libavutil) -o /tmp/probe-cost
//   /tmp/probe-cost ROUNDS FILE...
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpu-clock.h"

// Seconds of this process's CPU time.
static double now(void) { return cpu_milliseconds(CLOCK_PROCESS_CPUTIME_ID) / 1e3; }

// Opens `path`, optionally analyses it, and decodes up to the first frame of the best video
// stream. Fills open, analysis and first-frame times (seconds since the start); -1 on failure.
static int measure(const char *path, int analyse, double out[3]) {
    double start = now();
    AVFormatContext *format = NULL;
    if (avformat_open_input(&format, path, NULL, NULL) < 0) return -1;
    out[0] = now() - start;
    if (analyse && avformat_find_stream_info(format, NULL) < 0) return -1;
    out[1] = now() - start;
    int stream = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    if (stream < 0) return -1;
    const AVCodec *codec = avcodec_find_decoder(format->streams[stream]->codecpar->codec_id);
    AVCodecContext *context = avcodec_alloc_context3(codec);
    avcodec_parameters_to_context(context, format->streams[stream]->codecpar);
    context->thread_count = 1;
    if (avcodec_open2(context, codec, NULL) < 0) return -1;
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    int got = 0;
    while (!got && av_read_frame(format, packet) >= 0) {
        if (packet->stream_index == stream && avcodec_send_packet(context, packet) >= 0)
            got = avcodec_receive_frame(context, frame) == 0;
        av_packet_unref(packet);
    }
    if (!got) {  // drain: decoders with a delay give the first frame only now
        avcodec_send_packet(context, NULL);
        got = avcodec_receive_frame(context, frame) == 0;
    }
    out[2] = got ? now() - start : -1;
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&context);
    avformat_close_input(&format);
    return got ? 0 : -1;
}

// CPU seconds to open `path` without analysis and read every packet.
static double scan(const char *path) {
    double start = now();
    AVFormatContext *format = NULL;
    if (avformat_open_input(&format, path, NULL, NULL) < 0) return -1;
    AVPacket *packet = av_packet_alloc();
    while (av_read_frame(format, packet) >= 0) av_packet_unref(packet);
    av_packet_free(&packet);
    avformat_close_input(&format);
    return now() - start;
}

int main(int argc, char **argv) {
    if (argc < 3) return fprintf(stderr, "usage: %s ROUNDS FILE...\n", argv[0]), 64;
    int rounds = atoi(argv[1]);
    av_log_set_level(AV_LOG_QUIET);
    printf("%-48s %9s %9s %11s %11s %9s\n", "file (CPU ms)", "open", "analyse", "1st frame", "unanalysed", "scan");
    for (int file = 2; file < argc; file++) {
        double open[rounds], analysis[rounds], first[rounds], bare[rounds], scanned[rounds], times[3];
        int ok = 1;
        for (int round = 0; round < rounds && ok; round++) {
            ok = measure(argv[file], 1, times) == 0;
            open[round] = times[0] * 1e3, analysis[round] = (times[1] - times[0]) * 1e3, first[round] = times[2] * 1e3;
            ok = ok && measure(argv[file], 0, times) == 0;
            bare[round] = times[2] * 1e3;
            scanned[round] = scan(argv[file]) * 1e3;
        }
        const char *name = strrchr(argv[file], '/') ? strrchr(argv[file], '/') + 1 : argv[file];
        if (!ok) { printf("%-48s failed\n", name); continue; }
        printf("%-48s %9.2f %9.2f %11.2f %11.2f %9.2f\n", name, median(open, rounds), median(analysis, rounds),
               median(first, rounds), median(bare, rounds), median(scanned, rounds));
    }
    return 0;
}
