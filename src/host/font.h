/* tumble host: a small built-in bitmap font (ASCII 32..126), so text needs no
 * TTF library and looks the same in a window and in an offscreen screenshot. */
#ifndef TH_HOST_FONT_H
#define TH_HOST_FONT_H

#include <SDL.h>

/* Glyphs are 5x8 pixels (row 7 is the descender) in a 6x10 cell. */
#define TH_FONT_GLYPH_W 5
#define TH_FONT_GLYPH_H 8
#define TH_FONT_ADVANCE 6
#define TH_FONT_LINE 10

/* One texture holding every glyph, white with alpha, for one renderer. */
SDL_Texture *th_font_create_texture(SDL_Renderer *renderer);

/* Draws text with its top-left at (x, y) in pixels; scale is an integer
 * magnification. '\n' starts a new line, tabs advance to a multiple of 4
 * columns and anything outside ASCII 32..126 is drawn as '?'. */
void th_font_draw(SDL_Renderer *renderer, SDL_Texture *font, float x, float y, int scale, const char *text,
                  SDL_Color color);
/* Same, for the first len bytes only. */
void th_font_draw_n(SDL_Renderer *renderer, SDL_Texture *font, float x, float y, int scale, const char *text,
                    int len, SDL_Color color);

/* Size in pixels of the text block (widest line, number of lines). */
void th_font_measure(const char *text, int scale, int *width, int *height);

#endif
