/* tumble: creation sites for the host's editor (tumble_lua_record_sites,
 * tumble_lua_site_of in tumble_lua.h).
 *
 * While the host has it on, a world created then records, for each body, shape
 * and joint made by a Lua call, the Lua frame that called the constructor. The
 * state lives in the registry (a table at &sites_key):
 *   level  the level's chunk name
 *   sites  array of sites, each {chunk, line, method, level_line}
 *   index  "chunk\0line\0method\0level_line" -> its number in sites
 *   worlds weak-keyed: record userdata -> {[index1 * 4 + kind] = site * 2^32 + generation}
 * A world made while recording was off has rec->record_sites false and costs
 * one test per creation; so does every world of the module on its own. */
#include <string.h>

#include "lua_internal.h"

static const char sites_key = 0;

/* Distinct sites kept at most: a level that loads new chunks forever cannot
 * grow the table without bound (objects made past it are not recorded). */
#define MAX_SITES 65536

void tumble_lua_record_sites(lua_State *L, const char *level)
{
	if (level == NULL) {
		lua_pushnil(L);
		lua_rawsetp(L, LUA_REGISTRYINDEX, &sites_key);
		return;
	}
	lua_createtable(L, 0, 4);
	lua_pushstring(L, level);
	lua_setfield(L, -2, "level");
	lua_newtable(L);
	lua_setfield(L, -2, "sites");
	lua_newtable(L);
	lua_setfield(L, -2, "index");
	lua_newtable(L);
	lua_createtable(L, 0, 1);
	lua_pushliteral(L, "k");
	lua_setfield(L, -2, "__mode");
	lua_setmetatable(L, -2);
	lua_setfield(L, -2, "worlds");
	lua_rawsetp(L, LUA_REGISTRYINDEX, &sites_key);
}

bool tl_sites_on(lua_State *L)
{
	bool on = lua_rawgetp(L, LUA_REGISTRYINDEX, &sites_key) == LUA_TTABLE;
	lua_pop(L, 1);
	return on;
}

/* The nearest Lua frame at or above level: its source and line, or false. */
static bool lua_frame(lua_State *L, int *level, lua_Debug *ar)
{
	for (; lua_getstack(L, *level, ar); ++*level) {
		if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0 && strcmp(ar->what, "C") != 0) return true;
	}
	return false;
}

/* Pushes the record userdata of rec (the caches keep it at [0]). */
static void push_record(lua_State *L, tl_world_record *rec)
{
	lua_rawgeti(L, LUA_REGISTRYINDEX, rec->cache[TL_BODY]);
	lua_rawgeti(L, -1, 0);
	lua_remove(L, -2);
}

void tl_record_site(lua_State *L, tl_world_record *rec, tl_type kind, int32_t index1, uint32_t generation)
{
	if (index1 <= 0) return;
	int top = lua_gettop(L);
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &sites_key) != LUA_TTABLE) {
		lua_settop(L, top);
		return;
	}
	int state = lua_gettop(L);
	lua_Debug ar;
	const char *method = kind == TL_BODY ? "body" : kind == TL_JOINT ? "joint" : "shape";
	if (lua_getstack(L, 0, &ar) && lua_getinfo(L, "n", &ar) && ar.name != NULL && strlen(ar.name) < 16) {
		method = ar.name;
	}
	int level = 1;
	if (!lua_frame(L, &level, &ar)) {
		lua_settop(L, top);
		return;
	}
	/* (`return b:box{...}` keeps its caller's frame: Lua 5.4 runs a C
	 * function called in tail position in a frame of its own) */
	lua_pushstring(L, ar.source);
	int chunk = lua_gettop(L);
	int line = ar.currentline, level_line = 0;
	lua_getfield(L, state, "level");
	if (!lua_rawequal(L, -1, chunk)) {
		/* made by a helper: the nearest frame of the level's own chunk */
		const char *lv = lua_tostring(L, -1);
		for (++level; lua_frame(L, &level, &ar); ++level) {
			if (lv != NULL && strcmp(ar.source, lv) == 0) {
				level_line = ar.currentline;
				break;
			}
		}
	}
	lua_pop(L, 1);
	/* the site's number, interned by its four parts */
	lua_getfield(L, state, "index");
	int index = lua_gettop(L);
	lua_pushvalue(L, chunk);
	lua_pushfstring(L, "%c%d%c%s%c%d", 0, line, 0, method, 0, level_line);
	lua_concat(L, 2);
	int key = lua_gettop(L);
	lua_Integer site = 0;
	lua_pushvalue(L, key);
	if (lua_rawget(L, index) == LUA_TNUMBER) {
		site = lua_tointeger(L, -1);
	} else {
		lua_getfield(L, state, "sites");
		lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
		if (n >= MAX_SITES) {
			lua_settop(L, top);
			return;
		}
		site = n + 1;
		lua_createtable(L, 4, 0);
		lua_pushvalue(L, chunk);
		lua_rawseti(L, -2, 1);
		lua_pushinteger(L, line);
		lua_rawseti(L, -2, 2);
		lua_pushstring(L, method);
		lua_rawseti(L, -2, 3);
		lua_pushinteger(L, level_line);
		lua_rawseti(L, -2, 4);
		lua_rawseti(L, -2, site);
		lua_pushvalue(L, key);
		lua_pushinteger(L, site);
		lua_rawset(L, index);
	}
	/* the object's entry in its world's table */
	lua_getfield(L, state, "worlds");
	int worlds = lua_gettop(L);
	push_record(L, rec);
	int record = lua_gettop(L);
	lua_pushvalue(L, record);
	if (lua_rawget(L, worlds) != LUA_TTABLE) {
		lua_pop(L, 1);
		lua_newtable(L);
		lua_pushvalue(L, record);
		lua_pushvalue(L, -2);
		lua_rawset(L, worlds);
	}
	lua_pushinteger(L, (lua_Integer)((uint64_t)site << 32 | generation));
	lua_rawseti(L, -2, (lua_Integer)index1 * 4 + kind);
	lua_settop(L, top);
}

static bool object_valid(tl_world_record *rec, int kind, int32_t index1, uint32_t generation)
{
	tb_world *w = tl_world_of(rec);
	if (w == NULL) return false;
	switch (kind) {
		case TL_BODY: return tb_body_is_valid(w, (tb_body_id){index1, generation});
		case TL_SHAPE: return tb_shape_is_valid(w, (tb_shape_id){index1, generation});
		case TL_JOINT: return tb_joint_is_valid(w, (tb_joint_id){index1, generation});
		default: return false;
	}
}

bool tumble_lua_site_of(lua_State *L, int idx, tumble_lua_site *out)
{
	const char *type = tumble_lua_typename(L, idx);
	int kind = type == NULL ? -1 : strcmp(type, "Body") == 0 ? TL_BODY : strcmp(type, "Shape") == 0 ? TL_SHAPE
	           : strcmp(type, "Joint") == 0 ? TL_JOINT : -1;
	if (kind < 0) return false;
	idx = lua_absindex(L, idx);
	const tl_handle *h = lua_touserdata(L, idx);
	if (!object_valid(h->rec, kind, h->index1, h->generation)) return false;
	int top = lua_gettop(L);
	bool found = false;
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &sites_key) != LUA_TTABLE) goto done;
	int state = lua_gettop(L);
	lua_pushliteral(L, "worlds");
	if (lua_rawget(L, state) != LUA_TTABLE) goto done;
	lua_getiuservalue(L, idx, TL_UV_RECORD);
	if (lua_rawget(L, -2) != LUA_TTABLE) goto done;
	int map = lua_gettop(L);
	if (lua_rawgeti(L, map, (lua_Integer)h->index1 * 4 + kind) != LUA_TNUMBER) goto done;
	uint64_t v = (uint64_t)lua_tointeger(L, -1);
	if ((uint32_t)v != h->generation) goto done;
	lua_Integer site = (lua_Integer)(v >> 32);
	lua_pushliteral(L, "sites");
	if (lua_rawget(L, state) != LUA_TTABLE || lua_rawgeti(L, -1, site) != LUA_TTABLE) goto done;
	int s = lua_gettop(L);
	memset(out, 0, sizeof *out);
	lua_rawgeti(L, s, 1);
	const char *chunk = lua_tostring(L, -1);
	snprintf(out->chunk, sizeof out->chunk, "%s", chunk != NULL ? chunk : "?");
	lua_rawgeti(L, s, 2);
	out->line = (int)lua_tointeger(L, -1);
	lua_rawgeti(L, s, 3);
	const char *method = lua_tostring(L, -1);
	snprintf(out->method, sizeof out->method, "%s", method != NULL ? method : "?");
	lua_rawgeti(L, s, 4);
	out->level_line = (int)lua_tointeger(L, -1);
	lua_pushliteral(L, "level");
	lua_rawget(L, state);
	const char *level = lua_tostring(L, -1);
	out->in_level = level != NULL && strcmp(level, out->chunk) == 0;
	if (out->in_level) out->level_line = out->line;
	/* the live objects of this world made by the same call (chunk, line, method) */
	lua_settop(L, map);
	lua_pushnil(L);
	while (lua_next(L, map) != 0) {
		uint64_t e = (uint64_t)lua_tointeger(L, -1);
		lua_Integer k = lua_tointeger(L, -2);
		lua_pop(L, 1);
		if ((lua_Integer)(e >> 32) != site) {
			/* another site: the same call if it names the same chunk and line */
			lua_pushliteral(L, "sites");
			lua_rawget(L, state);
			int same = 0;
			if (lua_rawgeti(L, -1, (lua_Integer)(e >> 32)) == LUA_TTABLE) {
				lua_rawgeti(L, -1, 1);
				lua_rawgeti(L, -2, 2);
				lua_rawgeti(L, -3, 3);
				same = lua_tointeger(L, -2) == out->line && lua_tostring(L, -3) != NULL &&
				       strcmp(lua_tostring(L, -3), out->chunk) == 0 && lua_tostring(L, -1) != NULL &&
				       strcmp(lua_tostring(L, -1), out->method) == 0;
				lua_pop(L, 3);
			}
			lua_pop(L, 2);
			if (!same) continue;
		}
		if (object_valid(h->rec, (int)(k & 3), (int32_t)(k >> 2), (uint32_t)e)) out->count++;
	}
	found = true;
done:
	lua_settop(L, top);
	return found;
}
