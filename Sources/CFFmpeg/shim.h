// The FFmpeg headers filmstrip uses, plus static inline wrappers for the macros
// that do not import into Swift (AVERROR, AVERROR_EOF, AV_NOPTS_VALUE, ...).
#ifndef FILMSTRIP_CFFMPEG_SHIM_H
#define FILMSTRIP_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavcodec/bsf.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/log.h>
#include <errno.h>

static inline int filmstrip_averror(int posixError) { return AVERROR(posixError); }
static inline int filmstrip_averror_eof(void) { return AVERROR_EOF; }
static inline int filmstrip_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int filmstrip_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int filmstrip_averror_exit(void) { return AVERROR_EXIT; }
static inline int filmstrip_averror_patchwelcome(void) { return AVERROR_PATCHWELCOME; }
static inline int filmstrip_averror_bug(void) { return AVERROR_BUG; }
static inline int filmstrip_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int filmstrip_averror_encoder_not_found(void) { return AVERROR_ENCODER_NOT_FOUND; }
static inline int64_t filmstrip_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int filmstrip_packet_flag_key(void) { return AV_PKT_FLAG_KEY; }
static inline int filmstrip_packet_flag_corrupt(void) { return AV_PKT_FLAG_CORRUPT; }
static inline int filmstrip_packet_flag_discard(void) { return AV_PKT_FLAG_DISCARD; }
static inline int filmstrip_frame_flag_corrupt(void) { return AV_FRAME_FLAG_CORRUPT; }
static inline int filmstrip_parser_flag_complete_frames(void) { return PARSER_FLAG_COMPLETE_FRAMES; }

/// Whether an entry of a stream's packet index is a keyframe (AVIndexEntry.flags is a 2-bit field).
static inline int filmstrip_index_entry_is_keyframe(const AVIndexEntry *entry) { return (entry->flags & AVINDEX_KEYFRAME) != 0; }

/// Plane `index` of a frame; AVFrame.data imports into Swift as an 8-tuple.
static inline uint8_t *filmstrip_frame_plane(const AVFrame *frame, int index) { return frame->data[index]; }
static inline int filmstrip_frame_linesize(const AVFrame *frame, int index) { return frame->linesize[index]; }

/// The display matrix's rotation in degrees (counter-clockwise, as FFmpeg reports it), or NAN when absent.
static inline double filmstrip_stream_rotation(const AVStream *stream) {
    size_t size = 0;
    const uint8_t *matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (matrix == NULL || size < 9 * sizeof(int32_t)) return NAN;
    return av_display_rotation_get((const int32_t *)matrix);
}

/// Attaches a display matrix that makes players turn the picture `degrees` clockwise on display.
/// (The MP4 muxer stores the matrix so that av_display_rotation_set(+d) reads back as -d:
/// checked against the ffmpeg CLI's autorotation.)
static inline int filmstrip_stream_set_rotation(AVStream *stream, double degrees) {
    uint8_t *matrix = av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, 9 * sizeof(int32_t));
    if (matrix == NULL) return AVERROR(ENOMEM);
    av_display_rotation_set((int32_t *)matrix, degrees);
    return 0;
}
#endif
