/* tumble host: the level's text (gfx.text, gfx.screen_text, gfx.font,
 * gfx.text_size) through SDL2_ttf, in the bundled DejaVu Sans
 * (lua/fonts/DejaVuSans.ttf) or a font file of the level's. Any size is
 * rendered at that size (crisp, never a scaled bitmap), and text is UTF-8.
 *
 * Built with -DTH_NO_TTF (the browser build, whose SDL2_ttf port would need
 * a download), text falls back to font.h's bitmap font: the same functions,
 * sizes rounded to that font's integer scales, ASCII only. */
#ifndef TH_HOST_TEXT_H
#define TH_HOST_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <SDL.h>
#include <lua.h>

struct th_level;
struct th_target;
struct th_media;

#define TH_FONT_MT "tumble.Font"
/* The default font's size in pixels: gfx.text's scale 1. */
#define TH_TEXT_DEFAULT_SIZE 10
/* Font sizes a level may ask for, and the largest size text is drawn at
 * (a font's size times gfx.text's scale times the transform's scale). */
#define TH_TEXT_MAX_SIZE 256
#define TH_TEXT_MAX_DRAW_SIZE 512

/* The fonts of a run: the bundled face's bytes and the faces opened at the
 * sizes drawn lately. One per run, beside th_media. */
typedef struct th_fonts th_fonts;

/* Reads the bundled font from root/lua/fonts (before the sandbox locks the
 * process) and starts SDL2_ttf. Never fails: without the file or the library
 * text uses the bitmap font. */
th_fonts *th_text_open(const char *root);
void th_text_close(th_fonts *f);

/* gfx.font, gfx.set_font, gfx.text_size and the Font type into the gfx table
 * on top of the stack; the current font goes back to the default. */
void th_text_open_lua(struct th_level *lv, lua_State *L);

/* tumble._host_introspect's font = {properties, methods} into the table on top. */
void th_text_describe(lua_State *L);

/* The current font of the level (the default when none was set). */
typedef struct th_text_font {
	th_fonts *fonts;
	uint64_t face;       /* which face: 0 the bundled one */
	const unsigned char *data;
	size_t size;
	int px;              /* size in pixels at scale 1 */
} th_text_font;

/* The level's current font (gfx.set_font), for drawing and measuring. */
bool th_text_current(struct th_level *lv, lua_State *L, th_text_font *out);
/* Size in pixels of text at px pixels: the widest line and lines times the
 * line height. */
void th_text_measure(const th_text_font *font, int px, const char *text, size_t len, int *w, int *h);
/* Draws text with its top-left at (x, y) in the target's pixels. */
void th_text_draw(const th_text_font *font, struct th_target *t, int px, float x, float y, const char *text,
                  size_t len, SDL_Color color, SDL_BlendMode blend);

#endif
