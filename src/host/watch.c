/* tumble host: hot reload's file watching. Every Lua file the level loads
 * (the level itself, require'd modules, loadfile/dofile) is recorded; polling
 * compares modification time, size and inode, which also catches editors that
 * save by renaming a new file over the old one. */
#include "host.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <lauxlib.h>
#include <lualib.h>

void th_watch_init(th_watch *w)
{
	memset(w, 0, sizeof(*w));
}

void th_watch_free(th_watch *w)
{
	for (int i = 0; i < w->count; ++i) free(w->files[i].path);
	free(w->files);
	memset(w, 0, sizeof(*w));
}

static void watch_stat(th_watch_file *f)
{
	struct stat st;
	if (stat(f->path, &st) != 0) {
		f->exists = false;
		return;
	}
	f->exists = true;
	f->mtime = st.st_mtim;
	f->size = st.st_size;
	f->inode = st.st_ino;
}

void th_watch_add(th_watch *w, const char *path)
{
	char resolved[PATH_MAX];
	if (path == NULL || realpath(path, resolved) == NULL) return;
	for (int i = 0; i < w->count; ++i) {
		if (strcmp(w->files[i].path, resolved) == 0) return;
	}
	if (w->count == w->capacity) {
		int capacity = w->capacity != 0 ? 2 * w->capacity : 16;
		th_watch_file *files = realloc(w->files, (size_t)capacity * sizeof(*files));
		if (files == NULL) return;
		w->files = files;
		w->capacity = capacity;
	}
	th_watch_file *f = &w->files[w->count];
	memset(f, 0, sizeof(*f));
	f->path = strdup(resolved);
	if (f->path == NULL) return;
	watch_stat(f);
	w->count += 1;
}

bool th_watch_poll(th_watch *w)
{
	bool changed = false;
	for (int i = 0; i < w->count; ++i) {
		th_watch_file *f = &w->files[i];
		th_watch_file before = *f;
		watch_stat(f);
		/* A file that vanished is usually mid-save: wait for it to come back. */
		if (!f->exists) continue;
		if (!before.exists || before.mtime.tv_sec != f->mtime.tv_sec || before.mtime.tv_nsec != f->mtime.tv_nsec ||
		    before.size != f->size || before.inode != f->inode) {
			changed = true;
		}
	}
	return changed;
}

/* package.searchers[2] wrapper: upvalues are the original searcher, the host
 * and (in the sandbox) the fixed search path. */
static int watch_searcher(lua_State *L)
{
	th_host *h = lua_touserdata(L, lua_upvalueindex(2));
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
		th_watch_add(&h->watch, lua_tostring(L, base + 2));
		/* Remember the module so a reload can make require run it again. */
		lua_rawgeti(L, LUA_REGISTRYINDEX, h->modules_ref);
		lua_pushboolean(L, 1);
		lua_setfield(L, -2, name);
		lua_pop(L, 1);
	}
	return results;
}

static int watch_loadfile(lua_State *L)
{
	th_host *h = lua_touserdata(L, lua_upvalueindex(2));
	const char *path = luaL_optstring(L, 1, NULL);
	int n = lua_gettop(L);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, n, LUA_MULTRET);
	if (path != NULL && lua_isfunction(L, 1)) th_watch_add(&h->watch, path);
	return lua_gettop(L);
}

static int watch_dofile(lua_State *L)
{
	th_host *h = lua_touserdata(L, lua_upvalueindex(2));
	const char *path = luaL_optstring(L, 1, NULL);
	if (path != NULL) th_watch_add(&h->watch, path);
	lua_settop(L, 1);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, 1, LUA_MULTRET);
	return lua_gettop(L);
}

static void wrap_global(lua_State *L, th_host *h, const char *name, lua_CFunction fn)
{
	lua_getglobal(L, name);
	if (!lua_isfunction(L, -1)) {
		lua_pop(L, 1);
		return;
	}
	lua_pushlightuserdata(L, h);
	lua_pushcclosure(L, fn, 2);
	lua_setglobal(L, name);
}

void th_watch_open_lua(th_host *h, lua_State *L)
{
	lua_newtable(L);
	h->modules_ref = luaL_ref(L, LUA_REGISTRYINDEX);

	lua_getglobal(L, LUA_LOADLIBNAME);
	lua_getfield(L, -1, "searchers");
	lua_rawgeti(L, -1, 2);
	lua_pushlightuserdata(L, h);
	if (h->opt->sandbox) {
		lua_getfield(L, -4, "path");
	} else {
		lua_pushnil(L);
	}
	lua_pushcclosure(L, watch_searcher, 3);
	lua_rawseti(L, -2, 2);
	lua_pop(L, 2);

	wrap_global(L, h, "loadfile", watch_loadfile);
	wrap_global(L, h, "dofile", watch_dofile);
}
