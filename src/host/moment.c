/* tumble host: the Lua side of a moment of the level, for rewind (level.h):
 * the world's snapshot, a copy of level.state, tumble.camera's fields, and
 * every Sound's voices and settings (sound.c).
 *
 * level.state is copied as plain data: tables (cycles and shared subtables
 * kept as they are, by one copy per table), numbers, strings, booleans; the
 * tumble handles (Body, Shape, Joint, World, Snapshot) and the host's assets
 * (Image, Sound) stay the same userdata, since what they name comes back
 * with the world's snapshot or never changes. Anything else (a function, a
 * coroutine, a Contact, another userdata) is refused with its path, because
 * a rewind could not give it back: a closure's upvalues are not data.
 *
 * A restore puts each copy's contents back into the table it was copied from
 * (kept by the moment), not a new table: every alias of a table of the state
 * (a local in a closure, a key elsewhere) then sees the restored contents, as
 * it would have at that moment. A table made after the moment is not
 * reachable from the restored state (no stale data), and one dropped since
 * comes back.
 *
 * The copy never runs level code: the tables are read and written raw (no
 * __index, __pairs or __newindex), and the caller stops the collector around
 * both, so no finalizer runs in the middle. A metatable is kept aside and put
 * back as it was; one with __gc is refused, since a copy would be finalized
 * too. */
#include "level.h"
#include "canvas.h"
#include "sandbox.h"
#include "text.h"
#include "tumble/tumble_lua.h"

#include <ctype.h>
#include <limits.h>
#include <string.h>
#include <lauxlib.h>

/* what the estimate counts: a table's header, an entry, a back reference */
#define TABLE_BYTES 56
#define ENTRY_BYTES 32

/* Fields of the moment table. */
#define M_SNAP 1     /* the world's Snapshot */
#define M_STATE 2    /* the copy of level.state (a table's copy, or a plain value) */
#define M_BACK 3     /* copy -> the table it was copied from */
#define M_METAS 4    /* copy -> that table's metatable */
#define M_CAMERA 5   /* {x, y, scale, dx, dy, target} of tumble.camera */
#define M_SOUNDS 6   /* every Sound's voices and settings (sound.c) */

static const char *const camera_fields[] = {"x", "y", "scale", "dx", "dy", "target", NULL};

typedef struct copier {
	int memo, back, metas, parent, queue; /* stack indices of the work tables */
	int queued;
	const char *root;                     /* the root's name, "level.state" */
	size_t bytes, budget;
} copier;

/* ---------------- paths, for the messages ---------------- */

static bool is_name(const char *s, size_t n)
{
	if (n == 0 || n > 40 || !(isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
	for (size_t i = 1; i < n; ++i) {
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_')) return false;
	}
	return true;
}

/* Adds ".name", "[3]", "[\"a key\"]" or "[Body]" for the key at idx. */
static void add_key(lua_State *L, luaL_Buffer *b, int idx)
{
	size_t n = 0;
	switch (lua_type(L, idx)) {
	case LUA_TSTRING: {
		const char *s = lua_tolstring(L, idx, &n);
		if (is_name(s, n)) {
			luaL_addchar(b, '.');
			luaL_addlstring(b, s, n);
		} else {
			luaL_addstring(b, "[\"");
			luaL_addlstring(b, s, n > 40 ? 40 : n);
			luaL_addstring(b, n > 40 ? "...\"]" : "\"]");
		}
		break;
	}
	case LUA_TNUMBER: {
		char num[64];
		if (lua_isinteger(L, idx)) {
			snprintf(num, sizeof(num), "[%lld]", (long long)lua_tointeger(L, idx));
		} else {
			snprintf(num, sizeof(num), "[%.14g]", (double)lua_tonumber(L, idx));
		}
		luaL_addstring(b, num);
		break;
	}
	case LUA_TBOOLEAN: luaL_addstring(b, lua_toboolean(L, idx) ? "[true]" : "[false]"); break;
	default: {
		const char *t = tumble_lua_typename(L, idx);
		luaL_addchar(b, '[');
		luaL_addstring(b, t != NULL ? t : luaL_typename(L, idx));
		luaL_addchar(b, ']');
		break;
	}
	}
}

/* Pushes the path of the table at tidx ("level.state.a[2]"; 0: the root's
 * name), following the parent links the copy left: parent[t] = {table, key},
 * and the root's parent is its name. */
static void push_path(lua_State *L, copier *c, int tidx)
{
	if (tidx == 0) {
		lua_pushstring(L, c->root);
		return;
	}
	int base = lua_gettop(L);
	lua_pushvalue(L, tidx);
	/* the keys, innermost first, then the root's name */
	for (int depth = 0;; ++depth) {
		int t = lua_rawget(L, c->parent);
		if (t != LUA_TTABLE || depth == 100) {
			if (t != LUA_TSTRING) {
				lua_pop(L, 1);
				lua_pushstring(L, depth == 100 ? "..." : c->root);
			}
			break;
		}
		lua_rawgeti(L, -1, 2); /* key */
		lua_rawgeti(L, -2, 1); /* parent table, looked up next */
		lua_remove(L, -3);
	}
	int top = lua_gettop(L);
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	lua_pushvalue(L, top);
	luaL_addvalue(&b);
	for (int i = top - 1; i > base; --i) add_key(L, &b, i);
	luaL_pushresult(&b);
	lua_replace(L, base + 1);
	lua_settop(L, base + 1);
}

/* Raises "PATH is a function: rewind keeps plain data and handles": the path
 * of the value at vidx, under the key at kidx of the table at tidx (0: the
 * root itself); as_key: the value is a key of that table. */
static int refuse(lua_State *L, copier *c, int vidx, int tidx, int kidx, bool as_key)
{
	vidx = lua_absindex(L, vidx);
	const char *t = tumble_lua_typename(L, vidx);
	const char *what;
	char buf[64];
	if (t != NULL) {
		what = "a Contact (valid only inside its handler)";
	} else if (lua_type(L, vidx) == LUA_TTABLE) {
		what = "a table whose metatable has __gc (its copy would be finalized too)";
	} else if (lua_type(L, vidx) == LUA_TUSERDATA && luaL_getmetafield(L, vidx, "__name") == LUA_TSTRING) {
		snprintf(buf, sizeof(buf), "a userdata (%.40s)", lua_tostring(L, -1));
		lua_pop(L, 1);
		what = buf;
	} else {
		snprintf(buf, sizeof(buf), "a %s", luaL_typename(L, vidx));
		what = buf;
	}
	push_path(L, c, tidx);
	int path = lua_gettop(L);
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	lua_pushvalue(L, path);
	luaL_addvalue(&b);
	if (tidx != 0 && !as_key) add_key(L, &b, kidx);
	luaL_addstring(&b, as_key ? " has " : " is ");
	luaL_addstring(&b, what);
	if (as_key) luaL_addstring(&b, " as a key");
	luaL_addstring(&b, ": rewind keeps plain data and handles");
	luaL_pushresult(&b);
	return lua_error(L);
}

/* ---------------- the copy ---------------- */

static bool kept_as_is(lua_State *L, int idx)
{
	const char *t = tumble_lua_typename(L, idx);
	if (t != NULL) return strcmp(t, "Contact") != 0;
	/* drawing's own objects are kept too: what they hold is pictures, not
	 * the simulation (a rewind does not take back a canvas's pixels) */
	return luaL_testudata(L, idx, TH_IMAGE_MT) != NULL || luaL_testudata(L, idx, TH_SOUND_MT) != NULL ||
	       luaL_testudata(L, idx, TH_FONT_MT) != NULL || luaL_testudata(L, idx, TH_CANVAS_MT) != NULL ||
	       luaL_testudata(L, idx, TH_BATCH_MT) != NULL || luaL_testudata(L, idx, TH_PARTICLES_MT) != NULL;
}

/* Pushes what the value at vidx becomes in the copy; a table not seen yet
 * gets its copy and joins the queue. It is the value (as_key: a key) under
 * the key at kidx of the table at tidx (0: the root). */
static void convert(lua_State *L, copier *c, int vidx, int tidx, int kidx, bool as_key)
{
	vidx = lua_absindex(L, vidx);
	int top = lua_gettop(L);
	switch (lua_type(L, vidx)) {
	case LUA_TNIL:
	case LUA_TBOOLEAN:
	case LUA_TNUMBER:
	case LUA_TSTRING: lua_pushvalue(L, vidx); return;
	case LUA_TUSERDATA:
		if (!kept_as_is(L, vidx)) refuse(L, c, vidx, tidx, kidx, as_key);
		lua_pushvalue(L, vidx);
		return;
	case LUA_TTABLE: break;
	default: refuse(L, c, vidx, tidx, kidx, as_key); return;
	}
	lua_pushvalue(L, vidx);
	if (lua_rawget(L, c->memo) == LUA_TTABLE) return;
	lua_pop(L, 1);
	int meta = 0;
	if (lua_getmetatable(L, vidx)) {
		meta = lua_gettop(L);
		lua_pushliteral(L, "__gc");
		bool gc = lua_rawget(L, meta) != LUA_TNIL;
		lua_pop(L, 1);
		if (gc) refuse(L, c, vidx, tidx, kidx, as_key);
	}
	/* the array part is made at once: its size counts before it is made */
	size_t n = lua_rawlen(L, vidx);
	c->bytes += TABLE_BYTES + ENTRY_BYTES;
	if (c->bytes > c->budget || n > (c->budget - c->bytes) / ENTRY_BYTES) {
		/* the path of this table: its parent's and its key */
		push_path(L, c, tidx);
		luaL_Buffer b;
		luaL_buffinit(L, &b);
		lua_pushvalue(L, -2);
		luaL_addvalue(&b);
		if (tidx != 0) add_key(L, &b, kidx);
		luaL_pushresult(&b);
		luaL_error(L, "%s is too large to keep for rewind (over %d MB a copy)", lua_tostring(L, -1),
		           (int)(c->budget >> 20));
	}
	lua_createtable(L, n < INT_MAX ? (int)n : 0, 0);
	int copy = lua_gettop(L);
	lua_pushvalue(L, vidx);
	lua_pushvalue(L, copy);
	lua_rawset(L, c->memo);
	lua_pushvalue(L, copy);
	lua_pushvalue(L, vidx);
	lua_rawset(L, c->back);
	if (meta != 0) {
		lua_pushvalue(L, copy);
		lua_pushvalue(L, meta);
		lua_rawset(L, c->metas);
	}
	lua_pushvalue(L, vidx);
	if (tidx != 0) {
		lua_createtable(L, 2, 0);
		lua_pushvalue(L, tidx);
		lua_rawseti(L, -2, 1);
		lua_pushvalue(L, kidx);
		lua_rawseti(L, -2, 2);
	} else {
		lua_pushstring(L, c->root);
	}
	lua_rawset(L, c->parent);
	lua_pushvalue(L, vidx);
	lua_rawseti(L, c->queue, ++c->queued);
	lua_pushvalue(L, copy);
	lua_replace(L, top + 1);
	lua_settop(L, top + 1);
}

/* Copies every table in the queue from position *done on (each copy's
 * entries, converting keys and values). */
static void drain(lua_State *L, copier *c, int *done)
{
	while (*done < c->queued) {
		lua_rawgeti(L, c->queue, ++*done);
		int t = lua_gettop(L);
		lua_pushvalue(L, t);
		lua_rawget(L, c->memo);
		int copy = t + 1;
		lua_pushnil(L);
		while (lua_next(L, t) != 0) {
			/* key at copy + 1, value at copy + 2 */
			convert(L, c, copy + 1, t, copy + 1, true);
			convert(L, c, copy + 2, t, copy + 1, false);
			lua_rawset(L, copy);
			lua_pop(L, 1);
			c->bytes += ENTRY_BYTES;
		}
		if (c->bytes > c->budget) {
			push_path(L, c, t);
			luaL_error(L, "%s is too large to keep for rewind (over %d MB a copy)", lua_tostring(L, -1),
			           (int)(c->budget >> 20));
		}
		lua_settop(L, t - 1);
	}
}

/* th_moment_capture_lua(world, level, camera, budget) -> moment, bytes. The
 * caller has stopped the collector. */
int th_moment_capture_lua(lua_State *L)
{
	/* 1 world, 2 level table, 3 camera table, 4 budget */
	lua_settop(L, 4);
	luaL_checkstack(L, 40, NULL);
	copier c;
	memset(&c, 0, sizeof(c));
	c.budget = (size_t)lua_tointeger(L, 4);
	c.root = "level.state";
	lua_createtable(L, 5, 0);
	int moment = lua_gettop(L);
	lua_newtable(L);
	c.memo = lua_gettop(L);
	lua_newtable(L);
	c.back = lua_gettop(L);
	lua_newtable(L);
	c.metas = lua_gettop(L);
	lua_newtable(L);
	c.parent = lua_gettop(L);
	lua_newtable(L);
	c.queue = lua_gettop(L);

	/* level.state first: a refusal costs no snapshot */
	lua_pushliteral(L, "state");
	lua_rawget(L, 2);
	int state = lua_gettop(L);
	convert(L, &c, state, 0, 0, false);
	lua_rawseti(L, moment, M_STATE);
	int done = 0;
	drain(L, &c, &done);
	lua_pushvalue(L, c.back);
	lua_rawseti(L, moment, M_BACK);
	lua_pushvalue(L, c.metas);
	lua_rawseti(L, moment, M_METAS);

	/* the camera's fields as they are (the table holds the host's functions) */
	lua_createtable(L, 0, 6);
	if (lua_istable(L, 3)) {
		for (int i = 0; camera_fields[i] != NULL; ++i) {
			lua_pushstring(L, camera_fields[i]);
			lua_rawget(L, 3);
			lua_setfield(L, -2, camera_fields[i]);
		}
	}
	lua_rawseti(L, moment, M_CAMERA);
	size_t sound_bytes = th_sound_capture_lua(L);
	lua_rawseti(L, moment, M_SOUNDS);

	lua_pushcfunction(L, tumble_lua_world_snapshot);
	lua_pushvalue(L, 1);
	lua_call(L, 1, 1);
	size_t snap_bytes = tumble_lua_snapshot_bytes(L, -1);
	lua_rawseti(L, moment, M_SNAP);

	lua_pushvalue(L, moment);
	lua_pushinteger(L, (lua_Integer)(snap_bytes + c.bytes + sound_bytes + TABLE_BYTES * 6));
	return 2;
}

/* Pushes the restored form of the copy's value at idx: a copy's original
 * table, anything else as it is. */
static void push_original(lua_State *L, int back, int idx)
{
	if (lua_type(L, idx) != LUA_TTABLE) {
		lua_pushvalue(L, idx);
		return;
	}
	lua_pushvalue(L, idx);
	lua_rawget(L, back);
}

/* th_moment_restore_lua(world, level, camera, moment): the world's snapshot
 * back, every copied table's contents and metatable back into its original,
 * level.state and the camera's fields as they were. The caller has stopped
 * the collector. */
int th_moment_restore_lua(lua_State *L)
{
	lua_settop(L, 4);
	luaL_checkstack(L, 40, NULL);
	luaL_checktype(L, 4, LUA_TTABLE);
	lua_pushcfunction(L, tumble_lua_world_restore);
	lua_pushvalue(L, 1);
	lua_rawgeti(L, 4, M_SNAP);
	lua_call(L, 2, 0);

	lua_rawgeti(L, 4, M_BACK);
	int back = lua_gettop(L);
	lua_rawgeti(L, 4, M_METAS);
	int metas = lua_gettop(L);
	/* empty every original, then fill each from its copy */
	lua_pushnil(L);
	while (lua_next(L, back) != 0) {
		int original = lua_gettop(L);
		lua_pushnil(L);
		while (lua_next(L, original) != 0) {
			lua_pop(L, 1);
			lua_pushvalue(L, -1);
			lua_pushnil(L);
			lua_rawset(L, original);
		}
		lua_pop(L, 1);
	}
	lua_pushnil(L);
	while (lua_next(L, back) != 0) {
		int copy = lua_gettop(L) - 1, original = lua_gettop(L);
		lua_pushnil(L);
		while (lua_next(L, copy) != 0) {
			int k = lua_gettop(L) - 1, v = lua_gettop(L);
			push_original(L, back, k);
			push_original(L, back, v);
			lua_rawset(L, original);
			lua_pop(L, 1);
		}
		lua_pushvalue(L, copy);
		lua_rawget(L, metas);
		if (lua_istable(L, -1)) {
			/* a metatable that gained __gc since the copy must not mark the
			 * table for finalization now (setmetatable refused it then) */
			th_sandbox_setmetatable_unmarked(L, original);
		} else {
			lua_pop(L, 1);
			lua_pushnil(L);
			lua_setmetatable(L, original);
		}
		lua_pop(L, 1);
	}

	lua_pushliteral(L, "state");
	lua_rawgeti(L, 4, M_STATE);
	push_original(L, back, lua_gettop(L));
	lua_remove(L, -2);
	lua_rawset(L, 2);

	if (lua_istable(L, 3)) {
		lua_rawgeti(L, 4, M_CAMERA);
		int cam = lua_gettop(L);
		for (int i = 0; camera_fields[i] != NULL; ++i) {
			lua_pushstring(L, camera_fields[i]);
			lua_getfield(L, cam, camera_fields[i]);
			lua_rawset(L, 3);
		}
	}
	lua_rawgeti(L, 4, M_SOUNDS);
	th_sound_restore_lua(L, -1);
	return 0;
}
