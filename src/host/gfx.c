/* tumble host: tumble.gfx, the level's own drawing in world coordinates (and
 * screen_text in pixels). It draws through the render into the target the
 * level's draw was given; outside draw, calls only check their arguments.
 *
 * Shapes, text and images go through a transform (gfx.push, gfx.translate,
 * gfx.rotate, gfx.scale, gfx.origin, gfx.pop) that starts each draw as the
 * camera's; gfx.origin makes it the target's pixels (y down). The fast paths
 * of the camera alone draw exactly as before there was a transform. */
#include "level.h"
#include "font.h"
#include "text.h"
#include "canvas.h"

#include <math.h>
#include <string.h>
#include <lauxlib.h>

static th_level *host_up(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

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

/* The level's blend mode on the renderer, for the shapes about to be drawn. */
static void prepare(th_render *r, th_target *t)
{
	SDL_SetRenderDrawBlendMode(t->renderer, r->gfx.blend);
}

/* A convex outline of screen points: filled, or stroked at the line width. */
static void shape(th_render *r, th_target *t, const SDL_FPoint *pts, int n, bool fill)
{
	if (fill) {
		th_render_fill_convex(r, t->renderer, pts, n, r->color);
	} else {
		th_render_stroke_wide(r, t->renderer, pts, n, true, r->gfx.line_width, r->color);
	}
}

/* Reads a colour as r, g, b [, a] numbers from arg on, or one table at arg;
 * each clamped to 0..1. */
static SDL_Color check_color(lua_State *L, int arg, double alpha)
{
	double c[4] = {1, 1, 1, alpha};
	if (lua_istable(L, arg)) {
		for (int i = 0; i < 4; ++i) {
			lua_rawgeti(L, arg, i + 1);
			if (!lua_isnil(L, -1)) c[i] = luaL_checknumber(L, -1);
			lua_pop(L, 1);
		}
	} else {
		for (int i = 0; i < 4; ++i) c[i] = i < 3 ? luaL_checknumber(L, arg + i) : luaL_optnumber(L, arg + i, alpha);
	}
	Uint8 v[4];
	for (int i = 0; i < 4; ++i) {
		double x = isfinite(c[i]) ? c[i] : 0.0;
		x = x < 0 ? 0 : x > 1 ? 1 : x;
		v[i] = (Uint8)lround(x * 255.0);
	}
	return (SDL_Color){v[0], v[1], v[2], v[3]};
}

static int gfx_color(lua_State *L)
{
	host_up(L)->render->color = check_color(L, 1, 1.0);
	return 0;
}

static int gfx_line(lua_State *L)
{
	th_level *lv = host_up(L);
	tb_vec2 pts[256];
	int n = check_points(L, 1, pts, 256, 2);
	th_target *t = lv->render->target;
	if (t == NULL) return 0;
	SDL_FPoint s[256];
	for (int i = 0; i < n; ++i) s[i] = th_render_gfx_point(lv->render, t, pts[i].x, pts[i].y);
	prepare(lv->render, t);
	th_render_stroke_wide(lv->render, t->renderer, s, n, false, lv->render->gfx.line_width, lv->render->color);
	return 0;
}

static int gfx_poly(lua_State *L)
{
	th_level *lv = host_up(L);
	bool fill;
	int arg = check_mode(L, &fill);
	tb_vec2 pts[256];
	int n = check_points(L, arg, pts, 256, 3);
	th_target *t = lv->render->target;
	if (t == NULL) return 0;
	SDL_FPoint s[256];
	for (int i = 0; i < n; ++i) s[i] = th_render_gfx_point(lv->render, t, pts[i].x, pts[i].y);
	prepare(lv->render, t);
	shape(lv->render, t, s, n, fill);
	return 0;
}

static int gfx_circle(lua_State *L)
{
	th_level *lv = host_up(L);
	bool fill;
	int arg = check_mode(L, &fill);
	double x = check_finite(L, arg), y = check_finite(L, arg + 1), radius = check_finite(L, arg + 2);
	luaL_argcheck(L, radius >= 0, arg + 2, "non-negative radius expected");
	th_target *t = lv->render->target;
	if (t == NULL) return 0;
	th_render *r = lv->render;
	prepare(r, t);
	if (r->gfx.cur.camera && (fill || r->gfx.line_width <= 1.0f)) {
		th_render_circle(r, t, tb_v2((float)x, (float)y), (float)radius, r->color, r->color, fill, !fill);
		return 0;
	}
	/* through the transform: a polygon of the circle's points, an ellipse
	 * under a scale of two factors */
	const th_xform *m = &r->gfx.cur.xf;
	double reach = r->gfx.cur.camera ? r->scale : sqrt(fabs(m->a * m->d - m->b * m->c));
	double rpx = radius * reach;
	int n = !(rpx * 0.75 > 16.0) ? 16 : rpx * 0.75 > 96.0 ? 96 : (int)(rpx * 0.75);
	SDL_FPoint pts[96];
	for (int i = 0; i < n; ++i) {
		double a = 2.0 * M_PI * i / n;
		pts[i] = th_render_gfx_point(r, t, x + radius * cos(a), y + radius * sin(a));
	}
	shape(r, t, pts, n, fill);
	return 0;
}

/* rect(mode, cx, cy, w, h [, angle]): centred, like a body's box. */
static int gfx_rect(lua_State *L)
{
	th_level *lv = host_up(L);
	bool fill;
	int arg = check_mode(L, &fill);
	double x = check_finite(L, arg), y = check_finite(L, arg + 1);
	double w = check_finite(L, arg + 2), hh = check_finite(L, arg + 3);
	double angle = luaL_optnumber(L, arg + 4, 0.0);
	luaL_argcheck(L, isfinite(angle), arg + 4, "finite number expected");
	th_target *t = lv->render->target;
	if (t == NULL) return 0;
	tb_transform xf = {tb_v2((float)x, (float)y), tb_make_rot((float)angle)};
	tb_vec2 corners[4] = {{-0.5f * (float)w, -0.5f * (float)hh},
	                      {0.5f * (float)w, -0.5f * (float)hh},
	                      {0.5f * (float)w, 0.5f * (float)hh},
	                      {-0.5f * (float)w, 0.5f * (float)hh}};
	SDL_FPoint s[4];
	for (int i = 0; i < 4; ++i) {
		tb_vec2 c = tb_transform_point(xf, corners[i]);
		s[i] = th_render_gfx_point(lv->render, t, c.x, c.y);
	}
	prepare(lv->render, t);
	shape(lv->render, t, s, 4, fill);
	return 0;
}

/* The pixel size text is drawn at: the font's size, times scale, times the
 * transform's own scale; within what the host draws. */
static int text_px(const th_text_font *f, double scale, double transform)
{
	double px = f->px * scale * transform;
	if (!(px >= 1.0)) return 1;
	return px > TH_TEXT_MAX_DRAW_SIZE ? TH_TEXT_MAX_DRAW_SIZE : (int)lround(px);
}

/* The scale argument at arg: a number in (0, 16]; by default 2 with the
 * built-in font (20 pixels, as ever) and 1 with a font of the level's. */
static double check_text_scale(lua_State *L, int arg, bool font_set)
{
	double scale = luaL_optnumber(L, arg, font_set ? 1.0 : 2.0);
	luaL_argcheck(L, isfinite(scale) && scale > 0 && scale <= 16, arg, "text scale out of range (0, 16]");
	return scale;
}

static int text_common(lua_State *L, bool world)
{
	th_level *lv = host_up(L);
	lua_settop(L, 5); /* luaL_tolstring pushes: keep the optional arguments below it */
	double x = check_finite(L, 1), y = check_finite(L, 2);
	luaL_checkany(L, 3);
	size_t len = 0;
	const char *s = luaL_tolstring(L, 3, &len);
	th_text_font font;
	bool font_set = th_text_current(lv, L, &font);
	double scale = check_text_scale(L, 4, font_set);
	const char *align = luaL_optstring(L, 5, "left");
	luaL_argcheck(L, strcmp(align, "left") == 0 || strcmp(align, "center") == 0 || strcmp(align, "right") == 0, 5,
	              "'left', 'center' or 'right' expected");
	th_render *r = lv->render;
	th_target *t = r->target;
	if (t == NULL) return 0;
	SDL_FPoint p = {(float)x, (float)y};
	int px;
	if (world) {
		p = th_render_gfx_point(r, t, x, y);
		px = text_px(&font, scale, th_render_gfx_scale(r));
	} else {
		px = text_px(&font, scale, 1.0);
	}
	int w = 0, text_h = 0;
	th_text_measure(&font, px, s, len, &w, &text_h);
	if (align[0] == 'c') p.x -= 0.5f * (float)w;
	if (align[0] == 'r') p.x -= (float)w;
	p.x = roundf(p.x);
	p.y = roundf(p.y);
	int shadow = (px + 5) / 10;
	if (!world && !r->gfx.in_canvas &&
	    r->text_box_count < (int)(sizeof(r->text_boxes) / sizeof(r->text_boxes[0]))) {
		r->text_boxes[r->text_box_count++] = (SDL_Rect){(int)p.x, (int)p.y, w + shadow, text_h + shadow};
	}
	/* a drop shadow keeps text readable over any shape */
	SDL_Color c = r->color, dark = {0, 0, 0, (Uint8)(c.a * 3 / 4)};
	th_text_draw(&font, t, px, p.x + (float)shadow, p.y + (float)shadow, s, len, dark, r->gfx.blend);
	th_text_draw(&font, t, px, p.x, p.y, s, len, c, r->gfx.blend);
	return 0;
}

/* text_size(text [, scale]) -> w, h: the pixels text takes in the current font */
static int gfx_text_size(lua_State *L)
{
	th_level *lv = host_up(L);
	lua_settop(L, 2);
	luaL_checkany(L, 1);
	size_t len = 0;
	const char *s = luaL_tolstring(L, 1, &len);
	th_text_font font;
	bool font_set = th_text_current(lv, L, &font);
	double scale = check_text_scale(L, 2, font_set);
	int w = 0, h = 0;
	th_text_measure(&font, text_px(&font, scale, 1.0), s, len, &w, &h);
	lua_pushinteger(L, w);
	lua_pushinteger(L, h);
	return 2;
}

/* text(x, y, string [, scale [, align]]): top-left anchored at a world point. */
static int gfx_text(lua_State *L) { return text_common(L, true); }
/* screen_text(px, py, ...): the same in pixels from the top-left corner. */
static int gfx_screen_text(lua_State *L) { return text_common(L, false); }

/* ---------------- the transform ---------------- */

static th_gfx_state *state(lua_State *L)
{
	return &host_up(L)->render->gfx;
}

/* The camera's transform as a matrix, so the level's can build on it. */
static th_xform camera_xform(const th_render *r, const th_target *t)
{
	return (th_xform){r->scale, 0.0, 0.0, -r->scale, 0.5 * t->width - r->cam_x * r->scale,
	                  th_target_center_y(t) + r->cam_y * r->scale};
}

/* The camera's transform now: the frame's view inside draw, else the
 * level's camera as it stands. */
static th_xform camera_now(th_level *lv)
{
	th_render *r = lv->render;
	if (r->target != NULL) return camera_xform(r, r->target);
	const th_camera *c = &lv->camera;
	return (th_xform){c->scale, 0.0, 0.0, -c->scale, 0.5 * c->view_w - c->x * c->scale, 0.5 * c->view_h + c->y * c->scale};
}

/* The current transform as a matrix (materialising the camera's). */
static th_xform *current(lua_State *L)
{
	th_level *lv = host_up(L);
	th_render *r = lv->render;
	if (r->gfx.cur.camera) {
		r->gfx.cur.xf = camera_now(lv);
		r->gfx.cur.camera = false;
	}
	return &r->gfx.cur.xf;
}

/* m = m * n (n applies first) */
static void post_multiply(th_xform *m, th_xform n)
{
	th_xform o = *m;
	m->a = o.a * n.a + o.c * n.b;
	m->b = o.b * n.a + o.d * n.b;
	m->c = o.a * n.c + o.c * n.d;
	m->d = o.b * n.c + o.d * n.d;
	m->e = o.a * n.e + o.c * n.f + o.e;
	m->f = o.b * n.e + o.d * n.f + o.f;
}

/* A transform keeps to finite numbers a picture can be drawn from: a huge
 * or degenerate one is refused before it reaches the renderer. */
static void check_xform(lua_State *L, const th_xform *m, th_xform saved)
{
	double v[6] = {m->a, m->b, m->c, m->d, m->e, m->f};
	for (int i = 0; i < 6; ++i) {
		if (!isfinite(v[i]) || fabs(v[i]) > 1e12) {
			host_up(L)->render->gfx.cur.xf = saved;
			luaL_error(L, "the transform would leave the range drawing works in (|x| <= 1e12)");
		}
	}
}

static int gfx_push(lua_State *L)
{
	th_gfx_state *g = state(L);
	if (g->depth >= TH_GFX_STACK_MAX) {
		return luaL_error(L, "gfx.push: the transform stack is full (%d deep); is a gfx.pop missing?", TH_GFX_STACK_MAX);
	}
	g->stack[g->depth++] = g->cur;
	return 0;
}

static int gfx_pop(lua_State *L)
{
	th_gfx_state *g = state(L);
	if (g->depth <= 0) return luaL_error(L, "gfx.pop without a gfx.push");
	g->cur = g->stack[--g->depth];
	return 0;
}

static int gfx_translate(lua_State *L)
{
	double x = check_finite(L, 1), y = check_finite(L, 2);
	th_xform *m = current(L), saved = *m;
	post_multiply(m, (th_xform){1, 0, 0, 1, x, y});
	check_xform(L, m, saved);
	return 0;
}

static int gfx_rotate(lua_State *L)
{
	double a = check_finite(L, 1);
	luaL_argcheck(L, fabs(a) <= 1e6, 1, "angle in [-1e6, 1e6] radians expected");
	th_xform *m = current(L), saved = *m;
	double c = cos(a), s = sin(a);
	post_multiply(m, (th_xform){c, s, -s, c, 0, 0});
	check_xform(L, m, saved);
	return 0;
}

static int gfx_scale(lua_State *L)
{
	double sx = check_finite(L, 1);
	double sy = lua_isnoneornil(L, 2) ? sx : check_finite(L, 2);
	th_xform *m = current(L), saved = *m;
	post_multiply(m, (th_xform){sx, 0, 0, sy, 0, 0});
	check_xform(L, m, saved);
	return 0;
}

/* origin(): the target's own pixels from its top-left, y down. */
static int gfx_origin(lua_State *L)
{
	th_gfx_state *g = state(L);
	g->cur = (th_gfx_frame){{1, 0, 0, 1, 0, 0}, false, 1.0};
	return 0;
}

/* transform_point(x, y) -> px, py: where a point of the current space lands
 * in the target's pixels. */
static int gfx_transform_point(lua_State *L)
{
	th_level *lv = host_up(L);
	double x = check_finite(L, 1), y = check_finite(L, 2);
	th_render *r = lv->render;
	th_xform m = r->gfx.cur.camera ? camera_now(lv) : r->gfx.cur.xf;
	lua_pushnumber(L, m.a * x + m.c * y + m.e);
	lua_pushnumber(L, m.b * x + m.d * y + m.f);
	return 2;
}

/* ---------------- state ---------------- */

/* line_width([w]) -> the width before: lines and outlines, in pixels */
static int gfx_line_width(lua_State *L)
{
	th_gfx_state *g = state(L);
	lua_pushnumber(L, g->line_width);
	if (!lua_isnoneornil(L, 1)) {
		double w = check_finite(L, 1);
		luaL_argcheck(L, w > 0 && w <= 256, 1, "line width in pixels in (0, 256] expected");
		g->line_width = (float)w;
	}
	return 1;
}

static const struct {
	const char *name;
	SDL_BlendMode mode;
} blend_modes[] = {
	{"alpha", SDL_BLENDMODE_BLEND},
	{"add", SDL_BLENDMODE_ADD},
	{"multiply", SDL_BLENDMODE_MUL},
	{"replace", SDL_BLENDMODE_NONE},
};

/* blend_mode([mode]) -> the mode before: "alpha", "add", "multiply", "replace" */
static int gfx_blend_mode(lua_State *L)
{
	th_gfx_state *g = state(L);
	int n = (int)(sizeof(blend_modes) / sizeof(blend_modes[0]));
	const char *before = "alpha";
	for (int i = 0; i < n; ++i) {
		if (blend_modes[i].mode == g->blend) before = blend_modes[i].name;
	}
	lua_pushstring(L, before);
	if (lua_isnoneornil(L, 1)) return 1;
	const char *m = luaL_checkstring(L, 1);
	for (int i = 0; i < n; ++i) {
		if (strcmp(m, blend_modes[i].name) == 0) {
			g->blend = blend_modes[i].mode;
			return 1;
		}
	}
	return luaL_argerror(L, 1, lua_pushfstring(L, "unknown blend mode '%s'; valid modes: alpha, add, multiply, replace", m));
}

/* background(r, g, b [, a]) or background({r, g, b [, a]}): what each frame
 * is cleared to, from the next clear on (set it in load for the first). */
static int gfx_background(lua_State *L)
{
	state(L)->background = check_color(L, 1, 1.0);
	return 0;
}

/* clear([r, g, b [, a]]): the whole target (the screen or a canvas) in one
 * colour; by default the background on the screen, transparent in a canvas. */
static int gfx_clear(lua_State *L)
{
	th_level *lv = host_up(L);
	th_render *r = lv->render;
	SDL_Color c = lua_isnoneornil(L, 1) ? (r->gfx.in_canvas ? (SDL_Color){0, 0, 0, 0} : r->gfx.background)
	                                    : check_color(L, 1, 1.0);
	th_target *t = r->target;
	if (t == NULL) return 0;
	SDL_SetRenderDrawColor(t->renderer, c.r, c.g, c.b, c.a);
	SDL_RenderClear(t->renderer);
	return 0;
}

static int gfx_width(lua_State *L)
{
	th_render *r = host_up(L)->render;
	if (r->gfx.in_canvas && r->target != NULL) {
		lua_pushinteger(L, r->target->width);
		return 1;
	}
	lua_pushinteger(L, host_up(L)->camera.view_w);
	return 1;
}

static int gfx_height(lua_State *L)
{
	th_render *r = host_up(L)->render;
	if (r->gfx.in_canvas && r->target != NULL) {
		lua_pushinteger(L, r->target->height);
		return 1;
	}
	lua_pushinteger(L, host_up(L)->camera.view_h);
	return 1;
}

void th_gfx_begin(th_level *lv, th_target *t)
{
	th_gfx_state *g = &lv->render->gfx;
	/* a canvas update or load left set: its drawing is done */
	if (g->in_canvas) th_canvas_leave(lv);
	lv->render->target = t;
	g->cur = (th_gfx_frame){{0}, true, lv->render->scale};
	g->depth = 0;
	g->in_canvas = false;
	g->canvas = NULL;
	g->screen = NULL;
}

void th_gfx_end(th_level *lv)
{
	th_render *r = lv->render;
	if (r->gfx.in_canvas) th_canvas_leave(lv);
	r->gfx.cur = (th_gfx_frame){{0}, true, r->scale};
	r->gfx.depth = 0;
	th_target *t = r->target;
	r->target = NULL;
	if (t != NULL) SDL_SetRenderDrawBlendMode(t->renderer, SDL_BLENDMODE_BLEND);
}

void th_gfx_open_lua(th_level *lv, lua_State *L)
{
	static const luaL_Reg gfx[] = {
		{"color", gfx_color},
		{"line", gfx_line},
		{"poly", gfx_poly},
		{"circle", gfx_circle},
		{"rect", gfx_rect},
		{"text", gfx_text},
		{"screen_text", gfx_screen_text},
		{"text_size", gfx_text_size},
		{"width", gfx_width},
		{"height", gfx_height},
		{"push", gfx_push},
		{"pop", gfx_pop},
		{"translate", gfx_translate},
		{"rotate", gfx_rotate},
		{"scale", gfx_scale},
		{"origin", gfx_origin},
		{"transform_point", gfx_transform_point},
		{"line_width", gfx_line_width},
		{"blend_mode", gfx_blend_mode},
		{"background", gfx_background},
		{"clear", gfx_clear},
		{NULL, NULL},
	};
	/* a new run of the level starts from the defaults */
	th_gfx_state *g = &lv->render->gfx;
	g->background = th_render_background;
	g->line_width = 1.0f;
	g->blend = SDL_BLENDMODE_BLEND;
	g->cur = (th_gfx_frame){{0}, true, 1.0};
	g->depth = 0;
	lv->render->color = (SDL_Color){255, 255, 255, 255};
	/* tumble table on top */
	lua_newtable(L);
	lua_pushlightuserdata(L, lv);
	luaL_setfuncs(L, gfx, 1);
	th_image_open_lua(lv, L);
	th_text_open_lua(lv, L);
	th_canvas_open_lua(lv, L);
	lua_setfield(L, -2, "gfx");
}
