// Can the probe's packet timeline come from the demuxer's index instead of a read of every
// packet (issue 13, "start decoding while probing")? For each file: the video stream's index
// entries right after avformat_open_input (no packet read), the header's frame count, and how
// many index entries agree with the packet read at the same place (decode time, presentation
// time, key flag, byte position, size); then the CPU milliseconds (median of ROUNDS) of opening
// alone against opening and reading every packet. The timeline needs presentation times: MP4's
// index holds decode times (the composition offsets stay inside the demuxer), so `pts` agrees
// only where no frame is reordered.
//   cc -O2 scripts/probe-index-check.c $(pkg-config --cflags --libs libavformat libavcodec libavutil) -o /tmp/probe-index-check
//   /tmp/probe-index-check ROUNDS FILE...
#include <libavformat/avformat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpu-clock.h"

// Opens `path` and, when `scan`, reads every packet; returns CPU milliseconds, -1 on failure.
static double openCost(const char *path, int scan) {
    double start = cpu_milliseconds(CLOCK_PROCESS_CPUTIME_ID);
    AVFormatContext *format = NULL;
    if (avformat_open_input(&format, path, NULL, NULL) < 0) return -1;
    if (scan) {
        AVPacket *packet = av_packet_alloc();
        while (av_read_frame(format, packet) >= 0) av_packet_unref(packet);
        av_packet_free(&packet);
    }
    avformat_close_input(&format);
    return cpu_milliseconds(CLOCK_PROCESS_CPUTIME_ID) - start;
}

int main(int argc, char **argv) {
    if (argc < 3) return fprintf(stderr, "usage: %s ROUNDS FILE...\n", argv[0]), 64;
    int rounds = atoi(argv[1]);
    av_log_set_level(AV_LOG_QUIET);
    printf("%-44s %-8s %6s %6s %6s %6s %6s %6s %6s %6s %8s %8s\n", "file", "demuxer", "frames", "index", "packets",
           "dts=", "pts=", "key=", "pos=", "size=", "open ms", "scan ms");
    for (int file = 2; file < argc; file++) {
        const char *name = strrchr(argv[file], '/') ? strrchr(argv[file], '/') + 1 : argv[file];
        AVFormatContext *format = NULL;
        int stream = -1;
        if (avformat_open_input(&format, argv[file], NULL, NULL) < 0
            || (stream = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0)) < 0) {
            printf("%-44s no video stream without analysis\n", name);
            if (format) avformat_close_input(&format);
            continue;
        }
        AVStream *video = format->streams[stream];
        // Read the index before any packet: reading may add entries (Matroska, MPEG-TS do).
        int entries = avformat_index_get_entries_count(video);
        AVIndexEntry *index = calloc(entries + 1, sizeof *index);
        for (int i = 0; i < entries; i++) index[i] = *avformat_index_get_entry(video, i);
        int packets = 0, dts = 0, pts = 0, key = 0, pos = 0, size = 0;
        AVPacket *packet = av_packet_alloc();
        while (av_read_frame(format, packet) >= 0) {
            if (packet->stream_index == stream) {
                if (packets < entries) {
                    const AVIndexEntry *entry = &index[packets];
                    dts += entry->timestamp == packet->dts;
                    pts += entry->timestamp == packet->pts;
                    key += !!(entry->flags & AVINDEX_KEYFRAME) == !!(packet->flags & AV_PKT_FLAG_KEY);
                    pos += entry->pos == packet->pos;
                    size += entry->size == packet->size;
                }
                packets++;
            }
            av_packet_unref(packet);
        }
        av_packet_free(&packet);
        free(index);
        const char *demuxer = format->iformat->name;
        long long frames = video->nb_frames;
        avformat_close_input(&format);
        double opened[rounds], scanned[rounds];
        for (int round = 0; round < rounds; round++) {
            opened[round] = openCost(argv[file], 0);
            scanned[round] = openCost(argv[file], 1);
        }
        printf("%-44s %-8.8s %6lld %6d %6d %6d %6d %6d %6d %6d %8.2f %8.2f\n", name, demuxer, frames, entries, packets,
               dts, pts, key, pos, size, median(opened, rounds), median(scanned, rounds));
    }
    return 0;
}
