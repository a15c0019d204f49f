/* tumble host: Canvas, SpriteBatch and Particles (canvas.h).
 *
 *   local c = gfx.canvas(256, 256)          -- pixels; drawn at 32 px a metre
 *   gfx.set_canvas(c); gfx.clear(); gfx.circle("fill", 128, 128, 60); gfx.set_canvas()
 *   gfx.draw(c, 0, 5)                       -- like an Image
 *
 *   local b = gfx.batch(tile, 500)          -- up to 500 sprites of one image
 *   b:add(x, y, {frame = 3})                -- gfx.draw's options
 *   gfx.draw(b)
 *
 *   local p = gfx.particles({max = 200, rate = 50, life = {0.5, 1}, speed = {1, 3}})
 *   p:move_to(x, y); p:update(dt); gfx.draw(p)
 *
 * A canvas is an Image whose pixels gfx draws into, through a software
 * renderer of its own; while it is the target, gfx's coordinates are its
 * pixels from the top-left (y down), as after gfx.origin. Its size is held
 * to the largest view (th_view_fits) and its pixels count against the
 * images' memory budget. Sprites and particles live in memory of the Lua
 * state (a userdata each), so --mem-limit holds them too. */
#include "canvas.h"
#include "level.h"
#include "picture.h"
#include "camera.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>

static const char active_key = 'c'; /* registry: the canvas drawn into, kept alive while it is */

static th_level *host_up(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

/* ================= Canvas ================= */

typedef struct th_canvas {
	th_image image; /* first: a canvas is drawn as an Image */
	th_target target;
	bool has_target;
	th_level *lv;
} th_canvas;

static th_canvas *test_canvas(lua_State *L, int arg)
{
	return luaL_testudata(L, arg, TH_CANVAS_MT);
}

static th_canvas *check_canvas(lua_State *L, int arg)
{
	th_canvas *c = luaL_checkudata(L, arg, TH_CANVAS_MT);
	if (c->image.surface == NULL) luaL_argerror(L, arg, "canvas was freed");
	return c;
}

/* What the software renderer has queued goes into the pixels. */
static void canvas_flush(th_canvas *c)
{
	if (c->has_target) SDL_RenderFlush(c->target.renderer);
}

th_image *th_canvas_image(lua_State *L, int arg)
{
	th_canvas *c = test_canvas(L, arg);
	if (c == NULL || c->image.surface == NULL) return NULL;
	canvas_flush(c);
	/* the canvas drawn into may have changed since its texture was made */
	if (c->lv->render->gfx.in_canvas && c->lv->render->gfx.canvas == c) c->image.version += 1;
	return &c->image;
}

void th_canvas_leave(th_level *lv)
{
	th_render *r = lv->render;
	th_gfx_state *g = &r->gfx;
	if (!g->in_canvas) return;
	th_canvas *c = g->canvas;
	if (c != NULL) {
		canvas_flush(c);
		c->image.version += 1;
	}
	r->target = g->screen;
	g->cur = g->screen_frame;
	g->depth = g->screen_depth;
	g->in_canvas = false;
	g->canvas = NULL;
	g->screen = NULL;
	if (lv->L != NULL) {
		lua_pushnil(lv->L);
		lua_rawsetp(lv->L, LUA_REGISTRYINDEX, &active_key);
	}
}

static int canvas_gc(lua_State *L)
{
	th_canvas *c = luaL_checkudata(L, 1, TH_CANVAS_MT);
	th_render *r = c->lv->render;
	if (r->gfx.in_canvas && r->gfx.canvas == c) {
		/* only at the state's close: the canvas drawn into is kept alive */
		r->target = r->gfx.screen;
		r->gfx.cur = r->gfx.screen_frame;
		r->gfx.in_canvas = false;
		r->gfx.canvas = NULL;
	}
	if (c->has_target) th_target_free(&c->target);
	c->has_target = false;
	if (c->image.surface != NULL) {
		c->image.media->image_bytes -= (size_t)c->image.surface->pitch * (size_t)c->image.surface->h;
		SDL_FreeSurface(c->image.surface);
		c->image.surface = NULL;
	}
	return 0;
}

static int canvas_tostring(lua_State *L)
{
	th_canvas *c = luaL_checkudata(L, 1, TH_CANVAS_MT);
	if (c->image.surface == NULL) {
		lua_pushliteral(L, "Canvas(freed)");
	} else {
		lua_pushfstring(L, "Canvas(%dx%d)", c->image.surface->w, c->image.surface->h);
	}
	return 1;
}

/* canvas:pixel(x, y) -> r, g, b, a in 0..1 (x, y in pixels from the top-left, from 0) */
static int canvas_pixel(lua_State *L)
{
	th_canvas *c = check_canvas(L, 1);
	canvas_flush(c);
	SDL_Surface *s = c->image.surface;
	lua_Integer x = luaL_checkinteger(L, 2), y = luaL_checkinteger(L, 3);
	luaL_argcheck(L, x >= 0 && x < s->w, 2, "x out of the canvas");
	luaL_argcheck(L, y >= 0 && y < s->h, 3, "y out of the canvas");
	const Uint8 *p = (const Uint8 *)s->pixels + y * s->pitch + x * 4;
	for (int i = 0; i < 4; ++i) lua_pushnumber(L, p[i] / 255.0);
	return 4;
}

/* What each type has, in the order its __index dispatches on (and
 * tumble._host_introspect reports). */
static const char *const canvas_props[] = {"width", "height", NULL};
static const char *const canvas_methods[] = {"pixel", NULL};
static const char *const batch_props[] = {"count", "max", "image", NULL};
static const char *const batch_methods[] = {"add", "set", "clear", NULL};
static const char *const particles_props[] = {"count", "max", NULL};
static const char *const particles_methods[] = {"emit", "update", "move_to", "set", "reset", NULL};

static int name_index(const char *const names[], const char *k)
{
	int i = 0;
	while (names[i] != NULL && strcmp(names[i], k) != 0) i += 1;
	return names[i] != NULL ? i : -1;
}

static int canvas_index(lua_State *L)
{
	th_canvas *c = check_canvas(L, 1);
	const char *k = luaL_checkstring(L, 2);
	switch (name_index(canvas_props, k)) {
	case 0: lua_pushinteger(L, c->image.surface->w); return 1;
	case 1: lua_pushinteger(L, c->image.surface->h); return 1;
	default: break;
	}
	if (name_index(canvas_methods, k) == 0) {
		lua_pushcfunction(L, canvas_pixel);
		return 1;
	}
	return luaL_error(L, "Canvas has no property '%s' (width, height, pixel)", k);
}

static int read_only(lua_State *L)
{
	const char *name = luaL_getmetafield(L, 1, "__name") == LUA_TSTRING ? lua_tostring(L, -1) : "it";
	return luaL_error(L, "%s is read-only (cannot assign '%s')", name, luaL_tolstring(L, 2, NULL));
}

static const char *const canvas_names[] = {"ppm", "filter", NULL};

/* gfx.canvas(w, h [, {ppm, filter}]) -> Canvas, transparent */
static int gfx_canvas(lua_State *L)
{
	th_level *lv = host_up(L);
	lua_Integer w = luaL_checkinteger(L, 1), h = luaL_checkinteger(L, 2);
	if (!th_view_fits(w, h)) {
		return luaL_error(L, "gfx.canvas: a canvas of %I x %I pixels is too large (1 to %d a side, at most %d pixels)",
		                  w, h, TH_VIEW_MAX_SIDE, TH_VIEW_MAX_PIXELS);
	}
	double ppm = 32.0;
	bool nearest = false;
	if (!lua_isnoneornil(L, 3)) {
		luaL_checktype(L, 3, LUA_TTABLE);
		th_image_check_options(L, 3, canvas_names);
		ppm = th_opt_number(L, 3, "ppm", 32.0, 1e-3, 1e6);
		lua_getfield(L, 3, "filter");
		if (!lua_isnil(L, -1)) {
			const char *f = lua_tostring(L, -1);
			if (lua_type(L, -1) != LUA_TSTRING || (strcmp(f, "linear") != 0 && strcmp(f, "nearest") != 0)) {
				luaL_argerror(L, 3, "field 'filter': 'linear' or 'nearest' expected");
			}
			nearest = strcmp(f, "nearest") == 0;
		}
		lua_pop(L, 1);
	}
	th_media *m = lv->media;
	size_t bytes = (size_t)w * (size_t)h * 4;
	if (m->image_bytes + bytes > m->image_budget) lua_gc(L, LUA_GCCOLLECT);
	if (m->image_bytes + bytes > m->image_budget) {
		return luaL_error(L, "gfx.canvas: the images' memory limit (%d MB) is reached", (int)(m->image_budget >> 20));
	}
	th_canvas *c = lua_newuserdatauv(L, sizeof(*c), 0);
	memset(c, 0, sizeof(*c));
	c->lv = lv;
	c->image.media = m;
	luaL_setmetatable(L, TH_CANVAS_MT);
	SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, (int)w, (int)h, 32, SDL_PIXELFORMAT_RGBA32);
	if (s == NULL) return luaL_error(L, "gfx.canvas: %s", SDL_GetError());
	SDL_SetSurfaceBlendMode(s, SDL_BLENDMODE_NONE);
	c->image.surface = s;
	m->image_bytes += (size_t)s->pitch * (size_t)s->h;
	c->image.key = ++m->next_image_key;
	c->image.version = 1;
	c->image.ppm = ppm;
	c->image.nearest = nearest;
	c->image.frame_w = (int)w;
	c->image.frame_h = (int)h;
	c->image.cols = 1;
	c->image.frame_count = 1;
	return 1;
}

/* gfx.set_canvas([canvas]): gfx draws into canvas (its pixels, y down) until
 * gfx.set_canvas() or the end of level.draw. */
static int gfx_set_canvas(lua_State *L)
{
	th_level *lv = host_up(L);
	th_render *r = lv->render;
	th_gfx_state *g = &r->gfx;
	if (lua_isnoneornil(L, 1)) {
		th_canvas_leave(lv);
		return 0;
	}
	th_canvas *c = check_canvas(L, 1);
	if (!c->has_target) {
		if (!th_target_init_surface(&c->target, c->image.surface)) {
			return luaL_error(L, "gfx.set_canvas: %s", SDL_GetError());
		}
		c->has_target = true;
	}
	if (g->in_canvas) {
		th_canvas *old = g->canvas;
		if (old != NULL) {
			canvas_flush(old);
			old->image.version += 1;
		}
	} else {
		g->screen = r->target;
		g->screen_frame = g->cur;
		g->screen_depth = g->depth;
	}
	g->in_canvas = true;
	g->canvas = c;
	r->target = &c->target;
	g->cur = (th_gfx_frame){{1, 0, 0, 1, 0, 0}, false, 1.0};
	c->image.version += 1;
	th_target_sweep_textures(&c->target);
	lua_pushvalue(L, 1);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &active_key);
	return 0;
}

/* gfx.get_canvas() -> the canvas drawn into, or nil */
static int gfx_get_canvas(lua_State *L)
{
	th_level *lv = host_up(L);
	if (!lv->render->gfx.in_canvas || lua_rawgetp(L, LUA_REGISTRYINDEX, &active_key) != LUA_TUSERDATA) {
		lua_settop(L, 0);
		lua_pushnil(L);
	}
	return 1;
}

/* ================= SpriteBatch ================= */

typedef struct th_batch {
	int count, max;
	th_quad *quads; /* the userdata at uservalue 2 */
} th_batch;

static th_batch *check_batch(lua_State *L, int arg)
{
	return luaL_checkudata(L, arg, TH_BATCH_MT);
}

/* The batch's image (uservalue 1) onto the stack, and its record. */
static th_image *batch_image(lua_State *L, int arg)
{
	lua_getiuservalue(L, arg, 1);
	th_image *img = th_image_check(L, lua_gettop(L));
	lua_pop(L, 1);
	return img;
}

/* Sprite i (0-based) from x, y at xarg and the options after them. */
static void batch_put(lua_State *L, th_batch *b, int i, int xarg)
{
	th_image *img = batch_image(L, 1);
	draw_spec d;
	th_image_default_spec(&d);
	d.x = luaL_checknumber(L, xarg);
	d.y = luaL_checknumber(L, xarg + 1);
	luaL_argcheck(L, isfinite(d.x) && fabs(d.x) <= 1e6, xarg, "number in [-1e6, 1e6] expected");
	luaL_argcheck(L, isfinite(d.y) && fabs(d.y) <= 1e6, xarg + 1, "number in [-1e6, 1e6] expected");
	if (!lua_isnoneornil(L, xarg + 2)) {
		luaL_checktype(L, xarg + 2, LUA_TTABLE);
		th_image_check_options(L, xarg + 2, th_image_draw_names);
		th_image_read_spec(L, xarg + 2, img, &d, true);
	}
	th_image_spec_quad(img, &d, &b->quads[i]);
}

/* batch:add(x, y [, options]) -> the sprite's index */
static int batch_add(lua_State *L)
{
	th_batch *b = check_batch(L, 1);
	if (b->count >= b->max) return luaL_error(L, "SpriteBatch is full (%d sprites); make it with a larger max", b->max);
	batch_put(L, b, b->count, 2);
	b->count += 1;
	lua_pushinteger(L, b->count);
	return 1;
}

/* batch:set(i, x, y [, options]) */
static int batch_set(lua_State *L)
{
	th_batch *b = check_batch(L, 1);
	lua_Integer i = luaL_checkinteger(L, 2);
	luaL_argcheck(L, i >= 1 && i <= b->count, 2, lua_pushfstring(L, "sprite index in [1, %d] expected", b->count));
	batch_put(L, b, (int)i - 1, 3);
	return 0;
}

static int batch_clear(lua_State *L)
{
	check_batch(L, 1)->count = 0;
	return 0;
}

static int batch_index(lua_State *L)
{
	th_batch *b = check_batch(L, 1);
	const char *k = luaL_checkstring(L, 2);
	static const lua_CFunction methods[] = {batch_add, batch_set, batch_clear};
	switch (name_index(batch_props, k)) {
	case 0: lua_pushinteger(L, b->count); return 1;
	case 1: lua_pushinteger(L, b->max); return 1;
	case 2: lua_getiuservalue(L, 1, 1); return 1;
	default: break;
	}
	int m = name_index(batch_methods, k);
	if (m >= 0) {
		lua_pushcfunction(L, methods[m]);
		return 1;
	}
	return luaL_error(L, "SpriteBatch has no property '%s' (count, max, image, add, set, clear)", k);
}

static int batch_tostring(lua_State *L)
{
	th_batch *b = check_batch(L, 1);
	lua_pushfstring(L, "SpriteBatch(%d of %d)", b->count, b->max);
	return 1;
}

/* gfx.batch(image [, max]) -> SpriteBatch (max: 1..100000, default 1000) */
static int gfx_batch(lua_State *L)
{
	th_image_check(L, 1);
	lua_Integer max = luaL_optinteger(L, 2, 1000);
	luaL_argcheck(L, max >= 1 && max <= TH_BATCH_MAX, 2, "sprite count in [1, 100000] expected");
	th_batch *b = lua_newuserdatauv(L, sizeof(*b), 2);
	memset(b, 0, sizeof(*b));
	luaL_setmetatable(L, TH_BATCH_MT);
	lua_pushvalue(L, 1);
	lua_setiuservalue(L, -2, 1);
	/* the sprites' memory is the Lua state's, under its limit */
	b->quads = lua_newuserdatauv(L, (size_t)max * sizeof(th_quad), 0);
	lua_setiuservalue(L, -2, 2);
	b->max = (int)max;
	return 1;
}

/* ================= Particles ================= */

typedef struct th_particle {
	float x, y, vx, vy, age, life, angle, spin;
} th_particle;

#define PARTICLE_COLORS 8

typedef struct th_particles {
	int count, max;
	th_particle *p; /* the userdata at uservalue 2 */
	uint64_t rng;
	double x, y;                 /* where new particles start */
	double rate, pending;        /* per second; the fraction not emitted yet */
	double life[2], speed[2], spin[2];
	double direction, spread;    /* radians */
	double gravity[2];           /* metres per second squared */
	double size[2];              /* metres, at birth and at death */
	double area[2];              /* half extents of the box new particles start in */
	SDL_Color colors[PARTICLE_COLORS];
	int color_count;
} th_particles;

static th_particles *check_particles(lua_State *L, int arg)
{
	return luaL_checkudata(L, arg, TH_PARTICLES_MT);
}

/* xorshift64*: the same particles for the same seed, on every machine */
static double rnd(th_particles *ps)
{
	ps->rng ^= ps->rng >> 12;
	ps->rng ^= ps->rng << 25;
	ps->rng ^= ps->rng >> 27;
	return (double)((ps->rng * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
}

static double between(th_particles *ps, const double r[2])
{
	return r[0] + (r[1] - r[0]) * rnd(ps);
}

/* A field that is one number or a {lo, hi} range. */
static void field_range(lua_State *L, int t, const char *name, double out[2], double lo, double hi)
{
	lua_pushstring(L, name);
	lua_rawget(L, t);
	int type = lua_type(L, -1);
	if (type == LUA_TNIL) {
		lua_pop(L, 1);
		return;
	}
	double v[2];
	bool ok = true;
	if (type == LUA_TNUMBER) {
		v[0] = v[1] = lua_tonumber(L, -1);
	} else if (type == LUA_TTABLE) {
		for (int i = 0; i < 2; ++i) {
			lua_rawgeti(L, -1, i + 1);
			int isnum = 0;
			v[i] = lua_tonumberx(L, -1, &isnum);
			if (!isnum || lua_type(L, -1) != LUA_TNUMBER) ok = false;
			lua_pop(L, 1);
		}
	} else {
		ok = false;
	}
	for (int i = 0; i < 2 && ok; ++i) ok = isfinite(v[i]) && v[i] >= lo && v[i] <= hi;
	if (!ok) {
		luaL_argerror(L, t, lua_pushfstring(L, "field '%s': a number or {min, max} in [%f, %f] expected", name, lo, hi));
	}
	out[0] = v[0];
	out[1] = v[1];
	lua_pop(L, 1);
}

static bool read_rgba(lua_State *L, int idx, SDL_Color *out)
{
	if (!lua_istable(L, idx)) return false;
	double c[4] = {1, 1, 1, 1};
	for (int i = 0; i < 4; ++i) {
		int type = lua_rawgeti(L, idx, i + 1);
		double v = lua_tonumber(L, -1);
		lua_pop(L, 1);
		if (type == LUA_TNIL && i == 3) break;
		if (type != LUA_TNUMBER || !isfinite(v)) return false;
		c[i] = v < 0 ? 0 : v > 1 ? 1 : v;
	}
	*out = (SDL_Color){(Uint8)lround(c[0] * 255), (Uint8)lround(c[1] * 255), (Uint8)lround(c[2] * 255),
	                   (Uint8)lround(c[3] * 255)};
	return true;
}

static const char *const particle_names[] = {"max", "rate", "life", "speed", "direction", "spread", "gravity",
                                             "size", "colors", "spin", "area", "seed", "x", "y", NULL};

/* The settings of table t (every one optional). */
static void particles_read(lua_State *L, int t, th_particles *ps)
{
	th_image_check_options(L, t, particle_names);
	ps->rate = th_opt_number(L, t, "rate", ps->rate, 0, 1e6);
	field_range(L, t, "life", ps->life, 1e-3, 1e3);
	field_range(L, t, "speed", ps->speed, -1e6, 1e6);
	field_range(L, t, "spin", ps->spin, -1e6, 1e6);
	field_range(L, t, "size", ps->size, 0, 1e4);
	field_range(L, t, "area", ps->area, 0, 1e6);
	ps->direction = th_opt_number(L, t, "direction", ps->direction, -1e6, 1e6);
	ps->spread = th_opt_number(L, t, "spread", ps->spread, 0, 1e6);
	ps->x = th_opt_number(L, t, "x", ps->x, -1e6, 1e6);
	ps->y = th_opt_number(L, t, "y", ps->y, -1e6, 1e6);
	lua_getfield(L, t, "gravity");
	if (!lua_isnil(L, -1)) {
		double g[2] = {0, 0};
		bool ok = lua_istable(L, -1);
		for (int i = 0; i < 2 && ok; ++i) {
			lua_rawgeti(L, -1, i + 1);
			g[i] = lua_tonumber(L, -1);
			ok = lua_type(L, -1) == LUA_TNUMBER && isfinite(g[i]) && fabs(g[i]) <= 1e6;
			lua_pop(L, 1);
		}
		if (!ok) luaL_argerror(L, t, "field 'gravity': {x, y} numbers in [-1e6, 1e6] expected");
		ps->gravity[0] = g[0];
		ps->gravity[1] = g[1];
	}
	lua_pop(L, 1);
	lua_getfield(L, t, "colors");
	if (!lua_isnil(L, -1)) {
		int col = lua_gettop(L);
		lua_Integer n = lua_istable(L, col) ? luaL_len(L, col) : 0;
		if (n < 1 || n > PARTICLE_COLORS) {
			luaL_argerror(L, t, "field 'colors': a list of 1 to 8 colours {r, g, b [, a]} expected");
		}
		for (int i = 0; i < n; ++i) {
			lua_rawgeti(L, col, i + 1);
			if (!read_rgba(L, lua_gettop(L), &ps->colors[i])) {
				luaL_argerror(L, t, "field 'colors': a list of 1 to 8 colours {r, g, b [, a]} expected");
			}
			lua_pop(L, 1);
		}
		ps->color_count = (int)n;
	}
	lua_pop(L, 1);
	lua_getfield(L, t, "seed");
	if (!lua_isnil(L, -1)) {
		int isint = 0;
		lua_Integer seed = lua_tointegerx(L, -1, &isint);
		if (!isint) luaL_argerror(L, t, "field 'seed': integer expected");
		ps->rng = (uint64_t)seed * 0x9E3779B97F4A7C15ull + 1;
	}
	lua_pop(L, 1);
}

static void emit_one(th_particles *ps)
{
	th_particle *p = &ps->p[ps->count++];
	double a = ps->direction + ps->spread * (rnd(ps) - 0.5);
	double v = between(ps, ps->speed);
	p->x = (float)(ps->x + ps->area[0] * (2.0 * rnd(ps) - 1.0));
	p->y = (float)(ps->y + ps->area[1] * (2.0 * rnd(ps) - 1.0));
	p->vx = (float)(v * cos(a));
	p->vy = (float)(v * sin(a));
	p->age = 0.0f;
	p->life = (float)between(ps, ps->life);
	p->angle = 0.0f;
	p->spin = (float)between(ps, ps->spin);
}

/* ps:emit(n): n particles at once (as many as there is room for); -> how many */
static int particles_emit(lua_State *L)
{
	th_particles *ps = check_particles(L, 1);
	lua_Integer n = luaL_checkinteger(L, 2);
	luaL_argcheck(L, n >= 0, 2, "non-negative count expected");
	lua_Integer room = ps->max - ps->count;
	if (n > room) n = room;
	for (lua_Integer i = 0; i < n; ++i) emit_one(ps);
	lua_pushinteger(L, n);
	return 1;
}

/* ps:update(dt): ages and moves the particles, and emits at the rate */
static int particles_update(lua_State *L)
{
	th_particles *ps = check_particles(L, 1);
	double dt = luaL_checknumber(L, 2);
	luaL_argcheck(L, isfinite(dt) && dt >= 0 && dt <= 1, 2, "time step in [0, 1] seconds expected");
	int kept = 0;
	for (int i = 0; i < ps->count; ++i) {
		th_particle p = ps->p[i];
		p.age += (float)dt;
		if (p.age >= p.life) continue;
		p.vx += (float)(ps->gravity[0] * dt);
		p.vy += (float)(ps->gravity[1] * dt);
		p.x += (float)(p.vx * dt);
		p.y += (float)(p.vy * dt);
		p.angle += (float)(p.spin * dt);
		ps->p[kept++] = p;
	}
	ps->count = kept;
	ps->pending += ps->rate * dt;
	double room = (double)(ps->max - ps->count);
	if (ps->pending > room) ps->pending = room;
	while (ps->pending >= 1.0 && ps->count < ps->max) {
		emit_one(ps);
		ps->pending -= 1.0;
	}
	return 0;
}

/* ps:move_to(x, y): where new particles start */
static int particles_move_to(lua_State *L)
{
	th_particles *ps = check_particles(L, 1);
	double x = luaL_checknumber(L, 2), y = luaL_checknumber(L, 3);
	luaL_argcheck(L, isfinite(x) && fabs(x) <= 1e6, 2, "number in [-1e6, 1e6] expected");
	luaL_argcheck(L, isfinite(y) && fabs(y) <= 1e6, 3, "number in [-1e6, 1e6] expected");
	ps->x = x;
	ps->y = y;
	return 0;
}

static int particles_set(lua_State *L)
{
	th_particles *ps = check_particles(L, 1);
	luaL_checktype(L, 2, LUA_TTABLE);
	lua_getfield(L, 2, "max");
	bool has_max = !lua_isnil(L, -1);
	lua_pop(L, 1);
	if (has_max) return luaL_argerror(L, 2, "field 'max' is given when the emitter is made");
	particles_read(L, 2, ps);
	return 0;
}

static int particles_reset(lua_State *L)
{
	th_particles *ps = check_particles(L, 1);
	ps->count = 0;
	ps->pending = 0;
	return 0;
}

static int particles_index(lua_State *L)
{
	th_particles *ps = check_particles(L, 1);
	const char *k = luaL_checkstring(L, 2);
	static const lua_CFunction methods[] = {particles_emit, particles_update, particles_move_to, particles_set,
	                                        particles_reset};
	switch (name_index(particles_props, k)) {
	case 0: lua_pushinteger(L, ps->count); return 1;
	case 1: lua_pushinteger(L, ps->max); return 1;
	default: break;
	}
	int m = name_index(particles_methods, k);
	if (m >= 0) {
		lua_pushcfunction(L, methods[m]);
		return 1;
	}
	return luaL_error(L, "Particles has no property '%s' (count, max, emit, update, move_to, set, reset)", k);
}

static int particles_tostring(lua_State *L)
{
	th_particles *ps = check_particles(L, 1);
	lua_pushfstring(L, "Particles(%d of %d)", ps->count, ps->max);
	return 1;
}

/* gfx.particles([image,] [settings]) -> Particles */
static int gfx_particles(lua_State *L)
{
	int t = 1;
	bool has_image = false;
	if (!lua_isnoneornil(L, 1) && !lua_istable(L, 1)) {
		th_image_check(L, 1);
		has_image = true;
		t = 2;
	}
	lua_Integer max = 1000;
	if (!lua_isnoneornil(L, t)) {
		luaL_checktype(L, t, LUA_TTABLE);
		lua_getfield(L, t, "max");
		if (!lua_isnil(L, -1)) {
			int isint = 0;
			max = lua_tointegerx(L, -1, &isint);
			if (!isint || max < 1 || max > TH_PARTICLES_MAX) {
				luaL_argerror(L, t, "field 'max': particle count in [1, 100000] expected");
			}
		}
		lua_pop(L, 1);
	}
	th_particles *ps = lua_newuserdatauv(L, sizeof(*ps), 2);
	memset(ps, 0, sizeof(*ps));
	luaL_setmetatable(L, TH_PARTICLES_MT);
	int ud = lua_gettop(L);
	ps->max = (int)max;
	ps->rng = 0x9E3779B97F4A7C15ull + 1;
	ps->life[0] = ps->life[1] = 1.0;
	ps->speed[0] = ps->speed[1] = 1.0;
	ps->direction = M_PI / 2;
	ps->spread = 2 * M_PI;
	ps->size[0] = ps->size[1] = 0.1;
	ps->colors[0] = (SDL_Color){255, 255, 255, 255};
	ps->color_count = 1;
	if (has_image) {
		lua_pushvalue(L, 1);
		lua_setiuservalue(L, ud, 1);
	}
	ps->p = lua_newuserdatauv(L, (size_t)max * sizeof(th_particle), 0);
	lua_setiuservalue(L, ud, 2);
	if (!lua_isnoneornil(L, t)) particles_read(L, t, ps);
	lua_settop(L, ud);
	return 1;
}

/* ================= drawing them ================= */

static SDL_Color lerp_color(SDL_Color a, SDL_Color b, double f)
{
	return (SDL_Color){(Uint8)lround(a.r + (b.r - a.r) * f), (Uint8)lround(a.g + (b.g - a.g) * f),
	                   (Uint8)lround(a.b + (b.b - a.b) * f), (Uint8)lround(a.a + (b.a - a.a) * f)};
}

static void draw_particles(lua_State *L, th_level *lv, th_particles *ps, double dx, double dy)
{
	th_render *r = lv->render;
	th_target *t = r->target;
	if (t == NULL || ps->count == 0) return;
	SDL_Texture *tex = NULL;
	th_image *img = NULL;
	if (lua_getiuservalue(L, 1, 1) != LUA_TNIL) img = th_image_check(L, lua_gettop(L));
	lua_pop(L, 1);
	SDL_FPoint uv[4] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
	double aspect = 1.0;
	if (img != NULL) {
		tex = th_target_texture_version(t, img->key, img->version, img->surface, img->nearest);
		if (tex == NULL) return;
		SDL_SetTextureBlendMode(tex, r->gfx.blend);
		SDL_SetTextureColorMod(tex, 255, 255, 255);
		SDL_SetTextureAlphaMod(tex, 255);
		aspect = (double)img->frame_h / img->frame_w;
		float u1 = (float)img->frame_w / (float)img->surface->w, v1 = (float)img->frame_h / (float)img->surface->h;
		SDL_FPoint first[4] = {{0, v1}, {u1, v1}, {u1, 0}, {0, 0}};
		memcpy(uv, first, sizeof(uv));
	} else {
		SDL_SetRenderDrawBlendMode(t->renderer, r->gfx.blend);
	}
	enum { CHUNK = 64 };
	th_quad q[CHUNK];
	int n = 0;
	for (int i = 0; i < ps->count; ++i) {
		const th_particle *p = &ps->p[i];
		double f = p->life > 0 ? p->age / p->life : 1.0;
		double size = ps->size[0] + (ps->size[1] - ps->size[0]) * f;
		double hw = 0.5 * size, hh = 0.5 * size * aspect;
		double c = cos(p->angle), s = sin(p->angle);
		static const double cx[4] = {-1, 1, 1, -1}, cy[4] = {-1, -1, 1, 1};
		th_quad *e = &q[n++];
		for (int k = 0; k < 4; ++k) {
			double lx = cx[k] * hw, ly = cy[k] * hh;
			e->x[k] = p->x + c * lx - s * ly;
			e->y[k] = p->y + s * lx + c * ly;
			e->uv[k] = uv[k];
		}
		if (ps->color_count == 1) {
			e->tint = ps->colors[0];
		} else {
			double at = f * (ps->color_count - 1);
			int k = (int)at;
			if (k >= ps->color_count - 1) k = ps->color_count - 2;
			e->tint = lerp_color(ps->colors[k], ps->colors[k + 1], at - k);
		}
		if (n == CHUNK) {
			th_render_quads(r, t, tex, q, n, dx, dy);
			n = 0;
		}
	}
	if (n > 0) th_render_quads(r, t, tex, q, n, dx, dy);
}

static void draw_batch(lua_State *L, th_level *lv, th_batch *b, double dx, double dy)
{
	th_render *r = lv->render;
	th_target *t = r->target;
	if (t == NULL || b->count == 0) return;
	th_image *img = batch_image(L, 1);
	SDL_Texture *tex = th_target_texture_version(t, img->key, img->version, img->surface, img->nearest);
	if (tex == NULL) return;
	SDL_SetTextureBlendMode(tex, r->gfx.blend);
	SDL_SetTextureColorMod(tex, 255, 255, 255);
	SDL_SetTextureAlphaMod(tex, 255);
	th_render_quads(r, t, tex, b->quads, b->count, dx, dy);
}

/* gfx.draw for batches and particles (moved by x, y); anything else goes to
 * the images' gfx.draw (upvalue 2). */
static int gfx_draw_any(lua_State *L)
{
	th_level *lv = host_up(L);
	th_batch *b = luaL_testudata(L, 1, TH_BATCH_MT);
	th_particles *ps = b == NULL ? luaL_testudata(L, 1, TH_PARTICLES_MT) : NULL;
	if (b == NULL && ps == NULL) {
		lua_pushvalue(L, lua_upvalueindex(2));
		lua_insert(L, 1);
		lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
		return lua_gettop(L);
	}
	double x = luaL_optnumber(L, 2, 0.0), y = luaL_optnumber(L, 3, 0.0);
	luaL_argcheck(L, isfinite(x) && fabs(x) <= 1e6, 2, "number in [-1e6, 1e6] expected");
	luaL_argcheck(L, isfinite(y) && fabs(y) <= 1e6, 3, "number in [-1e6, 1e6] expected");
	if (b != NULL) {
		draw_batch(L, lv, b, x, y);
	} else {
		draw_particles(L, lv, ps, x, y);
	}
	return 0;
}

static void new_type(lua_State *L, const char *mt, const char *name, lua_CFunction index, lua_CFunction gc,
                     lua_CFunction tostring)
{
	if (luaL_newmetatable(L, mt)) {
		lua_pushcfunction(L, index);
		lua_setfield(L, -2, "__index");
		lua_pushcfunction(L, read_only);
		lua_setfield(L, -2, "__newindex");
		if (gc != NULL) {
			lua_pushcfunction(L, gc);
			lua_setfield(L, -2, "__gc");
		}
		lua_pushcfunction(L, tostring);
		lua_setfield(L, -2, "__tostring");
		lua_pushstring(L, name);
		lua_setfield(L, -2, "__name");
		/* getmetatable gives the type's name: __gc and __index stay out of reach */
		lua_pushstring(L, name);
		lua_setfield(L, -2, "__metatable");
	}
	lua_pop(L, 1);
}

static void describe_type(lua_State *L, const char *field, const char *const props[], const char *const methods[])
{
	lua_newtable(L);
	th_api_push_names(L, props);
	lua_setfield(L, -2, "properties");
	th_api_push_names(L, methods);
	lua_setfield(L, -2, "methods");
	lua_setfield(L, -2, field);
}

void th_canvas_describe(lua_State *L)
{
	describe_type(L, "canvas", canvas_props, canvas_methods);
	describe_type(L, "batch", batch_props, batch_methods);
	describe_type(L, "particles", particles_props, particles_methods);
	th_api_push_names(L, canvas_names);
	lua_setfield(L, -2, "canvas_options");
	th_api_push_names(L, particle_names);
	lua_setfield(L, -2, "particle_settings");
}

void th_canvas_open_lua(th_level *lv, lua_State *L)
{
	static const luaL_Reg fns[] = {
		{"canvas", gfx_canvas},   {"set_canvas", gfx_set_canvas}, {"get_canvas", gfx_get_canvas},
		{"batch", gfx_batch},     {"particles", gfx_particles},    {NULL, NULL},
	};
	new_type(L, TH_CANVAS_MT, "Canvas", canvas_index, canvas_gc, canvas_tostring);
	new_type(L, TH_BATCH_MT, "SpriteBatch", batch_index, NULL, batch_tostring);
	new_type(L, TH_PARTICLES_MT, "Particles", particles_index, NULL, particles_tostring);
	/* gfx table on top, with the images' draw in it */
	lua_pushlightuserdata(L, lv);
	luaL_setfuncs(L, fns, 1);
	lua_pushlightuserdata(L, lv);
	lua_getfield(L, -2, "draw");
	lua_pushcclosure(L, gfx_draw_any, 2);
	lua_setfield(L, -2, "draw");
	lua_pushnil(L);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &active_key);
}
