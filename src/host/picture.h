/* tumble host: what image.c shares with the pictures made by drawing
 * (canvas.c: Canvas, SpriteBatch, Particles): the Image record, the options
 * of a draw and the drawing of one. */
#ifndef TH_HOST_PICTURE_H
#define TH_HOST_PICTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <SDL.h>
#include <lua.h>

#include "media.h"
#include "render.h"

typedef struct th_image {
	th_media *media;        /* for the memory budget; outlives every Lua state */
	SDL_Surface *surface;   /* RGBA32; NULL once collected */
	char *path;             /* resolved */
	char *name;             /* as the level gave it */
	th_file_stamp stamp;
	uint64_t key;           /* texture cache key of the current picture */
	uint64_t version;       /* a canvas's drawing count (0 for a picture from a file) */
	int frame_w, frame_h;   /* sprite sheet cell; the whole image when not a sheet */
	int cols, frame_count;
	double ppm;             /* pixels per metre for the default size */
	bool nearest;           /* filter */
	int reloads;
} th_image;

typedef struct draw_spec {
	double x, y, angle;      /* world position of the origin, radians ccw */
	double w, h;             /* metres; <= 0: from the frame size and ppm */
	double sx, sy;           /* scale (negative flips) */
	double ox, oy;           /* origin in the frame, 0..1 from the left and the bottom */
	int frame;               /* 1-based; 0 = whole image / first frame */
	bool has_rect;
	SDL_Rect rect;           /* explicit sub-rectangle in pixels */
	SDL_Color tint;
} draw_spec;

/* The Image (or a Canvas's picture) at arg; raises otherwise. */
th_image *th_image_check(lua_State *L, int arg);
/* A Canvas's picture at arg, or NULL (canvas.c). */
th_image *th_canvas_image(lua_State *L, int arg);
/* gfx.draw's options. */
extern const char *const th_image_draw_names[];
void th_image_default_spec(draw_spec *d);
/* Reads the draw options of table t into d; strict: raise on a bad value. */
bool th_image_read_spec(lua_State *L, int t, th_image *img, draw_spec *d, bool strict);
/* The corners of a draw in the level's coordinates, with its texture
 * coordinates and tint. */
void th_image_spec_quad(const th_image *img, const draw_spec *d, th_quad *q);
/* Draws img by d into t, through the level's transform inside its draw. */
void th_image_draw(const th_render *r, th_target *t, th_image *img, const draw_spec *d);

#endif
