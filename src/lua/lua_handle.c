/* tumble: metatables, the module's list of live worlds, world records and
 * handles (identity, user values, anchors). Lifetimes are described in
 * lua_internal.h. */
#include <stdlib.h>
#include <string.h>

#include "lua_internal.h"

static const char *const kind_words[TL_KIND_COUNT] = {"body", "shape", "joint"};
static const int user_value_counts[TL_KIND_COUNT] = {2, TL_SHAPE_UV_COUNT, 2};

/* Addresses used as registry keys: the metatables, the names, the module list
 * and the record's metatable. */
static char mt_key[TL_TYPE_COUNT];
static char names_key[TL_TYPE_COUNT];
static char module_key;
static char record_mt_key;

/* ---------------- metatables ---------------- */

/* a Mover (lua_mover.c) is a type, an owner and an id */
typedef struct tl_mover_size { const tl_names *type; tl_world_record *rec; int32_t index1; uint32_t generation; } tl_mover_size;
static const size_t udata_sizes[TL_TYPE_COUNT] = {sizeof(tl_handle),      sizeof(tl_handle),  sizeof(tl_handle),
                                                  sizeof(tl_world_ud),    sizeof(tl_contact), sizeof(tl_snapshot_ud),
                                                  sizeof(tl_mover_size)};

void tl_push_metatable(lua_State *L, tl_type type)
{
	lua_rawgetp(L, LUA_REGISTRYINDEX, &mt_key[type]);
}

const tl_names *tl_type_names_of(lua_State *L, tl_type type)
{
	lua_rawgetp(L, LUA_REGISTRYINDEX, &names_key[type]);
	const tl_names *n = lua_touserdata(L, -1);
	lua_pop(L, 1);
	return n;
}

void *tl_testudata(lua_State *L, int idx, tl_type type)
{
	const tl_names *const *p = lua_touserdata(L, idx);
	if (p == NULL || lua_rawlen(L, idx) != udata_sizes[type]) return NULL;
	return *p == tl_type_names_of(L, type) ? (void *)p : NULL;
}

void *tl_checkudata(lua_State *L, int idx, tl_type type)
{
	void *p = tl_testudata(L, idx, type);
	if (p == NULL) luaL_typeerror(L, idx, tl_type_names[type]);
	return p;
}

void tl_newindex_error(lua_State *L, const tl_spec *spec, const void *self, int p)
{
	const char *type = tl_type_names[spec->type];
	if (self == NULL) luaL_typeerror(L, 1, type);
	if (p < 0 || (p < spec->count && !(spec->flags[p] & TL_PROP))) {
		const char *key = luaL_tolstring(L, 2, NULL);
		/* a writable property or a method: what an assignment could have meant */
		const char *hint = tl_suggest_member(L, spec, lua_type(L, 2) == LUA_TSTRING ? key : NULL, TL_WRITABLE, 0, NULL);
		luaL_error(L, "%s has no property '%s'%s%s", type, key, *hint ? "; " : "", hint);
	}
	const char *key = lua_tostring(L, 2);
	if (p >= spec->count) luaL_error(L, "cannot assign method '%s' of %s", key, type);
	luaL_error(L, "cannot assign read-only property '%s' of %s", key, type);
	abort(); /* luaL_error does not return */
}

static void add_name(lua_State *L, tl_names *n, int anchors, int *count, const char *name, int entry)
{
	/* the string object, kept alive by the anchors table so its address stays
	 * the key: every later "name" of a script is that object (short strings
	 * are interned) */
	if (strlen(name) > 40) luaL_error(L, "tumble: name '%s' is not a short string", name);
	lua_pushstring(L, name);
	const void *key = lua_topointer(L, -1);
	lua_rawseti(L, anchors, ++*count);
	if (*count >= TL_NAME_SLOTS / 2) luaL_error(L, "tumble: too many names in a type");
	unsigned i = tl_name_slot(key);
	while (n->slot[i].key != NULL) {
		if (n->slot[i].key == key) luaL_error(L, "tumble: name '%s' listed twice", name);
		i = (i + 1) & (TL_NAME_SLOTS - 1);
	}
	n->slot[i].key = key;
	n->slot[i].entry = entry;
}

void tl_new_type(lua_State *L, const tl_spec *spec)
{
	lua_newtable(L);
	int mt = lua_gettop(L);
	if (spec->meta != NULL) luaL_setfuncs(L, spec->meta, 0);
	lua_pushstring(L, tl_type_names[spec->type]);
	lua_setfield(L, mt, "__name");
	/* getmetatable(v) gives the type's name: a script cannot reach __gc or
	 * __index to call them by hand or replace them for every object */
	lua_pushstring(L, tl_type_names[spec->type]);
	lua_setfield(L, mt, "__metatable");

	tl_names *n = lua_newuserdatauv(L, sizeof *n, 1);
	memset(n, 0, sizeof *n);
	n->spec = spec;
	lua_newtable(L);
	int anchors = lua_gettop(L);
	int count = 0;
	for (int e = 0; e < spec->count; ++e) add_name(L, n, anchors, &count, spec->names[e], e);
	for (int m = 0; spec->methods != NULL && spec->methods[m].name != NULL; ++m) {
		add_name(L, n, anchors, &count, spec->methods[m].name, spec->count + m);
	}
	lua_setiuservalue(L, -2, 1);
	/* the names userdata is the one upvalue of __index and __newindex (and so
	 * kept alive by the metatable) */
	lua_pushvalue(L, -1);
	lua_pushcclosure(L, spec->index, 1);
	lua_setfield(L, mt, "__index");
	lua_pushvalue(L, -1);
	lua_pushcclosure(L, spec->newindex, 1);
	lua_setfield(L, mt, "__newindex");
	lua_rawsetp(L, LUA_REGISTRYINDEX, &names_key[spec->type]);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &mt_key[spec->type]);
}

/* ---------------- the module's list of live worlds ---------------- */

static void core_free(tl_world_core *c)
{
	if (c->world != NULL) tb_destroy_world(c->world);
	c->world = NULL;
	void *buffers[] = {c->begin, c->end, c->hit, c->sensor_begin, c->sensor_end, c->scratch, c->shape_anchors, c->breaks};
	size_t sizes[] = {sizeof *c->begin * (size_t)c->begin_capacity,
	                  sizeof *c->end * (size_t)c->end_capacity,
	                  sizeof *c->hit * (size_t)c->hit_capacity,
	                  sizeof *c->sensor_begin * (size_t)c->sensor_begin_capacity,
	                  sizeof *c->sensor_end * (size_t)c->sensor_end_capacity,
	                  c->scratch_capacity,
	                  sizeof *c->shape_anchors * (size_t)c->shape_anchors_capacity,
	                  sizeof *c->breaks * (size_t)c->break_capacity};
	for (int i = 0; i < 8; ++i) {
		if (buffers[i] != NULL) c->alloc(c->alloc_ud, buffers[i], sizes[i], 0);
	}
	c->begin = NULL;
	c->end = NULL;
	c->hit = NULL;
	c->sensor_begin = c->sensor_end = NULL;
	c->breaks = NULL;
	c->break_count = c->break_capacity = 0;
	c->scratch = NULL;
	c->shape_anchors = NULL;
	c->shape_anchors_capacity = 0;
	c->begin_capacity = c->end_capacity = c->hit_capacity = 0;
	c->sensor_begin_capacity = c->sensor_end_capacity = 0;
	c->scratch_capacity = 0;
	c->begin_count = c->end_count = c->hit_count = c->sensor_begin_count = c->sensor_end_count = 0;
}

/* At lua_close (or if the list is ever collected): every world still alive. */
static int module_gc(lua_State *L)
{
	lua_getiuservalue(L, 1, 1);
	if (lua_type(L, -1) != LUA_TTABLE) return 0;
	lua_pushnil(L);
	while (lua_next(L, -2) != 0) {
		tl_world_core *c = lua_touserdata(L, -1);
		if (c != NULL) core_free(c);
		lua_pop(L, 1);
	}
	return 0;
}

void tl_open_module(lua_State *L)
{
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &module_key) != LUA_TNIL) {
		lua_pop(L, 1);
		return;
	}
	lua_pop(L, 1);
	lua_newuserdatauv(L, 1, 1);
	lua_newtable(L);
	lua_setiuservalue(L, -2, 1);
	lua_createtable(L, 0, 2);
	lua_pushcfunction(L, module_gc);
	lua_setfield(L, -2, "__gc");
	lua_pushboolean(L, false);
	lua_setfield(L, -2, "__metatable");
	lua_setmetatable(L, -2);
	lua_rawsetp(L, LUA_REGISTRYINDEX, &module_key);
}

/* Pushes the module's table of live cores. */
static void push_module_list(lua_State *L)
{
	lua_rawgetp(L, LUA_REGISTRYINDEX, &module_key);
	if (lua_type(L, -1) == LUA_TUSERDATA) {
		lua_getiuservalue(L, -1, 1);
		lua_remove(L, -2);
	}
}

/* ---------------- world records ---------------- */

void tl_world_close(lua_State *L, tl_world_record *rec)
{
	tl_world_core *c = rec->core;
	if (c == NULL || c->world == NULL) return;
	core_free(c);
	/* nothing below allocates: safe inside a finalizer */
	push_module_list(L);
	if (lua_type(L, -1) == LUA_TTABLE) {
		lua_pushnil(L);
		lua_rawsetp(L, -2, c);
	}
	lua_pop(L, 1);
	for (int k = 0; k < TL_KIND_COUNT; ++k) {
		luaL_unref(L, LUA_REGISTRYINDEX, rec->cache[k]);
		rec->cache[k] = LUA_NOREF;
	}
	luaL_unref(L, LUA_REGISTRYINDEX, rec->holder);
	rec->holder = LUA_NOREF;
}

/* The record was collected (the World and every handle are gone). */
static int record_gc(lua_State *L)
{
	tl_world_record *rec = lua_touserdata(L, 1);
	if (rec != NULL) tl_world_close(L, rec);
	return 0;
}

tl_world_record *tl_world_new(lua_State *L, const tb_world_def *def)
{
	/* each userdata gets its metatable before anything else can fail, so every
	 * finalizer finds a consistent state */
	tl_world_ud *ud = lua_newuserdatauv(L, sizeof *ud, TL_WORLD_UV_COUNT);
	ud->type = tl_type_names_of(L, TL_WORLD);
	ud->rec = NULL;
	tl_push_metatable(L, TL_WORLD);
	lua_setmetatable(L, -2);
	int world = lua_gettop(L);

	tl_world_record *rec = lua_newuserdatauv(L, sizeof *rec, 1);
	memset(rec, 0, sizeof *rec);
	for (int k = 0; k < TL_KIND_COUNT; ++k) rec->cache[k] = LUA_NOREF;
	rec->holder = LUA_NOREF;
	for (int t = 0; t < TL_TYPE_COUNT; ++t) rec->names[t] = tl_type_names_of(L, (tl_type)t);
	tl_world_core *c = lua_newuserdatauv(L, sizeof *c, 0);
	memset(c, 0, sizeof *c);
	c->alloc = lua_getallocf(L, &c->alloc_ud);
	lua_setiuservalue(L, -2, 1);
	rec->core = c;
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &record_mt_key) == LUA_TNIL) {
		lua_pop(L, 1);
		lua_createtable(L, 0, 2);
		lua_pushcfunction(L, record_gc);
		lua_setfield(L, -2, "__gc");
		lua_pushboolean(L, false);
		lua_setfield(L, -2, "__metatable");
		lua_pushvalue(L, -1);
		lua_rawsetp(L, LUA_REGISTRYINDEX, &record_mt_key);
	}
	lua_setmetatable(L, -2);
	int record = lua_gettop(L);
	lua_pushvalue(L, record);
	lua_setiuservalue(L, world, TL_WUV_RECORD);
	ud->rec = rec;
	for (int i = 1; i < TL_WUV_RECORD; ++i) {
		lua_newtable(L);
		lua_setiuservalue(L, world, i);
	}

	/* the weak tables: a cache per kind (whose [0] is the record, for the handles
	 * made from it), and the holder of the World userdata */
	for (int k = 0; k <= TL_KIND_COUNT; ++k) {
		lua_newtable(L);
		lua_createtable(L, 0, 1);
		lua_pushliteral(L, "v");
		lua_setfield(L, -2, "__mode");
		lua_setmetatable(L, -2);
		if (k < TL_KIND_COUNT) {
			lua_pushvalue(L, record);
			lua_rawseti(L, -2, 0);
			rec->cache[k] = luaL_ref(L, LUA_REGISTRYINDEX);
		} else {
			lua_pushvalue(L, world);
			lua_rawseti(L, -2, 1);
			rec->holder = luaL_ref(L, LUA_REGISTRYINDEX);
		}
	}

	/* listed before the world exists: the list entry (not the world) is what may
	 * fail to allocate */
	push_module_list(L);
	lua_getiuservalue(L, record, 1);
	lua_rawsetp(L, -2, c);
	lua_pop(L, 1);
	rec->limits = def->limits;
	rec->record_sites = tl_sites_on(L);
	c->world = tb_create_world(def);
	if (c->world == NULL) luaL_error(L, "out of memory creating the world");
	/* a script's first checkpoint costs what the next ones do */
	tb_world_keep_snapshot_spares(c->world, tl_worlds_keep_spares(L));
	lua_settop(L, world);
	return rec;
}

tl_world_ud *tl_check_world_ud(lua_State *L, int idx)
{
	return tl_checkudata(L, idx, TL_WORLD);
}

tl_world_record *tl_check_world(lua_State *L, int idx)
{
	tl_world_ud *ud = tl_check_world_ud(L, idx);
	if (ud->rec == NULL || tl_world_of(ud->rec) == NULL) luaL_error(L, "world was destroyed");
	return ud->rec;
}

void tl_push_world(lua_State *L, tl_world_record *rec)
{
	if (tl_world_of(rec) == NULL) luaL_error(L, "world was destroyed");
	lua_rawgeti(L, LUA_REGISTRYINDEX, rec->holder);
	int t = lua_rawgeti(L, -1, 1);
	lua_remove(L, -2);
	/* the World userdata may be awaiting its finalizer (weak entries are cleared
	 * first): for the script it is gone */
	if (t != LUA_TUSERDATA) luaL_error(L, "world was destroyed");
}

/* ---------------- handles ---------------- */

tl_handle *tl_check_handle(lua_State *L, int idx, tl_type type)
{
	return tl_checkudata(L, idx, type);
}

bool tl_handle_valid(const tl_handle *h, tl_type type)
{
	tb_world *w = tl_world_of(h->rec);
	if (w == NULL) return false;
	switch (type) {
		case TL_BODY: return tb_body_is_valid(w, tl_body_id(h));
		case TL_SHAPE: return tb_shape_is_valid(w, tl_shape_id(h));
		case TL_JOINT: return tb_joint_is_valid(w, tl_joint_id(h));
		default: return false;
	}
}

void tl_dead(lua_State *L, const tl_handle *h, tl_type type)
{
	if (tl_world_of(h->rec) == NULL) luaL_error(L, "world was destroyed");
	luaL_error(L, "%s was destroyed", kind_words[type]);
	abort(); /* not reached */
}

tb_world *tl_handle_world(lua_State *L, const tl_handle *h, tl_type type)
{
	if (!tl_handle_valid(h, type)) tl_dead(L, h, type);
	return tl_world_of(h->rec);
}

tl_handle *tl_check_live(lua_State *L, int idx, tl_type type)
{
	tl_handle *h = tl_check_handle(L, idx, type);
	tl_handle_world(L, h, type);
	return h;
}

static bool id_valid(tl_world_record *rec, tl_type type, int32_t index1, uint32_t generation)
{
	tl_handle h = {rec->names[type], rec, index1, generation, false};
	return tl_handle_valid(&h, type);
}

void tl_push_handle(lua_State *L, tl_world_record *rec, tl_type type, int32_t index1, uint32_t generation,
                    bool stale_ok)
{
	if (rec == NULL || tl_world_of(rec) == NULL || index1 <= 0) {
		lua_pushnil(L);
		return;
	}
	bool valid = id_valid(rec, type, index1, generation);
	if (!valid && !stale_ok) {
		lua_pushnil(L);
		return;
	}
	lua_rawgeti(L, LUA_REGISTRYINDEX, rec->cache[type]);
	int cache = lua_gettop(L);
	if (lua_rawgeti(L, cache, index1) == LUA_TUSERDATA) {
		tl_handle *h = lua_touserdata(L, -1);
		if (h->generation == generation) {
			lua_remove(L, cache);
			return;
		}
	}
	lua_pop(L, 1);
	/* may run a finalizer, which may destroy the object or the world: harmless,
	 * the handle is made all the same (and then reports it), rec is pinned */
	tl_handle *h = lua_newuserdatauv(L, sizeof *h, user_value_counts[type]);
	h->type = rec->names[type];
	h->rec = rec;
	h->index1 = index1;
	h->generation = generation;
	h->anchored = false;
	tl_push_metatable(L, type);
	lua_setmetatable(L, -2);
	lua_rawgeti(L, cache, 0);
	lua_setiuservalue(L, -2, TL_UV_RECORD);
	/* a stale id must not take the slot from the live object that may reuse it */
	if (valid) {
		lua_pushvalue(L, -1);
		lua_rawseti(L, cache, index1);
	}
	lua_remove(L, cache);
}

/* Pushes the World userdata's user value uv, or returns false (nothing pushed)
 * if the World userdata is no longer reachable. */
static bool push_world_uv(lua_State *L, tl_world_record *rec, int uv)
{
	if (tl_world_of(rec) == NULL) return false;
	lua_rawgeti(L, LUA_REGISTRYINDEX, rec->holder);
	if (lua_rawgeti(L, -1, 1) != LUA_TUSERDATA) {
		lua_pop(L, 2);
		return false;
	}
	lua_getiuservalue(L, -1, uv);
	lua_replace(L, -3);
	lua_pop(L, 1);
	return true;
}

static void clear_user_values(lua_State *L, int idx, tl_type type)
{
	/* the record (slot 1) stays: the handle still reports the dead object */
	for (int i = TL_UV_USER; i <= user_value_counts[type]; ++i) {
		lua_pushnil(L);
		lua_setiuservalue(L, idx, i);
	}
}

void tl_anchor(lua_State *L, int idx, tl_type type)
{
	idx = lua_absindex(L, idx);
	tl_handle *h = lua_touserdata(L, idx);
	if (!tl_handle_valid(h, type)) {
		/* died meanwhile (a finalizer): nothing to keep, and nothing may stay */
		clear_user_values(L, idx, type);
		return;
	}
	if (h->anchored) return;
	if (!push_world_uv(L, h->rec, TL_WUV_ANCHORS(type))) luaL_error(L, "world was destroyed");
	tl_world_core *c = h->rec->core;
	if (type == TL_SHAPE) TL_RESERVE(L, c, c->shape_anchors, c->shape_anchors_capacity, h->index1 + 1);
	lua_pushvalue(L, idx);
	lua_rawseti(L, -2, h->index1);
	lua_pop(L, 1);
	h->anchored = true;
	if (type == TL_SHAPE) c->shape_anchors[h->index1] = h->generation | TL_ANCHORED;
}

void tl_forget(lua_State *L, tl_world_record *rec, tl_type type, int32_t index1, uint32_t generation)
{
	if (tl_world_of(rec) == NULL || index1 <= 0) return;
	lua_rawgeti(L, LUA_REGISTRYINDEX, rec->cache[type]);
	if (lua_rawgeti(L, -1, index1) == LUA_TUSERDATA) {
		tl_handle *h = lua_touserdata(L, -1);
		if (h->generation == generation) clear_user_values(L, lua_gettop(L), type);
	}
	lua_pop(L, 2);
	if (push_world_uv(L, rec, TL_WUV_ANCHORS(type))) {
		if (lua_rawgeti(L, -1, index1) == LUA_TUSERDATA) {
			tl_handle *h = lua_touserdata(L, -1);
			if (h->generation == generation) {
				clear_user_values(L, lua_gettop(L), type);
				h->anchored = false;
				tl_world_core *c = rec->core;
				if (type == TL_SHAPE && index1 < c->shape_anchors_capacity) c->shape_anchors[index1] = 0;
				lua_pushnil(L);
				lua_rawseti(L, -3, index1);
			}
		}
		lua_pop(L, 2);
	}
}

void tl_forget_all(lua_State *L, tl_world_record *rec)
{
	lua_rawgeti(L, LUA_REGISTRYINDEX, rec->holder);
	if (lua_rawgeti(L, -1, 1) != LUA_TUSERDATA) {
		lua_pop(L, 2);
		return;
	}
	int world = lua_gettop(L);
	for (int k = 0; k < TL_KIND_COUNT; ++k) {
		/* cleared in place, in one pass (clearing fields during lua_next is
		 * allowed): a new table would allocate, and so could run a finalizer
		 * between the engine's clear and ours */
		lua_getiuservalue(L, world, TL_WUV_ANCHORS(k));
		lua_pushnil(L);
		while (lua_next(L, -2) != 0) {
			if (lua_type(L, -1) == LUA_TUSERDATA) {
				clear_user_values(L, lua_gettop(L), (tl_type)k);
				((tl_handle *)lua_touserdata(L, -1))->anchored = false;
			}
			lua_pop(L, 1);
			lua_pushvalue(L, -1);
			lua_pushnil(L);
			lua_rawset(L, -4);
		}
		lua_pop(L, 1);
	}
	lua_pop(L, 2);
	tl_world_core *c = rec->core;
	if (c->shape_anchors != NULL) memset(c->shape_anchors, 0, sizeof *c->shape_anchors * (size_t)c->shape_anchors_capacity);
}

int tl_handle_eq(lua_State *L)
{
	/* the cache makes one userdata per object, so two userdata are equal only when
	 * a stale uncached handle meets the cached one of the same (dead) object */
	bool eq = false;
	for (int k = 0; k < TL_KIND_COUNT && !eq; ++k) {
		const tl_handle *a = tl_testudata(L, 1, (tl_type)k);
		const tl_handle *b = a != NULL ? tl_testudata(L, 2, (tl_type)k) : NULL;
		if (a != NULL) {
			eq = b != NULL && a->rec == b->rec && a->index1 == b->index1 && a->generation == b->generation;
			break;
		}
	}
	lua_pushboolean(L, eq);
	return 1;
}

/* ---------------- buffers ---------------- */

void *tl_push_buffer(lua_State *L, size_t elem_size, int n)
{
	if (n < 0) n = 0;
	return lua_newuserdatauv(L, elem_size * (size_t)(n > 0 ? n : 1), 0);
}

void *tl_grow(lua_State *L, tl_world_core *core, void *ptr, size_t elem_size, int *capacity, int needed)
{
	int cap = *capacity > 0 ? *capacity : 16;
	while (cap < needed) {
		if (cap > INT32_MAX / 2) luaL_error(L, "not enough memory");
		cap *= 2;
	}
	void *p = core->alloc(core->alloc_ud, ptr, elem_size * (size_t)*capacity, elem_size * (size_t)cap);
	if (p == NULL) luaL_error(L, "not enough memory");
	*capacity = cap;
	return p;
}
