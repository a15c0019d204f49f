/* tumble host: drawing (render.h).
 *
 * Shapes, joints and centres of mass are drawn from the public body/shape
 * getters rather than through tb_world_draw, because rendering interpolates
 * between the last two fixed steps and tb_world_draw only knows the current
 * one. Contacts and AABBs are per-step data and come from tb_world_draw. */
#include "render.h"
#include "font.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* textures not drawn for this many frames of a target are dropped */
#define TEXTURE_IDLE_FRAMES 120
#define TEXTURE_CACHE_MAX 256

const SDL_Color th_render_background = {22, 25, 31, 255};

/* Colours by body state, indexed by tb_draw_state. */
static const SDL_Color state_colors[] = {
	[TB_DRAW_STATIC] = {126, 178, 126, 255},
	[TB_DRAW_KINEMATIC] = {108, 152, 240, 255},
	[TB_DRAW_AWAKE] = {242, 166, 82, 255},
	[TB_DRAW_ASLEEP] = {158, 146, 184, 255},
	[TB_DRAW_SENSOR] = {72, 218, 218, 255},
	[TB_DRAW_DISABLED] = {100, 100, 106, 255},
};

static const SDL_Color joint_color = {230, 222, 110, 255};
static const SDL_Color mouse_joint_color = {250, 250, 250, 255};
static const SDL_Color contact_color = {245, 80, 80, 255};
static const SDL_Color speculative_color = {120, 130, 150, 255};
static const SDL_Color normal_color = {120, 235, 120, 255};
static const SDL_Color aabb_color = {215, 100, 215, 255};
static const SDL_Color fat_aabb_color = {120, 70, 120, 255};

/* ---------------- buffers ---------------- */

static bool grow(void **ptr, int *capacity, int needed, size_t size)
{
	if (needed <= *capacity) return true;
	if (needed > INT_MAX / 2) return false;
	int capacity2 = *capacity != 0 ? *capacity : 64;
	while (capacity2 < needed) capacity2 *= 2;
	void *p = realloc(*ptr, (size_t)capacity2 * size);
	if (p == NULL) return false;
	*ptr = p;
	*capacity = capacity2;
	return true;
}

void th_render_init(th_render *r)
{
	memset(r, 0, sizeof(*r));
	r->color = (SDL_Color){255, 255, 255, 255};
	r->alpha = 1.0f;
	r->gfx.background = th_render_background;
	r->gfx.line_width = 1.0f;
	r->gfx.blend = SDL_BLENDMODE_BLEND;
	r->gfx.cur.camera = true;
	r->gfx.cur.base = 1.0;
	r->layers[TH_LAYER_SHAPES] = true;
	r->layers[TH_LAYER_JOINTS] = true;
}

void th_render_free(th_render *r)
{
	free(r->prev);
	free(r->bodies);
	free(r->shapes);
	free(r->joints);
	free(r->verts);
	free(r->indices);
	free(r->points);
	memset(r, 0, sizeof(*r));
}

/* Body ids in slot order into r->bodies; returns the count. */
static int collect_bodies(th_render *r, tb_world *world)
{
	int n = tb_world_get_bodies(world, r->bodies, r->body_cap);
	if (n > r->body_cap) {
		if (!grow((void **)&r->bodies, &r->body_cap, n, sizeof(tb_body_id))) return 0;
		n = tb_world_get_bodies(world, r->bodies, r->body_cap);
	}
	return n;
}

static int collect_shapes(th_render *r, tb_world *world, tb_body_id body)
{
	int n = tb_body_get_shapes(world, body, r->shapes, r->shape_cap);
	if (n > r->shape_cap) {
		if (!grow((void **)&r->shapes, &r->shape_cap, n, sizeof(tb_shape_id))) return 0;
		n = tb_body_get_shapes(world, body, r->shapes, r->shape_cap);
	}
	return n;
}

/* ---------------- interpolation ---------------- */

void th_render_forget(th_render *r)
{
	free(r->prev);
	r->prev = NULL;
	r->prev_cap = 0;
}

void th_render_remember(th_render *r, tb_world *world, long long frame)
{
	if (world == NULL) return;
	int n = collect_bodies(r, world);
	for (int i = 0; i < n; ++i) {
		int slot = r->bodies[i].index1 - 1;
		if (slot >= r->prev_cap) {
			int old = r->prev_cap;
			if (!grow((void **)&r->prev, &r->prev_cap, slot + 1, sizeof(th_body_prev))) return;
			memset(r->prev + old, 0, (size_t)(r->prev_cap - old) * sizeof(th_body_prev));
		}
		th_body_prev *s = &r->prev[slot];
		s->xf = tb_body_get_transform(world, r->bodies[i]);
		s->generation = r->bodies[i].generation;
		s->stamp = frame + 1;
	}
}

tb_transform th_render_body_transform(const th_render *r, tb_world *world, long long frame, tb_body_id id)
{
	tb_transform xf = tb_body_get_transform(world, id);
	int slot = id.index1 - 1;
	if (r->alpha >= 1.0f || slot >= r->prev_cap) return xf;
	const th_body_prev *s = &r->prev[slot];
	/* Only a transform remembered just before the latest step, of this very body. */
	if (s->stamp != frame || s->generation != id.generation) return xf;
	float a = r->alpha;
	tb_transform out;
	out.p = tb_lerp(s->xf.p, xf.p, a);
	out.q.c = s->xf.q.c + a * (xf.q.c - s->xf.q.c);
	out.q.s = s->xf.q.s + a * (xf.q.s - s->xf.q.s);
	float len = sqrtf(out.q.c * out.q.c + out.q.s * out.q.s);
	if (len > 1e-6f) {
		out.q.c /= len;
		out.q.s /= len;
	} else {
		out.q = xf.q;
	}
	return out;
}

/* ---------------- view ---------------- */

SDL_FPoint th_render_to_screen(const th_render *r, const th_target *t, tb_vec2 p)
{
	SDL_FPoint s;
	s.x = (float)(0.5 * t->width + (p.x - r->cam_x) * r->scale);
	s.y = (float)(th_target_center_y(t) - (p.y - r->cam_y) * r->scale);
	return s;
}

SDL_FPoint th_render_gfx_point(const th_render *r, const th_target *t, double x, double y)
{
	if (r->gfx.cur.camera) return th_render_to_screen(r, t, tb_v2((float)x, (float)y));
	const th_xform *m = &r->gfx.cur.xf;
	return (SDL_FPoint){(float)(m->a * x + m->c * y + m->e), (float)(m->b * x + m->d * y + m->f)};
}

double th_render_gfx_scale(const th_render *r)
{
	if (r->gfx.cur.camera) return 1.0;
	const th_xform *m = &r->gfx.cur.xf;
	double det = fabs(m->a * m->d - m->b * m->c);
	return r->gfx.cur.base > 0.0 ? sqrt(det) / r->gfx.cur.base : 1.0;
}

/* ---------------- a target's textures (made from image.c's pictures) ---------------- */

typedef struct texture_entry {
	uint64_t key;
	uint64_t version;
	SDL_Texture *texture;
	uint64_t last_used;
} texture_entry;

typedef struct th_texture_cache {
	texture_entry entries[TEXTURE_CACHE_MAX];
	int count;
	uint64_t frame;
} th_texture_cache;

static void texture_cache_free(th_target *t)
{
	th_texture_cache *c = t->textures;
	if (c == NULL) return;
	for (int i = 0; i < c->count; ++i) SDL_DestroyTexture(c->entries[i].texture);
	free(c);
	t->textures = NULL;
}

/* Drops the textures nobody drew lately (old pictures after a reload, images
 * that were collected). Once per frame of the target. */
void th_target_sweep_textures(th_target *t)
{
	th_texture_cache *c = t->textures;
	if (c == NULL) return;
	c->frame += 1;
	int kept = 0;
	for (int i = 0; i < c->count; ++i) {
		if (c->frame - c->entries[i].last_used > TEXTURE_IDLE_FRAMES) {
			SDL_DestroyTexture(c->entries[i].texture);
		} else {
			c->entries[kept++] = c->entries[i];
		}
	}
	c->count = kept;
}

static texture_entry *texture_entry_find(th_target *t, uint64_t key)
{
	th_texture_cache *c = t->textures;
	if (c == NULL) return NULL;
	for (int i = 0; i < c->count; ++i) {
		if (c->entries[i].key == key) {
			c->entries[i].last_used = c->frame;
			return &c->entries[i];
		}
	}
	return NULL;
}

SDL_Texture *th_target_texture_find(th_target *t, uint64_t key)
{
	texture_entry *e = texture_entry_find(t, key);
	return e != NULL ? e->texture : NULL;
}

SDL_Texture *th_target_texture_version(th_target *t, uint64_t key, uint64_t version, SDL_Surface *surface,
                                       bool nearest)
{
	texture_entry *e = texture_entry_find(t, key);
	if (e != NULL) {
		if (e->version != version) {
			/* the same size as ever: a canvas never changes size */
			SDL_UpdateTexture(e->texture, NULL, surface->pixels, surface->pitch);
			e->version = version;
		}
		return e->texture;
	}
	if (t->textures == NULL) {
		t->textures = calloc(1, sizeof(th_texture_cache));
		if (t->textures == NULL) return NULL;
	}
	th_texture_cache *c = t->textures;
	if (c->count == TEXTURE_CACHE_MAX) {
		/* full: the least recently drawn goes */
		int oldest = 0;
		for (int i = 1; i < c->count; ++i) {
			if (c->entries[i].last_used < c->entries[oldest].last_used) oldest = i;
		}
		SDL_DestroyTexture(c->entries[oldest].texture);
		c->entries[oldest] = c->entries[--c->count];
	}
	SDL_Texture *tex = SDL_CreateTextureFromSurface(t->renderer, surface);
	if (tex == NULL) return NULL;
	SDL_SetTextureBlendMode(tex, SDL_BLENDMODE_BLEND);
	SDL_SetTextureScaleMode(tex, nearest ? SDL_ScaleModeNearest : SDL_ScaleModeLinear);
	c->entries[c->count++] = (texture_entry){key, version, tex, c->frame};
	return tex;
}

SDL_Texture *th_target_texture(th_target *t, uint64_t key, SDL_Surface *surface, bool nearest)
{
	return th_target_texture_version(t, key, 0, surface, nearest);
}

/* ---------------- targets ---------------- */

bool th_target_init_window(th_target *t, SDL_Window *window)
{
	memset(t, 0, sizeof(*t));
	t->renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
	if (t->renderer == NULL) t->renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE);
	if (t->renderer == NULL) return false;
	SDL_SetRenderDrawBlendMode(t->renderer, SDL_BLENDMODE_BLEND);
	t->font = th_font_create_texture(t->renderer);
	SDL_GetRendererOutputSize(t->renderer, &t->width, &t->height);
	return true;
}

bool th_target_init_surface(th_target *t, SDL_Surface *surface)
{
	memset(t, 0, sizeof(*t));
	t->renderer = SDL_CreateSoftwareRenderer(surface);
	if (t->renderer == NULL) return false;
	SDL_SetRenderDrawBlendMode(t->renderer, SDL_BLENDMODE_BLEND);
	t->font = th_font_create_texture(t->renderer);
	t->width = surface->w;
	t->height = surface->h;
	return true;
}

void th_target_free(th_target *t)
{
	texture_cache_free(t);
	if (t->font != NULL) SDL_DestroyTexture(t->font);
	if (t->renderer != NULL) SDL_DestroyRenderer(t->renderer);
	memset(t, 0, sizeof(*t));
}

/* ---------------- primitives (screen space) ---------------- */

static void set_color(SDL_Renderer *sr, SDL_Color c)
{
	SDL_SetRenderDrawColor(sr, c.r, c.g, c.b, c.a);
}

void th_render_fill_rect(SDL_Renderer *sr, float x, float y, float w, float h, SDL_Color c)
{
	SDL_FRect rect = {x, y, w, h};
	set_color(sr, c);
	SDL_RenderFillRectF(sr, &rect);
}

void th_render_text(th_target *t, float x, float y, int scale, const char *text, SDL_Color c)
{
	/* A drop shadow keeps text readable over any shape. */
	SDL_Color shadow = {0, 0, 0, (Uint8)(c.a * 3 / 4)};
	th_font_draw(t->renderer, t->font, x + (float)scale, y + (float)scale, scale, text, shadow);
	th_font_draw(t->renderer, t->font, x, y, scale, text, c);
}

/* Convex fan fill of pts[0..n) in one colour. */
void th_render_fill_convex(th_render *r, SDL_Renderer *sr, const SDL_FPoint *pts, int n, SDL_Color c)
{
	if (n < 3) return;
	if (!grow((void **)&r->verts, &r->vert_cap, n, sizeof(SDL_Vertex))) return;
	if (!grow((void **)&r->indices, &r->index_cap, 3 * (n - 2), sizeof(int))) return;
	for (int i = 0; i < n; ++i) {
		r->verts[i].position = pts[i];
		r->verts[i].color = c;
		r->verts[i].tex_coord = (SDL_FPoint){0, 0};
	}
	for (int i = 0; i < n - 2; ++i) {
		r->indices[3 * i] = 0;
		r->indices[3 * i + 1] = i + 1;
		r->indices[3 * i + 2] = i + 2;
	}
	SDL_RenderGeometry(sr, NULL, r->verts, n, r->indices, 3 * (n - 2));
}

void th_render_stroke(SDL_Renderer *sr, const SDL_FPoint *pts, int n, bool closed, SDL_Color c)
{
	if (n < 2) return;
	set_color(sr, c);
	SDL_RenderDrawLinesF(sr, pts, n);
	if (closed) SDL_RenderDrawLineF(sr, pts[n - 1].x, pts[n - 1].y, pts[0].x, pts[0].y);
}

/* A line of some pixel width, as a quad. */
static void thick_line(th_render *r, SDL_Renderer *sr, SDL_FPoint a, SDL_FPoint b, float width, SDL_Color c)
{
	float dx = b.x - a.x, dy = b.y - a.y;
	float len = sqrtf(dx * dx + dy * dy);
	if (len < 1e-3f || width <= 1.0f) {
		set_color(sr, c);
		SDL_RenderDrawLineF(sr, a.x, a.y, b.x, b.y);
		return;
	}
	float nx = -dy / len * 0.5f * width, ny = dx / len * 0.5f * width;
	SDL_FPoint q[4] = {{a.x + nx, a.y + ny}, {b.x + nx, b.y + ny}, {b.x - nx, b.y - ny}, {a.x - nx, a.y - ny}};
	th_render_fill_convex(r, sr, q, 4, c);
}

void th_render_stroke_wide(th_render *r, SDL_Renderer *sr, const SDL_FPoint *pts, int n, bool closed, float width,
                           SDL_Color c)
{
	if (width <= 1.0f) {
		th_render_stroke(sr, pts, n, closed, c);
		return;
	}
	for (int i = 0; i + 1 < n; ++i) thick_line(r, sr, pts[i], pts[i + 1], width, c);
	if (closed && n > 2) thick_line(r, sr, pts[n - 1], pts[0], width, c);
}

void th_render_quads(th_render *r, th_target *t, SDL_Texture *tex, const th_quad *q, int n, double dx, double dy)
{
	/* in pieces, so the vertex buffer stays small whatever n is */
	SDL_Vertex v[4 * 64];
	int idx[6 * 64];
	for (int base = 0; base < n; base += 64) {
		int m = n - base < 64 ? n - base : 64;
		for (int k = 0; k < m; ++k) {
			const th_quad *e = &q[base + k];
			for (int i = 0; i < 4; ++i) {
				v[4 * k + i].position = th_render_gfx_point(r, t, e->x[i] + dx, e->y[i] + dy);
				v[4 * k + i].color = e->tint;
				v[4 * k + i].tex_coord = e->uv[i];
			}
			static const int order[6] = {0, 1, 2, 0, 2, 3};
			for (int i = 0; i < 6; ++i) idx[6 * k + i] = 4 * k + order[i];
		}
		SDL_RenderGeometry(t->renderer, tex, v, 4 * m, idx, 6 * m);
	}
}

static SDL_FPoint *point_buffer(th_render *r, int n)
{
	if (!grow((void **)&r->points, &r->point_cap, n, sizeof(SDL_FPoint))) return NULL;
	return r->points;
}

static int circle_segments(float radius_px)
{
	float n = radius_px * 0.75f;
	/* NaN and infinities too */
	if (!(n > 16.0f)) return 16;
	return n > 96.0f ? 96 : (int)n;
}

/* World-space helpers drawing into a target. */
typedef struct draw_ctx {
	th_render *r;
	th_target *t;
	tb_world *world;
	long long frame;
} draw_ctx;

void th_render_circle(th_render *r, th_target *t, tb_vec2 center, float radius, SDL_Color outline, SDL_Color fill,
                      bool do_fill, bool do_line)
{
	float rpx = (float)(radius * r->scale);
	int n = circle_segments(rpx);
	SDL_FPoint *pts = point_buffer(r, n);
	if (pts == NULL) return;
	SDL_FPoint c = th_render_to_screen(r, t, center);
	for (int i = 0; i < n; ++i) {
		float a = 2.0f * TB_PI * (float)i / (float)n;
		pts[i].x = c.x + rpx * cosf(a);
		pts[i].y = c.y - rpx * sinf(a);
	}
	if (do_fill) th_render_fill_convex(r, t->renderer, pts, n, fill);
	if (do_line) th_render_stroke(t->renderer, pts, n, true, outline);
}

static void world_line(draw_ctx *d, tb_vec2 a, tb_vec2 b, SDL_Color c)
{
	SDL_FPoint p = th_render_to_screen(d->r, d->t, a), q = th_render_to_screen(d->r, d->t, b);
	set_color(d->t->renderer, c);
	SDL_RenderDrawLineF(d->t->renderer, p.x, p.y, q.x, q.y);
}

/* Appends an arc around c from angle a0 to a1 (radians, counter-clockwise in
 * world space) as screen points. */
static int append_arc(draw_ctx *d, SDL_FPoint *pts, int n, tb_vec2 c, float radius, float a0, float a1, int steps)
{
	for (int i = 0; i <= steps; ++i) {
		float a = a0 + (a1 - a0) * (float)i / (float)steps;
		pts[n++] = th_render_to_screen(d->r, d->t, tb_v2(c.x + radius * cosf(a), c.y + radius * sinf(a)));
	}
	return n;
}

static void draw_capsule_shape(draw_ctx *d, tb_vec2 p1, tb_vec2 p2, float radius, SDL_Color outline, SDL_Color fill)
{
	th_render *r = d->r;
	int steps = circle_segments((float)(radius * r->scale)) / 2;
	SDL_FPoint *pts = point_buffer(r, 2 * (steps + 1));
	if (pts == NULL) return;
	float axis = atan2f(p2.y - p1.y, p2.x - p1.x);
	int n = append_arc(d, pts, 0, p2, radius, axis - 0.5f * TB_PI, axis + 0.5f * TB_PI, steps);
	n = append_arc(d, pts, n, p1, radius, axis + 0.5f * TB_PI, axis + 1.5f * TB_PI, steps);
	th_render_fill_convex(r, d->t->renderer, pts, n, fill);
	th_render_stroke(d->t->renderer, pts, n, true, outline);
}

static void draw_polygon_shape(draw_ctx *d, const tb_polygon *poly, tb_transform xf, SDL_Color outline,
                               SDL_Color fill)
{
	th_render *r = d->r;
	if (poly->radius <= 0.0f) {
		SDL_FPoint pts[TB_MAX_POLYGON_VERTICES];
		for (int i = 0; i < poly->count; ++i) pts[i] = th_render_to_screen(r, d->t, tb_transform_point(xf, poly->vertices[i]));
		th_render_fill_convex(r, d->t->renderer, pts, poly->count, fill);
		th_render_stroke(d->t->renderer, pts, poly->count, true, outline);
		return;
	}
	/* Rounded: each corner is an arc between the normals of its two edges. */
	int steps = 6;
	SDL_FPoint *pts = point_buffer(r, poly->count * (steps + 1));
	if (pts == NULL) return;
	int n = 0;
	for (int i = 0; i < poly->count; ++i) {
		int prev = i == 0 ? poly->count - 1 : i - 1;
		tb_vec2 v = tb_transform_point(xf, poly->vertices[i]);
		tb_vec2 n0 = tb_rotate(xf.q, poly->normals[prev]), n1 = tb_rotate(xf.q, poly->normals[i]);
		float a0 = atan2f(n0.y, n0.x), a1 = atan2f(n1.y, n1.x);
		while (a1 < a0) a1 += 2.0f * TB_PI;
		n = append_arc(d, pts, n, v, poly->radius, a0, a1, steps);
	}
	th_render_fill_convex(r, d->t->renderer, pts, n, fill);
	th_render_stroke(d->t->renderer, pts, n, true, outline);
}

static tb_draw_state shape_state(tb_world *world, tb_body_id body, tb_shape_id shape, tb_body_type type)
{
	if (!tb_body_is_enabled(world, body) || !tb_shape_is_enabled(world, shape)) return TB_DRAW_DISABLED;
	if (tb_shape_is_sensor(world, shape)) return TB_DRAW_SENSOR;
	switch (type) {
	case TB_STATIC_BODY: return TB_DRAW_STATIC;
	case TB_KINEMATIC_BODY: return TB_DRAW_KINEMATIC;
	default: return tb_body_is_awake(world, body) ? TB_DRAW_AWAKE : TB_DRAW_ASLEEP;
	}
}

static void draw_shapes(draw_ctx *d)
{
	th_render *r = d->r;
	tb_world *world = d->world;
	int body_count = collect_bodies(r, world);
	for (int i = 0; i < body_count; ++i) {
		tb_body_id body = r->bodies[i];
		tb_transform xf = th_render_body_transform(r, world, d->frame, body);
		tb_body_type type = tb_body_get_type(world, body);
		int shape_count = collect_shapes(r, world, body);
		for (int j = 0; j < shape_count; ++j) {
			tb_shape_id shape = r->shapes[j];
			tb_draw_state state = shape_state(world, body, shape, type);
			SDL_Color outline = state_colors[state];
			SDL_Color fill = outline;
			fill.a = state == TB_DRAW_SENSOR ? 36 : 96;
			tb_geometry g = tb_shape_get_geometry(world, shape);
			switch (g.type) {
			case TB_SHAPE_CIRCLE: {
				tb_vec2 c = tb_transform_point(xf, g.circle.center);
				th_render_circle(d->r, d->t, c, g.circle.radius, outline, fill, true, true);
				/* a spoke shows the rotation */
				tb_vec2 rim = tb_add(c, tb_mul_sv(g.circle.radius, tb_rot_x_axis(xf.q)));
				world_line(d, c, rim, outline);
				break;
			}
			case TB_SHAPE_CAPSULE:
				draw_capsule_shape(d, tb_transform_point(xf, g.capsule.center1),
				                   tb_transform_point(xf, g.capsule.center2), g.capsule.radius, outline, fill);
				break;
			case TB_SHAPE_POLYGON: draw_polygon_shape(d, &g.polygon, xf, outline, fill); break;
			case TB_SHAPE_SEGMENT: {
				SDL_FPoint a = th_render_to_screen(r, d->t, tb_transform_point(xf, g.segment.point1));
				SDL_FPoint b = th_render_to_screen(r, d->t, tb_transform_point(xf, g.segment.point2));
				thick_line(r, d->t->renderer, a, b, 2.0f, outline);
				break;
			}
			case TB_SHAPE_CHAIN_SEGMENT: {
				SDL_FPoint a = th_render_to_screen(r, d->t, tb_transform_point(xf, g.chain_segment.segment.point1));
				SDL_FPoint b = th_render_to_screen(r, d->t, tb_transform_point(xf, g.chain_segment.segment.point2));
				thick_line(r, d->t->renderer, a, b, 2.0f, outline);
				break;
			}
			default: break;
			}
		}
	}
}

static void draw_joints(draw_ctx *d)
{
	th_render *r = d->r;
	tb_world *world = d->world;
	int n = tb_world_get_joints(world, r->joints, r->joint_cap);
	if (n > r->joint_cap) {
		if (!grow((void **)&r->joints, &r->joint_cap, n, sizeof(tb_joint_id))) return;
		n = tb_world_get_joints(world, r->joints, r->joint_cap);
	}
	for (int i = 0; i < n; ++i) {
		tb_joint_def def = tb_joint_get_def(world, r->joints[i]);
		tb_transform xa = th_render_body_transform(r, world, d->frame, def.body_a), xb = th_render_body_transform(r, world, d->frame, def.body_b);
		tb_vec2 pa = tb_transform_point(xa, def.local_anchor_a), pb = tb_transform_point(xb, def.local_anchor_b);
		tb_vec2 ca = tb_transform_point(xa, tb_body_get_local_center(world, def.body_a));
		tb_vec2 cb = tb_transform_point(xb, tb_body_get_local_center(world, def.body_b));
		SDL_Color dim = joint_color;
		dim.a = 110;
		float mark = (float)(4.0 / r->scale);
		switch (def.type) {
		case TB_JOINT_MOUSE: {
			SDL_FPoint a = th_render_to_screen(r, d->t, pb), b = th_render_to_screen(r, d->t, def.target);
			thick_line(r, d->t->renderer, a, b, 2.0f, mouse_joint_color);
			th_render_circle(d->r, d->t, def.target, mark, mouse_joint_color, mouse_joint_color, true, false);
			break;
		}
		case TB_JOINT_REVOLUTE:
			world_line(d, ca, pa, dim);
			world_line(d, pb, cb, dim);
			th_render_circle(d->r, d->t, pa, 1.5f * mark, joint_color, joint_color, false, true);
			break;
		case TB_JOINT_PRISMATIC: {
			tb_vec2 axis = tb_rotate(xa.q, def.local_axis_a);
			world_line(d, tb_mul_sub(pa, 0.5f, axis), tb_mul_add(pa, 0.5f, axis), joint_color);
			world_line(d, pa, pb, dim);
			break;
		}
		case TB_JOINT_DISTANCE:
			if (def.enable_spring) {
				/* a zigzag says "spring" at a glance */
				tb_vec2 delta = tb_sub(pb, pa);
				float len = tb_length(delta);
				if (len > 1e-4f) {
					tb_vec2 side = tb_mul_sv(0.1f, tb_left_perp(tb_mul_sv(1.0f / len, delta)));
					tb_vec2 prev = pa;
					const int zigs = 12;
					for (int k = 1; k <= zigs; ++k) {
						tb_vec2 p = tb_mul_add(pa, (float)k / zigs, delta);
						if (k < zigs) p = tb_mul_add(p, (k & 1) ? 1.0f : -1.0f, side);
						world_line(d, prev, p, joint_color);
						prev = p;
					}
				}
			} else {
				world_line(d, pa, pb, joint_color);
			}
			th_render_circle(d->r, d->t, pa, mark, joint_color, joint_color, true, false);
			th_render_circle(d->r, d->t, pb, mark, joint_color, joint_color, true, false);
			break;
		case TB_JOINT_WELD:
			world_line(d, ca, pa, dim);
			world_line(d, pb, cb, dim);
			world_line(d, tb_v2(pa.x - mark * 1.5f, pa.y - mark * 1.5f), tb_v2(pa.x + mark * 1.5f, pa.y + mark * 1.5f),
			           joint_color);
			world_line(d, tb_v2(pa.x - mark * 1.5f, pa.y + mark * 1.5f), tb_v2(pa.x + mark * 1.5f, pa.y - mark * 1.5f),
			           joint_color);
			break;
		default: world_line(d, pa, pb, joint_color); break;
		}
	}
}

static void draw_centers(draw_ctx *d)
{
	th_render *r = d->r;
	tb_world *world = d->world;
	int n = collect_bodies(r, world);
	float len = (float)(12.0 / r->scale);
	for (int i = 0; i < n; ++i) {
		if (tb_body_get_type(world, r->bodies[i]) == TB_STATIC_BODY) continue;
		tb_transform xf = th_render_body_transform(r, world, d->frame, r->bodies[i]);
		tb_vec2 c = tb_transform_point(xf, tb_body_get_local_center(world, r->bodies[i]));
		world_line(d, c, tb_mul_add(c, len, tb_rot_x_axis(xf.q)), (SDL_Color){255, 90, 90, 255});
		world_line(d, c, tb_mul_add(c, len, tb_rot_y_axis(xf.q)), (SDL_Color){90, 255, 90, 255});
	}
}

static void cb_contact(tb_vec2 point, tb_vec2 normal, float normal_impulse, bool speculative, void *ctx)
{
	(void)normal_impulse;
	draw_ctx *d = ctx;
	SDL_FPoint p = th_render_to_screen(d->r, d->t, point);
	th_render_fill_rect(d->t->renderer, p.x - 2.5f, p.y - 2.5f, 5.0f, 5.0f, speculative ? speculative_color : contact_color);
	if (!speculative) world_line(d, point, tb_mul_add(point, (float)(18.0 / d->r->scale), normal), normal_color);
}

static void cb_aabb(tb_aabb box, bool fat, void *ctx)
{
	draw_ctx *d = ctx;
	SDL_FPoint a = th_render_to_screen(d->r, d->t, box.lower), b = th_render_to_screen(d->r, d->t, box.upper);
	SDL_FRect rect = {a.x, b.y, b.x - a.x, a.y - b.y};
	set_color(d->t->renderer, fat ? fat_aabb_color : aabb_color);
	SDL_RenderDrawRectF(d->t->renderer, &rect);
}

/* Bounded by construction, whatever the camera holds: the lines are counted
 * first (at most a few per pixel of the view), then drawn by index, so a
 * camera at 1e17, where adding the step to a coordinate changes nothing, or
 * a scale that makes the step overflow, draws a few lines or none. */
#define GRID_MAX_LINES 4096

static void grid_lines(th_render *r, th_target *t, double lo, double hi, double step, bool vertical)
{
	double first = floor(lo / step), last = floor(hi / step);
	if (!isfinite(first) || !isfinite(last) || last < first || last - first >= GRID_MAX_LINES) return;
	SDL_Renderer *sr = t->renderer;
	SDL_Color minor = {255, 255, 255, 10}, axis = {255, 255, 255, 34};
	int count = (int)(last - first) + 1;
	for (int i = 0; i < count; ++i) {
		double v = (first + i) * step;
		set_color(sr, fabs(v) < 1e-9 ? axis : minor);
		if (vertical) {
			SDL_FPoint p = th_render_to_screen(r, t, tb_v2((float)v, 0.0f));
			SDL_RenderDrawLineF(sr, p.x, 0.0f, p.x, (float)t->height);
		} else {
			SDL_FPoint p = th_render_to_screen(r, t, tb_v2(0.0f, (float)v));
			SDL_RenderDrawLineF(sr, 0.0f, p.y, (float)t->width, p.y);
		}
	}
}

static void draw_grid(th_render *r, th_target *t)
{
	if (!(r->scale > 0.0) || !isfinite(r->scale) || !isfinite(r->cam_x) || !isfinite(r->cam_y)) return;
	double step = 1.0;
	for (int i = 0; i < 64 && step * r->scale < 24.0; ++i) step *= 5.0;
	if (!isfinite(step) || step * r->scale < 24.0) return;
	double cy = th_target_center_y(t);
	tb_vec2 lo = tb_v2((float)(r->cam_x - 0.5 * t->width / r->scale), (float)(r->cam_y - (t->height - cy) / r->scale));
	tb_vec2 hi = tb_v2((float)(r->cam_x + 0.5 * t->width / r->scale), (float)(r->cam_y + cy / r->scale));
	grid_lines(r, t, lo.x, hi.x, step, true);
	grid_lines(r, t, lo.y, hi.y, step, false);
}

/* ---------------- a frame ---------------- */

void th_render_begin(th_render *r, th_target *t, const th_camera *c, float alpha)
{
	r->alpha = alpha;
	r->scale = c->scale * th_target_fit(t);
	if (c->following) {
		r->cam_x = c->prev_x + alpha * (c->x - c->prev_x);
		r->cam_y = c->prev_y + alpha * (c->y - c->prev_y);
	} else {
		r->cam_x = c->x;
		r->cam_y = c->y;
	}
	r->text_box_count = 0;
	SDL_Renderer *sr = t->renderer;
	SDL_SetRenderDrawBlendMode(sr, SDL_BLENDMODE_BLEND);
	set_color(sr, r->gfx.background);
	SDL_RenderClear(sr);
	draw_grid(r, t);
}

void th_render_shapes(th_render *r, th_target *t, tb_world *world, long long frame)
{
	if (world == NULL || !r->layers[TH_LAYER_SHAPES]) return;
	draw_ctx d = {r, t, world, frame};
	draw_shapes(&d);
}

void th_render_debug(th_render *r, th_target *t, tb_world *world, long long frame)
{
	if (world == NULL) return;
	draw_ctx d = {r, t, world, frame};
	if (r->layers[TH_LAYER_JOINTS]) draw_joints(&d);
	if (r->layers[TH_LAYER_MASS]) draw_centers(&d);
	if (r->layers[TH_LAYER_CONTACTS] || r->layers[TH_LAYER_AABBS]) {
		tb_debug_draw dd;
		memset(&dd, 0, sizeof(dd));
		dd.draw_contact = cb_contact;
		dd.draw_aabb = cb_aabb;
		dd.draw_contacts = r->layers[TH_LAYER_CONTACTS];
		dd.draw_aabbs = r->layers[TH_LAYER_AABBS];
		dd.context = &d;
		tb_world_draw(world, &dd);
	}
}

void th_render_end(th_render *r)
{
	r->alpha = 1.0f;
}
