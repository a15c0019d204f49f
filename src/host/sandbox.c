/* tumble host: the Lua allocator cap, the instruction budget and the stripped
 * standard library used by --sandbox. */
#include "sandbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>
#include <lualib.h>

static void *sandbox_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	th_sandbox *sb = ud;
	/* When ptr is NULL, osize encodes the kind of object, not a size. */
	size_t old = ptr != NULL ? osize : 0;
	if (nsize == 0) {
		free(ptr);
		sb->used -= old;
		return NULL;
	}
	/* Lua requires shrinking never to fail, so only growth is checked. */
	if (sb->enforce && sb->limit != 0 && nsize > old && sb->used - old + nsize > sb->limit) {
		sb->limit_hit = true;
		return NULL;
	}
	void *block = realloc(ptr, nsize);
	if (block == NULL) return NULL;
	sb->used = sb->used - old + nsize;
	return block;
}

static int sandbox_panic(lua_State *L)
{
	const char *msg = lua_tostring(L, -1);
	fprintf(stderr, "tumble: unprotected Lua error: %s\n", msg != NULL ? msg : "?");
	abort();
	return 0;
}

lua_State *th_sandbox_new_state(th_sandbox *sb)
{
	lua_State *L = lua_newstate(sandbox_alloc, sb);
	if (L != NULL) lua_atpanic(L, sandbox_panic);
	return L;
}

/* load() without binary chunks: crafted bytecode can crash the VM. */
static int sandbox_load(lua_State *L)
{
	int n = lua_gettop(L);
	if (n < 3) lua_settop(L, 3);
	lua_pushliteral(L, "t");
	lua_replace(L, 3);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
	return lua_gettop(L);
}

void th_sandbox_open_libs(lua_State *L, bool strict)
{
	if (!strict) {
		luaL_openlibs(L);
		return;
	}
	static const luaL_Reg safe[] = {
		{LUA_GNAME, luaopen_base},         {LUA_LOADLIBNAME, luaopen_package}, {LUA_COLIBNAME, luaopen_coroutine},
		{LUA_TABLIBNAME, luaopen_table},   {LUA_STRLIBNAME, luaopen_string},   {LUA_MATHLIBNAME, luaopen_math},
		{LUA_UTF8LIBNAME, luaopen_utf8},   {NULL, NULL},
	};
	for (const luaL_Reg *lib = safe; lib->func != NULL; ++lib) {
		luaL_requiref(L, lib->name, lib->func, 1);
		lua_pop(L, 1);
	}
	/* Files are read only through require (the host's searcher, on a fixed path). */
	lua_pushnil(L);
	lua_setglobal(L, "dofile");
	lua_pushnil(L);
	lua_setglobal(L, "loadfile");
	lua_getglobal(L, "load");
	lua_pushcclosure(L, sandbox_load, 1);
	lua_setglobal(L, "load");

	lua_getglobal(L, LUA_LOADLIBNAME);
	lua_pushnil(L);
	lua_setfield(L, -2, "loadlib");
	lua_pushliteral(L, "");
	lua_setfield(L, -2, "cpath");
	/* Keep the preload and Lua-file searchers only (1 and 2); 3 and 4 load C. */
	lua_getfield(L, -1, "searchers");
	lua_pushnil(L);
	lua_rawseti(L, -2, 4);
	lua_pushnil(L);
	lua_rawseti(L, -2, 3);
	lua_pop(L, 2);
}

static void sandbox_hook(lua_State *L, lua_Debug *ar)
{
	(void)ar;
	void *ud = NULL;
	lua_getallocf(L, &ud);
	th_sandbox *sb = ud;
	if (sb == NULL || !sb->enforce || sb->instr_limit <= 0) return;
	sb->instr_count += sb->instr_step;
	if (sb->instr_count > sb->instr_limit) {
		/* From now on every instruction fails, so a pcall in the level cannot
		 * swallow the error and keep looping. */
		lua_sethook(L, sandbox_hook, LUA_MASKCOUNT, 1);
		luaL_error(L, "instruction limit exceeded in %s (%I instructions)", sb->phase != NULL ? sb->phase : "level",
		           (lua_Integer)sb->instr_limit);
	}
}

void th_sandbox_begin(lua_State *L, th_sandbox *sb, const char *phase)
{
	sb->phase = phase;
	sb->limit_hit = false;
	sb->enforce = true;
	sb->instr_count = 0;
	if (sb->instr_limit > 0) {
		sb->instr_step = sb->instr_limit < 1000 ? (int)sb->instr_limit : 1000;
		/* Setting the hook also restarts its countdown. */
		lua_sethook(L, sandbox_hook, LUA_MASKCOUNT, sb->instr_step);
	}
}

void th_sandbox_end(lua_State *L, th_sandbox *sb)
{
	sb->enforce = false;
	/* The host's own Lua glue runs unhooked (and a tripped hook is disarmed). */
	if (sb->instr_limit > 0) lua_sethook(L, NULL, 0, 0);
}
