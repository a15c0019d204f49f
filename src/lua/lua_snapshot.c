/* tumble: the Snapshot type: world:snapshot(), world:restore(snap), snap:save()
 * and tumble.snapshot(bytes).
 *
 * The engine's snapshot brings back the bodies, shapes and joints and their
 * ids; the Lua side must bring back what scripts see of them. A snapshot
 * keeps the handles (userdata) alive at its moment and a copy of the Lua
 * values they held then (user, on_begin...); a restore puts those handles
 * back into the caches, so the script's handles are == to what queries and
 * events return, and puts the values back on them, so a body destroyed after
 * the snapshot returns with its user value and its shapes with their
 * handlers. Handles of objects made after it are stale: the engine says so.
 * A snapshot read from bytes has only the engine state: restoring it makes
 * every handle of the world stale.
 *
 * Re-entrancy (lua_internal.h): taking one makes its tables as large as the
 * handles can be (no more than the world's objects of each kind; no more
 * values than the world's anchors hold) and more (which may run a
 * finalizer), then takes the engine snapshot and fills the tables with
 * nothing allocated in between, so the handles and the engine state are of
 * the same moment; if a finalizer made more handles than there is room for,
 * it starts again.
 *
 * Cost: the fill walks each weak cache once and reads a handle's values only
 * when it is anchored (a handle holds values only then), so a world of
 * 10,000 handles with a few hundred values costs well under a millisecond on
 * top of the engine's copy (tests/bench/lua_snapshot_bench.lua).
 * Restoring changes the engine first (no Lua), then puts the handles back in
 * a protected call with rec->restoring set: a finalizer running meanwhile
 * cannot step, snapshot or restore this world, and every handle is checked
 * against the engine again as it is anchored.
 *
 * Memory: the engine's snapshot comes from the state's allocator without the
 * collector knowing, so each new one is reported to it as steps of that many
 * kilobytes in all (the collector then keeps up with snapshots a script
 * drops): a world's snapshots over its next steps (report_memory), one read
 * from bytes at once; running out of memory is retried once after a full
 * collection. */
#include <stdio.h>
#include <string.h>

#include "lua_internal.h"

#define SNAPSHOT_FIELDS(X)                                                                                     \
	X(valid, TL_RO | TL_ALWAYS)                                                                                \
	X(bytes, TL_RO)                                                                                            \
	X(step_count, TL_RO)                                                                                       \
	X(body_count, TL_RO)

enum {
#define ENUM(name, ...) P_##name,
	SNAPSHOT_FIELDS(ENUM)
#undef ENUM
	P_COUNT
};
static const char *const snapshot_names[] = {SNAPSHOT_FIELDS(TL_X_NAME) NULL};
static const uint8_t snapshot_flags[] = {SNAPSHOT_FIELDS(TL_X_FLAGS)};

/* The Lua values a handle of each kind holds (its user values past the
 * record): user, and for shapes one handler per event. */
static int value_count(int kind) { return kind == TL_SHAPE ? TL_SHAPE_UV_COUNT - 1 : 1; }
/* A record of the values array: the handle's position in the handles array, then its values. */
static int value_stride(int kind) { return 1 + value_count(kind); }

static tl_snapshot_ud *check_snapshot(lua_State *L, int idx)
{
	return tl_checkudata(L, idx, TL_SNAPSHOT);
}

static tl_snapshot_ud *check_open(lua_State *L, int idx)
{
	tl_snapshot_ud *su = check_snapshot(L, idx);
	if (su->snap == NULL) luaL_error(L, "snapshot was closed");
	return su;
}

/* Pushes a new, closed Snapshot userdata: its finalizer is safe from the start. */
static tl_snapshot_ud *new_snapshot(lua_State *L)
{
	tl_snapshot_ud *su = lua_newuserdatauv(L, sizeof *su, TL_SNAPSHOT_UV_COUNT);
	memset(su, 0, sizeof *su);
	su->type = tl_type_names_of(L, TL_SNAPSHOT);
	tl_push_metatable(L, TL_SNAPSHOT);
	lua_setmetatable(L, -2);
	return su;
}

/* Tells the collector about memory it did not see being allocated (a step as
 * if that many kilobytes had been). May run finalizers: callers do it last. */
static void gc_step(lua_State *L, size_t kb)
{
	if (kb > 0) lua_gc(L, LUA_GCSTEP, kb > (size_t)INT32_MAX ? INT32_MAX : (int)kb);
}

/* A world's snapshots are reported after its steps, at most a slice a step
 * (an eighth of what waits, and at least TL_GC_SLICE_KB), rather than in
 * world:snapshot: a collector step the size of the 5,050-box pyramid's 8 MB
 * does most of a cycle, 0.2-0.7 ms in the snapshot's frame. Past
 * TL_GC_PENDING_MAX_KB waiting (snapshots taken faster than steps report
 * them), the excess is reported at once, so the collector never lags far
 * behind the snapshots a script drops. */
#define TL_GC_SLICE_KB 1024u
#define TL_GC_PENDING_MAX_KB (32u * 1024u)

static void report_memory(lua_State *L, tl_world_record *rec, const tb_snapshot *snap)
{
	size_t kb = tb_snapshot_get_allocated_bytes(snap) / 1024;
	if (rec == NULL) {
		gc_step(L, kb);
		return;
	}
	rec->gc_pending_kb += kb;
	if (rec->gc_pending_kb > TL_GC_PENDING_MAX_KB) {
		size_t excess = rec->gc_pending_kb - TL_GC_PENDING_MAX_KB;
		rec->gc_pending_kb = TL_GC_PENDING_MAX_KB;
		gc_step(L, excess);
	}
}

void tl_report_snapshot_memory(lua_State *L, tl_world_record *rec)
{
	size_t kb = rec->gc_pending_kb / 8;
	if (kb < TL_GC_SLICE_KB) kb = TL_GC_SLICE_KB;
	if (kb > rec->gc_pending_kb) kb = rec->gc_pending_kb;
	rec->gc_pending_kb -= kb;
	gc_step(L, kb);
}

/* ---------------- taking ---------------- */

static bool holds_values(lua_State *L, int idx, int kind)
{
	for (int j = 0; j < value_count(kind); ++j) {
		bool set = lua_getiuservalue(L, idx, TL_UV_USER + j) != LUA_TNIL;
		lua_pop(L, 1);
		if (set) return true;
	}
	return false;
}

/* The cache's value at idx as a live handle of rec and kind, or NULL (its
 * [0] is the record). The type by its names pointer, as tl_self does. */
static const tl_handle *live_handle(lua_State *L, int idx, tl_world_record *rec, int kind)
{
	const tl_handle *h = lua_touserdata(L, idx);
	if (h == NULL || lua_rawlen(L, idx) != sizeof *h || h->type != rec->names[kind] || h->rec != rec) return NULL;
	return tl_handle_valid(h, (tl_type)kind) ? h : NULL;
}

/* How many handles of a kind the world's anchors hold (its values at
 * TL_WUV_ANCHORS of the World at widx): every handle that holds values is
 * among them. Allocates nothing. */
static int count_anchored(lua_State *L, int widx, int kind)
{
	int n = 0;
	lua_getiuservalue(L, widx, TL_WUV_ANCHORS(kind));
	int anchors = lua_gettop(L);
	if (lua_type(L, anchors) == LUA_TTABLE) {
		lua_pushnil(L);
		while (lua_next(L, anchors) != 0) {
			n += 1;
			lua_pop(L, 1);
		}
	}
	lua_settop(L, anchors - 1);
	return n;
}

/* Fills the snapshot's tables from the caches, allocating nothing, so nothing
 * runs between the engine snapshot and this. False if the tables were too
 * small (a finalizer made handles after they were counted). */
static bool fill_handles(lua_State *L, tl_world_record *rec, tl_snapshot_ud *su, int sidx, const int *room,
                         const int *value_room)
{
	bool fits = true;
	for (int k = 0; k < TL_KIND_COUNT; ++k) {
		lua_rawgeti(L, LUA_REGISTRYINDEX, rec->cache[k]);
		int cache = lua_gettop(L);
		lua_getiuservalue(L, sidx, TL_SUV_HANDLES(k));
		int handles = lua_gettop(L);
		lua_getiuservalue(L, sidx, TL_SUV_VALUES(k));
		int values = lua_gettop(L);
		int n = 0, v = 0, stride = value_stride(k);
		lua_pushnil(L);
		while (lua_next(L, cache) != 0) {
			int hidx = lua_gettop(L);
			const tl_handle *h = live_handle(L, hidx, rec, k);
			if (h != NULL) {
				if (n == room[k]) {
					fits = false;
				} else {
					lua_pushvalue(L, hidx);
					lua_rawseti(L, handles, ++n);
					if (h->anchored && holds_values(L, hidx, k)) {
						if (v == value_room[k]) {
							fits = false;
						} else {
							int at = v++ * stride;
							lua_pushinteger(L, n);
							lua_rawseti(L, values, at + 1);
							for (int j = 0; j < value_count(k); ++j) {
								lua_getiuservalue(L, hidx, TL_UV_USER + j);
								lua_rawseti(L, values, at + 2 + j);
							}
						}
					}
				}
			}
			lua_pop(L, 1);
		}
		su->handles[k] = n;
		su->values[k] = v;
		lua_settop(L, cache - 1);
	}
	return fits;
}

int tl_world_snapshot(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	if (rec->restoring) return luaL_error(L, "cannot take a snapshot while world:restore puts the handles back");
	lua_settop(L, 1);
	luaL_checkstack(L, 16, NULL);
	tl_snapshot_ud *su = new_snapshot(L);
	int sidx = lua_gettop(L);
	lua_getiuservalue(L, 1, TL_WUV_RECORD);
	lua_setiuservalue(L, sidx, TL_SUV_RECORD);
	su->rec = rec;

	for (int attempt = 0;;) {
		/* tables as large as the live handles, with room to spare: making
		 * them may run a finalizer that makes more, which the fill sees */
		int room[TL_KIND_COUNT], value_room[TL_KIND_COUNT];
		if (tl_world_of(rec) == NULL) return luaL_error(L, "world was destroyed");
		tb_counters counters = tb_world_get_counters(tl_world_of(rec));
		room[TL_BODY] = counters.body_count;
		room[TL_SHAPE] = counters.shape_count;
		room[TL_JOINT] = counters.joint_count;
		for (int k = 0; k < TL_KIND_COUNT; ++k) {
			value_room[k] = count_anchored(L, 1, k);
			if (value_room[k] > room[k]) value_room[k] = room[k];
			room[k] += 16 + room[k] / 8;
			value_room[k] += 16 + value_room[k] / 8;
		}
		for (int k = 0; k < TL_KIND_COUNT; ++k) {
			lua_createtable(L, room[k], 0);
			lua_setiuservalue(L, sidx, TL_SUV_HANDLES(k));
			lua_createtable(L, value_room[k] * value_stride(k), 0);
			lua_setiuservalue(L, sidx, TL_SUV_VALUES(k));
		}
		tb_world *w = tl_world_of(rec);
		if (w == NULL) return luaL_error(L, "world was destroyed");
		tb_status st = TB_OK;
		tb_snapshot *snap = tb_world_snapshot(w, &st);
		if (snap != NULL) {
			su->snap = snap;
			if (fill_handles(L, rec, su, sidx, room, value_room)) break;
			/* more handles than counted: again, larger */
			su->snap = NULL;
			tb_snapshot_free(snap);
			continue;
		}
		if (st != TB_ERR_OUT_OF_MEMORY) return luaL_error(L, "cannot take a snapshot (%s)", tl_status_text(st));
		if (attempt++ > 0) return luaL_error(L, "out of memory taking a snapshot");
		/* snapshots the script dropped may be what holds the memory */
		lua_gc(L, LUA_GCCOLLECT, 0);
	}
	report_memory(L, rec, su->snap);
	lua_settop(L, sidx);
	return 1;
}

/* ---------------- restoring ---------------- */

/* Puts the snapshot's handles back: into the caches (the same userdata for the
 * same objects), with the values they held, anchored. Every handle of the
 * world first loses its values and anchor: values set after the snapshot go,
 * and a handle of an object made after it is stale anyway. Runs protected with
 * rec->restoring set; the table writes may allocate and so run finalizers. */
static int put_handles_back(lua_State *L)
{
	tl_world_ud *wud = lua_touserdata(L, 1);
	tl_snapshot_ud *su = lua_touserdata(L, 2);
	tl_world_record *rec = wud->rec;
	tl_forget_all(L, rec);
	if (su->rec != rec) return 0;
	for (int k = 0; k < TL_KIND_COUNT; ++k) {
		if (tl_world_of(rec) == NULL) return 0;
		lua_rawgeti(L, LUA_REGISTRYINDEX, rec->cache[k]);
		int cache = lua_gettop(L);
		lua_getiuservalue(L, 2, TL_SUV_HANDLES(k));
		int handles = lua_gettop(L);
		lua_getiuservalue(L, 2, TL_SUV_VALUES(k));
		int values = lua_gettop(L);
		for (int i = 1; i <= su->handles[k]; ++i) {
			if (lua_rawgeti(L, handles, i) == LUA_TUSERDATA) {
				const tl_handle *h = lua_touserdata(L, -1);
				if (tl_handle_valid(h, (tl_type)k)) {
					lua_rawseti(L, cache, h->index1);
					continue;
				}
			}
			lua_pop(L, 1);
		}
		int stride = value_stride(k);
		for (int v = 0; v < su->values[k]; ++v) {
			int at = v * stride;
			lua_rawgeti(L, values, at + 1);
			lua_Integer pos = lua_tointeger(L, -1);
			lua_pop(L, 1);
			if (lua_rawgeti(L, handles, pos) != LUA_TUSERDATA) {
				lua_pop(L, 1);
				continue;
			}
			int hidx = lua_gettop(L);
			for (int j = 0; j < value_count(k); ++j) {
				lua_rawgeti(L, values, at + 2 + j);
				lua_setiuservalue(L, hidx, TL_UV_USER + j);
			}
			/* drops the values again if a finalizer destroyed the object */
			tl_anchor(L, hidx, (tl_type)k);
			lua_settop(L, values);
		}
		lua_settop(L, cache - 1);
	}
	return 0;
}

/* The error for a status of tb_world_restore or tb_snapshot_load that is a
 * host's limit, naming it as creating too many would. */
static const char *limit_text(lua_State *L, tb_status st, const tb_world_limits *l)
{
	switch (st) {
		case TB_ERR_BODY_LIMIT: return lua_pushfstring(L, "too many bodies (max_bodies limit %d)", (int)l->max_bodies);
		case TB_ERR_SHAPE_LIMIT: return lua_pushfstring(L, "too many shapes (max_shapes limit %d)", (int)l->max_shapes);
		case TB_ERR_JOINT_LIMIT: return lua_pushfstring(L, "too many joints (max_joints limit %d)", (int)l->max_joints);
		case TB_ERR_CONTACT_LIMIT:
			return lua_pushfstring(L, "too many contacts (max_contacts limit %d)", (int)l->max_contacts);
		default: return tl_status_text(st);
	}
}

int tl_world_restore(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	tl_snapshot_ud *su = check_open(L, 2);
	if (rec->dispatching) return luaL_error(L, "cannot restore the world from inside an event handler");
	tl_check_unlocked(L, rec);
	if (rec->restoring) return luaL_error(L, "cannot restore the world while world:restore puts its handles back");
	if (su->rec != NULL && su->rec != rec) {
		return luaL_argerror(L, 2, "snapshot of another world (to move one, save it and read it back: "
		                           "world:restore(tumble.snapshot(snap:save())))");
	}
	lua_settop(L, 2);
	luaL_checkstack(L, 16, NULL);
	tb_status st = tb_world_restore(tl_world_of(rec), su->snap);
	if (st == TB_ERR_OUT_OF_MEMORY) {
		/* dropped snapshots may hold the memory; a finalizer may then close
		 * this one or destroy the world */
		lua_gc(L, LUA_GCCOLLECT, 0);
		if (tl_world_of(rec) == NULL) return luaL_error(L, "world was destroyed");
		if (su->snap == NULL) return luaL_error(L, "snapshot was closed");
		st = tb_world_restore(tl_world_of(rec), su->snap);
	}
	if (st != TB_OK) {
		if (st == TB_ERR_OUT_OF_MEMORY) return luaL_error(L, "out of memory restoring the snapshot");
		return luaL_error(L, "cannot restore the snapshot: %s", limit_text(L, st, &rec->limits));
	}
	/* the engine is the snapshot's now; the handles follow */
	rec->restoring = true;
	lua_pushcfunction(L, put_handles_back);
	lua_pushvalue(L, 1);
	lua_pushvalue(L, 2);
	int status = lua_pcall(L, 2, 0, 0);
	rec->restoring = false;
	if (status != LUA_OK) return lua_error(L);
	return 0;
}

/* ---------------- bytes ---------------- */

static int snapshot_save(lua_State *L)
{
	tl_snapshot_ud *su = check_open(L, 1);
	size_t n = tb_snapshot_save(su->snap, NULL, 0);
	luaL_Buffer b;
	char *p = luaL_buffinitsize(L, &b, n);
	/* the buffer's allocation may have run a finalizer that closed it */
	if (su->snap == NULL) return luaL_error(L, "snapshot was closed");
	size_t written = tb_snapshot_save(su->snap, p, n);
	if (written != n) return luaL_error(L, "snapshot changed while it was saved");
	luaL_pushresultsize(&b, n);
	return 1;
}

int tl_read_snapshot(lua_State *L)
{
	if (lua_type(L, 1) != LUA_TSTRING) return luaL_typeerror(L, 1, "string");
	lua_settop(L, 1);
	tl_snapshot_ud *su = new_snapshot(L);
	int sidx = lua_gettop(L);
	/* the memory and limits a world of this state gets */
	tb_world_def def = tb_default_world_def();
	tl_world_memory(L, &def);
	for (int attempt = 0;; ++attempt) {
		size_t len = 0;
		const char *bytes = lua_tolstring(L, 1, &len);
		tb_status st = TB_OK;
		tb_snapshot *snap = tb_snapshot_load(bytes, len, &def, &st);
		if (snap != NULL) {
			su->snap = snap;
			break;
		}
		if (st != TB_ERR_OUT_OF_MEMORY) return luaL_argerror(L, 1, limit_text(L, st, &def.limits));
		if (attempt > 0) return luaL_error(L, "out of memory reading the snapshot");
		lua_gc(L, LUA_GCCOLLECT, 0);
	}
	report_memory(L, NULL, su->snap);
	lua_settop(L, sidx);
	return 1;
}

/* ---------------- the type ---------------- */

static int snapshot_close(lua_State *L)
{
	tl_snapshot_ud *su = tl_testudata(L, 1, TL_SNAPSHOT);
	if (su == NULL || su->snap == NULL) return 0;
	tb_snapshot_free(su->snap);
	su->snap = NULL;
	/* the handles and values go with it (nothing here allocates) */
	for (int uv = TL_SUV_HANDLES(0); uv <= TL_SNAPSHOT_UV_COUNT; ++uv) {
		lua_pushnil(L);
		lua_setiuservalue(L, 1, uv);
	}
	memset(su->handles, 0, sizeof su->handles);
	memset(su->values, 0, sizeof su->values);
	return 0;
}

static int snapshot_index(lua_State *L)
{
	int p;
	tl_snapshot_ud *su = tl_index_property(L, &tl_snapshot_spec, sizeof *su, &p);
	if (su == NULL) return 1;
	if (p == P_valid) {
		lua_pushboolean(L, su->snap != NULL);
		return 1;
	}
	if (su->snap == NULL) return luaL_error(L, "snapshot was closed");
	tb_counters c = tb_snapshot_get_counters(su->snap);
	switch (p) {
		case P_bytes: lua_pushinteger(L, (lua_Integer)tb_snapshot_get_allocated_bytes(su->snap)); break;
		case P_step_count: lua_pushinteger(L, c.step_count); break;
		case P_body_count: lua_pushinteger(L, c.body_count); break;
		default: lua_pushnil(L); break;
	}
	return 1;
}

/* Every property of a Snapshot is read-only: this only raises the error. */
static int snapshot_newindex(lua_State *L)
{
	int p;
	const char *key;
	tl_newindex_property(L, &tl_snapshot_spec, sizeof(tl_snapshot_ud), &p, &key);
	return 0;
}

static int snapshot_tostring(lua_State *L)
{
	tl_snapshot_ud *su = check_snapshot(L, 1);
	if (su->snap == NULL) {
		lua_pushliteral(L, "Snapshot(closed)");
	} else {
		tb_counters c = tb_snapshot_get_counters(su->snap);
		lua_pushfstring(L, "Snapshot(step %d, %d bodies%s)", c.step_count, c.body_count,
		                su->rec == NULL ? ", read from bytes" : "");
	}
	return 1;
}

static const luaL_Reg snapshot_methods[] = {
	{"save", snapshot_save},
	{NULL, NULL},
};

static const luaL_Reg snapshot_meta[] = {
	{"__gc", snapshot_close},
	{"__close", snapshot_close},
	{"__tostring", snapshot_tostring},
	{NULL, NULL},
};

const tl_spec tl_snapshot_spec = {
	.type = TL_SNAPSHOT,
	.count = P_COUNT,
	.names = snapshot_names,
	.flags = snapshot_flags,
	.methods = snapshot_methods,
	.meta = snapshot_meta,
	.index = snapshot_index,
	.newindex = snapshot_newindex,
};

void tl_open_snapshot(lua_State *L)
{
	tl_new_type(L, &tl_snapshot_spec);
}
