/* tumble host: the level module. It owns the Lua state: creating it (with the
 * tumble module and the host's fields), running the level file, calling its
 * callbacks under a traceback handler and the sandbox budget, and re-running
 * it on a hot reload while the world and its bodies stay. */
#include "host.h"
#include "tumble/tumble_lua.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>
#include <lualib.h>

static const char builtin_demo[] =
	"-- tumble's built-in demo: a pyramid of boxes, balls, capsules and a\n"
	"-- spinning kinematic paddle. Space drops a ball at the mouse.\n"
	"local level = {}\n"
	"local world\n"
	"\n"
	"local function ball(x, y, r)\n"
	"  local b = world:body{ type = 'dynamic', x = x, y = y }\n"
	"  b:circle{ r = r, density = 1, friction = 0.4, restitution = 0.3 }\n"
	"  return b\n"
	"end\n"
	"\n"
	"function level.load(w)\n"
	"  world = w\n"
	"  tumble.camera.x, tumble.camera.y, tumble.camera.scale = 0, 7.5, 34\n"
	"  local ground = world:body{ type = 'static' }\n"
	"  ground:box{ w = 36, h = 1, x = 0, y = -0.5 }\n"
	"  ground:box{ w = 1, h = 12, x = -18.5, y = 6 }\n"
	"  ground:box{ w = 1, h = 12, x = 18.5, y = 6 }\n"
	"  ground:box{ w = 6, h = 0.4, x = 13, y = 9, angle = -0.35 }\n"
	"  local rows = 10\n"
	"  for row = 0, rows - 1 do\n"
	"    for i = 0, rows - 1 - row do\n"
	"      local x = -8 + (i - (rows - 1 - row) / 2) * 1.05\n"
	"      local b = world:body{ type = 'dynamic', x = x, y = 0.5 + row }\n"
	"      b:box{ w = 1, h = 1, friction = 0.6 }\n"
	"    end\n"
	"  end\n"
	"  for i = 1, 10 do\n"
	"    ball(10 + (i % 4) * 1.1, 11 + i * 1.3, 0.3 + 0.1 * (i % 3))\n"
	"  end\n"
	"  for i = 1, 3 do\n"
	"    local c = world:body{ type = 'dynamic', x = 2 + i * 1.6, y = 1 + i * 2, angle = 0.4 * i }\n"
	"    c:capsule{ -0.5, 0, 0.5, 0, 0.3 }\n"
	"  end\n"
	"  local paddle = world:body{ type = 'kinematic', x = 4, y = 7 }\n"
	"  paddle:box{ w = 4, h = 0.3 }\n"
	"  paddle.spin = 1.2\n"
	"end\n"
	"\n"
	"function level.keypressed(key)\n"
	"  if key == 'space' then\n"
	"    local x, y = tumble.input.mouse()\n"
	"    ball(x, y, 0.4)\n"
	"  end\n"
	"end\n"
	"\n"
	"function level.draw(gfx)\n"
	"  gfx.color(1, 1, 1, 0.85)\n"
	"  gfx.screen_text(12, gfx.height() - 30, 'tumble demo    space: drop a ball at the mouse', 2)\n"
	"end\n"
	"\n"
	"return level\n";

const char *th_level_builtin_source(void)
{
	return builtin_demo;
}

/* ---------------- protected calls ---------------- */

static int traceback(lua_State *L)
{
	const char *msg = lua_tostring(L, 1);
	if (msg == NULL) {
		if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) {
			msg = lua_tostring(L, -1);
		} else {
			msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
		}
	}
	luaL_traceback(L, L, msg, 1);
	return 1;
}

/* Calls the function under nargs arguments; on failure leaves nothing on the
 * stack and, if message is given, stores the error text there (malloc'd). */
static bool protected_call(th_host *h, const char *phase, int nargs, int nresults, char **message)
{
	lua_State *L = h->L;
	int base = lua_gettop(L) - nargs;
	lua_pushcfunction(L, traceback);
	lua_insert(L, base);
	th_sandbox_begin(L, &h->sandbox, phase);
	int status = lua_pcall(L, nargs, nresults, base);
	bool memory = h->sandbox.limit_hit;
	th_sandbox_end(L, &h->sandbox);
	lua_remove(L, base);
	if (status == LUA_OK) return true;
	char buf[160];
	const char *text = lua_tostring(L, -1);
	if (text == NULL) text = "(error object is not a string)";
	/* A refused allocation surfaces as Lua's "not enough memory"; say which
	 * limit it was. */
	if (memory && (status == LUA_ERRMEM || strstr(text, "not enough memory") != NULL)) {
		snprintf(buf, sizeof(buf), "memory limit exceeded in %s (%.0f MB)", phase, h->opt->mem_limit_mb);
		text = buf;
	}
	if (message != NULL) *message = strdup(text);
	lua_pop(L, 1);
	return false;
}

/* Level code may have called world:destroy(): never keep a stale pointer. */
static void refresh_world(th_host *h)
{
	if (h->world_ref == LUA_NOREF) {
		h->world = NULL;
		return;
	}
	lua_rawgeti(h->L, LUA_REGISTRYINDEX, h->world_ref);
	h->world = tumble_lua_to_world(h->L, -1);
	lua_pop(h->L, 1);
}

bool th_level_pcall(th_host *h, const char *phase, int nargs)
{
	char *message = NULL;
	bool ok = protected_call(h, phase, nargs, 0, &message);
	refresh_world(h);
	if (ok) return true;
	th_host_set_error(h, phase, message, true);
	free(message);
	return false;
}

static int getfield_protected(lua_State *L)
{
	lua_gettable(L, 1);
	return 1;
}

/* table[name] for the table on top (popped), pushing a function or nothing.
 * Protected: a level table may have an __index metamethod (inheritance), and
 * that is level code like any other. */
static bool push_function_field(th_host *h, const char *name)
{
	/* the documented list is the whole list (api.c) */
	assert(th_level_is_callback(name));
	lua_State *L = h->L;
	lua_pushcfunction(L, getfield_protected);
	lua_insert(L, -2);
	lua_pushstring(L, name);
	th_sandbox_begin(L, &h->sandbox, name);
	int status = lua_pcall(L, 2, 1, 0);
	th_sandbox_end(L, &h->sandbox);
	if (status != LUA_OK) {
		th_host_set_error(h, name, lua_tostring(L, -1), true);
		lua_pop(L, 1);
		return false;
	}
	if (lua_isfunction(L, -1)) return true;
	lua_pop(L, 1);
	return false;
}

bool th_level_push_callback(th_host *h, const char *name)
{
	if (h->L == NULL || h->level_ref == LUA_NOREF) return false;
	lua_rawgeti(h->L, LUA_REGISTRYINDEX, h->level_ref);
	return push_function_field(h, name);
}

void th_level_push_world(th_host *h)
{
	lua_rawgeti(h->L, LUA_REGISTRYINDEX, h->world_ref);
}

/* ---------------- host fields of the tumble table ---------------- */

static int host_exit(lua_State *L)
{
	th_host *h = lua_touserdata(L, lua_upvalueindex(1));
	int code = 0;
	if (lua_isboolean(L, 1)) {
		code = lua_toboolean(L, 1) ? 0 : 1;
	} else {
		code = (int)luaL_optinteger(L, 1, 0);
	}
	const char *msg = luaL_optstring(L, 2, NULL);
	if (!h->exit_requested) {
		h->exit_requested = true;
		h->exit_code = code;
		free(h->exit_message);
		h->exit_message = msg != NULL ? strdup(msg) : NULL;
	}
	return 0;
}

void th_level_set_frame(th_host *h)
{
	if (h->L == NULL || h->tumble_ref == LUA_NOREF) return;
	lua_rawgeti(h->L, LUA_REGISTRYINDEX, h->tumble_ref);
	lua_pushliteral(h->L, "frame");
	lua_pushinteger(h->L, h->frame);
	lua_rawset(h->L, -3);
	lua_pop(h->L, 1);
}

static void set_package_path(th_host *h, lua_State *L)
{
	lua_getglobal(L, LUA_LOADLIBNAME);
	int package = lua_gettop(L);
	lua_getfield(L, package, "path");
	const char *system = !h->opt->sandbox ? lua_tostring(L, -1) : NULL;
	/* the buffer owns the top of the stack until pushresult */
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	if (h->level_dir != NULL) {
		luaL_addstring(&b, h->level_dir);
		luaL_addstring(&b, "/?.lua;");
		luaL_addstring(&b, h->level_dir);
		luaL_addstring(&b, "/?/init.lua;");
	}
	if (h->root != NULL) {
		luaL_addstring(&b, h->root);
		luaL_addstring(&b, "/lua/?.lua;");
		luaL_addstring(&b, h->root);
		luaL_addstring(&b, "/lua/?/init.lua;");
	}
	if (system != NULL) luaL_addstring(&b, system);
	luaL_pushresult(&b);
	lua_setfield(L, package, "path");
	lua_settop(L, package - 1);
}

/* Everything that may raise while building the state, run protected. */
static int init_protected(lua_State *L)
{
	th_host *h = lua_touserdata(L, 1);
	th_sandbox_open_libs(L, h->opt->sandbox);
	luaL_requiref(L, "tumble", luaopen_tumble, 1);
	int tumble = lua_gettop(L);
	th_input_open_lua(h, L);
	th_render_open_lua(h, L);
	th_sound_open_lua(h, L);
	th_api_open_lua(h, L);
	lua_pushlightuserdata(L, h);
	lua_pushcclosure(L, host_exit, 1);
	lua_setfield(L, tumble, "exit");
	lua_pushboolean(L, h->opt->headless);
	lua_setfield(L, tumble, "headless");
	lua_pushboolean(L, h->opt->sandbox);
	lua_setfield(L, tumble, "sandbox");
	lua_pushnumber(L, TH_HOST_DT);
	lua_setfield(L, tumble, "dt");
	lua_pushinteger(L, 0);
	lua_setfield(L, tumble, "frame");
	lua_pushvalue(L, tumble);
	h->tumble_ref = luaL_ref(L, LUA_REGISTRYINDEX);

	set_package_path(h, L);
	th_watch_open_lua(h, L);

	lua_getfield(L, tumble, "world");
	lua_newtable(L);
	lua_call(L, 1, 1);
	h->world = tumble_lua_to_world(L, -1);
	if (h->world == NULL) luaL_error(L, "tumble.world{} did not return a World");
	h->world_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	return 0;
}

static void reset_refs(th_host *h)
{
	h->tumble_ref = h->world_ref = h->level_ref = h->camera_ref = h->modules_ref = LUA_NOREF;
}

/* Loads and runs the level chunk; leaves the level table on the stack. */
static bool run_level_chunk(th_host *h, const char *phase, char **message)
{
	lua_State *L = h->L;
	int status;
	if (h->level_path != NULL) {
		th_watch_add(&h->watch, h->level_path);
		status = luaL_loadfilex(L, h->level_path, "t");
	} else {
		status = luaL_loadbufferx(L, builtin_demo, sizeof(builtin_demo) - 1, "=builtin demo", "t");
	}
	if (status != LUA_OK) {
		*message = strdup(lua_tostring(L, -1) != NULL ? lua_tostring(L, -1) : "cannot load the level");
		lua_pop(L, 1);
		return false;
	}
	bool ok = protected_call(h, phase, 0, 1, message);
	refresh_world(h);
	if (!ok) return false;
	if (!lua_istable(L, -1)) {
		char buf[200];
		snprintf(buf, sizeof(buf), "%s: a level must return a table of callbacks (got %s)",
		         h->level_path != NULL ? h->level_path : "builtin demo", luaL_typename(L, -1));
		*message = strdup(buf);
		lua_pop(L, 1);
		return false;
	}
	return true;
}

bool th_level_start(th_host *h)
{
	reset_refs(h);
	h->level_ok = false;
	h->faulted = false;
	h->draw_faulted = false;
	h->frame = 0;
	h->sandbox.used = 0;
	h->sandbox.limit = h->opt->mem_limit_mb > 0 ? (size_t)(h->opt->mem_limit_mb * 1024.0 * 1024.0) : 0;
	h->sandbox.instr_limit = h->opt->instr_limit;
	h->L = th_sandbox_new_state(&h->sandbox);
	if (h->L == NULL) {
		th_host_set_error(h, "start", "cannot create the Lua state", true);
		return false;
	}
	lua_State *L = h->L;
	lua_pushcfunction(L, init_protected);
	lua_pushlightuserdata(L, h);
	if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
		th_host_set_error(h, "start", lua_tostring(L, -1), true);
		lua_pop(L, 1);
		return false;
	}
	th_camera_sync(h);

	char *message = NULL;
	if (!run_level_chunk(h, "main chunk", &message)) {
		th_host_set_error(h, "load", message, true);
		free(message);
		return false;
	}
	bool conf_ok = th_conf_read(h, -1);
	h->level_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	if (!conf_ok) return false;
	th_camera_sync(h);
	if (th_level_push_callback(h, "load")) {
		th_level_push_world(h);
		if (!th_level_pcall(h, "load", 1)) return false;
	}
	th_camera_sync(h);
	h->camera.prev_x = h->camera.x;
	h->camera.prev_y = h->camera.y;
	h->level_ok = true;
	return true;
}

void th_level_stop(th_host *h)
{
	if (h->L != NULL) lua_close(h->L);
	h->L = NULL;
	h->world = NULL;
	reset_refs(h);
	h->level_ok = false;
	memset(&h->drag, 0, sizeof(h->drag));
	th_render_reset_snapshot(h);
	th_input_reset(&h->input);
	h->camera.following = false;
}

/* Forget the modules the level required so that require runs them again;
 * saved (on the stack) keeps the old ones to put back if the reload fails. */
static void unload_modules(lua_State *L, int modules, int saved)
{
	lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
	int loaded = lua_gettop(L);
	lua_pushnil(L);
	while (lua_next(L, modules) != 0) {
		lua_pop(L, 1);
		lua_pushvalue(L, -1);
		lua_rawget(L, loaded);
		lua_pushvalue(L, -2);
		lua_insert(L, -2);
		lua_rawset(L, saved);
		lua_pushvalue(L, -1);
		lua_pushnil(L);
		lua_rawset(L, loaded);
	}
	lua_pop(L, 1);
}

static void restore_modules(lua_State *L, int saved)
{
	lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
	int loaded = lua_gettop(L);
	lua_pushnil(L);
	while (lua_next(L, saved) != 0) {
		lua_pushvalue(L, -2);
		lua_insert(L, -2);
		lua_rawset(L, loaded);
	}
	lua_pop(L, 1);
}

bool th_level_reload(th_host *h)
{
	if (!h->level_ok || h->L == NULL) {
		/* Nothing good ever ran: start over with a fresh world. */
		th_level_stop(h);
		th_host_clear_error(h);
		return th_level_start(h);
	}
	lua_State *L = h->L;
	int top = lua_gettop(L);
	lua_rawgeti(L, LUA_REGISTRYINDEX, h->modules_ref);
	int modules = lua_gettop(L);
	lua_newtable(L);
	int saved = lua_gettop(L);
	unload_modules(L, modules, saved);

	char *message = NULL;
	if (!run_level_chunk(h, "reload", &message)) {
		restore_modules(L, saved);
		lua_settop(L, top);
		th_host_set_error(h, "reload", message, false);
		free(message);
		return false;
	}
	int fresh = lua_gettop(L);
	lua_rawgeti(L, LUA_REGISTRYINDEX, h->level_ref);
	int old = lua_gettop(L);
	/* The new functions win; data the old level gathered at run time (fields the
	 * new file does not set) is carried over, so state kept in the level table
	 * survives. Old functions are not: deleting a callback must take effect. */
	lua_pushnil(L);
	while (lua_next(L, old) != 0) {
		lua_pushvalue(L, -2);
		lua_rawget(L, fresh);
		bool absent = lua_isnil(L, -1);
		lua_pop(L, 1);
		if (absent && !lua_isfunction(L, -1)) {
			lua_pushvalue(L, -2);
			lua_insert(L, -2);
			lua_rawset(L, fresh);
		} else {
			lua_pop(L, 1);
		}
	}
	lua_pushvalue(L, fresh);
	lua_rawseti(L, LUA_REGISTRYINDEX, h->level_ref);
	th_host_clear_error(h);
	h->faulted = false;
	h->draw_faulted = false;
	h->reload_ms = th_host_now_ms();

	bool ok = true;
	lua_pushvalue(L, fresh);
	if (push_function_field(h, "reload")) {
		th_level_push_world(h);
		lua_pushvalue(L, old);
		ok = th_level_pcall(h, "reload", 2);
	}
	lua_settop(L, top);
	th_camera_sync(h);
	return ok;
}

/* ---------------- per-frame calls ---------------- */

bool th_level_update(th_host *h)
{
	if (!h->level_ok || !th_level_push_callback(h, "update")) return true;
	lua_pushnumber(h->L, TH_HOST_DT);
	th_level_push_world(h);
	return th_level_pcall(h, "update", 2);
}

static int step_trampoline(lua_State *L)
{
	/* world:step(dt): the binding steps, then dispatches the event handlers */
	lua_getfield(L, 1, "step");
	lua_pushvalue(L, 1);
	lua_pushvalue(L, 2);
	lua_call(L, 2, 0);
	return 0;
}

bool th_level_step_world(th_host *h)
{
	if (h->L == NULL || h->world_ref == LUA_NOREF) return false;
	lua_pushcfunction(h->L, step_trampoline);
	th_level_push_world(h);
	lua_pushnumber(h->L, TH_HOST_DT);
	return th_level_pcall(h, "world:step (event handlers)", 2);
}

void th_level_draw(th_host *h)
{
	if (!h->level_ok || h->draw_faulted || !th_level_push_callback(h, "draw")) return;
	lua_rawgeti(h->L, LUA_REGISTRYINDEX, h->tumble_ref);
	lua_pushliteral(h->L, "gfx");
	lua_rawget(h->L, -2);
	lua_remove(h->L, -2);
	if (!th_level_pcall(h, "draw", 1)) h->draw_faulted = true;
}
