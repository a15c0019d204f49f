/* tumble: the World type, the module table and the host interface (tumble_lua.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_internal.h"

/* Settings first (they are also the constructor's options), then read-only values. */
enum {
	S_GRAVITY,
	S_SUBSTEPS,
	S_CONTACT_HERTZ,
	S_CONTACT_DAMPING,
	S_JOINT_HERTZ,
	S_JOINT_DAMPING,
	S_MAX_PUSH_SPEED,
	S_RESTITUTION_THRESHOLD,
	S_HIT_THRESHOLD,
	S_MAX_LINEAR_SPEED,
	S_TIME_TO_SLEEP,
	S_WARM_STARTING,
	S_POSITION_CORRECTION,
	S_SLEEPING,
	S_CONTINUOUS,
	S_MOTION,
	S_COUNT,
	P_VALID = S_COUNT,
	P_BODY_COUNT,
	P_AWAKE_BODY_COUNT,
	P_SHAPE_COUNT,
	P_JOINT_COUNT,
	P_CONTACT_COUNT,
	P_STEP_COUNT,
	P_DISPATCH_MS,
};

static const char *const world_props[] = {
	"gravity", "substeps", "contact_hertz", "contact_damping_ratio", "joint_hertz", "joint_damping_ratio",
	"max_push_speed", "restitution_threshold", "hit_threshold", "max_linear_speed", "time_to_sleep",
	"warm_starting", "position_correction", "sleeping", "continuous", "motion",
	/* read-only */
	"valid", "body_count", "awake_body_count", "shape_count", "joint_count", "contact_count", "step_count",
	"dispatch_ms", NULL};

/* The settings alone, for the constructor's option check. */
static const char *const world_options[] = {
	"gravity", "substeps", "contact_hertz", "contact_damping_ratio", "joint_hertz", "joint_damping_ratio",
	"max_push_speed", "restitution_threshold", "hit_threshold", "max_linear_speed", "time_to_sleep",
	"warm_starting", "position_correction", "sleeping", "continuous", "motion", NULL};

static void apply_setting(lua_State *L, tb_world_def *d, int s, int idx, const tl_where *w)
{
	switch (s) {
		case S_GRAVITY: d->gravity = tl_vec2(L, idx, w, true); break;
		case S_SUBSTEPS: d->substeps = tl_int_range(L, idx, w, 1, 64); break;
		case S_CONTACT_HERTZ: d->contact_hertz = tl_nonneg(L, idx, w); break;
		case S_CONTACT_DAMPING: d->contact_damping_ratio = tl_nonneg(L, idx, w); break;
		case S_JOINT_HERTZ: d->joint_hertz = tl_nonneg(L, idx, w); break;
		case S_JOINT_DAMPING: d->joint_damping_ratio = tl_nonneg(L, idx, w); break;
		case S_MAX_PUSH_SPEED: d->max_contact_push_speed = tl_nonneg(L, idx, w); break;
		case S_RESTITUTION_THRESHOLD: d->restitution_threshold = tl_nonneg(L, idx, w); break;
		case S_HIT_THRESHOLD: d->hit_event_threshold = tl_nonneg(L, idx, w); break;
		case S_MAX_LINEAR_SPEED: d->max_linear_speed = tl_positive(L, idx, w); break;
		case S_TIME_TO_SLEEP: d->time_to_sleep = tl_nonneg(L, idx, w); break;
		case S_WARM_STARTING: d->enable_warm_starting = tl_bool(L, idx, w); break;
		case S_POSITION_CORRECTION: d->enable_position_correction = tl_bool(L, idx, w); break;
		case S_SLEEPING: d->enable_sleep = tl_bool(L, idx, w); break;
		case S_CONTINUOUS: d->enable_continuous = tl_bool(L, idx, w); break;
		case S_MOTION: d->enable_motion = tl_bool(L, idx, w); break;
		default: break;
	}
}

static void push_setting(lua_State *L, const tb_world_def *d, int s)
{
	switch (s) {
		case S_GRAVITY: tl_push_vec2(L, d->gravity); break;
		case S_SUBSTEPS: lua_pushinteger(L, d->substeps); break;
		case S_CONTACT_HERTZ: tl_push_number(L, d->contact_hertz); break;
		case S_CONTACT_DAMPING: tl_push_number(L, d->contact_damping_ratio); break;
		case S_JOINT_HERTZ: tl_push_number(L, d->joint_hertz); break;
		case S_JOINT_DAMPING: tl_push_number(L, d->joint_damping_ratio); break;
		case S_MAX_PUSH_SPEED: tl_push_number(L, d->max_contact_push_speed); break;
		case S_RESTITUTION_THRESHOLD: tl_push_number(L, d->restitution_threshold); break;
		case S_HIT_THRESHOLD: tl_push_number(L, d->hit_event_threshold); break;
		case S_MAX_LINEAR_SPEED: tl_push_number(L, d->max_linear_speed); break;
		case S_TIME_TO_SLEEP: tl_push_number(L, d->time_to_sleep); break;
		case S_WARM_STARTING: lua_pushboolean(L, d->enable_warm_starting); break;
		case S_POSITION_CORRECTION: lua_pushboolean(L, d->enable_position_correction); break;
		case S_SLEEPING: lua_pushboolean(L, d->enable_sleep); break;
		case S_CONTINUOUS: lua_pushboolean(L, d->enable_continuous); break;
		case S_MOTION: lua_pushboolean(L, d->enable_motion); break;
		default: lua_pushnil(L); break;
	}
}

/* ---------------- lifetime ---------------- */

static void world_close(lua_State *L, tl_world_ud *ud)
{
	tl_world_record *rec = ud->rec;
	if (rec == NULL) return;
	ud->rec = NULL;
	if (rec->world != NULL) {
		tb_destroy_world(rec->world);
		rec->world = NULL;
	}
	for (int k = 0; k < TL_KIND_COUNT; ++k) {
		luaL_unref(L, LUA_REGISTRYINDEX, rec->cache[k]);
		rec->cache[k] = LUA_NOREF;
	}
	luaL_unref(L, LUA_REGISTRYINDEX, rec->holder);
	rec->holder = LUA_NOREF;
	tl_record_release(rec);
}

static int world_gc(lua_State *L)
{
	world_close(L, tl_check_world_ud(L, 1));
	return 0;
}

/* The limits the host gave tumble_lua_set_world_limits, a userdata in the
 * registry under this key's address: Lua code cannot reach it (without the
 * debug library) and tumble.world has no option for it. */
static const char world_limits_key = 0;

void tumble_lua_set_world_limits(lua_State *L, const tb_world_limits *limits)
{
	if (limits == NULL) {
		lua_pushnil(L);
	} else {
		tb_world_limits *copy = lua_newuserdatauv(L, sizeof *copy, 0);
		*copy = *limits;
	}
	lua_rawsetp(L, LUA_REGISTRYINDEX, &world_limits_key);
}

/* Every world's memory comes from the Lua state's own allocator, so a host
 * that caps its Lua memory caps the engine's too (the World's __gc destroys
 * the world before the state closes). */
static void world_memory(lua_State *L, tb_world_def *def)
{
	void *ud = NULL;
	def->alloc = lua_getallocf(L, &ud);
	def->alloc_ud = ud;
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &world_limits_key) == LUA_TUSERDATA)
		def->limits = *(const tb_world_limits *)lua_touserdata(L, -1);
	lua_pop(L, 1);
}

/* tumble.world{ settings } */
static int tumble_world(lua_State *L)
{
	tb_world_def def = tb_default_world_def();
	if (!lua_isnoneornil(L, 1)) {
		luaL_checktype(L, 1, LUA_TTABLE);
		tl_check_options(L, 1, world_options, 0);
		for (int s = 0; s < S_COUNT; ++s) {
			if (tl_opt(L, 1, world_props[s])) {
				apply_setting(L, &def, s, -1, TL_FIELD(1, world_props[s]));
				lua_pop(L, 1);
			}
		}
	}
	/* the userdata owns the record before anything else can fail, so __gc
	 * always finds a consistent state */
	tl_world_ud *ud = lua_newuserdatauv(L, sizeof *ud, TL_WORLD_UV_COUNT);
	ud->rec = NULL;
	lua_rawgetp(L, LUA_REGISTRYINDEX, &tl_mt_key[TL_WORLD]);
	lua_setmetatable(L, -2);
	for (int i = 1; i <= TL_WORLD_UV_COUNT; ++i) {
		lua_newtable(L);
		lua_setiuservalue(L, -2, i);
	}
	tl_world_record *rec = tl_record_new(L);
	ud->rec = rec;
	rec->refs = 1;
	tl_record_open(L, rec);
	world_memory(L, &def);
	rec->world = tb_create_world(&def);
	if (rec->world == NULL) luaL_error(L, "could not create the world (out of memory)");
	lua_rawgeti(L, LUA_REGISTRYINDEX, rec->holder);
	lua_pushvalue(L, -2);
	lua_rawseti(L, -2, 1);
	lua_pop(L, 1);
	return 1;
}

/* ---------------- properties ---------------- */

static int world_index(lua_State *L)
{
	if (lua_type(L, 1) != LUA_TUSERDATA || !lua_getmetatable(L, 1) || !lua_rawequal(L, -1, lua_upvalueindex(2))) {
		return luaL_typeerror(L, 1, "World");
	}
	lua_pushvalue(L, 2);
	if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNUMBER) return 1;
	int p = (int)lua_tointeger(L, -1) - 1;
	tl_world_ud *ud = lua_touserdata(L, 1);
	if (p == P_VALID) {
		lua_pushboolean(L, ud->rec != NULL && ud->rec->world != NULL);
		return 1;
	}
	if (ud->rec == NULL || ud->rec->world == NULL) return luaL_error(L, "world was destroyed");
	tb_world *w = ud->rec->world;
	if (p < S_COUNT) {
		tb_world_def d = tb_world_get_def(w);
		push_setting(L, &d, p);
		return 1;
	}
	if (p == P_DISPATCH_MS) {
		lua_pushnumber(L, ud->rec->last_dispatch_ms);
		return 1;
	}
	tb_counters c = tb_world_get_counters(w);
	switch (p) {
		case P_BODY_COUNT: lua_pushinteger(L, c.body_count); break;
		case P_AWAKE_BODY_COUNT: lua_pushinteger(L, c.awake_body_count); break;
		case P_SHAPE_COUNT: lua_pushinteger(L, c.shape_count); break;
		case P_JOINT_COUNT: lua_pushinteger(L, c.joint_count); break;
		case P_CONTACT_COUNT: lua_pushinteger(L, c.touching_contact_count); break;
		case P_STEP_COUNT: lua_pushinteger(L, c.step_count); break;
		default: lua_pushnil(L); break;
	}
	return 1;
}

static int world_newindex(lua_State *L)
{
	if (lua_type(L, 1) != LUA_TUSERDATA || !lua_getmetatable(L, 1) || !lua_rawequal(L, -1, lua_upvalueindex(2))) {
		return luaL_typeerror(L, 1, "World");
	}
	lua_pop(L, 1);
	const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
	lua_pushvalue(L, 2);
	int t = lua_rawget(L, lua_upvalueindex(1));
	if (key == NULL || t == LUA_TNIL) return luaL_error(L, "World has no property '%s'", luaL_tolstring(L, 2, NULL));
	if (t == LUA_TFUNCTION) return luaL_error(L, "cannot assign method '%s' of World", key);
	int p = (int)lua_tointeger(L, -1) - 1;
	lua_pop(L, 1);
	if (p >= S_COUNT) return luaL_error(L, "cannot assign read-only property '%s' of World", key);
	tl_world_ud *ud = lua_touserdata(L, 1);
	if (ud->rec == NULL || ud->rec->world == NULL) return luaL_error(L, "world was destroyed");
	tb_world_def d = tb_world_get_def(ud->rec->world);
	apply_setting(L, &d, p, 3, TL_PROP("World", key));
	tb_status st = tb_world_set_def(ud->rec->world, &d);
	if (st != TB_OK) return luaL_error(L, "cannot set World.%s (%s)", key, tl_status_text(st));
	return 0;
}

static int world_tostring(lua_State *L)
{
	tl_world_ud *ud = tl_check_world_ud(L, 1);
	if (ud->rec == NULL || ud->rec->world == NULL) {
		lua_pushliteral(L, "World(destroyed)");
	} else {
		tb_counters c = tb_world_get_counters(ud->rec->world);
		lua_pushfstring(L, "World(%d bodies)", c.body_count);
	}
	return 1;
}

/* ---------------- methods ---------------- */

static int world_step(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	if (rec->dispatching) return luaL_error(L, "cannot step the world from inside an event handler");
	float dt = tl_range(L, 2, TL_ARG(2), 0.0, 1.0, "[0, 1]");
	if (tb_world_is_locked(rec->world)) return luaL_error(L, "world is locked");
	tb_world_step(rec->world, dt);
	uint32_t issues = tb_world_get_step_issues(rec->world);
	tl_dispatch(L, rec);
	/* the world stays usable; the script learns what the step left out */
	if (issues & TB_STEP_OUT_OF_MEMORY)
		return luaL_error(L, "out of memory in world:step (some contacts, sensor overlaps or events were left out)");
	if (issues & TB_STEP_CONTACT_LIMIT)
		return luaL_error(L, "too many contacts in world:step (the world's max_contacts limit): some touching "
		                     "shapes got none");
	return 0;
}

static int world_on(lua_State *L)
{
	tl_check_world(L, 1);
	int ev = tl_enum(L, 2, TL_ARG(2), tl_event_names);
	tl_check_function_or_nil(L, 3, TL_ARG(3));
	lua_settop(L, 3);
	lua_getiuservalue(L, 1, TL_WUV_HANDLERS);
	lua_pushvalue(L, 3);
	lua_rawseti(L, -2, ev + 1);
	return 0;
}

/* Iterator over a snapshot of ids: objects destroyed during the loop are skipped. */
typedef struct id_snapshot {
	int count, next;
	tl_type type;
	int32_t index1[]; /* count pairs: index1, generation */
} id_snapshot;

static int snapshot_next(lua_State *L)
{
	id_snapshot *s = lua_touserdata(L, lua_upvalueindex(1));
	tl_world_record *rec = tl_check_world(L, lua_upvalueindex(2));
	while (s->next < s->count) {
		int i = s->next++;
		tl_push_handle(L, rec, s->type, s->index1[2 * i], (uint32_t)s->index1[2 * i + 1], false);
		if (!lua_isnil(L, -1)) return 1;
		lua_pop(L, 1);
	}
	return 0;
}

static int push_snapshot_iterator(lua_State *L, tl_world_record *rec, tl_type type)
{
	int n = type == TL_BODY ? tb_world_get_bodies(rec->world, NULL, 0) : tb_world_get_joints(rec->world, NULL, 0);
	/* ids are two 32-bit words for either kind */
	void *ids = tl_scratch(L, rec, (size_t)(n > 0 ? n : 1) * 8);
	if (type == TL_BODY) {
		n = tb_world_get_bodies(rec->world, ids, n);
	} else {
		n = tb_world_get_joints(rec->world, ids, n);
	}
	id_snapshot *s = lua_newuserdatauv(L, sizeof *s + (size_t)(n > 0 ? n : 1) * 8, 0);
	s->count = n;
	s->next = 0;
	s->type = type;
	memcpy(s->index1, ids, (size_t)n * 8);
	lua_pushvalue(L, 1);
	lua_pushcclosure(L, snapshot_next, 2);
	return 1;
}

static int world_bodies(lua_State *L)
{
	return push_snapshot_iterator(L, tl_check_world(L, 1), TL_BODY);
}

static int world_joints(lua_State *L)
{
	return push_snapshot_iterator(L, tl_check_world(L, 1), TL_JOINT);
}

static int world_destroy_all(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	tl_forget_all(L, rec);
	tb_world_clear(rec->world);
	return 0;
}

static int world_destroy(lua_State *L)
{
	tl_world_ud *ud = tl_check_world_ud(L, 1);
	world_close(L, ud);
	return 0;
}

static int world_hash(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	char buf[32];
	snprintf(buf, sizeof buf, "%016" PRIx64, tb_world_hash(rec->world));
	lua_pushstring(L, buf);
	return 1;
}

static void set_number(lua_State *L, const char *name, double v)
{
	lua_pushnumber(L, v);
	lua_setfield(L, -2, name);
}

static void set_integer(lua_State *L, const char *name, lua_Integer v)
{
	lua_pushinteger(L, v);
	lua_setfield(L, -2, name);
}

static int world_profile(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	tb_profile p = tb_world_get_profile(rec->world);
	lua_createtable(L, 0, 16);
	set_number(L, "step", p.step);
	set_number(L, "pairs", p.pairs);
	set_number(L, "collide", p.collide);
	set_number(L, "solve", p.solve);
	set_number(L, "prepare", p.prepare);
	set_number(L, "integrate", p.integrate);
	set_number(L, "warm_start", p.warm_start);
	set_number(L, "solve_contacts", p.solve_contacts);
	set_number(L, "relax", p.relax);
	set_number(L, "restitution", p.restitution);
	set_number(L, "store", p.store);
	set_number(L, "continuous", p.continuous);
	set_number(L, "sensors", p.sensors);
	set_number(L, "sleep", p.sleep);
	set_number(L, "dispatch", rec->last_dispatch_ms);
	return 1;
}

static int world_counters(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	tb_counters c = tb_world_get_counters(rec->world);
	lua_createtable(L, 0, 10);
	set_integer(L, "body_count", c.body_count);
	set_integer(L, "awake_body_count", c.awake_body_count);
	set_integer(L, "shape_count", c.shape_count);
	set_integer(L, "contact_count", c.contact_count);
	set_integer(L, "touching_contact_count", c.touching_contact_count);
	set_integer(L, "joint_count", c.joint_count);
	set_integer(L, "island_count", c.island_count);
	set_integer(L, "tree_height", c.tree_height);
	set_integer(L, "static_tree_height", c.static_tree_height);
	set_integer(L, "step_count", c.step_count);
	return 1;
}

/* world:contacts() -> array of { a = shape, b = shape, contact = Contact } (touching pairs) */
static int world_contacts(lua_State *L)
{
	tl_world_record *rec = tl_check_world(L, 1);
	int n = tb_world_get_contacts(rec->world, NULL, 0);
	tb_contact_data *data = tl_scratch(L, rec, sizeof(tb_contact_data) * (size_t)(n > 0 ? n : 1));
	n = tb_world_get_contacts(rec->world, data, n);
	lua_createtable(L, n, 0);
	for (int i = 0; i < n; ++i) {
		/* copy: pushing handles may run the collector, never the engine, but keep
		 * the scratch buffer out of reach of any nested query anyway */
		tb_contact_data c = ((tb_contact_data *)rec->scratch)[i];
		lua_createtable(L, 0, 3);
		tl_push_handle(L, rec, TL_SHAPE, c.shape_a.index1, c.shape_a.generation, true);
		lua_setfield(L, -2, "a");
		tl_push_handle(L, rec, TL_SHAPE, c.shape_b.index1, c.shape_b.generation, true);
		lua_setfield(L, -2, "b");
		tl_push_manifold_contact(L, &c.manifold);
		lua_setfield(L, -2, "contact");
		lua_rawseti(L, -2, i + 1);
	}
	return 1;
}

static const luaL_Reg world_methods[] = {
	{"step", world_step},
	{"body", tl_world_body},
	{"joint", tl_world_joint},
	{"on", world_on},
	{"bodies", world_bodies},
	{"joints", world_joints},
	{"destroy_all", world_destroy_all},
	{"destroy", world_destroy},
	{"hash", world_hash},
	{"profile", world_profile},
	{"counters", world_counters},
	{"contacts", world_contacts},
	{"raycast", tl_world_raycast},
	{"raycast_all", tl_world_raycast_all},
	{"query_box", tl_world_query_box},
	{"query_point", tl_world_query_point},
	{"overlap", tl_world_overlap},
	{NULL, NULL},
};

const tl_type_info tl_world_info = {world_props, S_COUNT, world_methods, world_options, NULL};

void tl_open_world(lua_State *L)
{
	tl_new_metatable(L, TL_WORLD);
	tl_set_accessors(L, -1, world_props, world_methods, world_index, world_newindex);
	lua_pushcfunction(L, world_gc);
	lua_setfield(L, -2, "__gc");
	lua_pushcfunction(L, world_tostring);
	lua_setfield(L, -2, "__tostring");
	lua_pop(L, 1);
}

/* ---------------- the module ---------------- */

static const luaL_Reg module_functions[] = {
	{"world", tumble_world},
	{"collide", tl_collide},
	{"_c_reference_scene", tl_c_reference_scene},
	{"_c_default_settings", tl_c_default_settings},
	{"_introspect", tl_introspect},
	{NULL, NULL},
};
const luaL_Reg *const tl_module_functions = module_functions;

int luaopen_tumble(lua_State *L)
{
	/* opening twice (host global + require) must not replace the metatables:
	 * handles of the first opening would stop passing the type checks */
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &tl_mt_key[TL_WORLD]) == LUA_TNIL) {
		tl_open_world(L);
		tl_open_body(L);
		tl_open_shape(L);
		tl_open_joint(L);
		tl_open_events(L);
	}
	lua_pop(L, 1);
	luaL_newlib(L, module_functions);
	lua_pushliteral(L, TUMBLE_VERSION);
	lua_setfield(L, -2, "version");
	return 1;
}

/* ---------------- host interface ---------------- */

tb_world *tumble_lua_check_world(lua_State *L, int idx)
{
	return tl_check_world(L, idx)->world;
}

tb_world *tumble_lua_to_world(lua_State *L, int idx)
{
	if (lua_type(L, idx) != LUA_TUSERDATA || !lua_getmetatable(L, idx)) return NULL;
	lua_rawgetp(L, LUA_REGISTRYINDEX, &tl_mt_key[TL_WORLD]);
	bool ok = lua_rawequal(L, -1, -2);
	lua_pop(L, 2);
	if (!ok) return NULL;
	tl_world_ud *ud = lua_touserdata(L, idx);
	return ud->rec != NULL ? ud->rec->world : NULL;
}

static tl_world_record *host_record(lua_State *L, int world_idx)
{
	if (tumble_lua_to_world(L, world_idx) == NULL) return NULL;
	return ((tl_world_ud *)lua_touserdata(L, world_idx))->rec;
}

void tumble_lua_push_body(lua_State *L, int world_idx, tb_body_id id)
{
	tl_push_handle(L, host_record(L, world_idx), TL_BODY, id.index1, id.generation, false);
}

void tumble_lua_push_shape(lua_State *L, int world_idx, tb_shape_id id)
{
	tl_push_handle(L, host_record(L, world_idx), TL_SHAPE, id.index1, id.generation, false);
}

void tumble_lua_push_joint(lua_State *L, int world_idx, tb_joint_id id)
{
	tl_push_handle(L, host_record(L, world_idx), TL_JOINT, id.index1, id.generation, false);
}

double tumble_lua_last_dispatch_ms(lua_State *L, int world_idx)
{
	tl_world_record *rec = host_record(L, world_idx);
	return rec != NULL ? rec->last_dispatch_ms : 0.0;
}
