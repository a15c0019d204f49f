/* tumble host: how a level's code is loaded.
 *
 * Every Lua file the level loads (the level itself, the modules it
 * requires, loadfile and dofile) is watched for hot reload, and the modules
 * are remembered so that a reload makes require run them again.
 *
 * While the level's files run (at a start or a reload), every chunk they
 * load gets a staging environment instead of the globals: a table whose
 * reads fall through to the globals and which keeps what they write. Only a
 * run that succeeds is committed: its globals join the real ones and its
 * chunks are pointed at the real globals (a chunk's functions share its
 * _ENV upvalue, so setting it once reaches them all, even those created
 * later). A file that fails half-way leaves no global behind. */
#include "level.h"

#include <lauxlib.h>
#include <lualib.h>

/* ---------------- staging ---------------- */

void th_loader_stage(th_level *lv)
{
	lua_State *L = lv->L;
	th_loader_discard(lv);
	lua_newtable(L);
	lua_createtable(L, 0, 1);
	lua_pushglobaltable(L);
	lua_setfield(L, -2, "__index");
	lua_setmetatable(L, -2);
	/* `_G.x = 1` is a global too: it stays in the env as well */
	lua_pushvalue(L, -1);
	lua_setfield(L, -2, "_G");
	lv->stage_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	lua_newtable(L);
	lv->staged_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

void th_loader_stage_chunk(th_level *lv, int idx)
{
	lua_State *L = lv->L;
	if (lv->stage_ref == LUA_NOREF || !lua_isfunction(L, idx) || lua_iscfunction(L, idx)) return;
	idx = lua_absindex(L, idx);
	/* load() gives a chunk's first upvalue the globals: that is its _ENV */
	if (lua_getupvalue(L, idx, 1) == NULL) return;
	lua_pushglobaltable(L);
	bool globals = lua_rawequal(L, -1, -2);
	lua_pop(L, 2);
	if (!globals) return; /* loaded with an environment of its own */
	lua_rawgeti(L, LUA_REGISTRYINDEX, lv->stage_ref);
	lua_setupvalue(L, idx, 1);
	lua_rawgeti(L, LUA_REGISTRYINDEX, lv->staged_ref);
	lua_pushvalue(L, idx);
	lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
	lua_pop(L, 1);
}

void th_loader_commit(th_level *lv)
{
	lua_State *L = lv->L;
	if (lv->stage_ref == LUA_NOREF) return;
	lua_rawgeti(L, LUA_REGISTRYINDEX, lv->stage_ref);
	int env = lua_gettop(L);
	lua_pushglobaltable(L);
	int globals = lua_gettop(L);
	if (lua_getfield(L, LUA_REGISTRYINDEX, TH_LOADER_GLOBALS) != LUA_TTABLE) {
		lua_pop(L, 1);
		lua_newtable(L);
		lua_pushvalue(L, -1);
		lua_setfield(L, LUA_REGISTRYINDEX, TH_LOADER_GLOBALS);
	}
	int names = lua_gettop(L);
	/* the env's globals move into the real ones (but not its _G, itself) */
	lua_pushnil(L);
	while (lua_next(L, env) != 0) {
		if (lua_rawequal(L, -1, env)) {
			lua_pop(L, 1);
			continue;
		}
		lua_pushvalue(L, -2);
		lua_pushboolean(L, 1);
		lua_rawset(L, names);
		lua_pushvalue(L, -2);
		lua_insert(L, -2);
		lua_rawset(L, globals);
	}
	lua_rawgeti(L, LUA_REGISTRYINDEX, lv->staged_ref);
	int chunks = lua_gettop(L);
	lua_Integer n = (lua_Integer)lua_rawlen(L, chunks);
	for (lua_Integer i = 1; i <= n; ++i) {
		lua_rawgeti(L, chunks, i);
		lua_pushvalue(L, globals);
		if (lua_setupvalue(L, -2, 1) == NULL) lua_pop(L, 1);
		lua_pop(L, 1);
	}
	/* Whatever still holds the env itself (a `local G = _ENV`) now reads and
	 * writes the real globals through it. */
	for (;;) {
		lua_pushnil(L);
		if (lua_next(L, env) == 0) break;
		lua_pop(L, 1);
		lua_pushnil(L);
		lua_rawset(L, env);
	}
	lua_createtable(L, 0, 2);
	lua_pushvalue(L, globals);
	lua_setfield(L, -2, "__index");
	lua_pushvalue(L, globals);
	lua_setfield(L, -2, "__newindex");
	lua_setmetatable(L, env);
	lua_settop(L, env - 1);
	th_loader_discard(lv);
}

void th_loader_discard(th_level *lv)
{
	if (lv->L == NULL) return;
	luaL_unref(lv->L, LUA_REGISTRYINDEX, lv->stage_ref);
	luaL_unref(lv->L, LUA_REGISTRYINDEX, lv->staged_ref);
	lv->stage_ref = lv->staged_ref = LUA_NOREF;
}

/* ---------------- modules ---------------- */

void th_loader_unload_modules(th_level *lv)
{
	lua_State *L = lv->L;
	lua_newtable(L);
	int saved = lua_gettop(L);
	lua_rawgeti(L, LUA_REGISTRYINDEX, lv->modules_ref);
	int modules = lua_gettop(L);
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
	lua_settop(L, saved);
}

void th_loader_restore_modules(th_level *lv, int saved)
{
	lua_State *L = lv->L;
	saved = lua_absindex(L, saved);
	lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
	int loaded = lua_gettop(L);
	/* modules the failed run required for the first time go too */
	lua_rawgeti(L, LUA_REGISTRYINDEX, lv->modules_ref);
	int modules = lua_gettop(L);
	lua_pushnil(L);
	while (lua_next(L, modules) != 0) {
		lua_pop(L, 1);
		lua_pushvalue(L, -1);
		if (lua_rawget(L, saved) == LUA_TNIL) {
			lua_pushvalue(L, -2);
			lua_pushnil(L);
			lua_rawset(L, loaded);
		}
		lua_pop(L, 1);
	}
	lua_pushnil(L);
	while (lua_next(L, saved) != 0) {
		lua_pushvalue(L, -2);
		lua_insert(L, -2);
		lua_rawset(L, loaded);
	}
	lua_settop(L, loaded - 1);
}

/* ---------------- the wrappers ---------------- */

/* package.searchers[2] wrapper: upvalues are the original searcher, the level
 * and (in the sandbox) the fixed search path. */
static int loader_searcher(lua_State *L)
{
	th_level *lv = lua_touserdata(L, lua_upvalueindex(2));
	const char *name = luaL_checkstring(L, 1);
	if (!lua_isnil(L, lua_upvalueindex(3))) {
		/* The sandbox cannot widen its own search path. */
		lua_getglobal(L, LUA_LOADLIBNAME);
		if (lua_istable(L, -1)) {
			lua_pushvalue(L, lua_upvalueindex(3));
			lua_setfield(L, -2, "path");
		}
		lua_pop(L, 1);
	}
	int base = lua_gettop(L);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_pushvalue(L, 1);
	lua_call(L, 1, LUA_MULTRET);
	int results = lua_gettop(L) - base;
	if (results >= 2 && lua_isfunction(L, base + 1) && lua_type(L, base + 2) == LUA_TSTRING) {
		th_watch_add(lv->watch, lua_tostring(L, base + 2));
		/* Remember the module so a reload can make require run it again. */
		lua_rawgeti(L, LUA_REGISTRYINDEX, lv->modules_ref);
		lua_pushboolean(L, 1);
		lua_setfield(L, -2, name);
		lua_pop(L, 1);
		th_loader_stage_chunk(lv, base + 1);
	}
	return results;
}

/* loadfile(path [, mode [, env]]) as the stock one, parsed in pieces within
 * the budget (th_sandbox_load_file); without a path, the stock one (stdin). */
static int load_named_file(lua_State *L)
{
	const char *path = luaL_checkstring(L, 1);
	const char *mode = luaL_optstring(L, 2, NULL);
	int env = !lua_isnone(L, 3) ? 3 : 0;
	return th_sandbox_load_result(L, th_sandbox_load_file(L, path, mode), env);
}

static int loader_loadfile(lua_State *L)
{
	th_level *lv = lua_touserdata(L, lua_upvalueindex(2));
	const char *path = luaL_optstring(L, 1, NULL);
	int n = lua_gettop(L);
	if (path != NULL) {
		lua_pushcfunction(L, load_named_file);
	} else {
		lua_pushvalue(L, lua_upvalueindex(1));
	}
	lua_insert(L, 1);
	lua_call(L, n, LUA_MULTRET);
	if (lua_isfunction(L, 1)) {
		if (path != NULL) th_watch_add(lv->watch, path);
		if (n < 3) th_loader_stage_chunk(lv, 1); /* no env argument */
	}
	return lua_gettop(L);
}

static int loader_dofile(lua_State *L)
{
	th_level *lv = lua_touserdata(L, lua_upvalueindex(2));
	const char *path = luaL_optstring(L, 1, NULL);
	if (path != NULL) th_watch_add(lv->watch, path);
	lua_settop(L, 1);
	/* as the standard dofile does, with the chunk staged before it runs */
	if ((path != NULL ? th_sandbox_load_file(L, path, NULL) : luaL_loadfile(L, NULL)) != LUA_OK) return lua_error(L);
	th_loader_stage_chunk(lv, -1);
	lua_call(L, 0, LUA_MULTRET);
	return lua_gettop(L) - 1;
}

static int loader_load(lua_State *L)
{
	th_level *lv = lua_touserdata(L, lua_upvalueindex(2));
	int n = lua_gettop(L);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, n, LUA_MULTRET);
	if (n < 4 && lua_isfunction(L, 1)) th_loader_stage_chunk(lv, 1); /* no env argument */
	return lua_gettop(L);
}

static void wrap_global(lua_State *L, th_level *lv, const char *name, lua_CFunction fn)
{
	lua_getglobal(L, name);
	if (!lua_isfunction(L, -1)) {
		lua_pop(L, 1);
		return;
	}
	lua_pushlightuserdata(L, lv);
	lua_pushcclosure(L, fn, 2);
	lua_setglobal(L, name);
}

void th_loader_open_lua(th_level *lv, lua_State *L)
{
	lua_newtable(L);
	lv->modules_ref = luaL_ref(L, LUA_REGISTRYINDEX);

	lua_getglobal(L, LUA_LOADLIBNAME);
	lua_getfield(L, -1, "searchers");
	lua_rawgeti(L, -1, 2);
	lua_pushlightuserdata(L, lv);
	if (lv->opt->sandbox) {
		lua_getfield(L, -4, "path");
	} else {
		lua_pushnil(L);
	}
	lua_pushcclosure(L, loader_searcher, 3);
	lua_rawseti(L, -2, 2);
	lua_pop(L, 2);

	wrap_global(L, lv, "loadfile", loader_loadfile);
	wrap_global(L, lv, "dofile", loader_dofile);
	wrap_global(L, lv, "load", loader_load);
}
