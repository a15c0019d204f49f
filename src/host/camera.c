/* tumble host: the level's camera (camera.h). tumble.camera is a plain Lua
 * table the level may write (x, y, scale, target); the host reads it back at
 * the start of every frame and after every step. */
#include "camera.h"
#include "level.h"

#include <math.h>
#include <lauxlib.h>

tb_vec2 th_camera_to_world(const th_camera *c, double px, double py)
{
	double x = c->x + (px - 0.5 * c->view_w) / c->scale;
	double y = c->y - (py - 0.5 * c->view_h) / c->scale;
	return tb_v2((float)x, (float)y);
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

void th_camera_push_table(th_level *lv, lua_State *L)
{
	lua_rawgeti(L, LUA_REGISTRYINDEX, lv->tumble_ref);
	if (lua_istable(L, -1)) {
		lua_pushliteral(L, "camera");
		lua_rawget(L, -2);
		lua_remove(L, -2);
		if (lua_istable(L, -1)) return;
	}
	lua_pop(L, 1);
	lua_rawgeti(L, LUA_REGISTRYINDEX, lv->camera_ref);
}

int th_camera_sync_lua(lua_State *L)
{
	th_level *lv = lua_touserdata(L, 1);
	th_camera *c = &lv->camera;
	th_camera_push_table(lv, L);
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

int th_camera_unfollow_lua(lua_State *L)
{
	th_level *lv = lua_touserdata(L, 1);
	th_camera_push_table(lv, L);
	lua_pushnil(L);
	lua_setfield(L, -2, "target");
	return 0;
}

int th_camera_set_lua(lua_State *L)
{
	th_level *lv = lua_touserdata(L, 1);
	lua_rawgeti(L, LUA_REGISTRYINDEX, lv->camera_ref);
	lua_pushvalue(L, 2);
	lua_setfield(L, -2, "x");
	lua_pushvalue(L, 3);
	lua_setfield(L, -2, "y");
	lua_pushvalue(L, 4);
	lua_setfield(L, -2, "scale");
	return 0;
}

static th_level *host_up(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

static int camera_follow(lua_State *L)
{
	th_level *lv = host_up(L);
	th_camera_push_table(lv, L);
	if (lua_isnoneornil(L, 1)) {
		lua_pushnil(L);
		lua_setfield(L, -2, "target");
		lv->camera.following = false;
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
	th_level *lv = host_up(L);
	tb_vec2 p = th_camera_to_world(&lv->camera, luaL_checknumber(L, 1), luaL_checknumber(L, 2));
	lua_pushnumber(L, p.x);
	lua_pushnumber(L, p.y);
	return 2;
}

static int camera_to_screen(lua_State *L)
{
	th_level *lv = host_up(L);
	th_camera *c = &lv->camera;
	double x = luaL_checknumber(L, 1), y = luaL_checknumber(L, 2);
	lua_pushnumber(L, 0.5 * c->view_w + (x - c->x) * c->scale);
	lua_pushnumber(L, 0.5 * c->view_h - (y - c->y) * c->scale);
	return 2;
}

void th_camera_open_lua(th_level *lv, lua_State *L)
{
	static const luaL_Reg camera[] = {
		{"follow", camera_follow},
		{"to_world", camera_to_world},
		{"to_screen", camera_to_screen},
		{NULL, NULL},
	};
	/* tumble table on top */
	lua_newtable(L);
	lua_pushlightuserdata(L, lv);
	luaL_setfuncs(L, camera, 1);
	lua_pushnumber(L, lv->camera.x);
	lua_setfield(L, -2, "x");
	lua_pushnumber(L, lv->camera.y);
	lua_setfield(L, -2, "y");
	lua_pushnumber(L, lv->camera.scale);
	lua_setfield(L, -2, "scale");
	lua_pushvalue(L, -1);
	lv->camera_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	lua_setfield(L, -2, "camera");
}
