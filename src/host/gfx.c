/* tumble host: tumble.gfx, the level's own drawing in world coordinates (and
 * screen_text in pixels). It draws through the render into the target the
 * level's draw was given; outside draw, calls only check their arguments. */
#include "level.h"
#include "font.h"

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

static int gfx_color(lua_State *L)
{
	th_level *lv = host_up(L);
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
	lv->render->color = (SDL_Color){v[0], v[1], v[2], v[3]};
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
	for (int i = 0; i < n; ++i) s[i] = th_render_to_screen(lv->render, t, pts[i]);
	th_render_stroke(t->renderer, s, n, false, lv->render->color);
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
	for (int i = 0; i < n; ++i) s[i] = th_render_to_screen(lv->render, t, pts[i]);
	if (fill) {
		th_render_fill_convex(lv->render, t->renderer, s, n, lv->render->color);
	} else {
		th_render_stroke(t->renderer, s, n, true, lv->render->color);
	}
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
	th_render_circle(lv->render, t, tb_v2((float)x, (float)y), (float)radius, lv->render->color, lv->render->color, fill, !fill);
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
	for (int i = 0; i < 4; ++i) s[i] = th_render_to_screen(lv->render, t, tb_transform_point(xf, corners[i]));
	if (fill) {
		th_render_fill_convex(lv->render, t->renderer, s, 4, lv->render->color);
	} else {
		th_render_stroke(t->renderer, s, 4, true, lv->render->color);
	}
	return 0;
}

static int text_common(lua_State *L, bool world)
{
	th_level *lv = host_up(L);
	lua_settop(L, 5); /* luaL_tolstring pushes: keep the optional arguments below it */
	double x = check_finite(L, 1), y = check_finite(L, 2);
	luaL_checkany(L, 3);
	const char *s = luaL_tolstring(L, 3, NULL);
	lua_Integer scale = luaL_optinteger(L, 4, 2);
	luaL_argcheck(L, scale >= 1 && scale <= 16, 4, "text scale out of range 1..16");
	const char *align = luaL_optstring(L, 5, "left");
	luaL_argcheck(L, strcmp(align, "left") == 0 || strcmp(align, "center") == 0 || strcmp(align, "right") == 0, 5,
	              "'left', 'center' or 'right' expected");
	th_target *t = lv->render->target;
	if (t == NULL) return 0;
	SDL_FPoint p = {(float)x, (float)y};
	if (world) p = th_render_to_screen(lv->render, t, tb_v2((float)x, (float)y));
	int w = 0, text_h = 0;
	th_font_measure(s, (int)scale, &w, &text_h);
	if (align[0] == 'c') p.x -= 0.5f * (float)w;
	if (align[0] == 'r') p.x -= (float)w;
	if (!world && lv->render->text_box_count < (int)(sizeof(lv->render->text_boxes) / sizeof(lv->render->text_boxes[0]))) {
		lv->render->text_boxes[lv->render->text_box_count++] = (SDL_Rect){(int)p.x, (int)p.y, w + (int)scale, text_h + (int)scale};
	}
	th_render_text(t, p.x, p.y, (int)scale, s, lv->render->color);
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

void th_gfx_open_lua(th_level *lv, lua_State *L)
{
	static const luaL_Reg gfx[] = {
		{"color", gfx_color},   {"line", gfx_line},   {"poly", gfx_poly},
		{"circle", gfx_circle}, {"rect", gfx_rect},   {"text", gfx_text},
		{"screen_text", gfx_screen_text},             {"width", gfx_width},
		{"height", gfx_height}, {NULL, NULL},
	};
	/* tumble table on top */
	lua_newtable(L);
	lua_pushlightuserdata(L, lv);
	luaL_setfuncs(L, gfx, 1);
	th_image_open_lua(lv, L);
	lua_setfield(L, -2, "gfx");
}
