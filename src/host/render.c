/* tumble host: the camera, the debug draw and the gfx API levels draw with.
 *
 * Shapes, joints and centres of mass are drawn from the public body/shape
 * getters rather than through tb_world_draw, because rendering interpolates
 * between the last two fixed steps and tb_world_draw only knows the current
 * one. Contacts and AABBs are per-step data and come from tb_world_draw. */
#include "host.h"
#include "font.h"
#include "tumble/tumble_lua.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>

static const SDL_Color background = {22, 25, 31, 255};

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
	r->layers[TH_LAYER_SHAPES] = true;
	r->layers[TH_LAYER_JOINTS] = true;
}

void th_render_free(th_render *r)
{
	free(r->snap);
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

void th_render_reset_snapshot(th_host *h)
{
	free(h->render.snap);
	h->render.snap = NULL;
	h->render.snap_cap = 0;
}

void th_render_snapshot(th_host *h)
{
	th_render *r = &h->render;
	h->camera.prev_x = h->camera.x;
	h->camera.prev_y = h->camera.y;
	if (h->world == NULL) return;
	int n = collect_bodies(r, h->world);
	for (int i = 0; i < n; ++i) {
		int slot = r->bodies[i].index1 - 1;
		if (slot >= r->snap_cap) {
			int old = r->snap_cap;
			if (!grow((void **)&r->snap, &r->snap_cap, slot + 1, sizeof(th_body_snapshot))) return;
			memset(r->snap + old, 0, (size_t)(r->snap_cap - old) * sizeof(th_body_snapshot));
		}
		th_body_snapshot *s = &r->snap[slot];
		s->xf = tb_body_get_transform(h->world, r->bodies[i]);
		s->generation = r->bodies[i].generation;
		s->stamp = h->frame + 1;
	}
}

tb_transform th_render_body_transform(th_host *h, tb_body_id id)
{
	tb_transform xf = tb_body_get_transform(h->world, id);
	th_render *r = &h->render;
	int slot = id.index1 - 1;
	if (r->alpha >= 1.0f || slot >= r->snap_cap) return xf;
	const th_body_snapshot *s = &r->snap[slot];
	/* Only a snapshot taken just before the latest step, of this very body. */
	if (s->stamp != h->frame || s->generation != id.generation) return xf;
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

/* ---------------- camera ---------------- */

tb_vec2 th_camera_to_world(const th_camera *c, double px, double py)
{
	double x = c->x + (px - 0.5 * c->view_w) / c->scale;
	double y = c->y - (py - 0.5 * c->view_h) / c->scale;
	return tb_v2((float)x, (float)y);
}

static SDL_FPoint to_screen(const th_render *r, const th_target *t, tb_vec2 p)
{
	SDL_FPoint s;
	s.x = (float)(0.5 * t->width + (p.x - r->cam_x) * r->scale);
	s.y = (float)(0.5 * t->height - (p.y - r->cam_y) * r->scale);
	return s;
}

static bool read_number(lua_State *L, int table, const char *key, double *out)
{
	lua_getfield(L, table, key);
	int ok = 0;
	double v = lua_tonumberx(L, -1, &ok);
	lua_pop(L, 1);
	if (!ok || !isfinite(v)) return false;
	*out = v;
	return true;
}

/* tumble.camera, or the host's original table if the level replaced it with
 * something that is not a table. */
static void push_camera_table(lua_State *L, th_host *h)
{
	lua_rawgeti(L, LUA_REGISTRYINDEX, h->tumble_ref);
	if (lua_istable(L, -1)) {
		lua_pushliteral(L, "camera");
		lua_rawget(L, -2);
		lua_remove(L, -2);
		if (lua_istable(L, -1)) return;
	}
	lua_pop(L, 1);
	lua_rawgeti(L, LUA_REGISTRYINDEX, h->camera_ref);
}

static int camera_sync_protected(lua_State *L)
{
	th_host *h = lua_touserdata(L, 1);
	th_camera *c = &h->camera;
	push_camera_table(L, h);
	int t = lua_gettop(L);
	double v;
	if (read_number(L, t, "scale", &v) && v > 1e-3 && v < 1e6) c->scale = v;
	if (read_number(L, t, "x", &v)) c->x = v;
	if (read_number(L, t, "y", &v)) c->y = v;
	c->following = false;
	lua_getfield(L, t, "target");
	if (!lua_isnil(L, -1)) {
		c->following = true;
		/* leave the target on the stack: the caller reads it unprotected no further */
		lua_getfield(L, -1, "x");
		lua_getfield(L, -2, "y");
		int okx = 0, oky = 0;
		double tx = lua_tonumberx(L, -2, &okx), ty = lua_tonumberx(L, -1, &oky);
		if (okx && oky && isfinite(tx) && isfinite(ty)) {
			double dx = 0, dy = 0;
			read_number(L, t, "dx", &dx);
			read_number(L, t, "dy", &dy);
			c->x = tx + dx;
			c->y = ty + dy;
			lua_pushnumber(L, c->x);
			lua_setfield(L, t, "x");
			lua_pushnumber(L, c->y);
			lua_setfield(L, t, "y");
		}
	}
	return 0;
}

static int camera_unfollow_protected(lua_State *L)
{
	th_host *h = lua_touserdata(L, 1);
	push_camera_table(L, h);
	lua_pushnil(L);
	lua_setfield(L, -2, "target");
	return 0;
}

void th_camera_sync(th_host *h)
{
	lua_State *L = h->L;
	if (L == NULL || h->camera_ref == LUA_NOREF) return;
	th_sandbox_begin(L, &h->sandbox, "camera");
	lua_pushcfunction(L, camera_sync_protected);
	lua_pushlightuserdata(L, h);
	int status = lua_pcall(L, 1, 0, 0);
	th_sandbox_end(L, &h->sandbox);
	if (status != LUA_OK) {
		/* Typically the followed body was destroyed: stop following it. */
		lua_pop(L, 1);
		h->camera.following = false;
		lua_pushcfunction(L, camera_unfollow_protected);
		lua_pushlightuserdata(L, h);
		if (lua_pcall(L, 1, 0, 0) != LUA_OK) lua_pop(L, 1);
	}
	if (!h->camera.following) {
		h->camera.prev_x = h->camera.x;
		h->camera.prev_y = h->camera.y;
	}
}

static th_host *host_up(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

static int camera_follow(lua_State *L)
{
	th_host *h = host_up(L);
	push_camera_table(L, h);
	if (lua_isnoneornil(L, 1)) {
		lua_pushnil(L);
		lua_setfield(L, -2, "target");
		h->camera.following = false;
		return 0;
	}
	luaL_checkany(L, 1);
	lua_getfield(L, 1, "x"); /* fails early for something without a position */
	luaL_argcheck(L, lua_isnumber(L, -1), 1, "body (or anything with x and y) expected");
	lua_pop(L, 1);
	lua_pushvalue(L, 1);
	lua_setfield(L, -2, "target");
	lua_pushnumber(L, luaL_optnumber(L, 2, 0));
	lua_setfield(L, -2, "dx");
	lua_pushnumber(L, luaL_optnumber(L, 3, 0));
	lua_setfield(L, -2, "dy");
	return 0;
}

static int camera_to_world(lua_State *L)
{
	th_host *h = host_up(L);
	tb_vec2 p = th_camera_to_world(&h->camera, luaL_checknumber(L, 1), luaL_checknumber(L, 2));
	lua_pushnumber(L, p.x);
	lua_pushnumber(L, p.y);
	return 2;
}

static int camera_to_screen(lua_State *L)
{
	th_host *h = host_up(L);
	th_camera *c = &h->camera;
	double x = luaL_checknumber(L, 1), y = luaL_checknumber(L, 2);
	lua_pushnumber(L, 0.5 * c->view_w + (x - c->x) * c->scale);
	lua_pushnumber(L, 0.5 * c->view_h - (y - c->y) * c->scale);
	return 2;
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
	th_texture_cache_free(t);
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
static void fill_convex(th_render *r, SDL_Renderer *sr, const SDL_FPoint *pts, int n, SDL_Color c)
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

static void stroke(SDL_Renderer *sr, const SDL_FPoint *pts, int n, bool closed, SDL_Color c)
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
	fill_convex(r, sr, q, 4, c);
}

static SDL_FPoint *point_buffer(th_render *r, int n)
{
	if (!grow((void **)&r->points, &r->point_cap, n, sizeof(SDL_FPoint))) return NULL;
	return r->points;
}

static int circle_segments(float radius_px)
{
	int n = (int)(radius_px * 0.75f);
	return n < 16 ? 16 : n > 96 ? 96 : n;
}

/* World-space helpers drawing into a target. */
typedef struct draw_ctx {
	th_host *h;
	th_target *t;
} draw_ctx;

static void world_circle(draw_ctx *d, tb_vec2 center, float radius, SDL_Color outline, SDL_Color fill, bool do_fill,
                         bool do_line)
{
	th_render *r = &d->h->render;
	float rpx = (float)(radius * r->scale);
	int n = circle_segments(rpx);
	SDL_FPoint *pts = point_buffer(r, n);
	if (pts == NULL) return;
	SDL_FPoint c = to_screen(r, d->t, center);
	for (int i = 0; i < n; ++i) {
		float a = 2.0f * TB_PI * (float)i / (float)n;
		pts[i].x = c.x + rpx * cosf(a);
		pts[i].y = c.y - rpx * sinf(a);
	}
	if (do_fill) fill_convex(r, d->t->renderer, pts, n, fill);
	if (do_line) stroke(d->t->renderer, pts, n, true, outline);
}

static void world_line(draw_ctx *d, tb_vec2 a, tb_vec2 b, SDL_Color c)
{
	SDL_FPoint p = to_screen(&d->h->render, d->t, a), q = to_screen(&d->h->render, d->t, b);
	set_color(d->t->renderer, c);
	SDL_RenderDrawLineF(d->t->renderer, p.x, p.y, q.x, q.y);
}

/* Appends an arc around c from angle a0 to a1 (radians, counter-clockwise in
 * world space) as screen points. */
static int append_arc(draw_ctx *d, SDL_FPoint *pts, int n, tb_vec2 c, float radius, float a0, float a1, int steps)
{
	for (int i = 0; i <= steps; ++i) {
		float a = a0 + (a1 - a0) * (float)i / (float)steps;
		pts[n++] = to_screen(&d->h->render, d->t, tb_v2(c.x + radius * cosf(a), c.y + radius * sinf(a)));
	}
	return n;
}

static void draw_capsule_shape(draw_ctx *d, tb_vec2 p1, tb_vec2 p2, float radius, SDL_Color outline, SDL_Color fill)
{
	th_render *r = &d->h->render;
	int steps = circle_segments((float)(radius * r->scale)) / 2;
	SDL_FPoint *pts = point_buffer(r, 2 * (steps + 1));
	if (pts == NULL) return;
	float axis = atan2f(p2.y - p1.y, p2.x - p1.x);
	int n = append_arc(d, pts, 0, p2, radius, axis - 0.5f * TB_PI, axis + 0.5f * TB_PI, steps);
	n = append_arc(d, pts, n, p1, radius, axis + 0.5f * TB_PI, axis + 1.5f * TB_PI, steps);
	fill_convex(r, d->t->renderer, pts, n, fill);
	stroke(d->t->renderer, pts, n, true, outline);
}

static void draw_polygon_shape(draw_ctx *d, const tb_polygon *poly, tb_transform xf, SDL_Color outline,
                               SDL_Color fill)
{
	th_render *r = &d->h->render;
	if (poly->radius <= 0.0f) {
		SDL_FPoint pts[TB_MAX_POLYGON_VERTICES];
		for (int i = 0; i < poly->count; ++i) pts[i] = to_screen(r, d->t, tb_transform_point(xf, poly->vertices[i]));
		fill_convex(r, d->t->renderer, pts, poly->count, fill);
		stroke(d->t->renderer, pts, poly->count, true, outline);
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
	fill_convex(r, d->t->renderer, pts, n, fill);
	stroke(d->t->renderer, pts, n, true, outline);
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
	th_host *h = d->h;
	th_render *r = &h->render;
	int body_count = collect_bodies(r, h->world);
	for (int i = 0; i < body_count; ++i) {
		tb_body_id body = r->bodies[i];
		tb_transform xf = th_render_body_transform(h, body);
		tb_body_type type = tb_body_get_type(h->world, body);
		int shape_count = collect_shapes(r, h->world, body);
		for (int j = 0; j < shape_count; ++j) {
			tb_shape_id shape = r->shapes[j];
			tb_draw_state state = shape_state(h->world, body, shape, type);
			SDL_Color outline = state_colors[state];
			SDL_Color fill = outline;
			fill.a = state == TB_DRAW_SENSOR ? 36 : 96;
			tb_geometry g = tb_shape_get_geometry(h->world, shape);
			switch (g.type) {
			case TB_SHAPE_CIRCLE: {
				tb_vec2 c = tb_transform_point(xf, g.circle.center);
				world_circle(d, c, g.circle.radius, outline, fill, true, true);
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
				SDL_FPoint a = to_screen(r, d->t, tb_transform_point(xf, g.segment.point1));
				SDL_FPoint b = to_screen(r, d->t, tb_transform_point(xf, g.segment.point2));
				thick_line(r, d->t->renderer, a, b, 2.0f, outline);
				break;
			}
			case TB_SHAPE_CHAIN_SEGMENT: {
				SDL_FPoint a = to_screen(r, d->t, tb_transform_point(xf, g.chain_segment.segment.point1));
				SDL_FPoint b = to_screen(r, d->t, tb_transform_point(xf, g.chain_segment.segment.point2));
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
	th_host *h = d->h;
	th_render *r = &h->render;
	int n = tb_world_get_joints(h->world, r->joints, r->joint_cap);
	if (n > r->joint_cap) {
		if (!grow((void **)&r->joints, &r->joint_cap, n, sizeof(tb_joint_id))) return;
		n = tb_world_get_joints(h->world, r->joints, r->joint_cap);
	}
	for (int i = 0; i < n; ++i) {
		tb_joint_def def = tb_joint_get_def(h->world, r->joints[i]);
		tb_transform xa = th_render_body_transform(h, def.body_a), xb = th_render_body_transform(h, def.body_b);
		tb_vec2 pa = tb_transform_point(xa, def.local_anchor_a), pb = tb_transform_point(xb, def.local_anchor_b);
		tb_vec2 ca = tb_transform_point(xa, tb_body_get_local_center(h->world, def.body_a));
		tb_vec2 cb = tb_transform_point(xb, tb_body_get_local_center(h->world, def.body_b));
		SDL_Color dim = joint_color;
		dim.a = 110;
		float mark = (float)(4.0 / r->scale);
		switch (def.type) {
		case TB_JOINT_MOUSE: {
			SDL_FPoint a = to_screen(r, d->t, pb), b = to_screen(r, d->t, def.target);
			thick_line(r, d->t->renderer, a, b, 2.0f, mouse_joint_color);
			world_circle(d, def.target, mark, mouse_joint_color, mouse_joint_color, true, false);
			break;
		}
		case TB_JOINT_REVOLUTE:
			world_line(d, ca, pa, dim);
			world_line(d, pb, cb, dim);
			world_circle(d, pa, 1.5f * mark, joint_color, joint_color, false, true);
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
			world_circle(d, pa, mark, joint_color, joint_color, true, false);
			world_circle(d, pb, mark, joint_color, joint_color, true, false);
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
	th_host *h = d->h;
	th_render *r = &h->render;
	int n = collect_bodies(r, h->world);
	float len = (float)(12.0 / r->scale);
	for (int i = 0; i < n; ++i) {
		if (tb_body_get_type(h->world, r->bodies[i]) == TB_STATIC_BODY) continue;
		tb_transform xf = th_render_body_transform(h, r->bodies[i]);
		tb_vec2 c = tb_transform_point(xf, tb_body_get_local_center(h->world, r->bodies[i]));
		world_line(d, c, tb_mul_add(c, len, tb_rot_x_axis(xf.q)), (SDL_Color){255, 90, 90, 255});
		world_line(d, c, tb_mul_add(c, len, tb_rot_y_axis(xf.q)), (SDL_Color){90, 255, 90, 255});
	}
}

static void cb_contact(tb_vec2 point, tb_vec2 normal, float normal_impulse, bool speculative, void *ctx)
{
	(void)normal_impulse;
	draw_ctx *d = ctx;
	SDL_FPoint p = to_screen(&d->h->render, d->t, point);
	th_render_fill_rect(d->t->renderer, p.x - 2.5f, p.y - 2.5f, 5.0f, 5.0f, speculative ? speculative_color : contact_color);
	if (!speculative) world_line(d, point, tb_mul_add(point, (float)(18.0 / d->h->render.scale), normal), normal_color);
}

static void cb_aabb(tb_aabb box, bool fat, void *ctx)
{
	draw_ctx *d = ctx;
	SDL_FPoint a = to_screen(&d->h->render, d->t, box.lower), b = to_screen(&d->h->render, d->t, box.upper);
	SDL_FRect rect = {a.x, b.y, b.x - a.x, a.y - b.y};
	set_color(d->t->renderer, fat ? fat_aabb_color : aabb_color);
	SDL_RenderDrawRectF(d->t->renderer, &rect);
}

static void draw_grid(th_host *h, th_target *t)
{
	th_render *r = &h->render;
	double step = 1.0;
	while (step * r->scale < 24.0) step *= 5.0;
	tb_vec2 lo = tb_v2((float)(r->cam_x - 0.5 * t->width / r->scale), (float)(r->cam_y - 0.5 * t->height / r->scale));
	tb_vec2 hi = tb_v2((float)(r->cam_x + 0.5 * t->width / r->scale), (float)(r->cam_y + 0.5 * t->height / r->scale));
	SDL_Renderer *sr = t->renderer;
	SDL_Color minor = {255, 255, 255, 10}, axis = {255, 255, 255, 34};
	for (double x = floor(lo.x / step) * step; x <= hi.x; x += step) {
		SDL_FPoint p = to_screen(r, t, tb_v2((float)x, 0.0f));
		set_color(sr, fabs(x) < 1e-9 ? axis : minor);
		SDL_RenderDrawLineF(sr, p.x, 0.0f, p.x, (float)t->height);
	}
	for (double y = floor(lo.y / step) * step; y <= hi.y; y += step) {
		SDL_FPoint p = to_screen(r, t, tb_v2(0.0f, (float)y));
		set_color(sr, fabs(y) < 1e-9 ? axis : minor);
		SDL_RenderDrawLineF(sr, 0.0f, p.y, (float)t->width, p.y);
	}
}

void th_render_frame(th_host *h, th_target *t, float alpha)
{
	th_render *r = &h->render;
	th_camera *c = &h->camera;
	r->alpha = alpha;
	r->scale = c->scale;
	if (c->following) {
		r->cam_x = c->prev_x + alpha * (c->x - c->prev_x);
		r->cam_y = c->prev_y + alpha * (c->y - c->prev_y);
	} else {
		r->cam_x = c->x;
		r->cam_y = c->y;
	}
	SDL_Renderer *sr = t->renderer;
	SDL_SetRenderDrawBlendMode(sr, SDL_BLENDMODE_BLEND);
	set_color(sr, background);
	SDL_RenderClear(sr);
	draw_grid(h, t);

	draw_ctx d = {h, t};
	if (h->world != NULL) {
		if (r->layers[TH_LAYER_SHAPES]) draw_shapes(&d);
		th_image_draw_sprites(h, t);
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
			tb_world_draw(h->world, &dd);
		}
	}
	r->alpha = 1.0f;

	r->target = t;
	r->text_box_count = 0;
	th_level_draw(h);
	r->target = NULL;
	SDL_SetRenderDrawBlendMode(sr, SDL_BLENDMODE_BLEND);

	th_overlay_draw(h, t);
	th_overlay_draw_error(h, t);
}

/* ---------------- gfx: the level's own drawing, in world coordinates ---------------- */

static double check_finite(lua_State *L, int arg)
{
	double v = luaL_checknumber(L, arg);
	luaL_argcheck(L, isfinite(v), arg, "finite number expected");
	return v;
}

/* An optional leading "fill"/"line" mode; returns the index of the next argument. */
static int check_mode(lua_State *L, bool *fill)
{
	*fill = false;
	if (lua_type(L, 1) != LUA_TSTRING) return 1;
	const char *m = lua_tostring(L, 1);
	if (strcmp(m, "fill") == 0) {
		*fill = true;
	} else if (strcmp(m, "line") != 0) {
		luaL_argerror(L, 1, "draw mode 'fill' or 'line' expected");
	}
	return 2;
}

/* Reads points either as a flat list of numbers from arg on, or as one table. */
static int check_points(lua_State *L, int arg, tb_vec2 *out, int capacity, int minimum)
{
	int n = 0;
	if (lua_istable(L, arg)) {
		int len = (int)luaL_len(L, arg);
		luaL_argcheck(L, len % 2 == 0, arg, "even number of coordinates expected");
		for (int i = 1; i <= len && n < capacity; i += 2, ++n) {
			lua_rawgeti(L, arg, i);
			lua_rawgeti(L, arg, i + 1);
			int okx = 0, oky = 0;
			out[n].x = (float)lua_tonumberx(L, -2, &okx);
			out[n].y = (float)lua_tonumberx(L, -1, &oky);
			luaL_argcheck(L, okx && oky && tb_is_valid_vec2(out[n]), arg, "table of finite numbers expected");
			lua_pop(L, 2);
		}
	} else {
		int top = lua_gettop(L);
		luaL_argcheck(L, (top - arg + 1) % 2 == 0, top, "even number of coordinates expected");
		for (int i = arg; i + 1 <= top && n < capacity; i += 2, ++n) {
			out[n].x = (float)check_finite(L, i);
			out[n].y = (float)check_finite(L, i + 1);
		}
	}
	if (lua_istable(L, arg) ? luaL_len(L, arg) > 2 * capacity : lua_gettop(L) - arg + 1 > 2 * capacity) {
		luaL_error(L, "at most %d points expected", capacity);
	}
	if (n < minimum) luaL_error(L, "at least %d points expected, got %d", minimum, n);
	return n;
}

static int gfx_color(lua_State *L)
{
	th_host *h = host_up(L);
	double c[4] = {1, 1, 1, 1};
	if (lua_istable(L, 1)) {
		for (int i = 0; i < 4; ++i) {
			lua_rawgeti(L, 1, i + 1);
			if (!lua_isnil(L, -1)) c[i] = luaL_checknumber(L, -1);
			lua_pop(L, 1);
		}
	} else {
		for (int i = 0; i < 4; ++i) c[i] = i < 3 ? luaL_checknumber(L, i + 1) : luaL_optnumber(L, i + 1, 1.0);
	}
	Uint8 v[4];
	for (int i = 0; i < 4; ++i) {
		double x = isfinite(c[i]) ? c[i] : 0.0;
		x = x < 0 ? 0 : x > 1 ? 1 : x;
		v[i] = (Uint8)lround(x * 255.0);
	}
	h->render.color = (SDL_Color){v[0], v[1], v[2], v[3]};
	return 0;
}

static int gfx_line(lua_State *L)
{
	th_host *h = host_up(L);
	tb_vec2 pts[256];
	int n = check_points(L, 1, pts, 256, 2);
	th_target *t = h->render.target;
	if (t == NULL) return 0;
	SDL_FPoint s[256];
	for (int i = 0; i < n; ++i) s[i] = to_screen(&h->render, t, pts[i]);
	stroke(t->renderer, s, n, false, h->render.color);
	return 0;
}

static int gfx_poly(lua_State *L)
{
	th_host *h = host_up(L);
	bool fill;
	int arg = check_mode(L, &fill);
	tb_vec2 pts[256];
	int n = check_points(L, arg, pts, 256, 3);
	th_target *t = h->render.target;
	if (t == NULL) return 0;
	SDL_FPoint s[256];
	for (int i = 0; i < n; ++i) s[i] = to_screen(&h->render, t, pts[i]);
	if (fill) {
		fill_convex(&h->render, t->renderer, s, n, h->render.color);
	} else {
		stroke(t->renderer, s, n, true, h->render.color);
	}
	return 0;
}

static int gfx_circle(lua_State *L)
{
	th_host *h = host_up(L);
	bool fill;
	int arg = check_mode(L, &fill);
	double x = check_finite(L, arg), y = check_finite(L, arg + 1), radius = check_finite(L, arg + 2);
	luaL_argcheck(L, radius >= 0, arg + 2, "non-negative radius expected");
	th_target *t = h->render.target;
	if (t == NULL) return 0;
	draw_ctx d = {h, t};
	world_circle(&d, tb_v2((float)x, (float)y), (float)radius, h->render.color, h->render.color, fill, !fill);
	return 0;
}

/* rect(mode, cx, cy, w, h [, angle]): centred, like a body's box. */
static int gfx_rect(lua_State *L)
{
	th_host *h = host_up(L);
	bool fill;
	int arg = check_mode(L, &fill);
	double x = check_finite(L, arg), y = check_finite(L, arg + 1);
	double w = check_finite(L, arg + 2), hh = check_finite(L, arg + 3);
	double angle = luaL_optnumber(L, arg + 4, 0.0);
	luaL_argcheck(L, isfinite(angle), arg + 4, "finite number expected");
	th_target *t = h->render.target;
	if (t == NULL) return 0;
	tb_transform xf = {tb_v2((float)x, (float)y), tb_make_rot((float)angle)};
	tb_vec2 corners[4] = {{-0.5f * (float)w, -0.5f * (float)hh},
	                      {0.5f * (float)w, -0.5f * (float)hh},
	                      {0.5f * (float)w, 0.5f * (float)hh},
	                      {-0.5f * (float)w, 0.5f * (float)hh}};
	SDL_FPoint s[4];
	for (int i = 0; i < 4; ++i) s[i] = to_screen(&h->render, t, tb_transform_point(xf, corners[i]));
	if (fill) {
		fill_convex(&h->render, t->renderer, s, 4, h->render.color);
	} else {
		stroke(t->renderer, s, 4, true, h->render.color);
	}
	return 0;
}

static int text_common(lua_State *L, bool world)
{
	th_host *h = host_up(L);
	lua_settop(L, 5); /* luaL_tolstring pushes: keep the optional arguments below it */
	double x = check_finite(L, 1), y = check_finite(L, 2);
	luaL_checkany(L, 3);
	const char *s = luaL_tolstring(L, 3, NULL);
	lua_Integer scale = luaL_optinteger(L, 4, 2);
	luaL_argcheck(L, scale >= 1 && scale <= 16, 4, "text scale out of range 1..16");
	const char *align = luaL_optstring(L, 5, "left");
	luaL_argcheck(L, strcmp(align, "left") == 0 || strcmp(align, "center") == 0 || strcmp(align, "right") == 0, 5,
	              "'left', 'center' or 'right' expected");
	th_target *t = h->render.target;
	if (t == NULL) return 0;
	SDL_FPoint p = {(float)x, (float)y};
	if (world) p = to_screen(&h->render, t, tb_v2((float)x, (float)y));
	int w = 0, text_h = 0;
	th_font_measure(s, (int)scale, &w, &text_h);
	if (align[0] == 'c') p.x -= 0.5f * (float)w;
	if (align[0] == 'r') p.x -= (float)w;
	if (!world && h->render.text_box_count < (int)(sizeof(h->render.text_boxes) / sizeof(h->render.text_boxes[0]))) {
		h->render.text_boxes[h->render.text_box_count++] = (SDL_Rect){(int)p.x, (int)p.y, w + (int)scale, text_h + (int)scale};
	}
	th_render_text(t, p.x, p.y, (int)scale, s, h->render.color);
	return 0;
}

/* text(x, y, string [, scale [, align]]): top-left anchored at a world point. */
static int gfx_text(lua_State *L) { return text_common(L, true); }
/* screen_text(px, py, ...): the same in pixels from the top-left corner. */
static int gfx_screen_text(lua_State *L) { return text_common(L, false); }

static int gfx_width(lua_State *L)
{
	lua_pushinteger(L, host_up(L)->camera.view_w);
	return 1;
}

static int gfx_height(lua_State *L)
{
	lua_pushinteger(L, host_up(L)->camera.view_h);
	return 1;
}

void th_render_open_lua(th_host *h, lua_State *L)
{
	static const luaL_Reg gfx[] = {
		{"color", gfx_color},   {"line", gfx_line},   {"poly", gfx_poly},
		{"circle", gfx_circle}, {"rect", gfx_rect},   {"text", gfx_text},
		{"screen_text", gfx_screen_text},             {"width", gfx_width},
		{"height", gfx_height}, {NULL, NULL},
	};
	static const luaL_Reg camera[] = {
		{"follow", camera_follow},
		{"to_world", camera_to_world},
		{"to_screen", camera_to_screen},
		{NULL, NULL},
	};
	/* tumble table on top */
	lua_newtable(L);
	lua_pushlightuserdata(L, h);
	luaL_setfuncs(L, gfx, 1);
	th_image_open_lua(h, L);
	lua_setfield(L, -2, "gfx");

	lua_newtable(L);
	lua_pushlightuserdata(L, h);
	luaL_setfuncs(L, camera, 1);
	lua_pushnumber(L, h->camera.x);
	lua_setfield(L, -2, "x");
	lua_pushnumber(L, h->camera.y);
	lua_setfield(L, -2, "y");
	lua_pushnumber(L, h->camera.scale);
	lua_setfield(L, -2, "scale");
	lua_pushvalue(L, -1);
	h->camera_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	lua_setfield(L, -2, "camera");
}
