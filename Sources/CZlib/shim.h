// zlib for the streaming PNG writer, plus a static inline wrapper for deflateInit2,
// a macro (it passes the header's version and sizeof(z_stream)) that does not import into Swift.
#ifndef FILMSTRIP_CZLIB_SHIM_H
#define FILMSTRIP_CZLIB_SHIM_H

#include <zlib.h>

static inline int filmstrip_deflate_init2(z_streamp stream, int level, int windowBits, int memLevel, int strategy) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, strategy);
}
#endif
