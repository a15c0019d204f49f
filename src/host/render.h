/* tumble host: drawing. Targets (a window's renderer or an offscreen
 * surface, each with the textures made for it), the debug draw of a world
 * (shapes, joints, contacts, AABBs, centres of mass) interpolated between the
 * last two fixed steps, and the primitives the level's gfx, the sprites and
 * the overlay draw with. Render only draws: it knows the engine's public
 * header and SDL, and calls nothing of the level, the overlay, the images or
 * the loop. */
#ifndef TH_HOST_RENDER_H
#define TH_HOST_RENDER_H

#include <stdbool.h>
#include <SDL.h>

#include "tumble/physics.h"
#include "camera.h"

typedef struct th_target {
	SDL_Renderer *renderer;
	SDL_Texture *font;
	int width, height;
	/* pixels along the bottom that the host's panels take (the timeline, the
	 * error panel): the world is drawn fitted into the rest, so none of it
	 * is under them */
	int inset;
	struct th_texture_cache *textures; /* textures of the pictures drawn into it (th_target_texture) */
} th_target;

/* The screen row of the camera's centre, and how much the world is scaled
 * to fit above the inset. */
static inline double th_target_center_y(const th_target *t)
{
	return 0.5 * (double)(t->height - t->inset);
}
static inline double th_target_fit(const th_target *t)
{
	return t->inset > 0 && t->inset < t->height ? (double)(t->height - t->inset) / (double)t->height : 1.0;
}

enum { TH_LAYER_SHAPES, TH_LAYER_JOINTS, TH_LAYER_CONTACTS, TH_LAYER_AABBS, TH_LAYER_MASS, TH_LAYER_COUNT };

/* A body's transform before the latest step, by body slot. */
typedef struct th_body_prev {
	tb_transform xf;
	uint32_t generation;
	long long stamp; /* step number it precedes */
} th_body_prev;

/* The level's drawing state (gfx.c): the transform from the level's
 * coordinates to the target's pixels, its stack, line width, blend mode and
 * the background colour. */
#define TH_GFX_STACK_MAX 64
typedef struct th_xform {
	double a, b, c, d, e, f; /* x' = a x + c y + e, y' = b x + d y + f */
} th_xform;

/* A transform and what it started from. */
typedef struct th_gfx_frame {
	th_xform xf;
	bool camera;  /* xf is the camera's own (the fast paths apply) */
	double base;  /* pixels per unit of the space xf started from (the camera's scale, or 1) */
} th_gfx_frame;

typedef struct th_gfx_state {
	th_gfx_frame cur;                    /* the current transform */
	th_gfx_frame stack[TH_GFX_STACK_MAX]; /* gfx.push */
	int depth;
	float line_width;                    /* pixels */
	SDL_BlendMode blend;
	SDL_Color background;                /* what a frame is cleared to */
	/* drawing into a canvas: where gfx drew before, and its transform */
	bool in_canvas;
	void *canvas;                        /* the canvas drawn into (canvas.c's) */
	th_target *screen;
	th_gfx_frame screen_frame;
	int screen_depth;
} th_gfx_state;

typedef struct th_render {
	th_target *target;          /* where the level's gfx draws; NULL: gfx only checks arguments */
	th_gfx_state gfx;           /* the level's drawing state */
	SDL_Color color;            /* gfx.color */
	double cam_x, cam_y, scale; /* view of the frame being drawn (interpolated) */
	float alpha;                /* interpolation factor between the last two steps */
	bool layers[TH_LAYER_COUNT];
	th_body_prev *prev;
	int prev_cap;
	tb_body_id *bodies;
	int body_cap;
	tb_shape_id *shapes;
	int shape_cap;
	tb_joint_id *joints;
	int joint_cap;
	SDL_Vertex *verts;
	int vert_cap;
	int *indices;
	int index_cap;
	SDL_FPoint *points;
	int point_cap;
	/* where the level's screen_text went this frame: the overlay keeps clear */
	SDL_Rect text_boxes[64];
	int text_box_count;
} th_render;

void th_render_init(th_render *r);
void th_render_free(th_render *r);

bool th_target_init_window(th_target *t, SDL_Window *window);
bool th_target_init_surface(th_target *t, SDL_Surface *surface);
void th_target_free(th_target *t);
/* A target's textures, made on demand from pictures (image.c's) and kept by
 * key, one key per picture: key's texture, made from surface the first time
 * (NULL if it cannot be). They are freed with the target. */
SDL_Texture *th_target_texture(th_target *t, uint64_t key, SDL_Surface *surface, bool nearest);
/* The same for pictures that change in place (a canvas): the texture is
 * updated from surface when version differs from the one it was made at. */
SDL_Texture *th_target_texture_version(th_target *t, uint64_t key, uint64_t version, SDL_Surface *surface,
                                       bool nearest);
/* key's texture if t has it, else NULL (nothing is made). */
SDL_Texture *th_target_texture_find(th_target *t, uint64_t key);
/* Drops the textures not drawn lately; once per frame drawn into t. */
void th_target_sweep_textures(th_target *t);

/* Remembers the body transforms before step number frame + 1 runs. */
void th_render_remember(th_render *r, tb_world *world, long long frame);
void th_render_forget(th_render *r);
/* A body's transform as drawn in this frame (interpolated between the last
 * two steps when the frame is drawn between them; frame: the steps done). */
tb_transform th_render_body_transform(const th_render *r, tb_world *world, long long frame, tb_body_id id);

/* A frame: begin clears t and sets the view (the camera, interpolated by
 * alpha when it follows a body); the world's shapes and its debug layers
 * then draw in it; end puts the interpolation back. */
void th_render_begin(th_render *r, th_target *t, const th_camera *camera, float alpha);
void th_render_shapes(th_render *r, th_target *t, tb_world *world, long long frame);
void th_render_debug(th_render *r, th_target *t, tb_world *world, long long frame);
void th_render_end(th_render *r);

/* ---- primitives ---- */
SDL_FPoint th_render_to_screen(const th_render *r, const th_target *t, tb_vec2 p);
/* A point of the level's drawing (gfx) in the target's pixels, through the
 * current transform. */
SDL_FPoint th_render_gfx_point(const th_render *r, const th_target *t, double x, double y);
/* The level's drawing transform's scale, relative to the space it started
 * from (1 under the camera alone). */
double th_render_gfx_scale(const th_render *r);
void th_render_fill_rect(SDL_Renderer *sr, float x, float y, float w, float h, SDL_Color c);
void th_render_text(th_target *t, float x, float y, int scale, const char *text, SDL_Color c);
/* Convex fan fill of pts[0..n) in one colour. */
void th_render_fill_convex(th_render *r, SDL_Renderer *sr, const SDL_FPoint *pts, int n, SDL_Color c);
void th_render_stroke(SDL_Renderer *sr, const SDL_FPoint *pts, int n, bool closed, SDL_Color c);
/* The same, width pixels wide (quads when wider than a pixel). */
void th_render_stroke_wide(th_render *r, SDL_Renderer *sr, const SDL_FPoint *pts, int n, bool closed, float width,
                           SDL_Color c);
/* A textured quad in the level's coordinates: corners (x, y), texture
 * coordinates and a colour. */
typedef struct th_quad {
	double x[4], y[4];
	SDL_FPoint uv[4];
	SDL_Color tint;
} th_quad;
/* Draws n quads of one texture (NULL: plain colour), moved by (dx, dy),
 * through the level's transform, in one call per 64. */
void th_render_quads(th_render *r, th_target *t, SDL_Texture *tex, const th_quad *q, int n, double dx, double dy);
/* The default background colour. */
extern const SDL_Color th_render_background;
/* A circle in world units. */
void th_render_circle(th_render *r, th_target *t, tb_vec2 center, float radius, SDL_Color outline, SDL_Color fill,
                      bool do_fill, bool do_line);

#endif
