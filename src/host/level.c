/* tumble host: the level (level.h). It owns the Lua state: creating it (with
 * the tumble module and the host's fields), running the level's files, calling
 * its callbacks under a traceback handler and the sandbox's budget, feeding it
 * events and steps, and hot reload: functions swapped in while the world
 * stays, or a rebuild asked of the loop when what load builds has changed. */
#include "level.h"
#include "edit_mode.h"
#include "clock.h"
#include "fingerprint.h"
#include "plot.h"
#include "tumble/tumble_lua.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>
#include <lualib.h>

/* math.random's seed at every start: a level's start and its input decide
 * every frame, so a replay (and a rebuild) can re-create it. */
#define LEVEL_RANDOM_SEED 1

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

/* ---------------- errors ---------------- */

/* An error text longer than this keeps its head and its tail (the traceback):
 * a level could otherwise print its whole memory limit to stderr per error. */
#define ERROR_TEXT_MAX 16384

void th_level_set_error(th_level *lv, const char *phase, const char *message, bool runtime)
{
	if (message == NULL) message = "(no message)";
	size_t len = strlen(message), cut = 0;
	if (len > ERROR_TEXT_MAX) cut = len - ERROR_TEXT_MAX;
	size_t size = strlen(phase) + len - cut + 128;
	char *text = malloc(size);
	if (text == NULL) return;
	const char *lead = runtime ? "in " : "reload failed, the last good code keeps running: ";
	const char *sep = runtime ? ": " : "";
	if (cut == 0) {
		snprintf(text, size, "%s%s%s%s", lead, runtime ? phase : "", sep, message);
	} else {
		int head = ERROR_TEXT_MAX * 3 / 4;
		snprintf(text, size, "%s%s%s%.*s\n... (%zu bytes cut) ...\n%s", lead, runtime ? phase : "", sep, head, message,
		         cut, message + head + cut);
	}
	/* a sandboxed level's text reaches the terminal: no escape sequences */
	if (lv->opt != NULL && lv->opt->sandbox) th_sandbox_clean_text(text, strlen(text));
	/* Print each distinct error once: a broken update would repeat every frame. */
	if (lv->error == NULL || strcmp(lv->error, text) != 0) {
		th_sandbox_write_text(&lv->sandbox, stderr, runtime ? "tumble: Lua error " : "tumble: ", text, strlen(text));
	}
	free(lv->error);
	lv->error = text;
	lv->reload_error = !runtime;
	if (runtime && lv->halt_on_error) lv->faulted = true;
}

void th_level_clear_error(th_level *lv)
{
	free(lv->error);
	lv->error = NULL;
	lv->reload_error = false;
	lv->syntax_error = false;
}

void th_level_resume(th_level *lv)
{
	lv->faulted = false;
	lv->draw_faulted = false;
	th_level_clear_error(lv);
}

/* ---------------- protected calls ---------------- */

/* An error value that is not a string, described: its __tostring, else its
 * type and, for a table, its first fields ({code = 2, reason = "jammed"}). */
static const char *describe_error(lua_State *L, int idx)
{
	if (luaL_callmeta(L, idx, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return lua_tostring(L, -1);
	if (lua_type(L, idx) != LUA_TTABLE) {
		return lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, idx));
	}
	char text[400];
	size_t used = (size_t)snprintf(text, sizeof(text), "(error object is a table: {");
	int shown = 0;
	lua_pushnil(L);
	while (lua_next(L, idx) != 0) {
		if (shown == 6) {
			lua_pop(L, 2);
			used += (size_t)snprintf(text + used, sizeof(text) - used, ", ...");
			break;
		}
		char key[48];
		if (lua_type(L, -2) == LUA_TSTRING) {
			snprintf(key, sizeof(key), "%.32s", lua_tostring(L, -2));
		} else if (lua_type(L, -2) == LUA_TNUMBER) {
			snprintf(key, sizeof(key), "[%.14g]", lua_tonumber(L, -2));
		} else {
			snprintf(key, sizeof(key), "[%s]", luaL_typename(L, -2));
		}
		const char *sep = shown > 0 ? ", " : "";
		size_t room = sizeof(text) - used;
		switch (lua_type(L, -1)) {
		case LUA_TSTRING: used += (size_t)snprintf(text + used, room, "%s%s = \"%.48s\"", sep, key, lua_tostring(L, -1)); break;
		case LUA_TNUMBER: used += (size_t)snprintf(text + used, room, "%s%s = %.14g", sep, key, lua_tonumber(L, -1)); break;
		case LUA_TBOOLEAN:
			used += (size_t)snprintf(text + used, room, "%s%s = %s", sep, key, lua_toboolean(L, -1) ? "true" : "false");
			break;
		default: used += (size_t)snprintf(text + used, room, "%s%s = %s", sep, key, luaL_typename(L, -1)); break;
		}
		if (used >= sizeof(text)) used = sizeof(text) - 1;
		lua_pop(L, 1);
		shown += 1;
	}
	snprintf(text + used, sizeof(text) - used, "})");
	return lua_pushstring(L, text);
}

static int traceback(lua_State *L)
{
	const char *msg = lua_tostring(L, 1);
	if (msg == NULL) msg = describe_error(L, 1);
	luaL_traceback(L, L, msg, 1);
	return 1;
}

/* Level code may have called world:destroy(): never keep a stale pointer. */
static void refresh_world(th_level *lv)
{
	if (lv->world_ref == LUA_NOREF) {
		lv->world = NULL;
		return;
	}
	lua_rawgeti(lv->L, LUA_REGISTRYINDEX, lv->world_ref);
	lv->world = tumble_lua_to_world(lv->L, -1);
	lua_pop(lv->L, 1);
}

bool th_level_call(th_level *lv, const char *phase, int nargs, int nresults, char **message)
{
	lua_State *L = lv->L;
	int base = lua_gettop(L) - nargs;
	lua_pushcfunction(L, traceback);
	lua_insert(L, base);
	th_sandbox_begin(L, &lv->sandbox, phase);
	int status = lua_pcall(L, nargs, nresults, base);
	bool memory = lv->sandbox.limit_hit;
	th_sandbox_end(L, &lv->sandbox);
	lua_remove(L, base);
	refresh_world(lv);
	if (status == LUA_OK) return true;
	char buf[160];
	const char *text = lua_tostring(L, -1);
	if (text == NULL) text = "(error object is not a string)";
	/* A refused allocation surfaces as Lua's "not enough memory"; say which
	 * limit it was. */
	if (memory && (status == LUA_ERRMEM || strstr(text, "not enough memory") != NULL)) {
		snprintf(buf, sizeof(buf), "memory limit exceeded in %s (%.0f MB)", phase, lv->opt->mem_limit_mb);
		text = buf;
	}
	if (message != NULL) *message = strdup(text);
	lua_pop(L, 1);
	return false;
}

bool th_level_pcall(th_level *lv, const char *phase, int nargs)
{
	char *message = NULL;
	if (th_level_call(lv, phase, nargs, 0, &message)) return true;
	th_level_set_error(lv, phase, message, true);
	free(message);
	return false;
}

/* ---------------- the camera and level.conf ---------------- */

/* Reads tumble.camera (following a body if asked) into lv->camera; level code
 * may run (metamethods), under the level's budget. */
static void sync_camera(th_level *lv)
{
	lua_State *L = lv->L;
	if (L == NULL || lv->camera_ref == LUA_NOREF) return;
	lua_pushcfunction(L, th_camera_sync_lua);
	lua_pushlightuserdata(L, lv);
	if (!th_level_call(lv, "camera", 1, 0, NULL)) {
		/* Typically the followed body was destroyed: stop following it. */
		lv->camera.following = false;
		lua_pushcfunction(L, th_camera_unfollow_lua);
		lua_pushlightuserdata(L, lv);
		char *message = NULL;
		if (!th_level_call(lv, "camera", 1, 0, &message)) th_level_set_error(lv, "camera", message, true);
		free(message);
	}
	if (!lv->camera.following) {
		lv->camera.prev_x = lv->camera.x;
		lv->camera.prev_y = lv->camera.y;
	}
}

/* Sets tumble.camera's x, y and scale; false (error set) if level code refused. */
static bool set_camera(th_level *lv, double x, double y, double scale)
{
	lua_State *L = lv->L;
	if (L == NULL || lv->camera_ref == LUA_NOREF) return false;
	lua_pushcfunction(L, th_camera_set_lua);
	lua_pushlightuserdata(L, lv);
	lua_pushnumber(L, x);
	lua_pushnumber(L, y);
	lua_pushnumber(L, scale);
	char *message = NULL;
	/* level code too (the camera table's __newindex) */
	bool ok = th_level_call(lv, "camera", 4, 0, &message);
	if (!ok) th_level_set_error(lv, "camera", message, true);
	free(message);
	return ok;
}

/* Reads level.conf from the level table at idx into lv->conf and applies its
 * camera; false (error set) on a bad conf. */
static bool read_conf(th_level *lv, int level)
{
	lua_State *L = lv->L;
	level = lua_absindex(L, level);
	lua_pushcfunction(L, th_conf_read_lua);
	lua_pushvalue(L, level);
	lua_pushlightuserdata(L, lv);
	char *message = NULL;
	if (!th_level_call(lv, "level.conf", 2, 0, &message)) {
		th_level_set_error(lv, "level.conf", message, true);
		free(message);
		return false;
	}
	const th_level_conf *c = &lv->conf;
	if (c->has_camera && !set_camera(lv, c->camera_x, c->camera_y, c->camera_scale)) return false;
	lv->conf_changed = true;
	return true;
}

static int getfield_protected(lua_State *L)
{
	lua_gettable(L, 1);
	return 1;
}

/* table[name] for the table on top (popped), pushing a function or nothing.
 * Protected: a level table may have an __index metamethod (inheritance), and
 * that is level code like any other. */
static bool push_function_field(th_level *lv, const char *name)
{
	/* the documented list is the whole list (api.c) */
	assert(th_level_is_callback(name));
	lua_State *L = lv->L;
	lua_pushcfunction(L, getfield_protected);
	lua_insert(L, -2);
	lua_pushstring(L, name);
	char *message = NULL;
	if (!th_level_call(lv, name, 2, 1, &message)) {
		th_level_set_error(lv, name, message, true);
		free(message);
		return false;
	}
	if (lua_isfunction(L, -1)) return true;
	lua_pop(L, 1);
	return false;
}

/* Pushes the level's callback and returns true, or pushes nothing. */
static bool push_callback(th_level *lv, const char *name)
{
	if (lv->L == NULL || lv->level_ref == LUA_NOREF) return false;
	lua_rawgeti(lv->L, LUA_REGISTRYINDEX, lv->level_ref);
	return push_function_field(lv, name);
}

static void push_world(th_level *lv)
{
	lua_rawgeti(lv->L, LUA_REGISTRYINDEX, lv->world_ref);
}

/* ---------------- host fields of the tumble table ---------------- */

/* A copy of a level's text of at most ERROR_TEXT_MAX bytes (the head, and
 * how much was cut), or NULL. */
static char *cut_text(const char *text, size_t len)
{
	if (len <= ERROR_TEXT_MAX) return strndup(text, len);
	char *out = malloc(ERROR_TEXT_MAX + 64);
	if (out == NULL) return NULL;
	snprintf(out, ERROR_TEXT_MAX + 64, "%.*s\n... (%zu bytes cut)", ERROR_TEXT_MAX, text, len - ERROR_TEXT_MAX);
	return out;
}

static int host_exit(lua_State *L)
{
	th_level *lv = lua_touserdata(L, lua_upvalueindex(1));
	int code = 0;
	if (lua_isboolean(L, 1)) {
		code = lua_toboolean(L, 1) ? 0 : 1;
	} else {
		lua_Integer n = luaL_optinteger(L, 1, 0);
		/* a process's status is one byte: 256 would read as 0, success */
		luaL_argcheck(L, n >= 0 && n <= 255, 1, "exit status in 0..255 expected");
		code = (int)n;
	}
	size_t msg_len = 0;
	const char *msg = luaL_optlstring(L, 2, NULL, &msg_len);
	if (!lv->exit_requested) {
		lv->exit_requested = true;
		lv->exit_code = code;
		free(lv->exit_message);
		lv->exit_message = msg != NULL ? cut_text(msg, msg_len) : NULL;
	}
	return 0;
}

static void set_tumble_field(th_level *lv, const char *name)
{
	/* value on top */
	lua_State *L = lv->L;
	if (L == NULL || lv->tumble_ref == LUA_NOREF) {
		lua_pop(L, 1);
		return;
	}
	lua_rawgeti(L, LUA_REGISTRYINDEX, lv->tumble_ref);
	lua_pushstring(L, name);
	lua_pushvalue(L, -3);
	lua_rawset(L, -3);
	lua_pop(L, 2);
}

static void set_frame(th_level *lv)
{
	if (lv->L == NULL) return;
	lua_pushinteger(lv->L, lv->frame);
	set_tumble_field(lv, "frame");
}

void th_level_set_replaying(th_level *lv, bool replaying)
{
	lv->replaying = replaying;
	lv->sandbox.holding = replaying;
	if (lv->L == NULL) return;
	lua_pushboolean(lv->L, replaying);
	set_tumble_field(lv, "replaying");
}

static void set_package_path(th_level *lv, lua_State *L)
{
	lua_getglobal(L, LUA_LOADLIBNAME);
	int package = lua_gettop(L);
	lua_getfield(L, package, "path");
	const char *system = !lv->opt->sandbox ? lua_tostring(L, -1) : NULL;
	/* the buffer owns the top of the stack until pushresult */
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	if (lv->level_dir != NULL) {
		luaL_addstring(&b, lv->level_dir);
		luaL_addstring(&b, "/?.lua;");
		luaL_addstring(&b, lv->level_dir);
		luaL_addstring(&b, "/?/init.lua;");
	}
	if (lv->root != NULL) {
		luaL_addstring(&b, lv->root);
		luaL_addstring(&b, "/lua/?.lua;");
		luaL_addstring(&b, lv->root);
		luaL_addstring(&b, "/lua/?/init.lua;");
	}
	if (system != NULL) luaL_addstring(&b, system);
	luaL_pushresult(&b);
	lua_setfield(L, package, "path");
	lua_settop(L, package - 1);
}

/* The host's tables (the libraries' and tumble's), which hold no level code:
 * the fingerprint does not walk them. */
static void collect_host_tables(th_level *lv, lua_State *L, int tumble)
{
	lua_newtable(L);
	int set = lua_gettop(L);
	for (int pass = 0; pass < 2; ++pass) {
		if (pass == 0) {
			lua_pushglobaltable(L);
		} else {
			lua_pushvalue(L, tumble);
		}
		int t = lua_gettop(L);
		lua_pushvalue(L, t);
		lua_pushboolean(L, 1);
		lua_rawset(L, set);
		lua_pushnil(L);
		while (lua_next(L, t) != 0) {
			if (lua_istable(L, -1)) {
				lua_pushboolean(L, 1);
				lua_rawset(L, set);
			} else {
				lua_pop(L, 1);
			}
		}
		lua_pop(L, 1);
	}
	lv->host_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

/* Everything that may raise while building the state, run protected. */
static int init_protected(lua_State *L)
{
	th_level *lv = lua_touserdata(L, 1);
	lua_pushfstring(L, "%s/lua", lv->root != NULL ? lv->root : "");
	th_sandbox_open_libs(L, &lv->sandbox, lv->level_dir, lv->root != NULL ? lua_tostring(L, -1) : NULL);
	lua_pop(L, 1);
	luaL_requiref(L, "tumble", luaopen_tumble, 1);
	int tumble = lua_gettop(L);
	th_input_open_lua(lv, L);
	th_gfx_open_lua(lv, L);
	th_camera_open_lua(lv, L);
	th_sound_open_lua(lv, L);
	th_save_open_lua(lv, L);
	th_introspect_open_lua(lv, L);
	th_plot_open_lua(lv, L);
	lua_pushlightuserdata(L, lv);
	lua_pushcclosure(L, host_exit, 1);
	lua_setfield(L, tumble, "exit");
	lua_pushboolean(L, lv->opt->headless);
	lua_setfield(L, tumble, "headless");
	lua_pushboolean(L, lv->opt->sandbox);
	lua_setfield(L, tumble, "sandbox");
	lua_pushnumber(L, TH_HOST_DT);
	lua_setfield(L, tumble, "dt");
	lua_pushinteger(L, 0);
	lua_setfield(L, tumble, "frame");
	lua_pushboolean(L, lv->replaying);
	lua_setfield(L, tumble, "replaying");
	lua_pushvalue(L, tumble);
	lv->tumble_ref = luaL_ref(L, LUA_REGISTRYINDEX);

	set_package_path(lv, L);
	th_loader_open_lua(lv, L);

	lua_getglobal(L, LUA_MATHLIBNAME);
	lua_getfield(L, -1, "randomseed");
	lua_pushinteger(L, LEVEL_RANDOM_SEED);
	lua_call(L, 1, 0);
	lua_getfield(L, -1, "random");
	lv->random_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	lua_pop(L, 1);

	collect_host_tables(lv, L, tumble);

	/* where each object of the level's world was made, for edit mode */
	if (lv->level_path != NULL) tumble_lua_record_sites(L, lua_pushfstring(L, "@%s", lv->level_path));
	th_sandbox_world_limits(L, &lv->sandbox);
	/* under a memory cap, a block kept ahead for the next snapshot would be
	 * taken from the level's memory */
	tumble_lua_keep_snapshot_spares(L, lv->sandbox.limit == 0);
	lua_getfield(L, tumble, "world");
	lua_newtable(L);
	lua_call(L, 1, 1);
	lv->world = tumble_lua_to_world(L, -1);
	if (lv->world == NULL) luaL_error(L, "tumble.world{} did not return a World");
	lv->world_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	return 0;
}

static void reset_refs(th_level *lv)
{
	lv->tumble_ref = lv->world_ref = lv->level_ref = lv->camera_ref = lv->modules_ref = LUA_NOREF;
	lv->host_ref = lv->stage_ref = lv->staged_ref = LUA_NOREF;
	lv->random_ref = lv->reload_old_ref = lv->code_new_ref = LUA_NOREF;
}

void th_level_init(th_level *lv)
{
	memset(lv, 0, sizeof(*lv));
	reset_refs(lv);
	lv->camera.scale = 30.0;
}

/* Loads and runs the level chunk (staged, see loader.c); leaves the level
 * table on the stack. */
static bool run_level_chunk(th_level *lv, const char *phase, char **message)
{
	lua_State *L = lv->L;
	int status;
	if (lv->level_path != NULL) {
		th_watch_add(lv->watch, lv->level_path);
		/* parsing is level work too: the time limit reaches inside it */
		th_sandbox_begin(L, &lv->sandbox, phase);
		status = th_sandbox_load_file(L, lv->level_path, "t");
		th_sandbox_end(L, &lv->sandbox);
	} else {
		status = luaL_loadbufferx(L, builtin_demo, sizeof(builtin_demo) - 1, "=builtin demo", "t");
	}
	if (status != LUA_OK) {
		const char *why = lua_tostring(L, -1) != NULL ? lua_tostring(L, -1) : "cannot load the level";
		if (status == LUA_ERRSYNTAX) {
			/* nothing of the file ran: say so, and what to do */
			lv->syntax_error = true;
			*message = malloc(strlen(why) + 128);
			if (*message != NULL)
				sprintf(*message, "syntax error, so none of the file ran: %s\nFix the file and save it: the level "
				                  "starts again.", why);
		} else {
			*message = strdup(why);
		}
		lua_pop(L, 1);
		return false;
	}
	th_loader_stage_chunk(lv, -1);
	if (!th_level_call(lv, phase, 0, 1, message)) return false;
	if (!lua_istable(L, -1)) {
		char buf[200];
		snprintf(buf, sizeof(buf), "%s: a level must return a table of callbacks (got %s)",
		         lv->level_path != NULL ? lv->level_path : "builtin demo", luaL_typename(L, -1));
		*message = strdup(buf);
		lua_pop(L, 1);
		return false;
	}
	return true;
}

static int fingerprint_protected(lua_State *L)
{
	uint64_t *out = lua_touserdata(L, 4);
	lua_pushliteral(L, "load");
	lua_rawget(L, 1);
	lua_pushboolean(L, th_fingerprint(L, -1, 2, 3, out));
	return 1;
}

/* The fingerprint of what the level table at idx's load reaches, with the
 * staging environment standing for the globals its files defined. */
static bool fingerprint_level(th_level *lv, int idx, uint64_t *out)
{
	lua_State *L = lv->L;
	idx = lua_absindex(L, idx);
	lua_pushcfunction(L, fingerprint_protected);
	lua_pushvalue(L, idx);
	lua_rawgeti(L, LUA_REGISTRYINDEX, lv->stage_ref);
	lua_rawgeti(L, LUA_REGISTRYINDEX, lv->host_ref);
	lua_pushlightuserdata(L, out);
	if (lua_pcall(L, 4, 1, 0) != LUA_OK) {
		lua_pop(L, 1);
		return false;
	}
	bool ok = lua_toboolean(L, -1);
	lua_pop(L, 1);
	return ok;
}

static void keep_code(th_level *lv, int idx);

bool th_level_start(th_level *lv, const th_start_state *start)
{
	reset_refs(lv);
	lv->run += 1;
	lv->ok = false;
	lv->faulted = false;
	lv->draw_faulted = false;
	lv->frame = 0;
	lv->load_print_ok = false;
	lv->saved_gravity = tb_v2(0.0f, 0.0f);
	lv->update_ms = lv->step_ms = 0.0;
	memset(&lv->drag, 0, sizeof(lv->drag));
	th_input_reset(&lv->input, start->mouse_x, start->mouse_y, start->pad_connected);
	lv->camera = (th_camera){.x = 0.0, .y = 10.0, .scale = 30.0, .view_w = start->view_w, .view_h = start->view_h};
	lv->camera.prev_x = lv->camera.x;
	lv->camera.prev_y = lv->camera.y;
	lv->sandbox.used = 0;
	lv->sandbox.limit = lv->opt->mem_limit_mb > 0 ? (size_t)(lv->opt->mem_limit_mb * 1024.0 * 1024.0) : 0;
	lv->sandbox.instr_limit = lv->opt->instr_limit;
	lv->sandbox.strict = lv->opt->sandbox;
	lv->sandbox.time_limit = lv->opt->time_limit;
	lv->sandbox.output_limit = (size_t)(lv->opt->output_limit_mb * 1024.0 * 1024.0);
	lv->sandbox.output_used = 0;
	lv->sandbox.output_noted = false;
	lv->sandbox.depth = 0;
	lv->L = th_sandbox_new_state(&lv->sandbox);
	if (lv->L == NULL) {
		th_level_set_error(lv, "start", "cannot create the Lua state", true);
		return false;
	}
	lua_State *L = lv->L;
	lua_pushcfunction(L, init_protected);
	lua_pushlightuserdata(L, lv);
	if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
		th_level_set_error(lv, "start", lua_tostring(L, -1), true);
		lua_pop(L, 1);
		return false;
	}
	sync_camera(lv);

	char *message = NULL;
	th_loader_stage(lv);
	lv->syntax_error = false;
	if (!run_level_chunk(lv, "main chunk", &message)) {
		th_loader_discard(lv);
		th_level_set_error(lv, lv->syntax_error ? "the level's file" : "load", message, true);
		free(message);
		return false;
	}
	lv->load_print_ok = fingerprint_level(lv, -1, &lv->load_print);
	th_loader_commit(lv);
	keep_code(lv, -1);
	bool conf_ok = read_conf(lv, -1);
	lv->level_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	if (!conf_ok) return false;
	sync_camera(lv);
	if (push_callback(lv, "load")) {
		push_world(lv);
		if (!th_level_pcall(lv, "load", 1)) return false;
	}
	sync_camera(lv);
	lv->camera.prev_x = lv->camera.x;
	lv->camera.prev_y = lv->camera.y;
	lv->ok = true;
	return true;
}

void th_level_stop(th_level *lv)
{
	th_loader_discard(lv);
	th_sandbox_close(lv->L, &lv->sandbox);
	lv->L = NULL;
	lv->world = NULL;
	reset_refs(lv);
	lv->ok = false;
	memset(&lv->drag, 0, sizeof(lv->drag));
	if (lv->render != NULL) th_render_forget(lv->render);
	lv->camera.following = false;
}

void th_level_free(th_level *lv)
{
	th_level_stop(lv);
	th_level_clear_error(lv);
	free(lv->exit_message);
	lv->exit_message = NULL;
}

/* ---------------- hot reload ---------------- */

th_reload_kind th_level_reload(th_level *lv)
{
	/* Nothing good ever ran: start over with a fresh world. */
	if (!lv->ok || lv->L == NULL) return TH_RELOAD_REBUILD;
	lua_State *L = lv->L;
	int top = lua_gettop(L);
	th_loader_unload_modules(lv);
	int saved = lua_gettop(L);

	char *message = NULL;
	th_loader_stage(lv);
	if (!run_level_chunk(lv, "reload", &message)) {
		th_loader_discard(lv);
		th_loader_restore_modules(lv, saved);
		lua_settop(L, top);
		th_level_set_error(lv, "reload", message, false);
		free(message);
		return TH_RELOAD_FAILED;
	}
	int fresh = lua_gettop(L);
	uint64_t print = 0;
	bool print_ok = fingerprint_level(lv, fresh, &print);
	if (!print_ok || !lv->load_print_ok || print != lv->load_print) {
		/* what load builds has changed: the loop rebuilds from scratch */
		th_loader_discard(lv);
		th_loader_restore_modules(lv, saved);
		lua_settop(L, top);
		return TH_RELOAD_REBUILD;
	}
	th_loader_commit(lv);
	keep_code(lv, fresh);
	lua_rawgeti(L, LUA_REGISTRYINDEX, lv->level_ref);
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
	lua_rawseti(L, LUA_REGISTRYINDEX, lv->level_ref);
	th_level_resume(lv);
	/* level.reload runs once the loop is done with the world (a rewind) */
	lua_pushvalue(L, old);
	luaL_unref(L, LUA_REGISTRYINDEX, lv->reload_old_ref);
	lv->reload_old_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	lua_settop(L, top);
	return TH_RELOAD_FUNCTIONS;
}

void th_level_reloaded(th_level *lv)
{
	lua_State *L = lv->L;
	if (L == NULL || lv->reload_old_ref == LUA_NOREF) return;
	int old = lv->reload_old_ref;
	lv->reload_old_ref = LUA_NOREF;
	if (push_callback(lv, "reload")) {
		push_world(lv);
		lua_rawgeti(L, LUA_REGISTRYINDEX, old);
		th_level_pcall(lv, "reload", 2);
	}
	luaL_unref(L, LUA_REGISTRYINDEX, old);
	sync_camera(lv);
}

static bool gc_pause(lua_State *L);
static void gc_resume(lua_State *L, bool running);

/* ---------------- the code's versions, for rewind ---------------- */

/* A version is a table: [1] the level table, [2] the keys its file set
 * (what a reload did not carry over from the table before it), [3] the
 * level's modules {name = package.loaded[name]}, [4] the global functions
 * its files defined {name = function}. The names of those globals are kept
 * by the loader as its files commit them (TH_LOADER_GLOBALS). */
static int code_keep_protected(lua_State *L)
{
	/* 1 the level table, 2 the level's modules {name = true} */
	lua_createtable(L, 4, 0);
	int v = lua_gettop(L);
	lua_pushvalue(L, 1);
	lua_rawseti(L, v, 1);
	lua_newtable(L);
	int own = lua_gettop(L);
	lua_pushnil(L);
	while (lua_next(L, 1) != 0) {
		lua_pop(L, 1);
		lua_pushvalue(L, -1);
		lua_pushboolean(L, 1);
		lua_rawset(L, own);
	}
	lua_rawseti(L, v, 2);
	lua_newtable(L);
	int modules = lua_gettop(L);
	lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
	int loaded = lua_gettop(L);
	if (lua_istable(L, 2)) {
		lua_pushnil(L);
		while (lua_next(L, 2) != 0) {
			lua_pop(L, 1);
			lua_pushvalue(L, -1);
			lua_rawget(L, loaded);
			lua_pushvalue(L, -2);
			lua_insert(L, -2);
			lua_rawset(L, modules);
		}
	}
	lua_settop(L, modules);
	lua_rawseti(L, v, 3);
	lua_newtable(L);
	int globals = lua_gettop(L);
	if (lua_getfield(L, LUA_REGISTRYINDEX, TH_LOADER_GLOBALS) == LUA_TTABLE) {
		int names = lua_gettop(L);
		lua_pushglobaltable(L);
		int g = lua_gettop(L);
		lua_pushnil(L);
		while (lua_next(L, names) != 0) {
			lua_pop(L, 1);
			lua_pushvalue(L, -1);
			lua_rawget(L, g);
			if (lua_isfunction(L, -1)) {
				lua_pushvalue(L, -2);
				lua_insert(L, -2);
				lua_rawset(L, globals);
			} else {
				lua_pop(L, 1);
			}
		}
	}
	lua_settop(L, globals);
	lua_rawseti(L, v, 4);
	return 1;
}

/* Keeps the code of the level table at idx (just run, before a reload
 * carries the old table's data into it) as lv->code_new_ref. */
static void keep_code(th_level *lv, int idx)
{
	lua_State *L = lv->L;
	idx = lua_absindex(L, idx);
	luaL_unref(L, LUA_REGISTRYINDEX, lv->code_new_ref);
	lv->code_new_ref = LUA_NOREF;
	bool gc = gc_pause(L);
	lua_pushcfunction(L, code_keep_protected);
	lua_pushvalue(L, idx);
	lua_rawgeti(L, LUA_REGISTRYINDEX, lv->modules_ref);
	if (lua_pcall(L, 2, 1, 0) == LUA_OK) {
		lv->code_new_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	} else {
		lua_pop(L, 1); /* out of memory: that edit's replays run the code after it */
	}
	gc_resume(L, gc);
}

int th_level_code_take(th_level *lv)
{
	int ref = lv->code_new_ref;
	lv->code_new_ref = LUA_NOREF;
	return ref;
}

static int code_use_protected(lua_State *L)
{
	/* 1 the level table now, 2 the version */
	lua_rawgeti(L, 2, 1);
	int to = lua_gettop(L);
	lua_rawgeti(L, 2, 2);
	int own = lua_gettop(L);
	if (!lua_rawequal(L, 1, to)) {
		/* the data the level gathered goes along, as across a reload */
		lua_pushnil(L);
		while (lua_next(L, 1) != 0) {
			if (!lua_isfunction(L, -1)) {
				lua_pushvalue(L, -2);
				bool set_by_file = lua_rawget(L, own) != LUA_TNIL;
				lua_pop(L, 1);
				if (!set_by_file) {
					lua_pushvalue(L, -2);
					lua_pushvalue(L, -2);
					lua_rawset(L, to);
				}
			}
			lua_pop(L, 1);
		}
	}
	for (int part = 3; part <= 4; ++part) {
		if (part == 3) {
			lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
		} else {
			lua_pushglobaltable(L);
		}
		int into = lua_gettop(L);
		lua_rawgeti(L, 2, part);
		int from = lua_gettop(L);
		lua_pushnil(L);
		while (lua_next(L, from) != 0) {
			lua_pushvalue(L, -2);
			lua_insert(L, -2);
			lua_rawset(L, into);
		}
		lua_settop(L, into - 1);
	}
	lua_pushvalue(L, to);
	return 1;
}

void th_level_code_use(th_level *lv, int ref)
{
	lua_State *L = lv->L;
	if (L == NULL || ref == LUA_NOREF || ref == LUA_REFNIL || lv->level_ref == LUA_NOREF) return;
	bool gc = gc_pause(L);
	lua_pushcfunction(L, code_use_protected);
	lua_rawgeti(L, LUA_REGISTRYINDEX, lv->level_ref);
	lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
	if (lua_pcall(L, 2, 1, 0) == LUA_OK) {
		lua_rawseti(L, LUA_REGISTRYINDEX, lv->level_ref);
	} else {
		lua_pop(L, 1);
	}
	gc_resume(L, gc);
}

void th_level_code_free(th_level *lv, unsigned run, int ref)
{
	if (lv->L != NULL && run == lv->run) luaL_unref(lv->L, LUA_REGISTRYINDEX, ref);
}

/* ---------------- moments, for rewind ---------------- */

/* math.random's state: the userdata its closure keeps (Lua 5.4's lmathlib
 * keeps the generator's four words there, shared with randomseed). Copying
 * its bytes is the only way to read and set it from C, and what makes a
 * level that uses math.random replay the same after a rewind. */
static void *random_state(th_level *lv, size_t *size)
{
	lua_State *L = lv->L;
	*size = 0;
	void *p = NULL;
	if (lua_rawgeti(L, LUA_REGISTRYINDEX, lv->random_ref) == LUA_TFUNCTION && lua_iscfunction(L, -1) &&
	    lua_getupvalue(L, -1, 1) != NULL) {
		if (lua_type(L, -1) == LUA_TUSERDATA) {
			p = lua_touserdata(L, -1);
			*size = lua_rawlen(L, -1);
		}
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	return p;
}

/* The collector stops while a moment is copied or put back: a finalizer
 * (level code) must not run in the middle of either. */
static bool gc_pause(lua_State *L)
{
	bool running = lua_gc(L, LUA_GCISRUNNING) != 0;
	if (running) lua_gc(L, LUA_GCSTOP);
	return running;
}

static void gc_resume(lua_State *L, bool running)
{
	if (running) lua_gc(L, LUA_GCRESTART);
}

/* The message of a failed capture without its traceback (a path says it all). */
static void strip_traceback(char *message)
{
	char *tb = message != NULL ? strstr(message, "\nstack traceback:") : NULL;
	if (tb != NULL) *tb = '\0';
}

th_moment *th_level_capture(th_level *lv, size_t budget, size_t *bytes, char **message)
{
	*message = NULL;
	*bytes = 0;
	lua_State *L = lv->L;
	if (L == NULL || !lv->ok || lv->world == NULL || lv->level_ref == LUA_NOREF) return NULL;
	th_moment *m = malloc(sizeof(*m));
	if (m == NULL) return NULL;
	bool gc = gc_pause(L);
	lua_pushcfunction(L, th_moment_capture_lua);
	push_world(lv);
	lua_rawgeti(L, LUA_REGISTRYINDEX, lv->level_ref);
	th_camera_push_table(lv, L);
	lua_pushinteger(L, (lua_Integer)(budget < (size_t)LUA_MAXINTEGER ? budget : (size_t)LUA_MAXINTEGER));
	bool ok = th_level_call(lv, "rewind", 4, 2, message);
	gc_resume(L, gc);
	if (!ok) {
		strip_traceback(*message);
		free(m);
		return NULL;
	}
	*bytes = (size_t)lua_tointeger(L, -1) + sizeof(*m);
	lua_pop(L, 1);
	m->run = lv->run;
	m->ref = luaL_ref(L, LUA_REGISTRYINDEX);
	m->frame = lv->frame;
	m->input = lv->input;
	m->drag = lv->drag;
	m->saved_gravity = lv->saved_gravity;
	size_t size = 0;
	void *state = random_state(lv, &size);
	m->random_size = state != NULL && size <= sizeof(m->random) ? size : 0;
	if (m->random_size > 0) memcpy(m->random, state, m->random_size);
	return m;
}

bool th_level_restore(th_level *lv, const th_moment *m)
{
	lua_State *L = lv->L;
	if (L == NULL || m->run != lv->run || lv->world == NULL || lv->level_ref == LUA_NOREF) return false;
	bool gc = gc_pause(L);
	lua_pushcfunction(L, th_moment_restore_lua);
	push_world(lv);
	lua_rawgeti(L, LUA_REGISTRYINDEX, lv->level_ref);
	th_camera_push_table(lv, L);
	lua_rawgeti(L, LUA_REGISTRYINDEX, m->ref);
	char *message = NULL;
	bool ok = th_level_call(lv, "rewind", 4, 0, &message);
	gc_resume(L, gc);
	if (!ok) {
		th_level_set_error(lv, "rewind", message, true);
		free(message);
		return false;
	}
	lv->frame = m->frame;
	set_frame(lv);
	lv->input = m->input;
	lv->drag = m->drag;
	lv->saved_gravity = m->saved_gravity;
	size_t size = 0;
	void *state = random_state(lv, &size);
	if (state != NULL && size == m->random_size) memcpy(state, m->random, size);
	if (lv->render != NULL) th_render_forget(lv->render);
	sync_camera(lv);
	lv->camera.prev_x = lv->camera.x;
	lv->camera.prev_y = lv->camera.y;
	th_sound_resync(lv);
	return true;
}

void th_level_moment_free(th_level *lv, th_moment *m)
{
	if (m == NULL) return;
	if (lv->L != NULL && m->run == lv->run) luaL_unref(lv->L, LUA_REGISTRYINDEX, m->ref);
	free(m);
}

/* ---------------- the dev tools' mouse drag ---------------- */

typedef struct pick {
	tb_world *world;
	tb_body_id body;
} pick;

static bool pick_fn(tb_shape_id shape, void *context)
{
	pick *p = context;
	if (tb_shape_is_sensor(p->world, shape)) return true;
	tb_body_id body = tb_shape_get_body(p->world, shape);
	if (tb_body_get_type(p->world, body) != TB_DYNAMIC_BODY) return true;
	p->body = body;
	return false;
}

void th_level_drag_end(th_level *lv)
{
	if (!lv->drag.active) return;
	if (lv->world != NULL) {
		tb_destroy_joint(lv->world, lv->drag.joint);
		tb_destroy_body(lv->world, lv->drag.ground);
	}
	memset(&lv->drag, 0, sizeof(lv->drag));
}

static bool drag_begin(th_level *lv, int px, int py)
{
	tb_world *world = lv->world;
	if (world == NULL || lv->drag.active) return false;
	tb_vec2 p = th_camera_to_world(&lv->camera, px, py);
	pick pk = {world, tb_null_body_id};
	tb_world_query_point(world, p, tb_default_query_filter(), pick_fn, &pk);
	if (TB_IS_NULL(pk.body)) return false;
	tb_body_def bd = tb_default_body_def();
	bd.type = TB_STATIC_BODY;
	bd.position = p;
	tb_body_id ground = tb_create_body(world, &bd, NULL);
	if (TB_IS_NULL(ground)) return false;
	tb_joint_def jd = tb_default_joint_def(TB_JOINT_MOUSE);
	jd.body_a = ground;
	jd.body_b = pk.body;
	jd.local_anchor_a = tb_v2(0.0f, 0.0f);
	jd.local_anchor_b = tb_body_get_local_point(world, pk.body, p);
	jd.target = p;
	jd.max_force = 1000.0f * tb_body_get_mass(world, pk.body);
	jd.hertz = 5.0f;
	jd.damping_ratio = 0.7f;
	tb_joint_id joint = tb_create_joint(world, &jd, NULL);
	if (TB_IS_NULL(joint)) {
		tb_destroy_body(world, ground);
		return false;
	}
	tb_body_set_awake(world, pk.body, true);
	lv->drag.active = true;
	lv->drag.body = pk.body;
	lv->drag.ground = ground;
	lv->drag.joint = joint;
	return true;
}

static void drag_update(th_level *lv)
{
	if (!lv->drag.active) return;
	tb_world *world = lv->world;
	if (world == NULL || !tb_joint_is_valid(world, lv->drag.joint) || !tb_body_is_valid(world, lv->drag.body)) {
		/* the level destroyed the body (and with it the joint) */
		if (world != NULL && tb_body_is_valid(world, lv->drag.ground)) tb_destroy_body(world, lv->drag.ground);
		memset(&lv->drag, 0, sizeof(lv->drag));
		return;
	}
	tb_joint_def jd = tb_joint_get_def(world, lv->drag.joint);
	jd.target = th_camera_to_world(&lv->camera, lv->input.mouse_x, lv->input.mouse_y);
	tb_joint_set_def(world, lv->drag.joint, &jd);
}

/* ---------------- the dev tools' world settings ---------------- */

void th_level_setting(th_level *lv, th_action act)
{
	if (lv->world == NULL || !th_action_is_setting(act)) return;
	tb_world_def def = tb_world_get_def(lv->world);
	switch (act) {
	case TH_ACT_WARM: def.enable_warm_starting = !def.enable_warm_starting; break;
	case TH_ACT_POSITION: def.enable_position_correction = !def.enable_position_correction; break;
	case TH_ACT_SLEEP: def.enable_sleep = !def.enable_sleep; break;
	case TH_ACT_CONTINUOUS: def.enable_continuous = !def.enable_continuous; break;
	case TH_ACT_MOTION: def.enable_motion = !def.enable_motion; break;
	case TH_ACT_GRAVITY:
		if (def.gravity.x != 0.0f || def.gravity.y != 0.0f) {
			lv->saved_gravity = def.gravity;
			def.gravity = tb_v2(0.0f, 0.0f);
		} else {
			bool none = lv->saved_gravity.x == 0.0f && lv->saved_gravity.y == 0.0f;
			def.gravity = none ? tb_v2(0.0f, -10.0f) : lv->saved_gravity;
		}
		break;
	case TH_ACT_SUBSTEPS_DOWN: def.substeps = def.substeps > 1 ? def.substeps - 1 : 1; break;
	case TH_ACT_SUBSTEPS_UP: def.substeps = def.substeps < 64 ? def.substeps + 1 : 64; break;
	case TH_ACT_HERTZ_DOWN: def.contact_hertz = def.contact_hertz > 5.0f ? def.contact_hertz - 5.0f : def.contact_hertz; break;
	case TH_ACT_HERTZ_UP: def.contact_hertz = def.contact_hertz < 240.0f ? def.contact_hertz + 5.0f : def.contact_hertz; break;
	default: return;
	}
	tb_world_set_def(lv->world, &def);
}

/* ---------------- events ---------------- */

static bool listens(th_level *lv)
{
	return lv->ok && !lv->faulted && lv->L != NULL;
}

static void call_mouse(th_level *lv, const char *name, const th_event *ev)
{
	if (!listens(lv) || !push_callback(lv, name)) return;
	tb_vec2 p = th_camera_to_world(&lv->camera, ev->x, ev->y);
	lua_pushnumber(lv->L, p.x);
	lua_pushnumber(lv->L, p.y);
	lua_pushstring(lv->L, th_mouse_button_name(ev->button));
	th_level_pcall(lv, name, 3);
}

void th_level_apply(th_level *lv, const th_event *ev)
{
	lua_State *L = lv->L;
	th_input *in = &lv->input;
	switch (ev->type) {
	case TH_EV_KEY_DOWN:
	case TH_EV_KEY_UP: {
		th_input_apply(in, ev);
		bool repeat = (ev->flags & TH_EVF_REPEAT) != 0;
		/* the auto-repeat only for a level that asked for it (as LÖVE) */
		if (repeat && !in->key_repeat) break;
		const char *cb = ev->type == TH_EV_KEY_DOWN ? "keypressed" : "keyreleased";
		if (listens(lv) && push_callback(lv, cb)) {
			char scancode[32];
			th_scancode_name(scancode, sizeof(scancode), ev->scancode, ev->name);
			lua_pushstring(L, ev->name);
			lua_pushstring(L, scancode);
			if (ev->type == TH_EV_KEY_DOWN) lua_pushboolean(L, repeat);
			th_level_pcall(lv, cb, ev->type == TH_EV_KEY_DOWN ? 3 : 2);
		}
		break;
	}
	case TH_EV_TOUCH_DOWN:
	case TH_EV_TOUCH_UP:
	case TH_EV_TOUCH_MOVE: {
		const char *cb = ev->type == TH_EV_TOUCH_DOWN ? "touchpressed"
		                 : ev->type == TH_EV_TOUCH_UP ? "touchreleased"
		                                              : "touchmoved";
		if (listens(lv) && push_callback(lv, cb)) {
			/* as the mouse's: world units, y up; then the pixels */
			tb_vec2 p = th_camera_to_world(&lv->camera, ev->x, ev->y);
			lua_pushinteger(L, (lua_Integer)ev->touch_id);
			lua_pushnumber(L, p.x);
			lua_pushnumber(L, p.y);
			lua_pushnumber(L, ev->dx / lv->camera.scale);
			lua_pushnumber(L, -ev->dy / lv->camera.scale);
			lua_pushinteger(L, ev->x);
			lua_pushinteger(L, ev->y);
			th_level_pcall(lv, cb, 7);
		}
		break;
	}
	case TH_EV_MOUSE_DOWN:
		in->mouse_x = ev->x;
		in->mouse_y = ev->y;
		if (ev->flags & TH_EVF_TAKEN) return;
		if ((ev->flags & TH_EVF_DRAG) && ev->button == 1 && drag_begin(lv, ev->x, ev->y)) return;
		th_input_apply(in, ev);
		call_mouse(lv, "mousepressed", ev);
		break;
	case TH_EV_MOUSE_UP:
		if ((lv->drag.active && ev->button == 1) ||
		    (ev->button >= 1 && ev->button < TH_MOUSE_BUTTONS && !in->mouse_down[ev->button])) {
			/* the end of a drag, or of a press the overlay took */
			in->mouse_x = ev->x;
			in->mouse_y = ev->y;
			if (lv->drag.active && ev->button == 1) th_level_drag_end(lv);
			return;
		}
		th_input_apply(in, ev);
		call_mouse(lv, "mousereleased", ev);
		break;
	case TH_EV_MOUSE_MOVE:
		th_input_apply(in, ev);
		if (listens(lv) && push_callback(lv, "mousemoved")) {
			tb_vec2 p = th_camera_to_world(&lv->camera, ev->x, ev->y);
			lua_pushnumber(L, p.x);
			lua_pushnumber(L, p.y);
			lua_pushnumber(L, ev->dx / lv->camera.scale);
			lua_pushnumber(L, -ev->dy / lv->camera.scale);
			th_level_pcall(lv, "mousemoved", 4);
		}
		break;
	case TH_EV_WHEEL:
		th_input_apply(in, ev);
		if (listens(lv) && push_callback(lv, "wheelmoved")) {
			lua_pushnumber(L, ev->wheel_x);
			lua_pushnumber(L, ev->wheel_y);
			th_level_pcall(lv, "wheelmoved", 2);
		}
		break;
	case TH_EV_PAD_DOWN:
	case TH_EV_PAD_UP: {
		th_input_apply(in, ev);
		const char *cb = ev->type == TH_EV_PAD_DOWN ? "gamepadpressed" : "gamepadreleased";
		if (listens(lv) && push_callback(lv, cb)) {
			lua_pushstring(L, ev->name);
			th_level_pcall(lv, cb, 1);
		}
		break;
	}
	case TH_EV_PAD_AXIS:
		th_input_apply(in, ev);
		if (listens(lv) && push_callback(lv, "gamepadaxis")) {
			lua_pushstring(L, ev->name);
			lua_pushnumber(L, ev->value);
			th_level_pcall(lv, "gamepadaxis", 2);
		}
		break;
	case TH_EV_PAD_CONNECT: th_input_apply(in, ev); break;
	case TH_EV_RESIZE:
		if (lv->camera.view_w == ev->x && lv->camera.view_h == ev->y) break;
		lv->camera.view_w = ev->x;
		lv->camera.view_h = ev->y;
		if (listens(lv) && push_callback(lv, "resize")) {
			lua_pushinteger(L, ev->x);
			lua_pushinteger(L, ev->y);
			th_level_pcall(lv, "resize", 2);
		}
		break;
	case TH_EV_TEXT:
		if (listens(lv) && push_callback(lv, "textinput")) {
			lua_pushstring(L, ev->name);
			th_level_pcall(lv, "textinput", 1);
		}
		break;
	case TH_EV_SETTING: th_level_setting(lv, (th_action)ev->button); break;
	case TH_EV_EDIT: th_edit_apply(lv, ev, NULL, 0); break;
	case TH_EV_QUIT: break;
	}
}

/* ---------------- frames and steps ---------------- */

void th_level_begin_frame(th_level *lv)
{
	sync_camera(lv);
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

void th_level_step(th_level *lv)
{
	if (lv->L == NULL || lv->world_ref == LUA_NOREF) return;
	double t0 = th_now_ms();
	if (lv->ok && push_callback(lv, "update")) {
		lua_pushnumber(lv->L, TH_HOST_DT);
		push_world(lv);
		if (!th_level_pcall(lv, "update", 2) && lv->faulted) return;
	}
	if (lv->faulted) return;
	double t1 = th_now_ms();
	drag_update(lv);
	/* after update, so a teleport made there is not smeared over a frame */
	lv->camera.prev_x = lv->camera.x;
	lv->camera.prev_y = lv->camera.y;
	if (!lv->replaying && lv->render != NULL) th_render_remember(lv->render, lv->world, lv->frame);
	lua_pushcfunction(lv->L, step_trampoline);
	push_world(lv);
	lua_pushnumber(lv->L, TH_HOST_DT);
	th_level_pcall(lv, "world:step (event handlers)", 2);
	/* the inspector's plotted properties, as the step left them (as the
	 * inspector shows them once the frame is drawn) */
	if (lv->plot != NULL && lv->plot_this_count > 0) th_edit_plot_step(lv);
	if (lv->plot != NULL) th_plot_end_frame(lv->plot, lv->frame, lv->replaying);
	lv->frame += 1;
	set_frame(lv);
	th_input_end_step(&lv->input);
	sync_camera(lv);
	th_sound_step(lv);
	lv->update_ms = t1 - t0;
	lv->step_ms = th_now_ms() - t1;
}

void th_level_frame(th_level *lv, double dt)
{
	if (!listens(lv) || lv->replaying || !push_callback(lv, "frame")) return;
	lua_pushnumber(lv->L, dt);
	th_level_pcall(lv, "frame", 1);
}

void th_level_draw_sprites(th_level *lv, th_target *t)
{
	th_image_draw_sprites(lv, t);
}

void th_level_draw(th_level *lv, th_target *t)
{
	if (!lv->ok || lv->draw_faulted || !push_callback(lv, "draw")) return;
	lua_rawgeti(lv->L, LUA_REGISTRYINDEX, lv->tumble_ref);
	lua_pushliteral(lv->L, "gfx");
	lua_rawget(lv->L, -2);
	lua_remove(lv->L, -2);
	th_gfx_begin(lv, t);
	if (!th_level_pcall(lv, "draw", 1)) lv->draw_faulted = true;
	th_gfx_end(lv);
}

void th_level_stats_get(th_level *lv, th_level_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (lv->world == NULL || lv->L == NULL) return;
	out->has_world = true;
	out->def = tb_world_get_def(lv->world);
	out->profile = tb_world_get_profile(lv->world);
	out->counters = tb_world_get_counters(lv->world);
	push_world(lv);
	out->dispatch_ms = tumble_lua_last_dispatch_ms(lv->L, lua_gettop(lv->L));
	lua_pop(lv->L, 1);
}
