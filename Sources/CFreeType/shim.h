// FreeType 2 for the text of contact sheets (tile times, the header), plus static inline
// wrappers for what is a macro in its headers and so does not import into Swift.
#ifndef FILMSTRIP_CFREETYPE_SHIM_H
#define FILMSTRIP_CFREETYPE_SHIM_H

#include <ft2build.h>
#include FT_FREETYPE_H

// Load a glyph and render it to an 8-bit coverage bitmap (antialiased, hinted by FreeType's own autohinter or the font's).
static inline FT_Int32 filmstrip_ft_load_render(void) { return FT_LOAD_RENDER | FT_LOAD_TARGET_NORMAL; }

static inline int filmstrip_ft_has_kerning(FT_Face face) { return FT_HAS_KERNING(face) ? 1 : 0; }
#endif
